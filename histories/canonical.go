package histories

import (
	"slices"

	"github.com/ravelmc/ravel/model"
)

// Canonical is a history up to what linearizability can see: the operations, each with
// its result (or open), and the real-time precedence between them — A precedes B when A's
// response comes before B's invocation. Two executions with the same canonical history
// are linearizable or not together, so the checker runs once per canonical history
// (docs/visited-states.md, Canonical states).
//
// Operations are named by their RequestID, which the harness fixes, so canonical
// histories compare across schedules and across strategies.
type Canonical struct {
	Ops []CanonicalOp
	// prec is a bit matrix: bit j of row i is set when Ops[i] precedes Ops[j].
	prec  []uint64
	words int
}

// CanonicalOp is one operation of a canonical history: its request, whether it is open,
// and its output with that output's fingerprint (Event.OutputHash) when it is not.
type CanonicalOp struct {
	Req        model.RequestID
	Open       bool
	Output     any
	OutputHash uint64
	call, ret  int
}

// Reset makes c the canonical form of events, reusing c's memory. The result is valid
// until the next Reset; Clone it to keep it.
func (c *Canonical) Reset(events []Event) {
	c.Ops = c.Ops[:0]
	for t, e := range events {
		if e.Kind == Invoke {
			c.Ops = append(c.Ops, CanonicalOp{Req: e.Req, Open: true, call: t})
		}
	}
	slices.SortFunc(c.Ops, func(a, b CanonicalOp) int { return compareReq(a.Req, b.Req) })
	for t, e := range events {
		if e.Kind != Return {
			continue
		}
		i, ok := slices.BinarySearchFunc(c.Ops, e.Req, func(o CanonicalOp, r model.RequestID) int { return compareReq(o.Req, r) })
		if !ok || !c.Ops[i].Open {
			continue
		}
		c.Ops[i].Open, c.Ops[i].Output, c.Ops[i].OutputHash, c.Ops[i].ret = false, e.Output, e.OutputHash, t
	}
	n := len(c.Ops)
	c.words = (n + 63) / 64
	c.prec = slices.Grow(c.prec[:0], n*c.words)[:n*c.words]
	clear(c.prec)
	for i := range c.Ops {
		a := &c.Ops[i]
		if a.Open {
			continue
		}
		row := c.prec[i*c.words : (i+1)*c.words]
		for j := range c.Ops {
			if a.ret < c.Ops[j].call {
				row[j/64] |= 1 << (j % 64)
			}
		}
	}
}

// CanonicalOf returns the canonical form of events.
func CanonicalOf(events []Event) Canonical {
	var c Canonical
	c.Reset(events)
	return c
}

// Precedes reports whether Ops[i] precedes Ops[j] in real time.
func (c *Canonical) Precedes(i, j int) bool {
	return c.prec[i*c.words+j/64]&(1<<(j%64)) != 0
}

// Hash fingerprints the canonical history.
func (c *Canonical) Hash() uint64 {
	var h model.Hasher
	h.Int(len(c.Ops))
	for _, o := range c.Ops {
		h.ID(o.Req.Client)
		h.Int(o.Req.Seq)
		h.Bool(o.Open)
		h.Uint64(o.OutputHash)
	}
	for _, w := range c.prec {
		h.Uint64(w)
	}
	return h.Sum64()
}

// Equal reports whether c and d are the same canonical history. Outputs are compared
// with == (specification outputs are comparable), not by OutputHash, which Hash uses:
// histories built from events without OutputHash may hash alike and not be Equal.
func (c *Canonical) Equal(d *Canonical) bool {
	if len(c.Ops) != len(d.Ops) || !slices.Equal(c.prec, d.prec) {
		return false
	}
	for i, o := range c.Ops {
		p := d.Ops[i]
		if o.Req != p.Req || o.Open != p.Open || (!o.Open && o.Output != p.Output) {
			return false
		}
	}
	return true
}

// Clone returns a copy of c that shares no memory with it.
func (c *Canonical) Clone() Canonical {
	return Canonical{Ops: slices.Clone(c.Ops), prec: slices.Clone(c.prec), words: c.words}
}

// Operations returns the canonical history's operations for the checker, with inputs from
// the harness. Times are the event positions of the execution c was made from, which
// realize exactly c's precedence.
func (c *Canonical) Operations(h *model.Harness) []Operation[any, any] {
	ops := make([]Operation[any, any], len(c.Ops))
	for i, o := range c.Ops {
		cl, _ := o.Req.Client.Client()
		ops[i] = Operation[any, any]{
			Client: cl,
			Input:  h.InputOf(o.Req),
			Output: o.Output,
			Call:   int64(o.call),
			Return: int64(o.ret),
			Open:   o.Open,
		}
	}
	return ops
}

func compareReq(a, b model.RequestID) int {
	if a.Client != b.Client {
		return int(b.Client) - int(a.Client) // c0 (−1) before c1 (−2)
	}
	return a.Seq - b.Seq
}

// CanonicalJSON is a canonical history in a form meant for files: the operations in
// request order, each with its input and result as the specification renders them (no
// result: never answered), and the real-time precedence as pairs of indices. The same
// canonical history gives the same value in any run of any strategy.
type CanonicalJSON struct {
	Ops      []CanonicalOpJSON `json:"ops"`
	Precedes [][2]int          `json:"precedes"`
}

// CanonicalOpJSON is one operation of a CanonicalJSON.
type CanonicalOpJSON struct {
	Req    string  `json:"req"`
	Input  string  `json:"input"`
	Output *string `json:"output"`
}

// JSON returns c in the form of CanonicalJSON, with inputs from h.
func (c *Canonical) JSON(h *model.Harness) CanonicalJSON {
	spec := h.Spec()
	out := CanonicalJSON{Ops: make([]CanonicalOpJSON, len(c.Ops)), Precedes: [][2]int{}}
	for i, o := range c.Ops {
		in := h.InputOf(o.Req)
		op := CanonicalOpJSON{Req: o.Req.String(), Input: spec.Input(in)}
		if !o.Open {
			s := spec.Output(in, o.Output)
			op.Output = &s
		}
		out.Ops[i] = op
		for j := range c.Ops {
			if c.Precedes(i, j) {
				out.Precedes = append(out.Precedes, [2]int{i, j})
			}
		}
	}
	return out
}
