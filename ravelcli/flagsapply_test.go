package ravelcli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestInapplicableFlagsRefused: a flag given explicitly that does not apply to the
// strategy or the other options is refused before any work, exit 2, in one line that
// names the flag, why, and what it applies to (the probe's C2 examples).
func TestInapplicableFlagsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "visited")
	for _, c := range []struct {
		name string
		args string
		want string
	}{
		{"delays with random", "--strategy random --delays 2 --max-schedules 5", "the random strategy ignores --delays (it applies to delay-bounded)"},
		{"depth with exhaustive", "--depth 2", "the exhaustive strategy ignores --depth (it applies to pctcp, tapct and dpos)"},
		{"depth with pos", "--strategy pos --depth 2 --max-schedules 5", "the pos strategy ignores --depth (it applies to pctcp, tapct and dpos)"},
		{"events with tapct", "--strategy tapct --events 5 --max-schedules 5", "the tapct strategy ignores --events (it applies to pctcp)"},
		{"racy with pctcp", "--strategy pctcp --racy declared --max-schedules 5", "the pctcp strategy ignores --racy (it applies to tapct and dpos)"},
		{"chain partition with dpos", "--strategy dpos --chain-partition ag --max-schedules 5", "the dpos strategy ignores --chain-partition (it applies to pctcp and tapct)"},
		{"run with exhaustive", "--run 3", "the exhaustive strategy ignores --run (it applies to random, rapos, pos, pctcp, tapct and dpos)"},
		{"fault probability with exhaustive", "--fault-probability 0.5", "the exhaustive strategy ignores --fault-probability (it applies to random)"},
		{"fault probability without faults", "--strategy random --fault-probability 0.5 --max-schedules 5", "--fault-probability needs a fault budget"},
		{"partition hold without partitions", "--partition-hold", "--partition-hold needs a --partition budget"},
		{"crash stop without crashes", "--crash-stop", "--crash-stop needs a --crash budget"},
		{"visited memory without caching", "--visited-mem 1KB", "--visited-mem needs --state-caching on"},
		{"visited dir without caching", "--visited-dir " + dir, "--visited-dir needs --state-caching on"},
		{"visited dir with a checkpoint", "--state-caching on --visited-dir " + dir + " --checkpoint " + filepath.Join(filepath.Dir(dir), "ck"), "--visited-dir does not apply with --checkpoint and --resume: a checkpointed run's visited states spill into the checkpoint directory"},
		{"visited dir with a resume", "--state-caching on --visited-dir " + dir + " --resume " + filepath.Join(filepath.Dir(dir), "ck"), "--visited-dir does not apply with --checkpoint and --resume"},
		{"checkpoint interval without checkpoints", "--strategy random --max-schedules 5 --checkpoint-every 5s", "--checkpoint-every needs --checkpoint or --resume"},
		{"visited memory 0", "--state-caching on --visited-mem 0", "--visited-mem must be at least 4KiB, got 0"},
		{"max states 0 without caching", "--max-states 0", "--max-states needs --state-caching on"},
		{"calibration with nothing to calibrate", "--strategy pctcp --events 5 --calibration 4 --max-schedules 5", "--calibration needs something to calibrate"},
		{"calibration with pos", "--strategy pos --calibration 4 --max-schedules 5", "the pos strategy ignores --calibration (it applies to pctcp, tapct and dpos)"},
		{"dependence with exhaustive", "--dependence key", "the exhaustive strategy ignores --dependence (it applies to random, dpor, dpor-source, transdpor, ired, liviola, rapos, pos, pctcp, tapct and dpos)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runRavel(append([]string{"check", "register", "--quiet"}, strings.Fields(c.args)...)...)
			if code != exitUsage {
				t.Errorf("exit = %d, want 2; stderr %q", code, stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, c.want)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 || stdout != "" {
				t.Errorf("not one line before any work: stdout %q, stderr %q", stdout, stderr)
			}
		})
	}
}

// TestApplicableFlagsAccepted: the same flags, where they apply, run.
func TestApplicableFlagsAccepted(t *testing.T) {
	for _, args := range []string{
		"--strategy random --drop 1 --fault-probability 0.5 --max-schedules 5",
		"--strategy random --dependence history --max-schedules 5",
		"--strategy pctcp --depth 2 --run 3 --chain-partition singleton --max-schedules 5",
		"--strategy tapct --racy-events 4 --racy auto --max-schedules 5",
		"--strategy tapct --racy-events 4 --calibration 4 --max-schedules 5",
		"--strategy pctcp --calibration 4 --max-schedules 5",
		"--partition 1 --partition-hold --max-schedules 5",
		"--crash 1 --crash-stop --max-schedules 5",
		"--state-caching on --visited-mem 4KiB --max-states 10 --max-schedules 5",
		"--strategy dpor-source --dependence actor --max-schedules 5",
		"--strategy delay-bounded --delays 1 --max-schedules 5",
		"--state-caching on --max-schedules 5 --checkpoint-every 5s --checkpoint " + filepath.Join(t.TempDir(), "ck"),
	} {
		t.Run(args, func(t *testing.T) {
			code, _, stderr := runRavel(append([]string{"check", "register", "--quiet"}, strings.Fields(args)...)...)
			if code == exitUsage {
				t.Errorf("exit 2: %s", stderr)
			}
		})
	}
}

