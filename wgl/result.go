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

// Result is what a check found. New fields may be added; callers should not construct
// Results.
type Result struct {
	// Verdict is the outcome.
	Verdict Verdict

	// Partition is the key of the partition that is not linearizable, when the
	// specification is partitioned and Verdict is NotLinearizable; "" otherwise. The
	// partitions are searched in rounds of growing step budgets, so that a violation that
	// is quick to find is found quickly however long the other partitions would take;
	// when several partitions fail, the one reported is the first in key order among
	// those that failed in the earliest round. Which partitions fail within a budget
	// does not depend on timing, so neither does the report.
	Partition string

	// Witness is a linearization when Verdict is Linearizable: indices into the checked
	// operations, in linearization order. Every operation that is not Open appears
	// exactly once; an Open operation appears once if the linearization includes it
	// (it took effect) and not at all otherwise. Replaying the witness through the
	// specification (per partition, for a partitioned one) gives every recorded output,
	// and an operation never comes after one that it precedes in real time. Nil
	// otherwise.
	Witness []int

	// Prefix and Stuck explain a NotLinearizable verdict, within the failing partition
	// (see Partition). Prefix is the longest linearizable prefix the search found:
	// indices into the checked operations, in linearization order, each giving its
	// recorded output when replayed from the initial state (an Open one, any output) in
	// an order that respects real time. Stuck is the operation that cannot be
	// linearized after it: the completed operation with the earliest return among those
	// not in Prefix, which must come next or after operations called before it returned,
	// and which, applied in the state Prefix leads to, gives another output than the
	// one recorded — and no operation linearized there instead led to a longer prefix.
	// Prefix is nil and Stuck is -1 for the other verdicts.
	Prefix []int
	Stuck  int

	// Err says why the Verdict is Unknown: the context's error, ErrMemLimit, what is
	// wrong with the specification or the history, a *SpecPanicError, an
	// *UncomparableStateError or a *SpecMutationError. Nil when the Verdict is not Unknown.
	Err error
}
