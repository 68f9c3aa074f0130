package ravelcli

import "fmt"

// reductionNote warns, for a run of the DPOR family, that the reduction may miss
// canonical histories — and so violations — that exhaustive search finds: under the
// `actor` and `key` relations (a response at one agent and an invocation at another are
// independent, yet their order decides whether the two operations overlap:
// register-buggy 2r1w, `ravel deps`: dpor under either finds 5 of its 32 canonical
// histories and none of its 12 violations); under any relation but those Ravel ships —
// the `marks` experiment (docs/dependence.md: dpor-source with it misses register-buggy
// 1r1w's only violation) or one a user registered — since only `history` is known to
// keep every canonical history, and `ravel deps` is where a relation is checked; and
// under TransDPOR, IRed and LiViola, DS2's heuristics, whatever the relation
// (dpor.History's contract). The samplers get no note: the relation only shapes how they
// draw schedules (random ignores it), and a sample promises no coverage to lose.
// Empty when the run keeps every canonical history, or samples.
func reductionNote(r checkReport) string {
	if isSampler(r.Strategy) {
		return ""
	}
	heuristic := r.Strategy == "transdpor" || r.Strategy == "ired" || r.Strategy == "liviola"
	var why string // what the relation may lose, "" for history (or none)
	switch r.Dependence {
	case "", "history":
	case "actor", "key":
		why = fmt.Sprintf("under --dependence %s a response at one agent and an invocation at another are independent, though their order decides whether the operations overlap", r.Dependence)
	default:
		why = fmt.Sprintf("--dependence %s is not one Ravel knows to keep every canonical history (only history is: ravel deps checks a relation against exhaustive search)", r.Dependence)
	}
	switch {
	case why != "" && heuristic:
		return fmt.Sprintf("note: %s, and %s is one of DS2's heuristic reductions: this search may miss histories and violations that exhaustive search finds (--strategy dpor --dependence history keeps every one)", why, r.Strategy)
	case why != "":
		return fmt.Sprintf("note: %s: this search may miss histories and violations (--dependence history, this strategy's default, keeps every one)", why)
	case heuristic:
		return fmt.Sprintf("note: %s is one of DS2's heuristic reductions: it may miss histories and violations that exhaustive search finds (--strategy dpor keeps every one)", r.Strategy)
	}
	return ""
}

// cutReductionHint tells a user of the DPOR family whose schedules the depth budget cut
// that the reduction covers fewer orders of the steps before the cut than exhaustive
// search would: it keeps one order of each class of whole schedules, and two orders of a
// prefix that differ only in steps the cut left out of the class look alike to it
// (register-buggy 2r2w, --state-caching on --max-depth 10: 70 non-linearizable
// canonical histories of cut schedules against exhaustive search's 205). Empty unless
// the run cut schedules under a reduction. The samplers carry a dependence too (to draw
// or count their runs), but reduce nothing: theirs is samplerCutHint.
func cutReductionHint(r checkReport) string {
	if r.CutSchedules == 0 || r.Dependence == "" || isSampler(r.Strategy) {
		return ""
	}
	return "hint: the DPOR family reduces by orders of whole schedules: with schedules cut at the depth budget it explores fewer orders of the steps before the cut than exhaustive search; raise --max-depth until nothing is cut, or bound the search with --strategy exhaustive"
}
