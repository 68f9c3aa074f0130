package ravelcli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems"
)

// faultFlags are check's fault budgets and minimization switch; explore takes the
// budgets alone (declareBudgets).
type faultFlags struct {
	cmd                               string // the command, for messages
	drop, duplicate, partition, crash int
	timeouts                          int
	hold, crashStop                   bool
	probability                       float64
	minimize                          bool
	fs                                *flag.FlagSet // to tell a flag given from its default
}

// declare declares check's fault flags: the budgets, --fault-probability and --minimize.
func (f *faultFlags) declare(fs *flag.FlagSet) {
	f.declareBudgets(fs, "check")
	fs.Float64Var(&f.probability, "fault-probability", 0, "random: the chance of injecting a fault where one is enabled (default 0: uniform over all enabled events)")
	fs.BoolVar(&f.minimize, "minimize", true, "shrink the first violation's schedule (delta debugging) before reporting it")
}

// declareBudgets declares the fault budgets alone, as command cmd's flags.
func (f *faultFlags) declareBudgets(fs *flag.FlagSet, cmd string) {
	f.fs, f.cmd = fs, cmd
	const own = " (default: the system's own budget, model.System.Faults, none unless its Build sets one)"
	fs.IntVar(&f.drop, "drop", 0, "fault budget: at most this many messages lost per schedule"+own)
	fs.IntVar(&f.duplicate, "duplicate", 0, "fault budget: at most this many deliveries that leave a copy of their message pending"+own)
	fs.IntVar(&f.partition, "partition", 0, "fault budget: at most this many partitions per schedule, each splitting the agents in two until a heal"+own)
	fs.BoolVar(&f.hold, "partition-hold", false, "a partition holds the messages across its cut until the heal (default: they are lost)")
	fs.IntVar(&f.crash, "crash", 0, "fault budget: at most this many crashes per schedule; an agent with a Restart method may come back with its durable state"+own)
	fs.BoolVar(&f.crashStop, "crash-stop", false, "crashed agents never restart, even those with a Restart method")
	fs.IntVar(&f.timeouts, "timeouts", 0, "each client may time out and send its request again, to the next agent, up to this many times per schedule")
}

// apply sets sys's fault budgets and opts' fault options from the flags; a bad value is
// a usage error naming its flag. A budget flag given replaces the system's own budget
// (what its Build set); one not given leaves it.
func (f *faultFlags) apply(sys *model.System, opts *explorer.Options) error {
	for _, b := range []struct {
		name string
		n    int
	}{{"drop", f.drop}, {"duplicate", f.duplicate}, {"partition", f.partition}, {"crash", f.crash}, {"timeouts", f.timeouts}} {
		if b.n < 0 {
			return usagef("%s: --%s must be 0 or more, got %d", f.cmd, b.name, b.n)
		}
	}
	if f.probability < 0 || f.probability > 1 || f.probability != f.probability {
		return usagef("%s: --fault-probability must be between 0 and 1, got %v", f.cmd, f.probability)
	}
	given := map[string]bool{}
	if f.fs != nil {
		f.fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	}
	for _, b := range []struct {
		name   string
		flag   int
		budget *int
	}{{"drop", f.drop, &sys.Faults.Drop}, {"duplicate", f.duplicate, &sys.Faults.Duplicate}, {"partition", f.partition, &sys.Faults.Partition}, {"crash", f.crash, &sys.Faults.Crash}} {
		if given[b.name] {
			*b.budget = b.flag
		}
	}
	f.drop, f.duplicate, f.partition, f.crash = sys.Faults.Drop, sys.Faults.Duplicate, sys.Faults.Partition, sys.Faults.Crash
	if f.partition > 0 && len(sys.Actors) < 2 {
		return usagef("%s: --partition needs at least 2 agents, the system has %d", f.cmd, len(sys.Actors))
	}
	if f.partition > 0 && len(sys.Faults.Sides) == 0 && len(sys.Actors) > model.MaxSplitActors {
		return usagef("%s: --partition splits the agents every way, which needs at most %d agents; the system has %d", f.cmd, model.MaxSplitActors, len(sys.Actors))
	}
	if (f.partition > 0 || f.crash > 0) && len(sys.Actors) > model.MaxFaultActors {
		return usagef("%s: --partition and --crash need at most %d agents, the system has %d", f.cmd, model.MaxFaultActors, len(sys.Actors))
	}
	sys.Faults.Hold = sys.Faults.Hold || f.hold
	sys.Faults.CrashStop = sys.Faults.CrashStop || f.crashStop
	if f.timeouts > 0 {
		sys.Harness.Retrying(f.timeouts)
	}
	opts.FaultProbability = f.probability
	opts.Minimize = f.minimize
	return nil
}

// faultsJSON are the fault budgets of a run; they live in package report, with the
// rest of the replay file.
type faultsJSON = report.Faults

func faultsInfo(sys *model.System) *faultsJSON { return report.FaultsOf(sys) }

// minimizedNote says how the reported schedule relates to the one found.
func minimizedNote(v *explorer.Violation) string { return report.MinimizedNote(v) }

// faultList describes the faults for ravel list.
var faultList = [][2]string{
	{"--drop N", "lose up to N messages between agents"},
	{"--duplicate N", "deliver up to N messages while leaving a copy pending"},
	{"--partition N", "up to N partitions into two sides, each until a heal; messages across are lost (--partition-hold: held)"},
	{"--crash N", "up to N crashes; an agent with a Restart method comes back with its durable state (--crash-stop: never)"},
	{"--timeouts N", "each client may time out up to N times and send its request again to the next agent"},
}

// restarters are the names of sys's actors that come back after a crash (they have a
// Restart method: model.Restarter), in actor order; none when a crash of any of them is
// crash-stop.
func restarters(sys *model.System) []string {
	var names []string
	for i, a := range sys.Actors {
		if _, ok := a.(model.Restarter); ok {
			names = append(names, sys.ActorName(model.ID(i)))
		}
	}
	return names
}

// restartsLine is ravel list SYSTEM's line on crashes: which of sys's actors restart.
func restartsLine(sys *model.System) string {
	r := restarters(sys)
	switch {
	case len(r) == 0:
		return "crashes (--crash): no actor restarts (none has a Restart method): a crash is crash-stop, and --crash-stop changes nothing"
	case len(r) == len(sys.Actors):
		return "crashes (--crash): every actor restarts, with what its Restart method keeps (--crash-stop: none does)"
	}
	return fmt.Sprintf("crashes (--crash): %s restart%s, with what %s Restart method keeps, the others stay down (--crash-stop: none does)",
		strings.Join(r, ", "), map[bool]string{true: "s", false: ""}[len(r) == 1], map[bool]string{true: "its", false: "their"}[len(r) == 1])
}

// restartsColumn is ravel list's RESTARTS column for e: yes, no or some, for the
// actors of its first harness with its default agents.
func restartsColumn(e System) string {
	sys, err := e.New(systems.Config{Harness: e.Harnesses[0], Agents: e.Agents, Retries: -1})
	if err != nil {
		return "?"
	}
	switch r := restarters(&sys); {
	case len(r) == 0:
		return "no"
	case len(r) == len(sys.Actors):
		return "yes"
	}
	return "some"
}

// crashStopNote is check's note when the user gave --crash-stop to a system none of
// whose actors restarts, where a crash is crash-stop already; "" otherwise.
func crashStopNote(sys *model.System, name string, given bool) string {
	if !given || len(restarters(sys)) > 0 {
		return ""
	}
	return "note: --crash-stop changes nothing here: no actor of " + name + " restarts (none has a Restart method)"
}
