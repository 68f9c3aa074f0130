package wgl

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// withSplit runs f with segments of at least minSeg operations and at most ends end
// states carried, restoring the settings after.
func withSplit(minSeg, ends int, f func()) {
	savedSeg, savedEnds := minSegment, maxEnds
	defer func() { minSegment, maxEnds = savedSeg, savedEnds }()
	minSegment, maxEnds = minSeg, ends
	f()
}

// noSplit is a minSegment that no history reaches: one segment, the plain search.
const noSplit = 1 << 30

// splitStats runs the split search of a whole unpartitioned history and returns how many
// segments it searched and the most start states one had.
func splitStats[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) (segments, widest int) {
	idx := make([]int, len(ops))
	for i := range idx {
		idx[i] = i
	}
	d := newSplitSearch(spec, ops, idx, nil)
	d.run(-1, nil)
	return d.segments, d.widest
}

// splitAgree checks ops split at every quiescent cut (with ends end states at most,
// beyond which a segment is given up), and whole, against CheckBruteForce, verifying
// the witness or the explanation of each.
func splitAgree[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], ends int) (Verdict, error) {
	var split, whole Result
	var err error
	withSplit(1, ends, func() { split, err = checkAndVerify(spec, ops) })
	if err != nil {
		return split.Verdict, fmt.Errorf("split: %w", err)
	}
	withSplit(noSplit, ends, func() { whole, err = checkAndVerify(spec, ops) })
	if err != nil {
		return whole.Verdict, fmt.Errorf("whole: %w", err)
	}
	want := CheckBruteForce(spec, ops)
	if split.Verdict != want || whole.Verdict != want {
		return split.Verdict, fmt.Errorf("split %v, whole %v, CheckBruteForce %v", split.Verdict, whole.Verdict, want)
	}
	if split.Verdict == NotLinearizable {
		if err := verifyExplanation(spec, ops, split); err != nil {
			return split.Verdict, fmt.Errorf("split: explanation %v then %d: %w", split.Prefix, split.Stuck, err)
		}
	}
	return split.Verdict, nil
}

// TestSplitAgainstBruteForce compares the check split at quiescent cuts with the check
// unsplit and with CheckBruteForce on random histories of short operations, so that cuts
// are many, with and without open operations, where a segment often ends in several
// states (concurrent writes, appends, swaps): the verdicts must agree, and every witness
// and explanation be valid — an explanation in a later segment included, whose prefix
// runs through the earlier ones. maxEnds 1 makes segments with several end states give
// up, which must change nothing.
func TestSplitAgainstBruteForce(t *testing.T) {
	type stats struct {
		tally
		split, wide int
	}
	run := func(t *testing.T, name string, seedBase uint64, one func(r *rand.Rand, n, dur, open, ends int) (Verdict, int, int, error)) {
		t.Run(name, func(t *testing.T) {
			var c stats
			for i := range 3000 {
				seed := seedBase + uint64(i)
				r := rand.New(rand.NewPCG(seed, 0))
				n, dur := 2+r.IntN(maxPropertyOps-1), r.IntN(3)
				open := []int{0, 0, 8}[r.IntN(3)]
				ends := []int{256, 1}[r.IntN(2)]
				v, segs, widest, err := one(r, n, dur, open, ends)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if v == Linearizable {
					c.lin++
				} else {
					c.notLin++
				}
				if segs > 1 {
					c.split++
				}
				if widest > 1 {
					c.wide++
				}
			}
			t.Logf("%d linearizable, %d not; %d split, %d with a segment of several start states", c.lin, c.notLin, c.split, c.wide)
			if c.lin < 300 || c.notLin < 300 || c.split < 1000 || c.wide < 100 {
				t.Errorf("want at least 300 linearizable, 300 not, 1000 split and 100 with several start states")
			}
		})
	}
	unpartitioned := func(g gen[int, specs.RegisterInput, specs.RegisterOutput]) func(r *rand.Rand, n, dur, open, ends int) (Verdict, int, int, error) {
		return func(r *rand.Rand, n, dur, open, ends int) (Verdict, int, int, error) {
			ops := g.historyOpen(r, n, dur, r.IntN(outModes), open)
			v, err := splitAgree(g.spec, ops, ends)
			if err != nil {
				return v, 0, 0, fmt.Errorf("%w; history:%s", err, describe(g.spec, ops))
			}
			var segs, widest int
			withSplit(1, ends, func() { segs, widest = splitStats(g.spec, ops) })
			return v, segs, widest, nil
		}
	}
	run(t, "register", 11_000_000, unpartitioned(registerGen()))
	cas := casGen()
	run(t, "cas-register", 12_000_000, func(r *rand.Rand, n, dur, open, ends int) (Verdict, int, int, error) {
		ops := cas.historyOpen(r, n, dur, r.IntN(outModes), open)
		v, err := splitAgree(cas.spec, ops, ends)
		if err != nil {
			return v, 0, 0, fmt.Errorf("%w; history:%s", err, describe(cas.spec, ops))
		}
		var segs, widest int
		withSplit(1, ends, func() { segs, widest = splitStats(cas.spec, ops) })
		return v, segs, widest, nil
	})
	kv := kvGenKeys(1) // one key: the whole history is one partition, and its stats are the key's
	run(t, "kv", 13_000_000, func(r *rand.Rand, n, dur, open, ends int) (Verdict, int, int, error) {
		ops := kv.historyOpen(r, n, dur, r.IntN(outModes), open)
		v, err := splitAgree(kv.spec, ops, ends)
		if err != nil {
			return v, 0, 0, fmt.Errorf("%w; history:%s", err, describe(kv.spec, ops))
		}
		var segs, widest int
		withSplit(1, ends, func() { segs, widest = splitStats(kv.spec, ops) })
		return v, segs, widest, nil
	})
}

