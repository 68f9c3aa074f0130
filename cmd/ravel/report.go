package main

import (
	"fmt"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// runInfo is what was asked for: enough to rebuild the system and run it again.
type runInfo struct {
	System       string      `json:"system"`
	Harness      string      `json:"harness"`
	Strategy     string      `json:"strategy"`
	Agents       int         `json:"agents"`
	Retries      int         `json:"retries,omitempty"`
	StateCaching bool        `json:"state_caching"`
	Stateless    bool        `json:"stateless"`
	Seed         int64       `json:"seed"`
	MaxSchedules int64       `json:"max_schedules"`
	MaxDepth     int         `json:"max_depth"`
	Dependence   string      `json:"dependence,omitempty"`
	Delays       *int        `json:"delays,omitempty"`
	Faults       *faultsJSON `json:"faults,omitempty"`
}

// checkReport is check's JSON output: one object.
type checkReport struct {
	runInfo
	Complete                 bool           `json:"complete"`
	Interrupted              bool           `json:"interrupted"`
	Schedules                int64          `json:"schedules"`
	Steps                    int64          `json:"steps"`
	MaxDepthReached          int            `json:"max_depth_reached"`
	CutSchedules             int64          `json:"cut_schedules"`
	HistoriesIncomplete      int64          `json:"histories_incomplete"`
	HistoriesUnique          int64          `json:"histories_unique"`
	HistoriesCanonical       int64          `json:"histories_canonical"`
	Nonlinearizable          int64          `json:"nonlinearizable"`
	NonlinearizableCanonical int64          `json:"nonlinearizable_canonical"`
	Panics                   int64          `json:"panics"`
	Quality                  float64        `json:"nl_per_uh"`
	Progression              float64        `json:"uh_per_schedule"`
	Precision                float64        `json:"nl_per_schedule"`
	Exclusions               int            `json:"exclusions"`
	States                   int64          `json:"states"`
	Revisits                 int64          `json:"revisits"`
	VisitedSpilled           int64          `json:"visited_spilled"`
	DiskReads                int64          `json:"disk_reads"`
	FilterFalsePositives     int64          `json:"filter_false_positives"`
	CollisionProbability     float64        `json:"collision_probability"`
	StepsReplayed            int64          `json:"steps_replayed"`
	HistoriesBeforeFirst     *int64         `json:"histories_before_first"`
	ExploreSeconds           float64        `json:"explore_seconds"`
	StatelessSeconds         *float64       `json:"stateless_seconds,omitempty"`
	CheckSeconds             float64        `json:"check_seconds"`
	TotalSeconds             float64        `json:"total_seconds"`
	FirstViolationSeconds    *float64       `json:"first_violation_seconds"`
	SchedulesPerSecond       float64        `json:"schedules_per_second"`
	FirstViolation           *violationJSON `json:"first_violation"`

	// Sampling holds a sampler session's statistics (docs/samplers.md).
	Sampling *explorer.SamplingStats `json:"sampling,omitempty"`
}

type violationJSON struct {
	Kind     string      `json:"kind"`
	Schedule int64       `json:"schedule_index"`
	Message  string      `json:"message,omitempty"`
	Replayed bool        `json:"replayed"`
	History  historyJSON `json:"history"`
	Steps    []stepJSON  `json:"schedule"`
	// OriginalLength is the length of the schedule as found, when Steps was minimized.
	OriginalLength int `json:"original_length,omitempty"`
}

type historyJSON struct {
	Events   []eventJSON `json:"events"`
	Timeline string      `json:"timeline"`
}

type eventJSON struct {
	Kind   string `json:"kind"`
	Client string `json:"client"`
	Op     string `json:"op"`
	Output string `json:"output,omitempty"`
}

type stepJSON struct {
	Step  int    `json:"step"`
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	From  string `json:"from"`
	To    string `json:"to"`
	Msg   string `json:"msg"`
	Timer string `json:"timer,omitempty"`
}

// violationFile is what check --out writes and replay reads. ScheduleDigest and
// Fingerprint identify the violation: replay refuses a file whose digest does not match
// its run and schedule (edited or damaged), and one whose replay does not end in the
// saved state.
type violationFile struct {
	Format         string        `json:"format"`
	Run            runInfo       `json:"run"`
	ScheduleDigest string        `json:"schedule_digest"`
	Fingerprint    string        `json:"fingerprint"`
	Violation      violationJSON `json:"violation"`
}

const violationFormat = "ravel-violation/2"

func newCheckReport(info runInfo, res *explorer.Result, sys *model.System) checkReport {
	st := res.Stats
	r := checkReport{
		runInfo:                  info,
		Complete:                 res.Complete,
		Interrupted:              st.Interrupted,
		Schedules:                st.Schedules,
		Steps:                    st.Steps,
		MaxDepthReached:          st.MaxDepth,
		CutSchedules:             st.Cut,
		HistoriesIncomplete:      st.Incomplete,
		HistoriesUnique:          st.Unique,
		HistoriesCanonical:       st.Canonical,
		Nonlinearizable:          st.Nonlinearizable,
		NonlinearizableCanonical: st.NonlinearizableCan,
		Panics:                   st.Panics,
		ExploreSeconds:           st.Explore.Seconds(),
		CheckSeconds:             st.Check.Seconds(),
		TotalSeconds:             st.Total.Seconds(),
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
	r.Sampling = res.Sampling
	r.States, r.Revisits, r.StepsReplayed = st.States, st.Revisits, st.Replayed
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
	out := violationJSON{
		Kind:     v.Kind,
		Schedule: v.Schedule,
		Message:  v.Message,
		Replayed: v.Replayed,
		History:  newHistoryJSON(sys, v.Events),
		Steps:    newStepsJSON(sys, v.Steps),
	}
	if v.OriginalSteps > 0 {
		out.OriginalLength = v.OriginalSteps
	}
	return out
}

func newHistoryJSON(sys *model.System, events []histories.Event) historyJSON {
	spec := sys.Harness.Spec()
	h := historyJSON{Events: make([]eventJSON, len(events)), Timeline: histories.Timeline(sys, events)}
	for i, e := range events {
		in := sys.Harness.InputOf(e.Req)
		ev := eventJSON{Kind: e.Kind.String(), Client: sys.ActorName(e.Req.Client), Op: spec.Input(in)}
		if e.Kind == histories.Return {
			ev.Output = spec.Output(in, e.Output)
		}
		h.Events[i] = ev
	}
	return h
}

func newStepsJSON(sys *model.System, steps []explorer.Delivery) []stepJSON {
	out := make([]stepJSON, len(steps))
	for i, d := range steps {
		out[i] = stepJSON{
			Step:  i + 1,
			ID:    fmt.Sprintf("%016x", d.ID),
			Kind:  d.Kind.String(),
			From:  sys.ActorName(d.From),
			To:    sys.ActorName(d.To),
			Msg:   explorer.DescribeMessage(d.Msg),
			Timer: d.Timer,
		}
		if d.Kind.IsFault() {
			out[i].Msg = explorer.DescribeFault(sys, d)
		}
	}
	return out
}
