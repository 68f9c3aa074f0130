package visited

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// benchFP is the i-th fingerprint of the benchmarks: distinct for distinct i, well mixed,
// never 0 for i ≥ 1.
func benchFP(i uint64) uint64 { return filterMix(i) }

// prefilledVisited returns an in-memory set holding benchFP(1..n).
func prefilledVisited(b *testing.B, n uint64) *Set {
	v, err := Open(Options{MemBytes: 8 << 30})
	if err != nil {
		b.Fatal(err)
	}
	for i := uint64(1); i <= n; i++ {
		if _, err := v.Add(benchFP(i)); err != nil {
			b.Fatal(err)
		}
	}
	return v
}

// BenchmarkVisitedAdd measures one in-memory Add: of a fingerprint already in the set
// (revisit) and of a new one (new), in a set of n fingerprints. The new case refills the
// set, untimed, whenever the table would have to grow, so growth is not included;
// new-amortized starts from an empty set and includes every doubling.
func BenchmarkVisitedAdd(b *testing.B) {
	for _, n := range []uint64{1 << 14, 1 << 20, 1 << 24} {
		b.Run(fmt.Sprintf("revisit/n=%d", n), func(b *testing.B) {
			v := prefilledVisited(b, n)
			defer v.Close()
			var i uint64
			for b.Loop() {
				// 0x9E3779B97F4A7C15 is odd, so i·c mod n visits every key in a scattered order
				i++
				if isNew, _ := v.Add(benchFP(1 + (i*0x9E3779B97F4A7C15)%n)); isNew {
					b.Fatal("not a revisit")
				}
			}
		})
		b.Run(fmt.Sprintf("new/n=%d", n), func(b *testing.B) {
			v := prefilledVisited(b, n)
			next := n + 1
			b.ResetTimer()
			for range b.N {
				if v.used+1 >= v.limit {
					b.StopTimer()
					v.Close()
					v = prefilledVisited(b, n)
					next = n + 1
					b.StartTimer()
				}
				next++
				if isNew, _ := v.Add(benchFP(next)); !isNew {
					b.Fatal("not new")
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(len(v.slots))*8/(1<<20), "table-MiB")
			v.Close()
		})
	}
	b.Run("new-amortized", func(b *testing.B) {
		v, err := Open(Options{MemBytes: 8 << 30})
		if err != nil {
			b.Fatal(err)
		}
		defer v.Close()
		var i uint64
		for b.Loop() {
			i++
			v.Add(benchFP(i))
		}
	})
}

// visitedBenchStream is the stream of BenchmarkVisitedStream: 2 million Adds, 1 million
// of them new; each of the others repeats a uniformly chosen earlier fingerprint
// ("uniform", the worst case for a cache) or one of the last 4096 ("local", closer to
// the diamonds of a depth-first search).
func visitedBenchStream(local bool) []uint64 {
	r := rand.New(rand.NewPCG(7, 7))
	out := make([]uint64, 0, 2_000_000)
	var uniq uint64
	for len(out) < cap(out) {
		if uniq == 0 || r.IntN(2) == 0 {
			uniq++
			out = append(out, benchFP(uniq))
			continue
		}
		lo := uint64(0)
		if local && uniq > 4096 {
			lo = uniq - 4096
		}
		out = append(out, benchFP(1+lo+r.Uint64N(uniq-lo)))
	}
	return out
}

// BenchmarkVisitedStream runs the same stream of Adds fully in memory and with a budget a
// tenth of the memory the in-memory run ends up using, and reports ns per Add; one
// benchmark op is the whole stream. The spilled variants also report disk reads per Add,
// the filter's false-positive rate on new fingerprints, and the ratio to the in-memory
// time of the same stream (measured once, untimed, before the spilled runs).
func BenchmarkVisitedStream(b *testing.B) {
	for _, kind := range []string{"uniform", "local"} {
		stream := visitedBenchStream(kind == "local")
		run := func(b *testing.B, mem int64) (time.Duration, Stats) {
			v, err := Open(Options{MemBytes: mem, Dir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			for _, fp := range stream {
				if _, err := v.Add(fp); err != nil {
					b.Fatal(err)
				}
			}
			d := time.Since(start)
			st := v.Stats()
			if err := v.Close(); err != nil {
				b.Fatal(err)
			}
			return d, st
		}
		memTime, memStats := run(b, 8<<30)
		need := memStats.MemBytes
		b.Run(kind+"/mem", func(b *testing.B) {
			for b.Loop() {
				run(b, 8<<30)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(stream)), "ns/add")
			b.ReportMetric(float64(need)/(1<<20), "mem-MiB")
		})
		b.Run(kind+"/spill10", func(b *testing.B) {
			var st Stats
			for b.Loop() {
				_, st = run(b, need/10)
			}
			perAdd := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(stream))
			b.ReportMetric(perAdd, "ns/add")
			b.ReportMetric(perAdd/(float64(memTime.Nanoseconds())/float64(len(stream))), "x-mem")
			b.ReportMetric(float64(st.DiskReads)/float64(len(stream)), "diskreads/add")
			b.ReportMetric(100*float64(st.FilterFalsePositives)/float64(st.States), "fp%")
			b.ReportMetric(float64(st.Spilled)/float64(st.States)*100, "spilled%")
			b.ReportMetric(float64(need/10)/(1<<20), "mem-MiB")
		})
	}
}

// TestVisitedPeakMemory is a measurement, not a test: with RAVEL_VISITED_PEAK=SIZE (say
// 64MiB) it adds ten times as many distinct fingerprints as a SIZE budget holds in memory
// (half of all Adds are revisits of a uniformly chosen earlier fingerprint) and reports
// time, the set's counters, the Go heap and the process's resident memory. Run it in a
// process of its own to read the peak RSS:
//
//	go test -c -o /tmp/snapshot.test ./snapshot
//	RAVEL_VISITED_PEAK=64MiB /usr/bin/time -v /tmp/snapshot.test -test.run TestVisitedPeakMemory -test.v
//
// RAVEL_VISITED_PEAK_FACTOR changes the ten, RAVEL_VISITED_PEAK_DIR the directory;
// RAVEL_VISITED_PEAK_HEAP=FILE writes a heap profile before the set is closed.
func TestVisitedPeakMemory(t *testing.T) {
	size := os.Getenv("RAVEL_VISITED_PEAK")
	if size == "" {
		t.Skip("set RAVEL_VISITED_PEAK=SIZE to measure")
	}
	mem, err := ParseSize(size)
	if err != nil {
		t.Fatal(err)
	}
	factor := 10.0
	if f := os.Getenv("RAVEL_VISITED_PEAK_FACTOR"); f != "" {
		if factor, err = strconv.ParseFloat(f, 64); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Open(Options{MemBytes: mem, Dir: os.Getenv("RAVEL_VISITED_PEAK_DIR")})
	if err != nil {
		t.Fatal(err)
	}
	inMem := uint64(v.tableWords()) * 3 / 4 // what the budget holds before anything spills
	target := uint64(factor * float64(inMem))
	r := rand.New(rand.NewPCG(1, 1))
	var uniq, adds uint64
	var peakAnon, peakFile int64
	start := time.Now()
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
		if adds%(1<<18) == 0 {
			s := procStatus()
			peakAnon = max(peakAnon, s["RssAnon"])
			peakFile = max(peakFile, s["RssFile"])
		}
	}
	elapsed := time.Since(start)
	st := v.Stats()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s := procStatus()
	diskBytes := dirBytes(v.Dir())
	if path := os.Getenv("RAVEL_VISITED_PEAK_HEAP"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.WriteHeapProfile(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	closeStart := time.Now()
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	closeTime := time.Since(closeStart)
	mib := func(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
	t.Logf("budget %s (%d fingerprints in memory); %d distinct (%.1f×), %d Adds in %v: %.0f ns/add",
		mib(mem), inMem, uniq, float64(uniq)/float64(inMem), adds, elapsed.Round(time.Millisecond),
		float64(elapsed.Nanoseconds())/float64(adds))
	t.Logf("stats %+v; filter FP %.2f%% of new; disk %s (%.1f bytes/fingerprint)", st,
		100*float64(st.FilterFalsePositives)/float64(st.States), mib(diskBytes), float64(diskBytes)/float64(st.Spilled))
	t.Logf("Go heap: HeapInuse %s, HeapSys %s, Sys %s, TotalAlloc %s, NumGC %d",
		mib(int64(ms.HeapInuse)), mib(int64(ms.HeapSys)), mib(int64(ms.Sys)), mib(int64(ms.TotalAlloc)), ms.NumGC)
	t.Logf("RSS: peak (VmHWM) %s, now %s; sampled peak RssAnon %s, RssFile %s; Close took %v",
		mib(s["VmHWM"]), mib(s["VmRSS"]), mib(peakAnon), mib(peakFile), closeTime.Round(time.Millisecond))
}

// procStatus returns the memory lines of /proc/self/status, in bytes (empty off Linux).
func procStatus() map[string]int64 {
	out := map[string]int64{}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, val, ok := strings.Cut(sc.Text(), ":")
		fields := strings.Fields(val)
		if !ok || len(fields) != 2 || fields[1] != "kB" {
			continue
		}
		if n, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
			out[k] = n << 10
		}
	}
	return out
}

// dirBytes is the size of the store's run files in dir.
func dirBytes(dir string) int64 {
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), "run-") {
			n += info.Size()
		}
	}
	return n
}

