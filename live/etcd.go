package live

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/ravelmc/ravel/specs"
)

// raftTypes are raftpb.MessageType's names, by value (etcd 3.4).
var raftTypes = []string{"MsgHup", "MsgBeat", "MsgProp", "MsgApp", "MsgAppResp", "MsgVote", "MsgVoteResp",
	"MsgSnap", "MsgHeartbeat", "MsgHeartbeatResp", "MsgUnreachable", "MsgSnapStatus", "MsgCheckQuorum",
	"MsgTransferLeader", "MsgTimeoutNow", "MsgReadIndex", "MsgReadIndexResp", "MsgPreVote", "MsgPreVoteResp"}

// RaftMessage is what the etcd translator decodes of a raftpb.Message for its summary.
type RaftMessage struct {
	Type                         string
	To, From                     uint64
	Term, LogTerm, Index, Commit uint64
	Entries                      int
	Reject                       bool
}

// DecodeRaft decodes the fields of a raftpb.Message it summarizes (protobuf wire format:
// 1 type, 2 to, 3 from, 4 term, 5 logTerm, 6 index, 7 entries, 8 commit, 10 reject);
// other fields are skipped.
func DecodeRaft(b []byte) (RaftMessage, error) {
	var m RaftMessage
	m.Type = "?"
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return m, fmt.Errorf("raft message: bad field key")
		}
		b = b[n:]
		field, wire := key>>3, key&7
		switch wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return m, fmt.Errorf("raft message: bad varint in field %d", field)
			}
			b = b[n:]
			switch field {
			case 1:
				m.Type = "Msg" + strconv.FormatUint(v, 10)
				if v < uint64(len(raftTypes)) {
					m.Type = raftTypes[v]
				}
			case 2:
				m.To = v
			case 3:
				m.From = v
			case 4:
				m.Term = v
			case 5:
				m.LogTerm = v
			case 6:
				m.Index = v
			case 8:
				m.Commit = v
			case 10:
				m.Reject = v != 0
			}
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return m, fmt.Errorf("raft message: bad length in field %d", field)
			}
			b = b[n+int(l):]
			if field == 7 {
				m.Entries++
			}
		case 1:
			if len(b) < 8 {
				return m, fmt.Errorf("raft message: short fixed64")
			}
			b = b[8:]
		case 5:
			if len(b) < 4 {
				return m, fmt.Errorf("raft message: short fixed32")
			}
			b = b[4:]
		default:
			return m, fmt.Errorf("raft message: wire type %d", wire)
		}
	}
	return m, nil
}

// Etcd is the translator for etcd's peer traffic (3.4): the HTTP translator refusing the
// long-lived /raft/stream/* requests with 404, so that etcd sends every raft message as
// one POST /raft; the sender is the member named by X-Server-From, mapped to its node by
// the To field of the raft messages each interceptor sees; the raft message type, term,
// index and entries make the summary.
func Etcd() Translator {
	var mu sync.Mutex
	nodeOf := map[string]int{} // member ID (hex, as in X-Server-From) → node
	h := HTTP{
		Refuse: func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/raft/stream/") },
	}
	h.Sender = func(r *http.Request) int {
		mu.Lock()
		defer mu.Unlock()
		if i, ok := nodeOf[strings.ToLower(r.Header.Get("X-Server-From"))]; ok {
			return i
		}
		return -1
	}
	return etcdTranslator{h: h, learn: func(member uint64, node int) {
		mu.Lock()
		nodeOf[strconv.FormatUint(member, 16)] = node
		mu.Unlock()
	}}
}

type etcdTranslator struct {
	h     HTTP
	learn func(member uint64, node int)
}

// Serve implements Translator.
func (t etcdTranslator) Serve(ctx context.Context, nw *Network, to int, down net.Conn, dial func() (net.Conn, error)) {
	h := t.h
	h.Describe = func(r *http.Request, body []byte) (string, string) {
		kind := r.Method + " " + r.URL.Path
		if r.URL.Path != "/raft" {
			return kind, kind
		}
		m, err := DecodeRaft(body)
		if err != nil {
			return kind, kind + " (" + err.Error() + ")"
		}
		if m.To != 0 {
			t.learn(m.To, to)
		}
		sum := fmt.Sprintf("%s term=%d index=%d logterm=%d commit=%d", m.Type, m.Term, m.Index, m.LogTerm, m.Commit)
		if m.Entries > 0 {
			sum += fmt.Sprintf(" entries=%d", m.Entries)
		}
		if m.Reject {
			sum += " reject"
		}
		return m.Type, sum
	}
	h.Serve(ctx, nw, to, down, dial)
}

// EtcdClient performs the workload's operations through etcd's v3 JSON gateway on the
// client port: range for a read (linearizable by default), put for a write, and a
// transaction comparing the value for a compare-and-set. Values are decimal strings.
type EtcdClient struct {
	URLs []string
	HTTP *http.Client
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// Do implements Client.
func (e *EtcdClient) Do(ctx context.Context, node int, in Input) (Output, error) {
	key := b64("ravel/" + in.Key)
	switch in.In.Op {
	case specs.CASRead:
		var res struct {
			Kvs []struct {
				Value string `json:"value"`
			} `json:"kvs"`
		}
		if err := e.post(ctx, node, "/v3/kv/range", map[string]any{"key": key}, &res); err != nil {
			return Output{}, err
		}
		if len(res.Kvs) == 0 {
			return Output{OK: true, Absent: true}, nil
		}
		raw, err := base64.StdEncoding.DecodeString(res.Kvs[0].Value)
		if err != nil {
			return Output{}, fmt.Errorf("etcd: value: %w", err)
		}
		v, err := strconv.Atoi(string(raw))
		if err != nil {
			return Output{}, fmt.Errorf("etcd: value %q: %w", raw, err)
		}
		return Output{OK: true, Value: v}, nil
	case specs.CASWrite:
		err := e.post(ctx, node, "/v3/kv/put", map[string]any{"key": key, "value": b64(strconv.Itoa(in.In.A))}, nil)
		return Output{OK: err == nil}, err
	default:
		var res struct {
			Succeeded bool `json:"succeeded"`
		}
		req := map[string]any{
			"compare": []any{map[string]any{"key": key, "target": "VALUE", "result": "EQUAL", "value": b64(strconv.Itoa(in.In.A))}},
			"success": []any{map[string]any{"request_put": map[string]any{"key": key, "value": b64(strconv.Itoa(in.In.B))}}},
		}
		if err := e.post(ctx, node, "/v3/kv/txn", req, &res); err != nil {
			return Output{}, err
		}
		return Output{OK: res.Succeeded}, nil
	}
}

func (e *EtcdClient) post(ctx context.Context, node int, path string, body any, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", e.URLs[node]+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	rb, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("etcd %s: %s: %s", path, resp.Status, bytes.TrimSpace(rb))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(rb, out)
}
