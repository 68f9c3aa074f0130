package ravelcli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/specs"
)

// QueueOp is an operation on a FIFO queue: {"op":"enq","value":1} or {"op":"deq"}.
type QueueOp struct {
	Op    string `json:"op"`
	Value int    `json:"value,omitempty"`
}

// QueueOut is what the queue answers: the value dequeued, or empty.
type QueueOut struct {
	Value int  `json:"value,omitempty"`
	Empty bool `json:"empty,omitempty"`
}

// queueState holds up to four values (a state must be comparable: an array, not a
// slice). A fifth enqueue runs off the array and panics.
type queueState struct {
	items [4]int
	n     int
}

// QueueSpec is the queue's sequential specification.
func QueueSpec() specs.Spec[queueState, QueueOp, QueueOut] {
	return specs.Spec[queueState, QueueOp, QueueOut]{
		Name: "queue",
		Init: func() queueState { return queueState{} },
		Apply: func(s queueState, in QueueOp) (queueState, QueueOut) {
			if in.Op == "enq" {
				s.items[s.n] = in.Value
				s.n++
				return s, QueueOut{}
			}
			if s.n == 0 {
				return s, QueueOut{Empty: true}
			}
			v := s.items[0]
			copy(s.items[:], s.items[1:s.n])
			s.n--
			s.items[s.n] = 0 // equal queues, equal states
			return s, QueueOut{Value: v}
		},
		DescribeInput: func(in QueueOp) string {
			if in.Op == "enq" {
				return fmt.Sprintf("Enq(%d)", in.Value)
			}
			return "Deq()"
		},
		DescribeOutput: func(in QueueOp, out QueueOut) string {
			switch {
			case in.Op == "enq":
				return "ok"
			case out.Empty:
				return "empty"
			}
			return fmt.Sprint(out.Value)
		},
	}
}

// A user's command checks recorded histories of an object of their own once it knows
// the specification; its main is
//
//	func main() {
//		ravelcli.Main(ravelcli.Spec(QueueSpec(), formats.JSONCodec[QueueOp, QueueOut]("queue")))
//	}
//
// and `lincheck --spec queue FILE…` reads FILEs in Ravel's format, each input and output
// written as encoding/json writes QueueOp and QueueOut.
func ExampleSpec() {
	queue := ravelcli.Spec(QueueSpec(), formats.JSONCodec[QueueOp, QueueOut]("queue"))
	dir, _ := os.MkdirTemp("", "queue")
	defer os.RemoveAll(dir)
	history := filepath.Join(dir, "history.jsonl")
	os.WriteFile(history, []byte(`{"client":0,"input":{"op":"enq","value":1},"call":1,"return":2}
{"client":0,"input":{"op":"enq","value":2},"call":3,"return":4}
{"client":1,"input":{"op":"deq"},"output":{"value":2},"call":5,"return":6}
`), 0o644)
	var out bytes.Buffer
	code := ravelcli.Run([]string{"lincheck", "--spec", "queue", history}, &out, os.Stderr, queue)
	verdict, why, _ := strings.Cut(out.String(), "\n") // the verdict's line names the file and the time
	fmt.Printf("exit %d: %s\n%s", code, strings.Fields(verdict)[1], why)
	// Output:
	// exit 1: not-linearizable
	//   the longest linearizable prefix found has 2 of the 3 operations, in linearization order,
	//   then the operation that cannot follow it:
	//       1  c0  Enq(1)  [1…2]  ├──┤             ok
	//       2  c0  Enq(2)  [3…4]        ├──┤       ok
	//       ✗  c1  Deq()   [5…6]              ├──┤ 2   but the specification answers 1 here
}
