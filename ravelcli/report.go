package ravelcli

import (
	"time"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
)

// The counterexample's JSON lives in package report, which raveltest shares.
type (
	runInfo       = report.RunInfo
	violationJSON = report.Violation
	historyJSON   = report.History
	stepJSON      = report.Step
	violationFile = report.File
)

const violationFormat = report.Format

// checkReport is check's JSON output: one object.
type checkReport struct {
	runInfo
	// copyEach is what one reflective copy of an actor took, as the search's timed
	// copies estimate it (explorer.Stats.CopyTime), for copyHint; 0 when none was timed.
	copyEach time.Duration
	// agentsAre is what the text and HTML reports call Agents: "agents", or the
	// system's own word (systems.Entry.AgentsAre: microbench's "k").
	agentsAre       string
	Complete        bool  `json:"complete"`
	Interrupted     bool  `json:"interrupted"`
	Schedules       int64 `json:"schedules"`
	Steps           int64 `json:"steps"`
	MaxDepthReached int   `json:"max_depth_reached"`
	CutSchedules    int64 `json:"cut_schedules"`
	// CycleSchedules are the schedules that ended, with state caching, by returning to
	// a state earlier on their path (a protocol that never quiesces); their histories
	// are judged like a final state's.
	CycleSchedules      int64 `json:"cycle_schedules"`
	SleepBlocked        int64 `json:"sleep_blocked"`
	HistoriesIncomplete int64 `json:"histories_incomplete"`
	// OperationsAnswered counts the harness's operations answered in at least one
	// schedule (explorer.Stats.Answered); 0 means nothing was checked (a note says why).
	OperationsAnswered int64 `json:"operations_answered"`
	HistoriesUnique    int64 `json:"histories_unique"`
	HistoriesCanonical int64 `json:"histories_canonical"`
	// HistoriesUnjudged counts the canonical histories the specification panicked on:
	// a bug in the specification, which ends the run with an error.
	HistoriesUnjudged        int64    `json:"histories_without_verdict,omitempty"`
	Nonlinearizable          int64    `json:"nonlinearizable"`
	NonlinearizableCanonical int64    `json:"nonlinearizable_canonical"`
	Panics                   int64    `json:"panics"`
	Quality                  float64  `json:"nl_per_uh"`
	Progression              float64  `json:"uh_per_schedule"`
	Precision                float64  `json:"nl_per_schedule"`
	Exclusions               int      `json:"exclusions"`
	States                   int64    `json:"states"`
	Revisits                 int64    `json:"revisits"`
	ExploredAgain            int64    `json:"explored_again"`
	VisitedSpilled           int64    `json:"visited_spilled"`
	DiskReads                int64    `json:"disk_reads"`
	FilterFalsePositives     int64    `json:"filter_false_positives"`
	CollisionProbability     float64  `json:"collision_probability"`
	StepsReplayed            int64    `json:"steps_replayed"`
	StepsPeeked              int64    `json:"steps_peeked"`
	HistoriesBeforeFirst     *int64   `json:"histories_before_first"`
	ExploreSeconds           float64  `json:"explore_seconds"`
	StatelessSeconds         *float64 `json:"stateless_seconds,omitempty"`
	// StatelessInterrupted: bench's stateless re-run was interrupted, StatelessSeconds
	// being its time until then.
	StatelessInterrupted  bool           `json:"stateless_interrupted,omitempty"`
	CheckSeconds          float64        `json:"check_seconds"`
	TotalSeconds          float64        `json:"total_seconds"`
	FirstViolationSeconds *float64       `json:"first_violation_seconds"`
	SchedulesPerSecond    float64        `json:"schedules_per_second"`
	FirstViolation        *violationJSON `json:"first_violation"`
	Memory                *memoryJSON    `json:"memory,omitempty"`
	// ReflectiveCopies names the actor types the search copied by reflection: those
	// without a Clone method, or all with --reflective.
	ReflectiveCopies []string `json:"reflective_copies,omitempty"`
	reflective       bool     // --reflective: the user asked for those copies
	prog             string   // the command's name (catalog.name), for the replay line
	// CutCrowd is the largest group of like messages pending where a schedule was cut
	// (explorer.Crowd); absent when none was.
	CutCrowd *crowdJSON `json:"cut_crowd,omitempty"`
	// CutRepeat is the step repeated most on a cut schedule, with state caching
	// (explorer.Repeat); absent when none was noted.
	CutRepeat *repeatJSON `json:"cut_repeat,omitempty"`

	// Sampling holds a sampler session's statistics (docs/samplers.md).
	Sampling *explorer.SamplingStats `json:"sampling,omitempty"`
	// Notes are the notes and hints the text report prints (checkCaveats, checkHints):
	// what the run's reduction may miss, and what to try next; absent when there are none.
	Notes []string `json:"notes,omitempty"`
	// Resumed is the checkpoint a --resume run continued from; absent otherwise.
	Resumed *resumedJSON `json:"resumed,omitempty"`
	// Error is the failure of Ravel's own that stopped the search — the visited-state
	// store's (a full disk), a checkpoint's — as standard error gives it; the figures cover
	// the search until then, and the exit status is 2. Absent otherwise.
	Error string `json:"error,omitempty"`
	// storeFailed: Error is the visited-state store's, for the text report's status line.
	storeFailed bool
	// unanswered is report.Unanswered's caveat on operations the search never saw
	// answered, "" when there is none.
	unanswered string
	// crashStopNote is crashStopNote's: --crash-stop given to a system none of whose
	// actors restarts; "" otherwise.
	crashStopNote string
}

