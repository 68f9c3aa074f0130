package wgl

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// agree checks ops with Check, with Check forced onto the general memo, with Check
// split at every quiescent cut, and with CheckBruteForce, and returns the verdict or what went wrong. wantLin says the history
// was built linearizable.
func agree[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], wantLin bool) (Verdict, error) {
	res, err := checkAndVerify(spec, ops)
	if err != nil {
		return res.Verdict, err
	}
	saved := smallMemoMax
	smallMemoMax = 0
	general := Check(spec, ops)
	smallMemoMax = saved
	// The memo changes nothing but speed, so the search takes the same path.
	if general.Verdict != res.Verdict || !slices.Equal(general.Witness, res.Witness) ||
		general.Partition != res.Partition {
		return res.Verdict, fmt.Errorf("with the general memo: %v %v %q, with the one-word memo: %v %v %q",
			general.Verdict, general.Witness, general.Partition, res.Verdict, res.Witness, res.Partition)
	}
	// Split at every quiescent cut: the same verdict, a valid witness or explanation.
	var split Result
	withSplit(1, maxEnds, func() { split, err = checkAndVerify(spec, ops) })
	if err != nil {
		return res.Verdict, fmt.Errorf("split at every cut: %w", err)
	}
	if split.Verdict != res.Verdict {
		return res.Verdict, fmt.Errorf("split at every cut: %v, whole: %v", split.Verdict, res.Verdict)
	}
	if split.Verdict == NotLinearizable {
		if err := verifyExplanation(spec, ops, split); err != nil {
			return res.Verdict, fmt.Errorf("split at every cut: explanation %v then %d: %w", split.Prefix, split.Stuck, err)
		}
	}
	if want := CheckBruteForce(spec, ops); res.Verdict != want {
		return res.Verdict, fmt.Errorf("Check = %v, CheckBruteForce = %v", res.Verdict, want)
	}
	if res.Verdict == NotLinearizable {
		if err := verifyExplanation(spec, ops, res); err != nil {
			return res.Verdict, fmt.Errorf("explanation %v then %d: %w", res.Prefix, res.Stuck, err)
		}
	}
	if wantLin && res.Verdict != Linearizable {
		return res.Verdict, fmt.Errorf("Check = %v on a history built linearizable", res.Verdict)
	}
	return res.Verdict, nil
}

// maxPropertyOps bounds the random histories compared with the brute-force oracle.
const maxPropertyOps = 12

// tally counts verdicts.
type tally struct{ lin, notLin int }

// property checks count random histories of up to maxPropertyOps operations from g
// against the brute-force oracle, each from its own seed.
func property[S, I, O comparable](t *testing.T, g gen[S, I, O], seedBase uint64, count int) tally {
	t.Helper()
	var c tally
	for i := range count {
		seed := seedBase + uint64(i)
		r := rand.New(rand.NewPCG(seed, 0))
		n, mode := 1+r.IntN(maxPropertyOps), r.IntN(outModes)
		ops := g.history(r, n, n, mode)
		v, err := agree(g.spec, ops, mode == outSequential)
		if err != nil {
			t.Fatalf("seed %d: %v; history:%s", seed, err, describe(g.spec, ops))
		}
		if v == Linearizable {
			c.lin++
		} else {
			c.notLin++
		}
	}
	return c
}

// TestAgainstBruteForce compares Check with CheckBruteForce on 30,000 random histories
// of 1 to 12 operations, about a fifth of them open, and makes sure both verdicts are
// common enough that agreement means something.
func TestAgainstBruteForce(t *testing.T) {
	const perSpec = 10000
	var total tally
	for _, run := range []struct {
		name string
		f    func(t *testing.T) tally
	}{
		{"register", func(t *testing.T) tally { return property(t, registerGen(), 1_000_000, perSpec) }},
		{"cas-register", func(t *testing.T) tally { return property(t, casGen(), 2_000_000, perSpec) }},
		{"kv", func(t *testing.T) tally { return property(t, kvGen(), 3_000_000, perSpec) }},
	} {
		t.Run(run.name, func(t *testing.T) {
			c := run.f(t)
			t.Logf("%d linearizable, %d not", c.lin, c.notLin)
			total.lin += c.lin
			total.notLin += c.notLin
		})
	}
	all := total.lin + total.notLin
	t.Logf("in all: %d histories, %d linearizable, %d not", all, total.lin, total.notLin)
	if total.lin*5 < all || total.notLin*5 < all {
		t.Errorf("%d linearizable and %d not of %d: want at least a fifth of each", total.lin, total.notLin, all)
	}
}

