// Package histories turns executions into the histories clients saw: operations with
// their invocation and response, in chronological or canonical form.
//
// An invocation is recorded when a request is delivered to the system and a response
// when an actor sends it; the real-time order of operations is
// the order of those events.
package histories

// Operation is one completed or pending operation of a history: who invoked it, with
// what input, what it returned, and when.
//
// Call and Return are points in one time line (event positions, or timestamps of a
// recorded history); an operation A precedes B in real time when A.Return < B.Call.
// An Open operation was never answered: its outcome is unknown, it may have taken effect
// anywhere after Call or not at all, and Return and Output are ignored.
type Operation[I, O any] struct {
	Client int
	Input  I
	Output O
	Call   int64
	Return int64
	Open   bool
}

// Precedes reports whether a returned before b was invoked.
func Precedes[I, O any](a, b Operation[I, O]) bool {
	return !a.Open && a.Return < b.Call
}