// TestBenchNotesInapplicable: bench runs several strategies, so a flag that applies to
// some of them is noted for the others, not refused.
func TestBenchNotesInapplicable(t *testing.T) {
	code, _, stderr := runRavel("bench", "--systems", "register", "--harness", "2r1w", "--strategies", "exhaustive,dpor", "--dependence", "actor", "--max-schedules", "5", "--st=false")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "bench: the exhaustive strategy ignores --dependence\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
	if strings.Contains(stderr, "dpor strategy ignores") {
		t.Errorf("dpor said to ignore --dependence: %q", stderr)
	}
}

// TestExploreAgentsAsCheck: explore refuses the agent counts check refuses, in the same
// words. Each command line also has a bad --port, refused after the agents, so that no
// server starts whatever explore makes of the agents.
func TestExploreAgentsAsCheck(t *testing.T) {
	for _, n := range []string{"0", "99", "-5"} {
		t.Run(n, func(t *testing.T) {
			_, _, checkErr := runRavel("check", "register", "--agents", n)
			code, stdout, stderr := runRavel("explore", "register", "--agents", n, "--port", "-1")
			if code != exitUsage || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, stdout)
			}
			if want := strings.Replace(checkErr, "ravel: check:", "ravel: explore:", 1); stderr != want {
				t.Errorf("explore says %q, want %q, as check does", stderr, want)
			}
		})
	}
}

// TestBenchDepsCheckEverySystemFirst: bench and deps refuse a harness (or name given
// twice, or strategy) that one system does not take before running any other system:
// nothing on stdout, exit 2, one line.
func TestBenchDepsCheckEverySystemFirst(t *testing.T) {
	for _, c := range []struct {
		name string
		args string
		want string
	}{
		{"bench harness of another system", "bench --systems register,gossip --harness 2r1w --st=false --max-schedules 5 --quiet", `bench gossip: unknown harness "2r1w" (valid: writes, rw)`},
		{"deps second harness unknown", "deps --systems register --harness 2r1w,nosuch --commute=false --max-schedules 5 --quiet", `deps register: unknown harness "nosuch" (valid: 2r1w, 2r2w, 1r1w)`},
		{"deps harness of another system", "deps --systems register,gossip --harness 2r1w --commute=false --max-schedules 5 --quiet", `deps gossip: unknown harness "2r1w"`},
		{"bench strategy twice", "bench --systems register --strategies exhaustive,exhaustive --st=false --max-schedules 5 --quiet", "bench: --strategies names exhaustive twice"},
		{"bench system twice", "bench --systems register,register --strategies exhaustive --st=false --max-schedules 5 --quiet", "bench: --systems names register twice"},
		{"deps dependence twice", "deps --systems register --dependence actor,actor --max-schedules 5 --quiet", "deps: --dependence names actor twice"},
		{"deps unknown strategy", "deps --strategies pos", `deps: unknown strategy "pos" (valid: dpor, dpor-source, transdpor, ired, liviola)`},
		{"deps strategy of no relation", "deps --strategies exhaustive", `deps: strategy "exhaustive" reduces by no dependence relation (valid: dpor, dpor-source, transdpor, ired, liviola)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runRavel(strings.Fields(c.args)...)
			if code != exitUsage || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 before any run", code, stdout)
			}
			if !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("stderr = %q, want one line with %q", stderr, c.want)
			}
		})
	}
}

// TestBoolFlagWithSpacedValue: "--minimize false" reads as a flag and an argument; the
// error says how to write the value, not that there are two systems.
func TestBoolFlagWithSpacedValue(t *testing.T) {
	for _, c := range []struct {
		args string
		want string
	}{
		{"check register-buggy --minimize false", "ravel: check: --minimize false: a boolean flag takes its value after =, as --minimize=false"},
		{"check --quiet true register", "ravel: check: --quiet true: a boolean flag takes its value after =, as --quiet=true"},
		{"bench --st false", "ravel: bench: --st false: a boolean flag takes its value after =, as --st=false"},
		// Not after a boolean flag: the value is the flag's own.
		{"check register --harness true", `unknown harness "true"`},
	} {
		t.Run(c.args, func(t *testing.T) {
			code, stdout, stderr := runRavel(strings.Fields(c.args)...)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, c.want)
			}
		})
	}
}

// TestWorkloadsKeys: a key given twice is refused, not silently replaced by the last,
// and a count below 1 says that at least 1 is needed.
func TestWorkloadsKeys(t *testing.T) {
	for _, c := range []struct {
		spec string
		want string
	}{
		{"all:ops=2,clients=2,ops=3", "ops given twice"},
		{"random:n=5,seed=1,seed=2", "seed given twice"},
		{"all:ops=0", "ops must be at least 1, got 0"},
		{"random:n=0", "n must be at least 1, got 0"},
	} {
		t.Run(c.spec, func(t *testing.T) {
			code, stdout, stderr := runRavel("check", "register", "--quiet", "--workloads", c.spec)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, c.want)
			}
		})
	}
}

// TestListNamesColumnsNarrow: the tables after the systems' start their descriptions
// soon after the longest name, not after the systems' wide harness column.
func TestListNamesColumnsNarrow(t *testing.T) {
	code, stdout, stderr := runRavel("list")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, header := range []string{"STRATEGY", "DEPENDENCE", "FAULT (flag)", "SPECIFICATION"} {
		for _, line := range strings.Split(stdout, "\n") {
			if !strings.HasPrefix(line, header+" ") {
				continue
			}
			if at := strings.Index(line, "WHAT"); header != "SPECIFICATION" && (at < 0 || at > 30) {
				t.Errorf("%q: WHAT at column %d, want at most 30", line, at)
			}
			if at := strings.Index(line, "FORMATS"); header == "SPECIFICATION" && (at < 0 || at > 30) {
				t.Errorf("%q: FORMATS at column %d, want at most 30", line, at)
			}
		}
	}
}
