package live

import (
	"context"
	"encoding/binary"
	"os/exec"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/wgl"
)

func TestDecodeRaft(t *testing.T) {
	// A raftpb.Message encoded by hand: type MsgApp (3), to 0xabc, from 7, term 2,
	// logTerm 2, index 10, two entries, commit 9, a fixed64 and a fixed32 field to skip,
	// reject true.
	var b []byte
	varint := func(field, v uint64) {
		b = binary.AppendUvarint(b, field<<3)
		b = binary.AppendUvarint(b, v)
	}
	bytesField := func(field uint64, p []byte) {
		b = binary.AppendUvarint(b, field<<3|2)
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	varint(1, 3)
	varint(2, 0xabc)
	varint(3, 7)
	varint(4, 2)
	varint(5, 2)
	varint(6, 10)
	bytesField(7, []byte{0x08, 0x01})
	bytesField(7, []byte{})
	varint(8, 9)
	b = binary.AppendUvarint(b, 11<<3|1)
	b = append(b, 1, 2, 3, 4, 5, 6, 7, 8)
	b = binary.AppendUvarint(b, 12<<3|5)
	b = append(b, 1, 2, 3, 4)
	varint(10, 1)
	got, err := DecodeRaft(b)
	if err != nil {
		t.Fatal(err)
	}
	want := RaftMessage{Type: "MsgApp", To: 0xabc, From: 7, Term: 2, LogTerm: 2, Index: 10, Commit: 9, Entries: 2, Reject: true}
	if got != want {
		t.Fatalf("DecodeRaft = %+v, want %+v", got, want)
	}
	if _, err := DecodeRaft(b[:len(b)-1]); err == nil {
		t.Error("truncated message decoded without error")
	}
	if _, err := DecodeRaft([]byte{0x3a, 0x05, 0x01}); err == nil {
		t.Error("a length beyond the message decoded without error")
	}
}

// TestEtcd runs examples/etcd/ravel.yaml when etcd is installed: three members behind the
// interceptors, a few hundred operations, crashes, restarts, partitions and drops injected
// by the scheduler, the history checked linearizable, no process left.
func TestEtcd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	if _, err := exec.LookPath("etcd"); err != nil {
		t.Skip("etcd is not on PATH (apt-get install -y etcd-server etcd-client); skipping the etcd test")
	}
	cfg, err := LoadConfig("../examples/etcd/ravel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Output = t.TempDir()
	cfg.Iterations = 1
	var log strings.Builder
	rep, err := Run(context.Background(), cfg, &log)
	t.Log(log.String())
	if err != nil {
		t.Fatal(err)
	}
	ir := rep.Iterations[0]
	if ir.Verdict != wgl.Linearizable {
		t.Errorf("etcd's history: %s (%v)\n%s", ir.Verdict, ir.Result.Err, RenderViolation(ir.History, ir.Result))
	}
	if ir.Ops < 200 {
		t.Errorf("%d operations in the history, want a few hundred", ir.Ops)
	}
	if ir.Net.Delivered < 100 || ir.Net.Refused == 0 {
		t.Errorf("messages %+v: want many delivered and the streams refused", ir.Net)
	}
	if ir.Faults.Crash == 0 || ir.Faults.Restart == 0 || ir.Faults.Partition == 0 {
		t.Errorf("faults %+v: want a crash, a restart and a partition", ir.Faults)
	}
	if len(ir.Leftover) > 0 || len(ir.Started) < 4 {
		t.Errorf("started %v, left alive %v: want the 3 members and a restart, none left", ir.Started, ir.Leftover)
	}
	// The sender of nearly every raft message is known (X-Server-From mapped to a node),
	// which partitions need; only those sent before the receiver's member ID was learned
	// may be anonymous.
	raft, known := 0, 0
	for _, st := range ir.Schedule.Steps {
		if strings.HasPrefix(st.Kind, "Msg") {
			raft++
			if st.From >= 0 && st.From < 3 && st.From != st.To {
				known++
			}
		}
	}
	if raft == 0 || known < raft*9/10 {
		t.Errorf("%d of %d raft messages have a known sender other than the receiver", known, raft)
	}
	t.Logf("etcd: %d ops (%d open), messages %+v, faults %+v, %s", ir.Ops, ir.Open, ir.Net, ir.Faults, ir.Duration)
}