// TestLargeLinearizable checks larger histories built linearizable (beyond the one-word
// memo, and beyond the threshold for parallel partitions): Check must accept them with
// a valid witness.
func TestLargeLinearizable(t *testing.T) {
	run := func(t *testing.T, name string, check func(r *rand.Rand, n int) error) {
		t.Run(name, func(t *testing.T) {
			for i := range 60 {
				seed := uint64(5_000_000 + i)
				r := rand.New(rand.NewPCG(seed, 0))
				if err := check(r, 20+r.IntN(140)); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		})
	}
	run(t, "register", func(r *rand.Rand, n int) error { return largeOne(registerGen(), r, n) })
	run(t, "cas-register", func(r *rand.Rand, n int) error { return largeOne(casGen(), r, n) })
	run(t, "kv", func(r *rand.Rand, n int) error { return largeOne(kvGen(), r, n) })
}

func largeOne[S, I, O comparable](g gen[S, I, O], r *rand.Rand, n int) error {
	// Short intervals keep the concurrency, and so the search, small enough.
	ops := g.history(r, n, 8, outSequential)
	res, err := checkAndVerify(g.spec, ops)
	if err != nil {
		return err
	}
	if res.Verdict != Linearizable {
		return fmt.Errorf("Check = %v on a history of %d operations built linearizable", res.Verdict, n)
	}
	return nil
}

// TestPartitionedMatchesWhole compares Check on specs.KV, split by key, with Check on
// the same map unpartitioned, on random histories of both verdicts. The histories stay
// small because the unpartitioned search interleaves the keys, which costs exponentially
// more: that is why partitioning exists.
func TestPartitionedMatchesWhole(t *testing.T) {
	g := kvGen()
	var c tally
	for i := range 500 {
		seed := uint64(7_000_000 + i)
		r := rand.New(rand.NewPCG(seed, 0))
		ops := g.history(r, 5+r.IntN(35), 5, r.IntN(outModes))
		res, err := checkAndVerify(g.spec, ops)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if whole := Check(wholeKV(ops), ops); whole.Verdict != res.Verdict {
			t.Fatalf("seed %d: Check = %v partitioned, %v whole; history:%s",
				seed, res.Verdict, whole.Verdict, describe(g.spec, ops))
		}
		if res.Verdict == Linearizable {
			c.lin++
		} else {
			c.notLin++
		}
	}
	t.Logf("%d linearizable, %d not", c.lin, c.notLin)
	if c.lin < 100 || c.notLin < 100 {
		t.Errorf("%d linearizable and %d not: want at least 100 of each", c.lin, c.notLin)
	}
}

// TestParallelMatchesSequential checks that checking the partitions of a large history
// on several goroutines gives exactly the result of checking them on one: the same
// verdict, failing partition, witness and explanation — with the usual rounds, and with
// rounds of a few steps, which interleave the searches finely. Between the two round
// sizes only the failing partition reported may differ.
func TestParallelMatchesSequential(t *testing.T) {
	g := kvGenKeys(5)
	var c tally
	same := func(a, b Result) bool {
		return a.Verdict == b.Verdict && a.Partition == b.Partition && slices.Equal(a.Witness, b.Witness) &&
			slices.Equal(a.Prefix, b.Prefix) && a.Stuck == b.Stuck
	}
	describe := func(r Result) string {
		return fmt.Sprintf("%v %q %v %v %d", r.Verdict, r.Partition, r.Witness, r.Prefix, r.Stuck)
	}
	for i := range 200 {
		seed := uint64(8_000_000 + i)
		r := rand.New(rand.NewPCG(seed, 0))
		ops := g.history(r, parallelAbove+1+r.IntN(60), 6, r.IntN(outModes))
		check := func(parallel bool, round int64) Result {
			savedAbove, savedRound := parallelAbove, firstRound
			defer func() { parallelAbove, firstRound = savedAbove, savedRound }()
			if !parallel {
				parallelAbove = len(ops)
			}
			firstRound = round
			res, err := checkAndVerify(g.spec, ops)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if res.Verdict == NotLinearizable {
				if err := verifyExplanation(g.spec, ops, res); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
			return res
		}
		par, seq := check(true, firstRound), check(false, firstRound)
		parFine, seqFine := check(true, 3), check(false, 3)
		if !same(par, seq) {
			t.Fatalf("seed %d: in parallel %s, on one goroutine %s", seed, describe(par), describe(seq))
		}
		if !same(parFine, seqFine) {
			t.Fatalf("seed %d: in rounds of 3, 12, … steps: in parallel %s, on one goroutine %s", seed, describe(parFine), describe(seqFine))
		}
		if par.Verdict != parFine.Verdict || !slices.Equal(par.Witness, parFine.Witness) {
			t.Fatalf("seed %d: in the usual rounds %s, in rounds of 3, 12, … steps %s", seed, describe(par), describe(parFine))
		}
		if par.Verdict == Linearizable {
			c.lin++
		} else {
			c.notLin++
		}
	}
	t.Logf("%d linearizable, %d not", c.lin, c.notLin)
	if c.lin < 40 || c.notLin < 40 {
		t.Errorf("%d linearizable and %d not: want at least 40 of each", c.lin, c.notLin)
	}
}
