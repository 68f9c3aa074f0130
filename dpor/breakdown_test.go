package dpor_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems"
)

// distinctStates wraps a strategy to count the distinct states it reaches without
// caching (by the fingerprint the visited set would key them by).
type distinctStates struct {
	dpor.Strategy
	seen map[uint64]struct{}
}

func (d *distinctStates) Arrive(p dpor.Path) {
	d.Strategy.Arrive(p)
	d.seen[p.(dpor.StatePath).Fingerprint()] = struct{}{}
}

// TestStatefulBreakdown measures where stateful DPOR's backtrack points come from on the
// shipped systems, what its sleep sets save (the states and steps of the search without
// them; "again": states explored again under a smaller sleep set), and how much the dependence relations allow: the states stateless
// source DPOR (with sleep sets) reaches, under history and under actor. It prints a
// table for docs/stateful-dpor-history.md and asserts only that the counts add up. Run with
//
//	RAVEL_BREAKDOWN=1 go test -run TestStatefulBreakdown -v ./dpor/
//
// (RAVEL_BREAKDOWN=system/harness,… picks configurations).
func TestStatefulBreakdown(t *testing.T) {
	env := os.Getenv("RAVEL_BREAKDOWN")
	if env == "" {
		t.Skip("a measurement: set RAVEL_BREAKDOWN=1 (or system/harness,…) to run it")
	}
	configs := []string{"register/2r1w", "register/2r2w", "register-buggy/2r1w", "register-buggy/2r2w",
		"adr/2r1w", "adr-buggy/2r1w", "adr-buggy/2r2w", "chord/2r1w", "chord/2r2w", "chord-fixed/2r1w", "chord-fixed/2r2w",
		"paxos/2r1w", "paxos/2r2w", "paxos-buggy/2r1w", "gossip/writes", "gossip/rw",
		"abd/1w1r", "abd-buggy/1w1r", "abd-buggy/1w2r-seq", "leader/1rw", "leader-buggy/1rw"}
	if env != "1" {
		configs = strings.Split(env, ",")
	}
	const statelessBudget = 300_000
	t.Logf("%-22s %9s %9s %7s %7s %9s %9s %9s | %7s %7s %7s %7s %7s %7s %7s %7s | %9s %9s %9s %9s", "config", "ex+c st", "dpor+c st", "again", "revisit",
		"steps", "nosleep st", "nosleep sp", "first", "woken", "races", "pending", "lead", "path", "cycle", "sum", "sl-h st", "sl-h #S", "sl-a st", "sl-a #S")
	for _, name := range configs {
		sys := shippedSystem(t, name)
		_, ex := exploreCached(t, sys, dpor.Exhaustive(), explorer.Unlimited)
		var c dpor.StatefulCounts
		_, dp := exploreCached(t, sys, dpor.CountingStatefulDPOR(dpor.History(), &c), explorer.Unlimited)
		_, ns := exploreCached(t, sys, dpor.StatefulDPORWithoutSleep(dpor.History()), explorer.Unlimited)
		sum := c.First + c.Races + c.RevisitPending + c.RevisitLead + c.RevisitPath + c.Cycle
		// Every step explored is a backtrack point (some points are asleep, not explored).
		if edges := dp.Stats.Steps - dp.Stats.Peeked; sum < edges { // steps run only to choose a first event explore nothing
			t.Errorf("%s: %d backtrack points counted, %d steps explored", name, sum, edges)
		}
		stateless := func(dep dpor.Dependence) string {
			d := &distinctStates{Strategy: dpor.DPOR(dep), seen: map[uint64]struct{}{}}
			o, _ := exploreWith(t, sys, explorer.Options{Strategy: d, MaxSchedules: statelessBudget})
			mark := ""
			if !o.complete {
				mark = ">"
			}
			return fmt.Sprintf("%9s %9s", fmt.Sprintf("%s%d", mark, len(d.seen)), fmt.Sprintf("%s%d", mark, o.schedules))
		}
		t.Logf("%-22s %9d %9d %7d %7d %9d %9d %9d | %7d %7d %7d %7d %7d %7d %7d %7d | %s %s", name, ex.Stats.States, dp.Stats.States, dp.Stats.ExploredAgain, c.Revisits,
			dp.Stats.Steps, ns.Stats.States, ns.Stats.Steps, c.First, c.Woken, c.Races, c.RevisitPending, c.RevisitLead, c.RevisitPath, c.Cycle, sum, stateless(dpor.History()), stateless(dpor.Actor()))
	}
}

// shippedSystem builds a shipped system from "system/harness", with its defaults.
func shippedSystem(t testing.TB, name string) model.System {
	t.Helper()
	sysName, harness, _ := strings.Cut(name, "/")
	entry, err := systems.Lookup(sysName)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := entry.New(systems.Config{Harness: harness, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestStatefulCounts checks the figures TestStatefulBreakdown prints against the engine's:
// a revisit for each of the engine's, and at least one backtrack point for every step
// explored; with a fault budget, some come from the full expansion of the nodes where a
// fault is enabled, and none without.
func TestStatefulCounts(t *testing.T) {
	for _, f := range []model.Faults{{}, {Drop: 1}, {Crash: 1}} {
		t.Run(fmt.Sprintf("%+v", f), func(t *testing.T) {
			sys := shippedSystem(t, "register/2r1w")
			sys.Faults = f
			var c dpor.StatefulCounts
			o, res := exploreCached(t, sys, dpor.CountingStatefulDPOR(dpor.History(), &c), explorer.Unlimited)
			if !o.complete {
				t.Fatal("did not complete")
			}
			if c.Revisits != res.Stats.Revisits {
				t.Errorf("counted %d revisits, the engine %d", c.Revisits, res.Stats.Revisits)
			}
			sum := c.First + c.Races + c.RevisitPending + c.RevisitLead + c.RevisitPath + c.Cycle + c.Faults
			// Steps run only to choose a state's first event (Stats.Peeked) explore nothing.
			if edges := res.Stats.Steps - res.Stats.Peeked; sum < edges || c.Races == 0 || c.First == 0 {
				t.Errorf("counts %+v (sum %d) for %d steps explored", c, sum, edges)
			}
			if got, want := c.Faults > 0, f.Any(); got != want {
				t.Errorf("%d backtrack points from nodes where a fault is enabled, want some: %v", c.Faults, want)
			}
		})
	}
}
