// Command kvnode is a small replicated key-value service, Ravel's own test cluster for
// `ravel run`: node 0 is the primary, which applies every operation (read, write,
// compare-and-set on integer registers), keeps its state in its data directory and
// replicates each change to the backups in the background; the other nodes forward their
// clients' operations to the primary. Peers talk HTTP/1.1 and name themselves in the
// X-Ravel-From header.
//
// With -stale-reads a backup answers reads from its own copy instead of asking the
// primary: a real consistency bug (a read can miss a write that has already completed),
// which Ravel finds by delaying the replication messages.
//
//	kvnode -id 1 -client 127.0.0.1:7001 -peer 127.0.0.1:7101 \
//	    -peers http://127.0.0.1:7200,http://127.0.0.1:7201,http://127.0.0.1:7202 -data DIR
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Op is an operation on one key; Kind is "read", "write" or "cas".
type Op struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	A    int    `json:"a"` // written value, or the value a CAS expects
	B    int    `json:"b"` // the value a CAS writes
}

// Result is the answer to an Op: a read's value (Found false when never written), and
// OK for a write or a CAS that swapped.
type Result struct {
	OK    bool `json:"ok"`
	Found bool `json:"found"`
	Value int  `json:"value"`
}

// Entry is one key's replicated state; Seq orders the primary's changes.
type Entry struct {
	Seq   int64 `json:"seq"`
	Found bool  `json:"found"`
	Value int   `json:"value"`
}

type node struct {
	id     int
	peers  []string
	data   string
	stale  bool
	client *http.Client

	mu    sync.Mutex
	seq   int64
	state map[string]Entry

	backlog []chan Replicate // one queue per backup, on the primary
}

// Replicate carries one key's new state from the primary to a backup.
type Replicate struct {
	Key   string `json:"key"`
	Entry Entry  `json:"entry"`
}

func main() {
	id := flag.Int("id", 0, "this node's index (0 is the primary)")
	clientAddr := flag.String("client", "", "host:port of the client API")
	peerAddr := flag.String("peer", "", "host:port to listen on for peers")
	peers := flag.String("peers", "", "comma-separated base URLs of every node's peer API, by index")
	data := flag.String("data", ".", "data directory")
	stale := flag.Bool("stale-reads", false, "BUG: backups answer reads from their own copy")
	flag.Parse()
	n := &node{id: *id, peers: strings.Split(*peers, ","), data: *data, stale: *stale,
		client: &http.Client{Timeout: 2 * time.Second}, state: map[string]Entry{}}
	if *clientAddr == "" || *peerAddr == "" || *peers == "" || n.id < 0 || n.id >= len(n.peers) {
		fmt.Fprintln(os.Stderr, "kvnode: -client, -peer, -peers and an -id within -peers are required")
		os.Exit(2)
	}
	if err := n.load(); err != nil {
		log.Fatalf("kvnode %d: %v", n.id, err)
	}
	if n.id == 0 {
		for i := 1; i < len(n.peers); i++ {
			q := make(chan Replicate, 1024)
			n.backlog = append(n.backlog, q)
			go n.replicate(i, q)
		}
	}
	peerMux := http.NewServeMux()
	peerMux.HandleFunc("POST /op", n.handlePeerOp)
	peerMux.HandleFunc("POST /replicate", n.handleReplicate)
	clientMux := http.NewServeMux()
	clientMux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	clientMux.HandleFunc("POST /op", n.handleClientOp)
	errc := make(chan error, 2)
	go func() { errc <- http.ListenAndServe(*peerAddr, peerMux) }()
	go func() { errc <- http.ListenAndServe(*clientAddr, clientMux) }()
	log.Printf("kvnode %d: clients on %s, peers on %s, stale reads %v", n.id, *clientAddr, *peerAddr, n.stale)
	log.Fatal(<-errc)
}

func (n *node) statePath() string { return filepath.Join(n.data, "state.json") }

type persisted struct {
	Seq   int64            `json:"seq"`
	State map[string]Entry `json:"state"`
}

func (n *node) load() error {
	b, err := os.ReadFile(n.statePath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var p persisted
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("%s: %w", n.statePath(), err)
	}
	n.seq, n.state = p.Seq, p.State
	if n.state == nil {
		n.state = map[string]Entry{}
	}
	return nil
}

// saveLocked writes the state to disk before it is acknowledged (rename is atomic, and a
// SIGKILL does not lose the page cache).
func (n *node) saveLocked() error {
	b, err := json.Marshal(persisted{Seq: n.seq, State: n.state})
	if err != nil {
		return err
	}
	tmp := n.statePath() + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, n.statePath())
}

// apply performs op on the primary.
func (n *node) apply(op Op) (Result, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	e := n.state[op.Key]
	switch op.Kind {
	case "read":
		return Result{OK: true, Found: e.Found, Value: e.Value}, nil
	case "write":
	case "cas":
		if !e.Found || e.Value != op.A {
			return Result{}, nil
		}
		op.A = op.B
	default:
		return Result{}, fmt.Errorf("unknown operation %q", op.Kind)
	}
	n.seq++
	e = Entry{Seq: n.seq, Found: true, Value: op.A}
	n.state[op.Key] = e
	if err := n.saveLocked(); err != nil {
		return Result{}, err
	}
	for _, q := range n.backlog {
		select {
		case q <- Replicate{Key: op.Key, Entry: e}:
		default: // a backup that far behind is left behind
		}
	}
	return Result{OK: true}, nil
}

// replicate sends the changes to backup i in order, in the background.
func (n *node) replicate(i int, q chan Replicate) {
	for r := range q {
		b, _ := json.Marshal(r)
		n.post(i, "/replicate", b)
	}
}

func (n *node) post(to int, path string, body []byte) (*http.Response, error) {
	req, err := http.NewRequest("POST", n.peers[to]+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Ravel-From", strconv.Itoa(n.id))
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.client.Do(req)
	if err != nil {
		return nil, err
	}
	if path == "/replicate" {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return resp, nil
}

func (n *node) handleReplicate(w http.ResponseWriter, r *http.Request) {
	var rep Replicate
	if err := json.NewDecoder(r.Body).Decode(&rep); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if rep.Entry.Seq > n.state[rep.Key].Seq {
		n.state[rep.Key] = rep.Entry
		n.seq = max(n.seq, rep.Entry.Seq)
		if err := n.saveLocked(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func (n *node) handlePeerOp(w http.ResponseWriter, r *http.Request) {
	if n.id != 0 {
		http.Error(w, "not the primary", http.StatusMisdirectedRequest)
		return
	}
	n.serveOp(w, r)
}

func (n *node) handleClientOp(w http.ResponseWriter, r *http.Request) {
	n.serveOp(w, r)
}

func (n *node) serveOp(w http.ResponseWriter, r *http.Request) {
	var op Op
	if err := json.NewDecoder(r.Body).Decode(&op); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var res Result
	var err error
	switch {
	case n.id == 0:
		res, err = n.apply(op)
	case n.stale && op.Kind == "read":
		n.mu.Lock()
		e := n.state[op.Key]
		n.mu.Unlock()
		res = Result{OK: true, Found: e.Found, Value: e.Value}
	default:
		res, err = n.forward(op)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(res)
}

// forward asks the primary to perform op.
func (n *node) forward(op Op) (Result, error) {
	b, _ := json.Marshal(op)
	resp, err := n.post(0, "/op", b)
	if err != nil {
		return Result{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		return Result{}, fmt.Errorf("primary: %s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	var res Result
	err = json.NewDecoder(resp.Body).Decode(&res)
	return res, err
}
