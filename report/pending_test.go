package report_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/paxos"
)

// paxosAccept is the message paxos-buggy's counterexample never delivers: the Accept of
// slot 0, c1's Get, whose absence lets c2's Get, in slot 2, read a map that lags.
const paxosAccept = "n0 → n1  Accept{ballot:1 slot:0 c1.0 Get(k1)}"

// TestCounterexampleListsWhatIsPending: the text of a counterexample, and its page, list
// the messages still pending at the end of its schedule, after the schedule — those of
// the minimized run (probe Y11: paxos-buggy's cause, the Accept of slot 0 never
// delivered, was in neither).
func TestCounterexampleListsWhatIsPending(t *testing.T) {
	sys, err := paxos.NewBuggy(2, paxos.DefaultRetries, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{Minimize: true})
	if err != nil || res.First == nil {
		t.Fatalf("no violation: %v", err)
	}
	v := res.First
	if v.OriginalSteps == 0 || len(v.Steps) >= v.OriginalSteps {
		t.Fatalf("the schedule was not shrunk (%d steps, %d found): the test wants a minimized one", len(v.Steps), v.OriginalSteps)
	}
	text := report.TextModeNote(&sys, v.Steps, v.Events, false, "(the schedule above; minimized)")
	head := "\n(the schedule above; minimized)\n\npending at the end (never delivered in this schedule):\n"
	i := strings.Index(text, head)
	if i < 0 {
		t.Fatalf("no list of what is pending right after the schedule and its note:\n%s", text)
	}
	if !strings.Contains(text[i:], "\n      "+paxosAccept+"\n") {
		t.Errorf("the pending list lacks %q:\n%s", paxosAccept, text[i:])
	}
	// Those of the minimized run: a replay of its schedule leaves them, and no other.
	ids := make([]uint64, len(v.Steps))
	for k, d := range v.Steps {
		ids[k] = d.ID
	}
	ex, err := explorer.Replay(sys, ids, false)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, d := range ex.Pending {
		want = append(want, report.DescribePending(&sys, d))
	}
	if got := strings.Split(strings.TrimSuffix(text[i+len(head):], "\n"), "\n"); strings.Join(got, "|") != "      "+strings.Join(want, "|      ") {
		t.Errorf("pending listed %q, the replay's %q", got, want)
	}

	p, err := report.NewPage(&sys, "paxos-buggy", "VIOLATION", nil, v.Steps, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.Pending, "|") != strings.Join(want, "|") {
		t.Errorf("the page's pending %q, want %q", p.Pending, want)
	}
	page := pageHTML(t, p)
	m := regexp.MustCompile(`(?s)<div id="msc"></div>(<div id="pending">.*?</div>)`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page lists nothing pending right after the schedule's chart")
	}
	if s := asText(m[1]); !strings.Contains(s, "Pending at the end (never delivered in this schedule)") || !strings.Contains(s, paxosAccept) {
		t.Errorf("the page's pending list reads %q, want %q in it", s, paxosAccept)
	}
}

// TestNothingPendingListsNothing: when nothing is pending there is no list, in the text
// or on the page.
func TestNothingPendingListsNothing(t *testing.T) {
	_, p := buggyViolation(t)
	p.Pending = nil
	if page := pageHTML(t, *p); strings.Contains(page, `id="pending"`) {
		t.Errorf("an empty pending list is drawn")
	}
	if got := report.PendingText(nil, nil); got != "" {
		t.Errorf("PendingText of nothing is %q, want \"\"", got)
	}
}

// TestPageNamesTheTimer: the page labels a timer's step with the timer's name, as the
// text's schedule does (`timer "election" Tick{}`), not just its message, Tick{}, which
// does not say which timer fired (probe Y15).
func TestPageNamesTheTimer(t *testing.T) {
	sys, err := leader.NewBuggy(3, "1w1r")
	if err != nil {
		t.Fatal(err)
	}
	s, err := explorer.NewSession(sys)
	if err != nil {
		t.Fatal(err)
	}
	var timer *explorer.Delivery
	for _, d := range s.Enabled() {
		if d.Timer != "" {
			timer = &d
			break
		}
	}
	if timer == nil {
		t.Fatal("leader-buggy has no timer enabled at the start: the test needs one")
	}
	p, err := report.NewPage(&sys, "leader-buggy", "", nil, []explorer.Delivery{*timer}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `timer "` + timer.Timer + `" ` + explorer.DescribeMessage(timer.Msg)
	if got := p.Steps[0].Msg; got != want {
		t.Errorf("the timer's step is labelled %q, want %q", got, want)
	}
	if line := explorer.DescribeDelivery(&sys, 1, *timer); !strings.HasSuffix(line, want) {
		t.Errorf("the text's schedule says %q, the page %q: they should agree", line, want)
	}
}
