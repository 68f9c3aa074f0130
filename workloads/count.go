package workloads

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// MaxWorkloads bounds the number of workloads a generator may make through
// GenerateContext, and MaxOperations their operations all together: every workload is
// held in memory before the first is checked.
const (
	MaxWorkloads  = 100_000
	MaxOperations = 10_000_000
)

// SizeError says that a generator makes more workloads, or operations, than the limits.
type SizeError struct {
	// Generator is the generator refused, with its Actors and Alphabet.
	Generator Generator
	// Workloads is how many workloads it makes: exactly when Exact, else a lower bound
	// (it makes more).
	Workloads uint64
	Exact     bool
	// Operations is an upper bound of the operations of all of them (Workloads × Ops),
	// set when Workloads is within MaxWorkloads.
	Operations uint64
}

// Error says how many workloads (or operations) the generator makes, over how many
// inputs and actors, against the limit, and what to lower.
func (e *SizeError) Error() string {
	g := e.Generator
	lower := "ops or clients"
	over := fmt.Sprintf(" over %d inputs and %d actors", g.Alphabet, max(g.Actors, 1))
	if g.Random {
		lower, over = "n", ""
	}
	if e.Workloads > MaxWorkloads {
		n := thousands(e.Workloads) + " workloads"
		if !e.Exact || e.Workloads == math.MaxUint64 {
			// It makes more than Workloads, and more than a^Ops: the one-client workloads
			// of Ops operations alone number a^Ops.
			d := len(strconv.FormatUint(e.Workloads, 10)) - 1
			if !g.Random && g.Alphabet > 1 {
				d = max(d, int(float64(g.Ops)*math.Log10(float64(g.Alphabet))-1e-9))
			}
			n = "more than 10^" + strconv.Itoa(d) + " workloads"
		}
		return fmt.Sprintf("%s makes %s%s; the limit is %s: lower %s", g, n, over, thousands(MaxWorkloads), lower)
	}
	if g.Random {
		lower = "n or ops"
	}
	return fmt.Sprintf("%s makes %s workloads%s of up to %s operations, up to %s operations in all; the limit is %s: lower %s",
		g, thousands(e.Workloads), over, thousands(uint64(g.Ops)), thousands(e.Operations), thousands(MaxOperations), lower)
}

// CheckSize returns a *SizeError when g makes more than MaxWorkloads workloads or more
// than MaxOperations operations in all (bounded by the workloads times Ops), and nil
// otherwise. It takes time polynomial in Ops and Clients, small when g is within the
// limits, and generates nothing.
func (g Generator) CheckSize() error {
	n, exact := g.Count()
	if n > MaxWorkloads {
		return &SizeError{Generator: g, Workloads: n, Exact: exact}
	}
	hi, ops := bits.Mul64(n, uint64(max(g.Ops, 0)))
	if hi != 0 {
		ops = math.MaxUint64
	}
	if ops > MaxOperations {
		return &SizeError{Generator: g, Workloads: n, Exact: exact, Operations: ops}
	}
	return nil
}

// Count returns how many workloads Generate makes, without making them. When exact is
// false, n is a lower bound above MaxWorkloads: g makes more, and counting on would take
// long. An exact count too large for a uint64 is math.MaxUint64.
//
// The count grows with Ops, so Count counts for Ops = 1, 2, 4, … in turn and stops at the
// first above MaxWorkloads: its time is that of counting a generator near the limit.
func (g Generator) Count() (n uint64, exact bool) {
	if g.Alphabet < 1 || g.Ops < 1 || g.Clients < 1 {
		return 0, true
	}
	if g.Random {
		return uint64(max(g.N, 0)), true
	}
	for k := 1; ; k *= 2 {
		k = min(k, g.Ops)
		// No more than k clients have an operation each.
		n := countExhaustive(uint64(g.Alphabet), max(g.Actors, 1), min(g.Clients, k), k)
		if k == g.Ops {
			return n, n != math.MaxUint64
		}
		if n > MaxWorkloads {
			return n, false
		}
	}
}

// countExhaustive counts the workloads of up to ops operations over up to clients
// clients, on a letters and actors actors, saturating at math.MaxUint64.
//
// A workload of n clients is, for each actor, the multiset of its clients' words
// (canonical order picks one arrangement of each), and n = q·actors + r gives r actors
// q+1 clients and the others q. So with F[m](x) the series of multisets of m words by
// total length, the n-client workloads number the coefficients up to x^ops of
// F[q+1]^r · F[q]^(actors-r), summed.
func countExhaustive(a uint64, actors, clients, ops int) uint64 {
	if clients < 1 || ops < 1 {
		return 0
	}
	perActor := (clients + actors - 1) / actors
	// f[m][s]: multisets of m words of total length s, over the lengths seen so far.
	// Words of length l number a^l; adding j of them (a multiset) is C(a^l+j-1, j) ways.
	f := make([][]uint64, perActor+1)
	for m := range f {
		f[m] = make([]uint64, ops+1)
	}
	f[0][0] = 1
	words := uint64(1)
	for l := 1; l <= ops; l++ {
		words = satMul(words, a)
		choose := multisets(words, min(perActor, ops/l))
		// From the largest m down, so that each source is counted before it is updated.
		for m := perActor - 1; m >= 0; m-- {
			for s := m; s <= ops; s++ {
				if m == 0 && s > 0 {
					break
				}
				src := f[m][s]
				if src == 0 {
					continue
				}
				for j := 1; m+j <= perActor && s+j*l <= ops; j++ {
					f[m+j][s+j*l] = satAdd(f[m+j][s+j*l], satMul(src, choose[j]))
				}
			}
		}
	}
	var total uint64
	for n := 1; n <= clients; n++ {
		q, r := n/actors, n%actors
		prod := []uint64{1}
		for i := range actors {
			m := q
			if i < r {
				m++
			}
			if m > 0 {
				prod = polyMul(prod, f[m], ops)
			}
		}
		for _, c := range prod {
			total = satAdd(total, c)
		}
	}
	return total
}

// multisets returns C(w+j-1, j), the multisets of j out of w things, for j = 0…upto.
func multisets(w uint64, upto int) []uint64 {
	out := make([]uint64, upto+1)
	out[0] = 1
	for j := 1; j <= upto; j++ {
		top := w + uint64(j) - 1
		if out[j-1] == math.MaxUint64 || top < w {
			out[j] = math.MaxUint64
			continue
		}
		// C(w+j-1, j) = C(w+j-2, j-1)·(w+j-1)/j, exactly, in 128 bits.
		hi, lo := bits.Mul64(out[j-1], top)
		if hi >= uint64(j) {
			out[j] = math.MaxUint64
			continue
		}
		out[j], _ = bits.Div64(hi, lo, uint64(j))
	}
	return out
}

// polyMul multiplies two series, truncated after x^deg, saturating.
func polyMul(p, q []uint64, deg int) []uint64 {
	out := make([]uint64, min(len(p)+len(q)-1, deg+1))
	for i, x := range p {
		if x == 0 {
			continue
		}
		for j, y := range q {
			if i+j > deg {
				break
			}
			if y != 0 {
				out[i+j] = satAdd(out[i+j], satMul(x, y))
			}
		}
	}
	return out
}

func satAdd(x, y uint64) uint64 {
	s, carry := bits.Add64(x, y, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return s
}

func satMul(x, y uint64) uint64 {
	hi, lo := bits.Mul64(x, y)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// thousands writes n with commas: 100,000.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
