#!/bin/sh
# node.sh NAME DATA_DIR CLIENT_PORT PEER_PORT PROXY_PORT INITIAL_CLUSTER
# One etcd member for `ravel run`: it listens for peers on its own port but advertises its
# interceptor's (PROXY_PORT), and every member gets the same INITIAL_CLUSTER of interceptor
# URLs, so member IDs agree. exec keeps the member the process Ravel started (and signals).
set -e
exec etcd --name "$1" --data-dir "$2" \
  --listen-client-urls "http://127.0.0.1:$3" --advertise-client-urls "http://127.0.0.1:$3" \
  --listen-peer-urls "http://127.0.0.1:$4" --initial-advertise-peer-urls "http://127.0.0.1:$5" \
  --initial-cluster "$6" --initial-cluster-state new --initial-cluster-token ravel \
  --log-level warn --logger zap
