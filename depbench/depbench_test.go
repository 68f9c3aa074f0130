package depbench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/depbench"
	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems"
)

func build(t *testing.T, name string) (model.System, systems.Entry) {
	t.Helper()
	e, err := systems.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := e.New(systems.Config{Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return sys, e
}

// historyLines runs strategy on sys on its own and returns its canonical histories as the
// JSON lines --histories writes, verdict included.
func historyLines(t *testing.T, sys model.System, strategy, dep string) map[string]bool {
	t.Helper()
	s, err := dpor.New(strategy, dpor.Config{Dependence: dep})
	if err != nil {
		t.Fatal(err)
	}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: s, MaxSchedules: explorer.Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, c := range res.Canonical {
		b, err := json.Marshal(struct {
			H  any
			OK bool
		}{c.History.JSON(sys.Harness), c.Linearizable})
		if err != nil {
			t.Fatal(err)
		}
		out[string(b)] = true
	}
	return out
}

// TestCompareAgainstDirectComparison: every row's coverage and missed violations equal
// what comparing the two runs' canonical histories line by line gives.
func TestCompareAgainstDirectComparison(t *testing.T) {
	sys, e := build(t, "register-buggy")
	deps := []string{"actor", "history", "key"}
	tb, err := depbench.Compare(context.Background(), sys, e.Name, e.Harnesses[0], e.Agents,
		depbench.Config{Strategies: []string{"dpor", "ired"}, Dependences: deps, MaxSchedules: explorer.Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Exhaustive.Complete {
		t.Fatal("exhaustive search did not complete")
	}
	ex := historyLines(t, sys, "exhaustive", "")
	if len(tb.Rows) != 6 {
		t.Fatalf("%d rows", len(tb.Rows))
	}
	anyMiss := false
	for _, r := range tb.Rows {
		t.Run(r.Strategy+"/"+r.Dependence, func(t *testing.T) {
			got := historyLines(t, sys, r.Strategy, r.Dependence)
			covered, missedNL := 0, 0
			for l := range ex {
				if got[l] {
					covered++
				} else if strings.HasSuffix(l, `"OK":false}`) {
					missedNL++
				}
			}
			if r.Covered != covered || r.ViolationsMissed != missedNL || r.Canonical != len(got) {
				t.Errorf("covered %d, missed violations %d, found %d; direct comparison: %d, %d, %d", r.Covered, r.ViolationsMissed, r.Canonical, covered, missedNL, len(got))
			}
			if want := 100 * float64(covered) / float64(len(ex)); r.Coverage != want {
				t.Errorf("coverage %.2f%%, want %.2f%%", r.Coverage, want)
			}
			if (r.FirstMissed != nil) != (covered < len(ex)) {
				t.Errorf("first missed %v with %d of %d covered", r.FirstMissed, covered, len(ex))
			}
			if r.FirstMissed != nil {
				anyMiss = true
				if r.FirstMissed.Timeline == "" || r.FirstMissed.Sequence == "" {
					t.Errorf("first missed history has no timeline: %+v", r.FirstMissed)
				}
			}
			// DPOR with history keeps every canonical history (dpor.DPOR's contract).
			if r.Strategy == "dpor" && r.Dependence == "history" && r.Coverage != 100 {
				t.Errorf("dpor with history covers %.1f%%", r.Coverage)
			}
		})
	}
	if !anyMiss {
		t.Error("no relation missed anything on the erroneous register: actor should")
	}
}

func TestCompareRejects(t *testing.T) {
	sys, _ := build(t, "register")
	for _, tc := range []struct {
		name string
		cfg  depbench.Config
		want string
	}{
		{"unknown strategy", depbench.Config{Strategies: []string{"nope"}}, "unknown strategy"},
		{"not DPOR", depbench.Config{Strategies: []string{"exhaustive"}}, "no dependence relation"},
		{"unknown relation", depbench.Config{Dependences: []string{"nope"}}, "unknown dependence"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := depbench.Compare(context.Background(), sys, "register", "", 2, tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestPrint(t *testing.T) {
	sys, e := build(t, "register-buggy")
	tb, err := depbench.Compare(context.Background(), sys, e.Name, e.Harnesses[0], e.Agents,
		depbench.Config{Dependences: []string{"actor", "history"}, Commute: true, CommuteStates: 300})
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range []bool{false, true} {
		var b bytes.Buffer
		if err := depbench.Print(&b, []*depbench.Table{tb}, md); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		actor := tb.Rows[0]
		actorCov := fmt.Sprintf("%.1f%% (%d/32)", actor.Coverage, actor.Covered)
		for _, want := range []string{"register-buggy, harness 2r1w", "exhaustive", "dpor", "actor", "100.0% (32/32)", actorCov, "first canonical history dpor with actor missed", "├", "history: commutes on all"} {
			if !strings.Contains(out, want) {
				t.Errorf("markdown %v: no %q in\n%s", md, want, out)
			}
		}
		if md && !strings.Contains(out, "|---|---|---:|") {
			t.Errorf("no markdown table:\n%s", out)
		}
	}
	b, err := json.Marshal(tb)
	if err != nil {
		t.Fatal(err)
	}
	var back depbench.Table
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != 2 || back.Rows[0].Dependence != "actor" || back.Rows[0].FirstMissed == nil || len(back.Commutation) != 2 {
		t.Errorf("JSON round trip: %s", b)
	}
}

// TestCachedBaseline: exhaustive search with state caching gives every row the same
// coverage as plain exhaustive search.
func TestCachedBaseline(t *testing.T) {
	sys, e := build(t, "register-buggy")
	cfg := depbench.Config{Strategies: []string{"dpor", "ired"}, Dependences: []string{"actor", "history"}, MaxSchedules: explorer.Unlimited}
	plain, err := depbench.Compare(context.Background(), sys, e.Name, e.Harnesses[0], e.Agents, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.CachedBaseline = true
	cached, err := depbench.Compare(context.Background(), sys, e.Name, e.Harnesses[0], e.Agents, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !cached.CachedBaseline || cached.Exhaustive.Canonical != plain.Exhaustive.Canonical || cached.Exhaustive.Schedules >= plain.Exhaustive.Schedules {
		t.Errorf("cached baseline %+v, plain %+v", cached.Exhaustive, plain.Exhaustive)
	}
	for i := range plain.Rows {
		p, c := plain.Rows[i], cached.Rows[i]
		if p.Covered != c.Covered || p.ViolationsMissed != c.ViolationsMissed {
			t.Errorf("%s/%s: covered %d, missed %d with the plain baseline; %d, %d with the cached one", p.Strategy, p.Dependence, p.Covered, p.ViolationsMissed, c.Covered, c.ViolationsMissed)
		}
	}
}

// TestPrintFootnotes: a row stopped at a budget gets its footnote even when the baseline
// ended by itself (bench probe R12); an interrupted run is marked † and said so, not
// passed off as a cut one or a complete one; one agent is "1 agent" and a budget of one
// schedule "cutoff 1 schedule" (R15).
func TestPrintFootnotes(t *testing.T) {
	tb := &depbench.Table{System: "s", Harness: "h", Agents: 1, MaxSchedules: 1,
		Exhaustive: depbench.Run{Strategy: "exhaustive", Schedules: 10, Canonical: 4, Complete: true},
		Rows: []depbench.Row{
			{Run: depbench.Run{Strategy: "dpor", Dependence: "history", Schedules: 1, Canonical: 2}, Covered: 2, Coverage: 50},
			{Run: depbench.Run{Strategy: "dpor", Dependence: "actor", Schedules: 3, Canonical: 1, Interrupted: true}, Covered: 1, Coverage: 25},
		},
		Interrupted: true,
	}
	for _, md := range []bool{false, true} {
		var b strings.Builder
		if err := depbench.Print(&b, []*depbench.Table{tb}, md); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{"s, harness h, 1 agent, cutoff 1 schedule", "1*", "3†", "* on a row: it stopped at a budget", "† interrupted"} {
			if !strings.Contains(out, want) {
				t.Errorf("markdown %v: no %q in\n%s", md, want, out)
			}
		}
		if strings.Contains(out, "cutoff 1 schedules") {
			t.Errorf("markdown %v: plural for one schedule:\n%s", md, out)
		}
		if strings.Contains(out, "3*") || strings.Contains(out, "exhaustive search found within it") {
			t.Errorf("markdown %v: the interrupted row or the complete baseline called cut:\n%s", md, out)
		}
	}
}
