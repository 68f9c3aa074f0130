package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"
)

// config is one shipped system and harness.
type config struct{ sys, harness string }

// checkReport is what the table reads of `ravel check --json`.
type checkReport struct {
	States     int64 `json:"states"`
	Schedules  int64 `json:"schedules"`
	Again      int64 `json:"explored_again"`
	Complete   bool  `json:"complete"`
	Cut        int64 `json:"cut_schedules"`
	Canonical  int64 `json:"histories_canonical"`
	Violations int64 `json:"nonlinearizable_canonical"`
	Agents     int   `json:"agents"`
}

// counts is the part of a report that must not change from one run to the next.
func (r checkReport) counts() [6]int64 {
	return [6]int64{r.States, r.Schedules, r.Again, r.Cut, r.Canonical, r.Violations}
}

// smallCPU is the CPU seconds of ex+c's warm-up below which a configuration gets
// measurer.smallPairs pairs.
const smallCPU = 0.1

// measured is one process run: its report and its CPU (user + system) seconds.
type measured struct {
	rep checkReport
	cpu float64
}

// row is one configuration's line of the table.
type row struct {
	config
	exc, dporc       checkReport
	excCPU, dporcCPU float64 // medians
	ratio            float64 // the median of the pairs' ratios, dpor+c over ex+c
	stateless        *measured
	problems         []string // what does not hold on this row
}

// measurer runs ravel.
type measurer struct {
	ravel string
	pairs int
	// smallPairs replaces pairs where the warm-up of ex+c took less than smallCPU.
	smallPairs int
	limit      time.Duration
	progress   io.Writer // nil: quiet
	canonical  bool      // the cached runs with --canonical-states
}

func (m *measurer) args(c config, strategy string, caching bool) []string {
	on := "off"
	if caching {
		on = "on"
	}
	args := []string{"check", c.sys, "--harness", c.harness, "--strategy", strategy, "--state-caching", on,
		"--max-schedules", "0", "--json", "--quiet"}
	if caching && m.canonical {
		args = append(args, "--canonical-states")
	}
	return args
}

// once runs ravel with args; with limit > 0 it is interrupted after limit. A run that
// finds a violation exits 1, which is not a failure here.
func (m *measurer) once(ctx context.Context, args []string, limit time.Duration) (measured, error) {
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, m.ravel, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) && !(limit > 0 && ctx.Err() != nil) {
		return measured{}, fmt.Errorf("%s %v: %v: %s", m.ravel, args, err, bytes.TrimSpace(errb.Bytes()))
	}
	var r checkReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return measured{}, fmt.Errorf("%s %v: reading its report: %v", m.ravel, args, err)
	}
	return measured{r, cpuOf(cmd.ProcessState)}, nil
}

// cpuOf is a finished process's CPU in seconds, user and system, as the operating
// system counts it.
func cpuOf(st *os.ProcessState) float64 { return (st.UserTime() + st.SystemTime()).Seconds() }

// startupRuns is how many runs of `ravel list` startup takes the median of.
const startupRuns = 5

// startup returns the median CPU of `ravel list` over startupRuns runs after one
// warm-up: what a process costs before it searches. The table prints it because it
// decides how close to 1 the smallest runs' ratios are pulled: about 30 ms on the VM of
// the nineteenth round's table, 3 ms on the twentieth's.
func (m *measurer) startup(ctx context.Context) (float64, error) {
	var cpus []float64
	for i := range startupRuns + 1 {
		cmd := exec.CommandContext(ctx, m.ravel, "list")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("%s list: %v: %s", m.ravel, err, bytes.TrimSpace(errb.Bytes()))
		}
		if i > 0 {
			cpus = append(cpus, cpuOf(cmd.ProcessState))
		}
	}
	return median(cpus), nil
}

// measure runs one configuration: stateless dpor once, then a warm-up of each cached
// search and m.pairs pairs, dpor+c first.
func (m *measurer) measure(ctx context.Context, c config) (*row, error) {
	r := &row{config: c}
	m.say("%s/%s: ", c.sys, c.harness)
	if m.limit > 0 {
		s, err := m.once(ctx, m.args(c, "dpor", false), m.limit)
		if err != nil {
			return nil, err
		}
		r.stateless = &s
		m.say("dpor %.2f s; ", s.cpu)
	}
	exArgs, dpArgs := m.args(c, "exhaustive", true), m.args(c, "dpor", true)
	var exCPU, dpCPU, ratios []float64
	pairs, drift := m.pairs, false
	for i := 0; i <= pairs; i++ {
		dp, err := m.once(ctx, dpArgs, 0)
		if err != nil {
			return nil, err
		}
		ex, err := m.once(ctx, exArgs, 0)
		if err != nil {
			return nil, err
		}
		if i == 0 { // the warm-up: its counts are the row's
			r.exc, r.dporc = ex.rep, dp.rep
			if ex.cpu < smallCPU {
				pairs = m.smallPairs
			}
			continue
		}
		if (ex.rep.counts() != r.exc.counts() || dp.rep.counts() != r.dporc.counts()) && !drift {
			drift = true
			r.problems = append(r.problems, "counts differ from one run to the next")
		}
		exCPU, dpCPU = append(exCPU, ex.cpu), append(dpCPU, dp.cpu)
		ratios = append(ratios, dp.cpu/max(ex.cpu, 1e-9))
	}
	r.excCPU, r.dporcCPU, r.ratio = median(exCPU), median(dpCPU), median(ratios)
	r.check()
	m.say("ex+c %.2f s, dpor+c %.2f s, ratio %.2f\n", r.excCPU, r.dporcCPU, r.ratio)
	return r, nil
}

func (m *measurer) say(format string, args ...any) {
	if m.progress != nil {
		fmt.Fprintf(m.progress, format, args...)
	}
}

// check records on r what does not hold: both cached searches complete with no cut
// schedule and find the same canonical histories and violations, as stateless dpor
// does where it completes.
func (r *row) check() {
	bad := func(format string, args ...any) { r.problems = append(r.problems, fmt.Sprintf(format, args...)) }
	for _, s := range []struct {
		name string
		rep  checkReport
	}{{"ex+c", r.exc}, {"dpor+c", r.dporc}} {
		if !s.rep.Complete || s.rep.Cut > 0 {
			bad("%s: complete %v with %d cut schedules", s.name, s.rep.Complete, s.rep.Cut)
		}
	}
	same := func(name string, o checkReport) {
		if o.Canonical != r.exc.Canonical || o.Violations != r.exc.Violations {
			bad("%s: %d canonical histories, %d violations; ex+c: %d, %d", name, o.Canonical, o.Violations, r.exc.Canonical, r.exc.Violations)
		}
	}
	same("dpor+c", r.dporc)
	if s := r.stateless; s != nil && s.rep.Complete {
		same("dpor", s.rep)
	}
}

// median returns the median of xs (the mean of the middle two of an even count), 0 for
// none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