// resumedJSON is explorer.Resumed: the checkpoint's figures when the run took it up,
// whether its search had ended, and whether it had spent this run's budget already.
type resumedJSON struct {
	Schedules int64 `json:"schedules"`
	States    int64 `json:"states"`
	Ended     bool  `json:"ended"`
	Spent     bool  `json:"budget_spent"`
}

func newCheckReport(info runInfo, res *explorer.Result, sys *model.System) checkReport {
	st := res.Stats
	r := checkReport{
		copyEach:                 copyEach(st),
		runInfo:                  info,
		Complete:                 res.Complete,
		Interrupted:              st.Interrupted,
		Schedules:                st.Schedules,
		Steps:                    st.Steps,
		MaxDepthReached:          st.MaxDepth,
		CutSchedules:             st.Cut,
		CycleSchedules:           st.Cycles,
		SleepBlocked:             st.SleepBlocked,
		HistoriesIncomplete:      st.Incomplete,
		OperationsAnswered:       st.Answered,
		HistoriesUnique:          st.Unique,
		HistoriesCanonical:       st.Canonical,
		Nonlinearizable:          st.Nonlinearizable,
		NonlinearizableCanonical: st.NonlinearizableCan,
		Panics:                   st.Panics,
		ExploreSeconds:           st.Explore.Seconds(),
		CheckSeconds:             st.Check.Seconds(),
		TotalSeconds:             st.Total.Seconds(),
	}
	for _, c := range res.Canonical {
		if c.Err != nil {
			r.HistoriesUnjudged++
		}
	}
	if c := res.Resumed; c != nil {
		r.Resumed = &resumedJSON{Schedules: c.Schedules, States: c.States, Ended: c.Ended, Spent: c.Spent}
	}
	if st.Explore > 0 {
		r.SchedulesPerSecond = float64(st.Schedules) / st.Explore.Seconds()
	}
	if st.Unique > 0 {
		r.Quality = float64(st.Nonlinearizable) / float64(st.Unique)
	}
	if st.Schedules > 0 {
		r.Progression = float64(st.Unique) / float64(st.Schedules)
		r.Precision = float64(st.Nonlinearizable) / float64(st.Schedules)
	}
	r.Exclusions = res.Exclusions
	if res.First == nil && sys != nil {
		// A violation says what is wrong already; the note is for a clean run.
		r.unanswered = report.Unanswered(sys.Harness, st)
	}
	if c := st.Crowd; c.Count > 0 {
		r.CutCrowd = &crowdJSON{Count: c.Count, Type: c.Type, From: c.From.String(), To: c.To.String(), Pending: c.Pending}
	}
	if p := st.Repeat; p.Count > 0 {
		r.CutRepeat = &repeatJSON{Count: p.Count, Steps: p.Steps, Timer: p.Timer, Type: p.Type, From: p.From.String(), To: p.To.String(), what: p.String()}
	}
	r.Sampling = res.Sampling
	r.States, r.Revisits, r.StepsReplayed = st.States, st.Revisits, st.Replayed
	r.ExploredAgain, r.StepsPeeked = st.ExploredAgain, st.Peeked
	v := st.Visited
	r.VisitedSpilled, r.DiskReads, r.FilterFalsePositives, r.CollisionProbability = v.Spilled, v.DiskReads, v.FilterFalsePositives, v.CollisionProbability
	if res.First != nil {
		hf := st.BeforeFirst
		tf := st.ToFirst.Seconds()
		r.HistoriesBeforeFirst, r.FirstViolationSeconds = &hf, &tf
		v := newViolationJSON(sys, res.First)
		r.FirstViolation = &v
	}
	return r
}

func newViolationJSON(sys *model.System, v *explorer.Violation) violationJSON {
	return report.NewViolation(sys, v)
}

func newHistoryJSON(sys *model.System, events []histories.Event) historyJSON {
	return report.NewHistory(sys, events)
}

func newStepsJSON(sys *model.System, steps []explorer.Delivery) []stepJSON {
	return report.NewSteps(sys, steps)
}

// copyEach estimates one reflective copy's time from the copies the search timed.
func copyEach(st explorer.Stats) time.Duration {
	if st.CopiesTimed == 0 {
		return 0
	}
	return st.CopyTime / time.Duration(st.CopiesTimed)
}
