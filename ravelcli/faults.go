package ravelcli

import (
	"flag"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
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
