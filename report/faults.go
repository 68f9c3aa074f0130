package report

import (
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/model"
)

// Faults are the fault budgets of a run, in reports and replay files.
type Faults struct {
	Drop      int  `json:"drop,omitempty"`
	Duplicate int  `json:"duplicate,omitempty"`
	Partition int  `json:"partition,omitempty"`
	Hold      bool `json:"partition_hold,omitempty"`
	Crash     int  `json:"crash,omitempty"`
	CrashStop bool `json:"crash_stop,omitempty"`
	Timeouts  int  `json:"timeouts,omitempty"`
}

// FaultsOf describes sys's faults for a report, or nil when it has none.
func FaultsOf(sys *model.System) *Faults {
	f := &sys.Faults
	if !f.Any() && sys.Harness.Timeouts() == 0 {
		return nil
	}
	return &Faults{Drop: f.Drop, Duplicate: f.Duplicate, Partition: f.Partition, Hold: f.Hold, Crash: f.Crash, CrashStop: f.CrashStop, Timeouts: sys.Harness.Timeouts()}
}

// ApplyTo gives sys the budgets of a replay file, in place of the system's own; a nil f
// (a run without faults) gives none.
func (f *Faults) ApplyTo(sys *model.System) {
	if f == nil {
		f = &Faults{}
	}
	sys.Faults.Drop, sys.Faults.Duplicate, sys.Faults.Partition, sys.Faults.Crash = f.Drop, f.Duplicate, f.Partition, f.Crash
	sys.Faults.Hold, sys.Faults.CrashStop = f.Hold, f.CrashStop
	if f.Timeouts > 0 {
		sys.Harness.Retrying(f.Timeouts)
	}
}

// Describe names the budgets, as check's header and the explorer page show them:
// "drop 1, crash 1, crash-stop"; "" for none.
func (f *Faults) Describe() string {
	if f == nil {
		return ""
	}
	var parts []string
	add := func(name string, n int) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", name, n))
		}
	}
	add("drop", f.Drop)
	add("duplicate", f.Duplicate)
	add("partition", f.Partition)
	add("crash", f.Crash)
	add("timeouts", f.Timeouts)
	if f.Hold {
		parts = append(parts, "partition-hold")
	}
	if f.CrashStop {
		parts = append(parts, "crash-stop")
	}
	return strings.Join(parts, ", ")
}