// TestSplitPartitioned: the split inside each key's partition, checked side by side in
// fine rounds and on several goroutines, agrees with the whole check on larger kv
// histories of several keys (beyond the brute force), with valid witnesses and
// explanations.
func TestSplitPartitioned(t *testing.T) {
	g := kvGenKeys(3)
	var c tally
	for i := range 300 {
		seed := uint64(14_000_000 + i)
		r := rand.New(rand.NewPCG(seed, 0))
		ops := g.historyOpen(r, parallelAbove+r.IntN(200), r.IntN(3), r.IntN(outModes), []int{0, 40}[r.IntN(2)])
		savedRound := firstRound
		firstRound = 3
		var split, whole Result
		var err error
		withSplit(1, 256, func() { split, err = checkAndVerify(g.spec, ops) })
		firstRound = savedRound
		if err != nil {
			t.Fatalf("seed %d: split: %v", seed, err)
		}
		withSplit(noSplit, 256, func() { whole = Check(g.spec, ops) })
		if split.Verdict != whole.Verdict {
			t.Fatalf("seed %d: split %v, whole %v", seed, split.Verdict, whole.Verdict)
		}
		if split.Verdict == NotLinearizable {
			if err := verifyExplanation(g.spec, ops, split); err != nil {
				t.Fatalf("seed %d: explanation: %v", seed, err)
			}
			c.notLin++
		} else {
			c.lin++
		}
	}
	t.Logf("%d linearizable, %d not", c.lin, c.notLin)
	if c.lin < 40 || c.notLin < 40 {
		t.Errorf("want at least 40 of each")
	}
}

// TestSplitLong: a long history of sequential writes with a wrong read near the end is
// split into many segments, and the explanation's prefix runs through all of them; the
// same history without the wrong read is linearizable with a witness of every operation.
func TestSplitLong(t *testing.T) {
	ops := sequentialWrites(5000)
	res, err := checkAndVerify(specs.Register(), ops)
	if err != nil || res.Verdict != Linearizable {
		t.Fatalf("sequential writes: %v, %v", res.Verdict, err)
	}
	segs, widest := splitStats(specs.Register(), ops)
	if want := 5000 / minSegment; segs < want-1 || widest != 1 {
		t.Errorf("%d segments of at most %d start states; want about %d of one", segs, widest, want)
	}
	bad := slices.Clone(ops)
	bad[4900].Input, bad[4900].Output = specs.Read(), specs.ReadOK(12345)
	res = Check(specs.Register(), bad)
	if res.Verdict != NotLinearizable || res.Stuck != 4900 || len(res.Prefix) != 4900 {
		t.Fatalf("with a wrong read at 4900: %v, stuck %d after %d operations; want not-linearizable, 4900 after 4900",
			res.Verdict, res.Stuck, len(res.Prefix))
	}
	if err := verifyExplanation(specs.Register(), bad, res); err != nil {
		t.Error(err)
	}
}

// TestSplitResumable: the split search stopped by stop (within a segment or between
// them) and by step budgets goes on to the same outcome, in the same number of steps, as
// one uninterrupted run — what the rounds of partitioned checks rely on.
func TestSplitResumable(t *testing.T) {
	g := registerGen()
	for i := range 200 {
		seed := uint64(15_000_000 + i)
		r := rand.New(rand.NewPCG(seed, 0))
		ops := g.historyOpen(r, 200+r.IntN(300), r.IntN(4), r.IntN(outModes), []int{0, 50}[r.IntN(2)])
		idx := make([]int, len(ops))
		for i := range idx {
			idx[i] = i
		}
		withSplit(4, 4, func() {
			whole := newSplitSearch(g.spec, ops, idx, nil)
			whole.run(-1, nil)
			want := whole.outcome()
			d := newSplitSearch(g.spec, ops, idx, nil)
			polls := 0
			for k := int64(1); !d.run(k, func() bool { polls++; return polls%3 == 0 }); k = k%7 + 1 {
			}
			got := d.outcome()
			if got.verdict != want.verdict || got.steps != want.steps || !slices.Equal(got.witness, want.witness) ||
				!slices.Equal(got.prefix, want.prefix) || got.stuck != want.stuck {
				t.Fatalf("seed %d: in pieces %+v, at once %+v", seed, got, want)
			}
		})
	}
}

// TestSplitStops: a search of a long history split into one-operation segments (none
// reaches a poll on its own) still looks at stop, and stops when told.
func TestSplitStops(t *testing.T) {
	ops := sequentialWrites(200_000)
	polls := 0
	stopAfter := func() bool { polls++; return polls == 5 }
	withSplit(1, 256, func() {
		idx := make([]int, len(ops))
		for i := range idx {
			idx[i] = i
		}
		d := newSplitSearch(specs.Register(), ops, idx, nil)
		if d.run(-1, stopAfter) {
			t.Fatalf("the search ended (%v) although stop said to stop", d.verdict)
		}
		if polls != 5 {
			t.Errorf("stop was looked at %d times, want 5", polls)
		}
	})
}