// BenchmarkVisitedStoreWrite measures writing one sorted batch of fingerprints to a fresh
// store, per fingerprint (what a spill costs beyond the sort).
func BenchmarkVisitedStoreWrite(b *testing.B) {
	const n = 1 << 20
	batch := make([]uint64, n)
	for i := range batch {
		batch[i] = benchFP(uint64(i + 1))
	}
	slices.Sort(batch)
	for b.Loop() {
		b.StopTimer()
		s, err := openStore(b.TempDir(), false, openMode{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := s.write(batch); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
}

// BenchmarkVisitedStoreGet measures one lookup in a store of 4 million
// fingerprints written in 8 batches, as a set spilling 8 times leaves it: of a
// fingerprint on disk (hit) and of one that is not (miss, a filter false positive).
func BenchmarkVisitedStoreGet(b *testing.B) {
	const n, batches = 1 << 22, 8
	s, err := openStore(b.TempDir(), false, openMode{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	for k := range uint64(batches) {
		batch := make([]uint64, 0, n/batches)
		for i := range uint64(n / batches) {
			batch = append(batch, benchFP(1+k*n/batches+i))
		}
		slices.Sort(batch)
		if err := s.write(batch); err != nil {
			b.Fatal(err)
		}
	}
	for _, hit := range []bool{true, false} {
		b.Run(map[bool]string{true: "hit", false: "miss"}[hit], func(b *testing.B) {
			var i uint64
			for b.Loop() {
				i++
				fp := benchFP(1 + (i*0x9E3779B97F4A7C15)%n)
				if !hit {
					fp = benchFP(n + i)
				}
				if found, err := s.has(fp); err != nil || found != hit {
					b.Fatal(found, err)
				}
			}
		})
	}
}
