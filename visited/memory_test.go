//go:build linux

package visited

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The memory bound of docs/visited-states.md: a visited set ten times its budget stays
// within the budget plus 64 MiB, under the soft Go memory limit `ravel check` sets with
// state caching (badger's read garbage would otherwise wait for the collector).
// TestVisitedMemoryBound asserts it on the process's
// anonymous memory (RssAnon: the heap, the table and filter mapped from the OS, the
// runs' index), which is what the budget limits; pages of files — the store's, if it
// maps them, and the binary's — belong to the kernel's page cache and are logged only.

const (
	boundChildEnv = "RAVEL_VISITED_BOUND_CHILD"
	boundBudget   = 4 << 20
	// boundMargin is the allowance above the budget (issue 14's target), for badger's
	// memtables and read garbage and the runtime. The child runs with the same soft
	// limit as the command line (ravelcli's goHeapLimit).
	boundMargin = 64 << 20
	boundPrefix = "peak-rss-anon-bytes "
)

// TestVisitedMemoryBound runs the workload in a process of its own, so that nothing
// else of the test binary counts, and asserts the child's peak anonymous memory.
func TestVisitedMemoryBound(t *testing.T) {
	if os.Getenv(boundChildEnv) != "" {
		t.Skip("in the child process")
	}
	if testing.Short() {
		t.Skip("spills about 20 MiB to disk; skipped with -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestVisitedMemoryBoundChild$", "-test.v")
	cmd.Env = append(os.Environ(), boundChildEnv+"=1", "GOMEMLIMIT=48MiB")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s", err, out.String())
	}
	var peak int64 = -1
	for _, line := range strings.Split(out.String(), "\n") {
		if _, v, ok := strings.Cut(line, boundPrefix); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				t.Fatalf("child printed %q: %v", line, err)
			}
			peak = n
		}
	}
	if peak <= 0 {
		t.Fatalf("the child did not report its peak:\n%s", out.String())
	}
	var maxRSS int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = int64(ru.Maxrss) << 10 // kB on Linux (an int32 on 32-bit platforms)
	}
	t.Logf("budget %d MiB: peak RssAnon %.1f MiB (sampled), peak RSS %.1f MiB (getrusage, file pages included)",
		boundBudget>>20, float64(peak)/(1<<20), float64(maxRSS)/(1<<20))
	if limit := int64(boundBudget + boundMargin); peak > limit {
		t.Errorf("peak anonymous memory %.1f MiB, above the budget %d MiB + %d MiB\n%s",
			float64(peak)/(1<<20), boundBudget>>20, boundMargin>>20, out.String())
	}
}

// TestVisitedMemoryBoundChild is the child's workload: ten times as many distinct
// fingerprints as the budget holds in memory, half of all Adds revisiting a uniformly
// chosen earlier one (the worst case for the disk), sampling RssAnon every 16,384 Adds.
func TestVisitedMemoryBoundChild(t *testing.T) {
	if os.Getenv(boundChildEnv) == "" {
		t.Skip("run by TestVisitedMemoryBound in a process of its own")
	}
	v, err := Open(Options{MemBytes: boundBudget, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// The table gets two thirds of the budget, 8 bytes a slot, at most 3/4 full.
	inMem := uint64(boundBudget) * 2 / 3 / 8 * 3 / 4
	target := 10 * inMem
	r := rand.New(rand.NewPCG(1, 1))
	var uniq, adds uint64
	var peak int64
	for uniq < target {
		adds++
		fp := benchFP(uniq + 1)
		if uniq > 0 && r.IntN(2) == 0 {
			fp = benchFP(1 + r.Uint64N(uniq))
		} else {
			uniq++
		}
		if _, err := v.Add(fp); err != nil {
			t.Fatal(err)
		}
		if adds%(1<<14) == 0 {
			peak = max(peak, procStatus()["RssAnon"])
		}
	}
	peak = max(peak, procStatus()["RssAnon"])
	st := v.Stats()
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	if st.States != uniq || st.Spilled < uniq/2 {
		t.Fatalf("%d states, %d spilled; want %d states, most of them spilled", st.States, st.Spilled, uniq)
	}
	fmt.Printf("%s%d\n", boundPrefix, peak)
}
