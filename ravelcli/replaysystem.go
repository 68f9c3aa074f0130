package ravelcli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/workloads"
)

// replaySystem builds the system a counterexample file was found on: entry with the
// file's agents and retries, its harness, workload and faults. A file that names no
// harness but records its clients (raveltest writes such files: it sees a system, not a
// harness name) is replayed under the first of entry's harnesses with those clients. A
// system whose harness is not the one the file was found under is refused, naming both.
// It returns the system and the name of its harness.
func replaySystem(entry System, vf violationFile) (sys model.System, harness string, err error) {
	harnesses := []string{vf.Run.Harness}
	if vf.Run.Harness == "" && vf.Run.Clients != "" {
		harnesses = entry.Harnesses
	}
	var errs []error
	for _, h := range harnesses {
		sys, err := entry.New(Config{Agents: vf.Run.Agents, Harness: h, Retries: vf.Run.Retries})
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
		return sys, h, nil
	}
	if len(harnesses) == 1 {
		return model.System{}, "", errs[0]
	}
	return model.System{}, "", fmt.Errorf("the file names no harness, and none of %s's (%s) has the clients it was found under, %q: %w",
		entry.Name, strings.Join(harnesses, ", "), vf.Run.Clients, errors.Join(errs...))
}
