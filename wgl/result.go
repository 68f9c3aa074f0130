package wgl

// Verdict is the outcome of a linearizability check. The zero value is Unknown, so that
// a Result nobody filled in never claims anything.
type Verdict uint8

// The verdicts of a check.
const (
	// Unknown means the check did not finish (its context was done) or could not start
	// (the history or specification is invalid; Result.Err says which).
	Unknown Verdict = iota
	// Linearizable means some order of the operations respects real time and the
	// specification.
	Linearizable
	// NotLinearizable means no such order exists.
	NotLinearizable
)

// String returns "linearizable", "not-linearizable" or "unknown", the spelling used in
// reports and in porcupine's expected.txt.
func (v Verdict) String() string {
	switch v {
	case Linearizable:
		return "linearizable"
	case NotLinearizable:
		return "not-linearizable"
	default:
		return "unknown"
	}
}

// Result is what a check found. New fields may be added (for instance the longest
// linearizable prefix of a failing history); callers should not construct Results.
type Result struct {
	// Verdict is the outcome.
	Verdict Verdict

	// Partition is the key of the partition that is not linearizable, when the
	// specification is partitioned and Verdict is NotLinearizable. When several
	// partitions fail it is the smallest key in string order, so the result does not
	// depend on which worker finished first. It is "" otherwise.
	Partition string

	// Witness is a linearization when Verdict is Linearizable: indices into the checked
	// operations, in linearization order. Every operation that is not Open appears
	// exactly once; an Open operation appears once if the linearization includes it
	// (it took effect) and not at all otherwise. Replaying the witness through the
	// specification (per partition, for a partitioned one) gives every recorded output,
	// and an operation never comes after one that it precedes in real time. Nil
	// otherwise.
	Witness []int

	// Err says why the Verdict is Unknown: the context's error, or what is wrong with the
	// specification or the history. Nil when the Verdict is not Unknown.
	Err error
}
