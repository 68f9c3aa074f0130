package specs_test

import (
	"fmt"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// QueueIn is an operation on a FIFO queue: Enq(V), or Deq() when Deq is set.
type QueueIn struct {
	Deq bool
	V   int
}

// QueueOut is a queue's answer: the value dequeued, or Empty.
type QueueOut struct {
	Empty bool
	V     int
}

// Queue is a FIFO queue of at most 8 values. A state must be comparable (the checker
// memoizes states and compares them with ==), so it is an array and a length, not a slice.
type Queue struct {
	Items [8]int
	N     int
}

// QueueSpec is the sequential queue a replicated one should behave like.
func QueueSpec() specs.Spec[Queue, QueueIn, QueueOut] {
	return specs.Spec[Queue, QueueIn, QueueOut]{
		Name: "queue",
		Init: func() Queue { return Queue{} },
		Apply: func(q Queue, in QueueIn) (Queue, QueueOut) {
			switch {
			case !in.Deq && q.N < len(q.Items):
				q.Items[q.N] = in.V // q is a copy: Apply stays pure
				q.N++
				return q, QueueOut{}
			case !in.Deq: // full: a harness enqueues at most 8 values
				return q, QueueOut{}
			case q.N == 0:
				return q, QueueOut{Empty: true}
			}
			v := q.Items[0]
			copy(q.Items[:], q.Items[1:q.N])
			q.N--
			q.Items[q.N] = 0 // equal queues must be equal states
			return q, QueueOut{V: v}
		},
		DescribeInput: func(in QueueIn) string {
			if in.Deq {
				return "Deq()"
			}
			return fmt.Sprintf("Enq(%d)", in.V)
		},
		DescribeOutput: func(in QueueIn, out QueueOut) string {
			switch {
			case !in.Deq:
				return "ok"
			case out.Empty:
				return "empty"
			}
			return fmt.Sprint(out.V)
		},
	}
}

// A specification of your own: a FIFO queue, checked on two histories of two clients.
func Example_queue() {
	enq := histories.Operation[QueueIn, QueueOut]{Client: 0, Input: QueueIn{V: 1}, Call: 0, Return: 2}
	deq := histories.Operation[QueueIn, QueueOut]{Client: 1, Input: QueueIn{Deq: true}, Output: QueueOut{V: 1}, Call: 1, Return: 3}
	fmt.Println("Deq() overlaps Enq(1):", wgl.Check(QueueSpec(), []histories.Operation[QueueIn, QueueOut]{enq, deq}).Verdict)
	deq.Call, deq.Return = 0, 1
	enq.Call, enq.Return = 2, 3
	fmt.Println("Deq() returns before Enq(1) begins:", wgl.Check(QueueSpec(), []histories.Operation[QueueIn, QueueOut]{deq, enq}).Verdict)
	// Output:
	// Deq() overlaps Enq(1): linearizable
	// Deq() returns before Enq(1) begins: not-linearizable
}
