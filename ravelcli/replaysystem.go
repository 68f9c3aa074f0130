package ravelcli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/workloads"
)

// replayed is one harness's replay of a counterexample file.
type replayed struct {
	sys     model.System
	harness string
	ex      *explorer.Execution
	err     error // the replay's own error: an event not enabled
}

// replaySystems builds the systems a counterexample file may have been found on: entry
// with the file's agents and retries, a harness, and the file's workload and faults. The
// harness is override when set (replay --harness, which must be one of entry's), else
// the one the file names. A file that names none but records its clients (raveltest
// writes such files: it sees a system, not a harness name, unless raveltest.Harness
// names it) gives every harness of entry with those clients, for pickReplay to choose
// from. A system whose harness is not the one the file was found under is refused,
// naming both.
func replaySystems(entry System, vf violationFile, override string) ([]replayed, error) {
	harnesses := []string{vf.Run.Harness}
	switch {
	case override != "":
		if !slices.Contains(entry.Harnesses, override) {
			return nil, fmt.Errorf("--harness %q: system %s has no such harness (its harnesses: %s)", override, entry.Name, strings.Join(entry.Harnesses, ", "))
		}
		harnesses = []string{override}
	case vf.Run.Harness == "" && vf.Run.Clients != "":
		harnesses = entry.Harnesses
	}
	if vf.Run.Agents == 0 && !entry.ZeroAgents {
		// The file's agents are resolved (never the default's 0): 0 is no agents, which
		// only a system like microbench runs with.
		return nil, fmt.Errorf("0 agents: system %s needs at least 1", entry.Name)
	}
	var out []replayed
	var errs []error
	for _, h := range harnesses {
		sys, err := entry.New(Config{Agents: configAgents(entry, vf.Run.Agents), Harness: h, Retries: vf.Run.Retries})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if vf.Run.Workload != "" {
			if sys, _, err = workloads.Lookup(sys, vf.Run.Workload); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		vf.Run.Faults.ApplyTo(&sys)
		if err := vf.CheckClients(&sys); err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, replayed{sys: sys, harness: h})
	}
	switch {
	case len(out) > 0:
		return out, nil
	case len(harnesses) == 1:
		return nil, errs[0]
	}
	return nil, fmt.Errorf("the file names no harness, and none of %s's (%s) has the clients it was found under, %q: %w",
		entry.Name, strings.Join(harnesses, ", "), vf.Run.Clients, errors.Join(errs...))
}

// pickReplay replays ids on each of cands and returns the one to report. With one
// candidate it is that one, whatever its replay gives (the verdict tells). With several
// (harnesses with the same clients: fault-injecting variants, a timer on or off) it is
// the one whose replay reproduces the file — the deliveries, history and failure, and
// then the final state's fingerprint, which tells apart harnesses whose actors differ in
// what the history does not show —, the first in entry's order when several do (they
// are alike as far as the file tells: a workload's file, whose workload replaced the
// harnesses' clients, names any; --harness chooses another). When none does, it is the
// first whose replay runs, with note naming the harnesses tried, for the verdict's list
// of causes.
func pickReplay(cands []replayed, vf violationFile, ids []uint64) (pick replayed, note string, err error) {
	for i := range cands {
		cands[i].ex, cands[i].err = explorer.Replay(cands[i].sys, ids, vf.Run.Reflective)
	}
	if len(cands) == 1 {
		return cands[0], "", cands[0].err
	}
	var names []string
	full, history := -1, -1
	for i, c := range cands {
		names = append(names, c.harness)
		if c.err != nil {
			continue
		}
		differ, fingerprint := replayDiffers(&c.sys, vf, c.ex)
		if len(differ) > 0 {
			continue
		}
		if history < 0 {
			history = i
		}
		if fingerprint == "" && full < 0 {
			full = i
		}
	}
	switch {
	case full >= 0:
		return cands[full], "", nil
	case history >= 0:
		return cands[history], "", nil
	}
	note = fmt.Sprintf("the file names no harness and none of the harnesses with its clients (%s) reproduces it", strings.Join(names, ", "))
	for _, c := range cands {
		if c.err == nil {
			return c, note, nil
		}
	}
	return cands[0], note, fmt.Errorf("%s: %w", note, cands[0].err)
}

// replaySystem builds the system a counterexample file was found on, as replay does
// (replaySystems, pickReplay), and returns it with the name of its harness.
func replaySystem(entry System, vf violationFile) (model.System, string, error) {
	cands, err := replaySystems(entry, vf, "")
	if err != nil {
		return model.System{}, "", err
	}
	if len(cands) == 1 {
		return cands[0].sys, cands[0].harness, nil
	}
	ids, err := vf.Violation.IDs()
	if err != nil {
		return model.System{}, "", err
	}
	pick, _, err := pickReplay(cands, vf, ids)
	if err != nil {
		return model.System{}, "", err
	}
	return pick.sys, pick.harness, nil
}
