package explorer

import (
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
)

// TestKeptCheckRunsChangeNothing: a step a context-sensitive sleep set's check ran from
// the top state, which the search then uses in place of running it (keepCheckRun), is
// the step the search would have run — the same next state, history events and effects,
// compared with a fresh run each time one is used — and stateful DPOR explores exactly
// the same search, counted the same, with and without them.
func TestKeptCheckRunsChangeNothing(t *testing.T) {
	used := 0
	rows := shortcutChangesNothing(t, &noKeepCheckRun, "keeping check runs", func(t *testing.T, on bool) {
		checkRunHook = nil
		if !on {
			return
		}
		checkRunHook = func(e *engine, d, k int, p *peek) {
			used++
			s := e.states[d]
			next, log, fail := e.x.step(s, e.idx[d][k], d, slices.Clip(e.log[:s.events]))
			if fail != nil || next == nil {
				t.Errorf("depth %d event %d: a fresh run failed where the check's did not", d, k)
				return
			}
			fresh := e.info(e.nodes[d].Enabled[k])
			if got, want := p.next.fingerprint(), next.fingerprint(); got != want {
				t.Errorf("depth %d event %d: the check's run reached %x, a fresh one %x", d, k, got, want)
			}
			if got, want := p.events, log[s.events:next.events]; !slices.EqualFunc(got, want, func(a, b histories.Event) bool {
				return a.Kind == b.Kind && a.Req == b.Req && a.OutputHash == b.OutputHash
			}) {
				t.Errorf("depth %d event %d: the check's run recorded %v, a fresh one %v", d, k, got, want)
			}
			if !sameStepInfo(&p.info, &fresh) {
				t.Errorf("depth %d event %d: the check's run did %+v, a fresh one %+v", d, k, p.info, fresh)
			}
		}
	})
	// The search must have used kept runs: a test of runs it never used passes vacuously.
	if used < 1000 {
		t.Errorf("the search used %d check runs over %d searches, want at least 1000", used, rows)
	}
	t.Logf("%d check runs used by the search, each compared with a fresh run, over %d searches", used, rows)
}

// sameStepInfo reports whether two runs of one step did the same: its event, what it
// did to the history and where it sent.
func sameStepInfo(a, b *dpor.StepInfo) bool {
	return a.Event.ID == b.Event.ID && a.Event.Content == b.Event.Content && a.Invokes == b.Invokes && a.Returns == b.Returns &&
		slices.Equal(a.Answers, b.Answers) && a.SendsTo == b.SendsTo
}
