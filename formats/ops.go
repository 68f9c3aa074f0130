package formats

import "github.com/ravelmc/ravel/histories"

// finishOps ends a recorded history: it removes the operations for which dropped is true
// (they failed, so they had no effect) and gives those still open the return time end,
// after every event of the file — an operation of unknown outcome may take effect at any
// time after its invocation, or never.
func finishOps[I, O any](ops []histories.Operation[I, O], dropped func(i int) bool, end int64) []histories.Operation[I, O] {
	kept := ops[:0]
	for i, op := range ops {
		if dropped(i) {
			continue
		}
		if op.Open {
			op.Return = end
		}
		kept = append(kept, op)
	}
	return kept
}
