#!/bin/bash
for sys in register-buggy adr-buggy paxos-buggy chord; do
 for s in rapos pos pctcp tapct dpos; do
  echo "== $sys $s"
  farm-bench -n 5 --timeout 300 --vs "/tmp/i11_ravel check $sys --harness 2r2w --strategy random --max-schedules 10000 --quiet" -- /tmp/i11_ravel check $sys --harness 2r2w --strategy $s --max-schedules 10000 --quiet 2>&1 | grep "A/B cpu\|A/B wall"
 done
done
