package snapshot

import (
	"testing"

	"github.com/ravelmc/ravel/model"
)

// benchReplica is the state of a small replica: an int, a map of three entries, a slice
// of four ints and a string. It has no Clone or HashState method: the fallbacks copy and
// hash it.
type benchReplica struct {
	Term   int
	Votes  map[int]int
	Log    []int
	Leader string
}

func (*benchReplica) Receive(*model.Ctx, model.Envelope) {}

// fastReplica is benchReplica with hand-written Clone and HashState methods.
type fastReplica benchReplica

func (*fastReplica) Receive(*model.Ctx, model.Envelope) {}

func (r *fastReplica) Clone() model.Actor {
	c := *r
	c.Votes = make(map[int]int, len(r.Votes))
	for k, v := range r.Votes {
		c.Votes[k] = v
	}
	c.Log = append([]int(nil), r.Log...)
	return &c
}

func (r *fastReplica) HashState(h *model.Hasher) {
	h.Int(r.Term)
	var sum uint64
	for k, v := range r.Votes {
		sub := h.Sub()
		sub.Int(k)
		sub.Int(v)
		sum += model.Mix64(sub.Sum64())
	}
	h.Int(len(r.Votes))
	h.Uint64(sum)
	h.Int(len(r.Log))
	for _, x := range r.Log {
		h.Int(x)
	}
	h.String(r.Leader)
}

func newBenchReplica() *benchReplica {
	return &benchReplica{Term: 3, Votes: map[int]int{0: 1, 1: 1, 2: 0}, Log: []int{1, 2, 3, 4}, Leader: "n0"}
}

func BenchmarkClone(b *testing.B) {
	fast := (*fastReplica)(newBenchReplica())
	slow := newBenchReplica()
	b.Run("direct", func(b *testing.B) { // the Clone method alone, for Mode.Clone's overhead
		b.ReportAllocs()
		for b.Loop() {
			cloneSink = fast.Clone()
		}
	})
	b.Run("fast", func(b *testing.B) { benchClone(b, Mode{}, fast) })
	b.Run("reflective", func(b *testing.B) { benchClone(b, Mode{Reflective: true}, slow) })
}

// cloneSink keeps the compiler from proving a clone dead and keeping it on the stack.
var cloneSink model.Actor

func benchClone(b *testing.B, m Mode, a model.Actor) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Clone(a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFingerprint(b *testing.B) {
	fast := (*fastReplica)(newBenchReplica())
	slow := newBenchReplica()
	world := newGen(7, 7).world()
	b.Run("fast", func(b *testing.B) { benchFingerprint(b, Mode{}, fast) })
	b.Run("reflective", func(b *testing.B) { benchFingerprint(b, Mode{Reflective: true}, slow) })
	b.Run("direct", func(b *testing.B) { // the HashState method alone, for Fingerprint's overhead
		b.ReportAllocs()
		h := Mode{}.NewHasher()
		for b.Loop() {
			h.Reset()
			fast.HashState(h)
			_ = h.Sum64()
		}
	})
	b.Run("reflective-message", func(b *testing.B) {
		benchFingerprint(b, Mode{}, model.Envelope{From: 1, To: 2, Msg: pair{1, 2}})
	})
	b.Run("reflective-world", func(b *testing.B) { benchFingerprint(b, Mode{}, world) })
}

func benchFingerprint(b *testing.B, m Mode, v any) {
	b.ReportAllocs()
	for b.Loop() {
		m.Fingerprint(v)
	}
}
