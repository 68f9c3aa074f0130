package wgl

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

type (
	regOp = histories.Operation[specs.RegisterInput, specs.RegisterOutput]
	casOp = histories.Operation[specs.CASInput, specs.CASOutput]
	kvOp  = histories.Operation[specs.KVInput, specs.KVOutput]
)

// handCase is a history with the verdict worked out by hand, and optionally the open
// operations a witness must include (true) or leave out (false).
type handCase[I, O any] struct {
	name    string
	ops     []histories.Operation[I, O]
	want    Verdict
	include map[int]bool
}

// runHandCases checks each case with Check and CheckBruteForce, and the witness.
func runHandCases[S, I, O comparable](t *testing.T, spec specs.Spec[S, I, O], cases []handCase[I, O]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := checkAndVerify(spec, c.ops)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != c.want {
				t.Errorf("Check = %v, want %v", res.Verdict, c.want)
			}
			if got := CheckBruteForce(spec, c.ops); got != c.want {
				t.Errorf("CheckBruteForce = %v, want %v", got, c.want)
			}
			for i, in := range c.include {
				if got := slices.Contains(res.Witness, i); got != in {
					t.Errorf("witness %v contains open operation %d: %v, want %v", res.Witness, i, got, in)
				}
			}
		})
	}
}

func TestRegisterHandCases(t *testing.T) {
	w, r := specs.Write, specs.Read()
	ok, read := specs.WriteOK(), specs.ReadOK
	runHandCases(t, specs.Register(), []handCase[specs.RegisterInput, specs.RegisterOutput]{
		{name: "empty", ops: nil, want: Linearizable},
		{name: "initial value", ops: []regOp{done(0, r, read(0), 0, 1)}, want: Linearizable},
		{name: "value never written", ops: []regOp{done(0, r, read(2), 0, 1)}, want: NotLinearizable},
		{name: "sequential write then read", ops: []regOp{
			done(0, w(1), ok, 0, 1), done(1, r, read(1), 2, 3)}, want: Linearizable},
		{name: "stale read after the write returned", ops: []regOp{
			done(0, w(1), ok, 0, 1), done(1, r, read(0), 2, 3)}, want: NotLinearizable},
		{name: "read concurrent with write sees old", ops: []regOp{
			done(0, w(1), ok, 0, 3), done(1, r, read(0), 1, 2)}, want: Linearizable},
		{name: "read concurrent with write sees new", ops: []regOp{
			done(0, w(1), ok, 0, 3), done(1, r, read(1), 1, 2)}, want: Linearizable},
		{name: "return at the same instant as a call is concurrent", ops: []regOp{
			done(0, w(1), ok, 0, 1), done(1, r, read(0), 1, 2)}, want: Linearizable},
		{name: "read order reversed", ops: []regOp{
			done(0, w(1), ok, 0, 10), done(1, r, read(1), 1, 2), done(1, r, read(0), 3, 4)},
			want: NotLinearizable},
		{name: "two writers, readers disagree on the last", ops: []regOp{
			done(0, w(1), ok, 0, 10), done(1, w(2), ok, 0, 10),
			done(2, r, read(1), 11, 12), done(3, r, read(2), 13, 14)}, want: NotLinearizable},
		{name: "two writers, readers see both in turn", ops: []regOp{
			done(0, w(1), ok, 0, 10), done(1, w(2), ok, 0, 10),
			done(2, r, read(1), 1, 2), done(3, r, read(2), 3, 4)}, want: Linearizable},
		{name: "open write that must have taken effect", ops: []regOp{
			pending[specs.RegisterInput, specs.RegisterOutput](0, w(1), 0), done(1, r, read(1), 1, 2)},
			want: Linearizable, include: map[int]bool{0: true}},
		{name: "open write that must not have taken effect", ops: []regOp{
			pending[specs.RegisterInput, specs.RegisterOutput](0, w(1), 0),
			done(1, r, read(0), 1, 2), done(1, r, read(0), 3, 4)},
			want: Linearizable, include: map[int]bool{0: false}},
		{name: "open write cannot take effect before its call", ops: []regOp{
			done(1, r, read(1), 0, 1), pending[specs.RegisterInput, specs.RegisterOutput](0, w(1), 2)},
			want: NotLinearizable},
		{name: "open write takes effect between two reads", ops: []regOp{
			done(1, r, read(0), 0, 1), pending[specs.RegisterInput, specs.RegisterOutput](0, w(1), 2),
			done(1, r, read(1), 3, 4)}, want: Linearizable, include: map[int]bool{1: true}},
		{name: "open write cannot take effect twice", ops: []regOp{
			done(0, w(2), ok, 0, 1), pending[specs.RegisterInput, specs.RegisterOutput](1, w(1), 0),
			done(2, r, read(1), 2, 3), done(0, w(2), ok, 4, 5), done(2, r, read(1), 6, 7)},
			want: NotLinearizable},
		{name: "open read answers anything", ops: []regOp{
			{Client: 0, Input: r, Output: read(7), Call: 0, Open: true}}, want: Linearizable},
		{name: "open operation's return is ignored", ops: []regOp{
			{Client: 0, Input: w(1), Call: 5, Return: 0, Open: true}, done(1, r, read(1), 6, 7)},
			want: Linearizable, include: map[int]bool{0: true}},
	})
}

func TestCASHandCases(t *testing.T) {
	write := func(v int) specs.CASInput { return specs.CASInput{Op: specs.CASWrite, A: v} }
	cas := func(a, b int) specs.CASInput { return specs.CASInput{Op: specs.CASSwap, A: a, B: b} }
	read := specs.CASInput{Op: specs.CASRead}
	ok, fail := specs.CASOutput{OK: true}, specs.CASOutput{}
	absent := specs.CASOutput{OK: true, Absent: true}
	val := func(v int) specs.CASOutput { return specs.CASOutput{OK: true, Value: v} }
	open := pending[specs.CASInput, specs.CASOutput]
	runHandCases(t, specs.CASRegister(), []handCase[specs.CASInput, specs.CASOutput]{
		{name: "read of the absent register", ops: []casOp{done(0, read, absent, 0, 1)}, want: Linearizable},
		{name: "absent register does not read 0", ops: []casOp{done(0, read, val(0), 0, 1)}, want: NotLinearizable},
		{name: "cas on the absent register fails", ops: []casOp{done(0, cas(0, 1), fail, 0, 1)}, want: Linearizable},
		{name: "cas on the absent register cannot succeed", ops: []casOp{done(0, cas(0, 1), ok, 0, 1)},
			want: NotLinearizable},
		{name: "write, cas, read", ops: []casOp{
			done(0, write(1), ok, 0, 1), done(0, cas(1, 2), ok, 2, 3), done(1, read, val(2), 4, 5)},
			want: Linearizable},
		{name: "cas fails on a different value", ops: []casOp{
			done(0, write(3), ok, 0, 1), done(0, cas(1, 2), fail, 2, 3), done(1, read, val(3), 4, 5)},
			want: Linearizable},
		{name: "cas claims failure but value matched", ops: []casOp{
			done(0, write(1), ok, 0, 1), done(0, cas(1, 2), fail, 2, 3)}, want: NotLinearizable},
		{name: "two concurrent cas from the same value cannot both succeed", ops: []casOp{
			done(0, write(1), ok, 0, 1), done(1, cas(1, 2), ok, 2, 5), done(2, cas(1, 3), ok, 2, 5)},
			want: NotLinearizable},
		{name: "one of two concurrent cas succeeds", ops: []casOp{
			done(0, write(1), ok, 0, 1), done(1, cas(1, 2), ok, 2, 5), done(2, cas(1, 3), fail, 2, 5),
			done(0, read, val(2), 6, 7)}, want: Linearizable},
		{name: "open cas that must have taken effect", ops: []casOp{
			done(0, write(1), ok, 0, 1), open(1, cas(1, 2), 2), done(0, read, val(2), 3, 4)},
			want: Linearizable, include: map[int]bool{1: true}},
		{name: "open write that must not have taken effect", ops: []casOp{
			open(1, write(5), 0), done(0, read, absent, 1, 2)},
			want: Linearizable, include: map[int]bool{0: false}},
		{name: "open write enables a cas", ops: []casOp{
			open(1, write(5), 0), done(0, cas(5, 6), ok, 1, 2), done(0, read, val(6), 3, 4)},
			want: Linearizable, include: map[int]bool{0: true}},
		{name: "read sees a value only an open cas after it could write", ops: []casOp{
			done(0, write(1), ok, 0, 1), done(0, read, val(2), 2, 3), open(1, cas(1, 2), 4)},
			want: NotLinearizable},
	})
}

func TestKVHandCases(t *testing.T) {
	get, put, appendOp := specs.Get, specs.Put, specs.Append
	got := func(v string) specs.KVOutput { return specs.KVOutput{Value: v} }
	none := specs.KVOutput{}
	runHandCases(t, specs.KV(), []handCase[specs.KVInput, specs.KVOutput]{
		{name: "keys are independent", ops: []kvOp{
			done(0, put("a", "x"), none, 0, 1), done(1, get("b"), got(""), 2, 3), done(1, get("a"), got("x"), 4, 5)},
			want: Linearizable},
		{name: "concurrent appends in either order", ops: []kvOp{
			done(0, appendOp("a", "x"), none, 0, 3), done(1, appendOp("a", "y"), none, 0, 3),
			done(2, get("a"), got("yx"), 4, 5)}, want: Linearizable},
		{name: "append of a value never appended", ops: []kvOp{
			done(0, appendOp("a", "x"), none, 0, 3), done(2, get("a"), got("xz"), 4, 5)}, want: NotLinearizable},
		{name: "stale get on one key among others", ops: []kvOp{
			done(0, put("a", "x"), none, 0, 1), done(1, put("b", "y"), none, 0, 1),
			done(1, get("b"), got("y"), 2, 3), done(0, get("a"), got(""), 2, 3)}, want: NotLinearizable},
	})
}

// TestFailingPartition checks that the reported partition is the first key, in key
// order, among those found to fail in the earliest round of the partition scheduler
// (docs/design-notes.md) — here d and c both fail in the first round, so c — sequentially
// and in parallel, every time. It is not the smallest failing key overall when a smaller
// key needs a later round; these stale reads fail at once.
func TestFailingPartition(t *testing.T) {
	for _, n := range []int{3, 200} { // below and above the parallel threshold
		t.Run("", func(t *testing.T) {
			var ops []kvOp
			keys := []string{"e", "c", "a", "d", "b"}
			for i := range n {
				k := keys[i%len(keys)]
				ops = append(ops, done(i, specs.Put(k, "v"), specs.KVOutput{}, int64(2*i), int64(2*i+1)))
			}
			// Stale reads on d and c, after the puts returned.
			end := int64(2*n + 10)
			ops = append(ops,
				done(0, specs.Get("d"), specs.KVOutput{Value: ""}, end, end+1),
				done(0, specs.Get("c"), specs.KVOutput{Value: ""}, end+2, end+3))
			for range 20 {
				res := Check(specs.KV(), ops)
				if res.Verdict != NotLinearizable || res.Partition != "c" {
					t.Fatalf("Check = %v in partition %q, want %v in partition %q",
						res.Verdict, res.Partition, NotLinearizable, "c")
				}
			}
		})
	}
}

// TestMergedWitness checks the witness of a large partitioned history, which is merged
// from the partitions' witnesses and must keep real-time order across keys.
func TestMergedWitness(t *testing.T) {
	var ops []kvOp
	for i := range 150 {
		k := string(rune('a' + i%4))
		call := int64(i)
		// Every fourth operation spans many others, across keys.
		ret := call + 1 + int64(i%4)*5
		ops = append(ops, done(i, specs.Append(k, "x"), specs.KVOutput{}, call, ret))
	}
	res, err := checkAndVerify(specs.KV(), ops)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Linearizable {
		t.Fatalf("Check = %v, want %v", res.Verdict, Linearizable)
	}
}

func TestInvalidInput(t *testing.T) {
	ops := []regOp{done(0, specs.Read(), specs.ReadOK(0), 5, 4)}
	res := Check(specs.Register(), ops)
	if res.Verdict != Unknown || res.Err == nil {
		t.Errorf("Check of an operation returning before its call = %v, %v; want %v and an error",
			res.Verdict, res.Err, Unknown)
	}
	if got := CheckBruteForce(specs.Register(), ops); got != Unknown {
		t.Errorf("CheckBruteForce = %v, want %v", got, Unknown)
	}
	res = Check(specs.Spec[int, specs.RegisterInput, specs.RegisterOutput]{Name: "broken"}, nil)
	if res.Verdict != Unknown || res.Err == nil {
		t.Errorf("Check with a spec without Apply = %v, %v; want %v and an error", res.Verdict, res.Err, Unknown)
	}
}

// hardRegisterHistory has many concurrent writes and a read of a value none wrote, so
// the search must visit thousands of configurations before it gives up.
func hardRegisterHistory(writes int) []regOp {
	var ops []regOp
	for i := range writes {
		ops = append(ops, done(i, specs.Write(i+1), specs.WriteOK(), 0, 100))
	}
	return append(ops, done(writes, specs.Read(), specs.ReadOK(-1), 101, 102))
}

func TestCheckContext(t *testing.T) {
	t.Run("already done", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res := CheckContext(ctx, specs.Register(), hardRegisterHistory(3))
		if res.Verdict != Unknown || !errors.Is(res.Err, context.Canceled) {
			t.Errorf("CheckContext = %v, %v; want %v, %v", res.Verdict, res.Err, Unknown, context.Canceled)
		}
	})
	// A spec whose Apply cancels the context after a few calls stops the search in the
	// middle, deterministically.
	cancelling := func(ctx context.Context) (specs.Spec[int, specs.RegisterInput, specs.RegisterOutput], context.Context) {
		ctx, cancel := context.WithCancel(ctx)
		spec := specs.Register()
		apply, calls := spec.Apply, 0
		spec.Apply = func(s int, in specs.RegisterInput) (int, specs.RegisterOutput) {
			if calls++; calls == 10 {
				cancel()
			}
			return apply(s, in)
		}
		return spec, ctx
	}
	t.Run("cancelled during the search", func(t *testing.T) {
		spec, ctx := cancelling(context.Background())
		res := CheckContext(ctx, spec, hardRegisterHistory(12))
		if res.Verdict != Unknown || !errors.Is(res.Err, context.Canceled) {
			t.Errorf("CheckContext = %v, %v; want %v, %v", res.Verdict, res.Err, Unknown, context.Canceled)
		}
		if full := Check(specs.Register(), hardRegisterHistory(12)); full.Verdict != NotLinearizable {
			t.Errorf("Check without cancelling = %v, want %v", full.Verdict, NotLinearizable)
		}
	})
}

// TestCheckContextParallel stops a check whose partitions run in parallel.
func TestCheckContextParallel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spec := specs.KV()
	apply := spec.Apply
	var calls atomic.Int64
	spec.Apply = func(s string, in specs.KVInput) (string, specs.KVOutput) {
		if calls.Add(1) == 10 {
			cancel()
		}
		return apply(s, in)
	}
	var ops []kvOp
	for k := range 8 {
		key := strconv.Itoa(k)
		for i := range 13 {
			ops = append(ops, done(i, specs.Put(key, strconv.Itoa(i)), specs.KVOutput{}, 0, 100))
		}
		ops = append(ops, done(13, specs.Get(key), specs.KVOutput{Value: "none"}, 101, 102))
	}
	res := CheckContext(ctx, spec, ops)
	if res.Verdict != Unknown || !errors.Is(res.Err, context.Canceled) {
		t.Errorf("CheckContext = %v, %v; want %v, %v", res.Verdict, res.Err, Unknown, context.Canceled)
	}
}

func TestVerdictString(t *testing.T) {
	for v, want := range map[Verdict]string{
		Linearizable: "linearizable", NotLinearizable: "not-linearizable", Unknown: "unknown", Verdict(9): "unknown",
	} {
		if got := v.String(); got != want {
			t.Errorf("Verdict(%d).String() = %q, want %q", v, got, want)
		}
	}
}

// TestEmptyPartitioned checks the empty history of a partitioned specification, which
// has no partition at all.
func TestEmptyPartitioned(t *testing.T) {
	res := Check(specs.KV(), nil)
	if res.Verdict != Linearizable || res.Witness == nil || len(res.Witness) != 0 || res.Stuck != -1 {
		t.Errorf("Check(KV, nil) = %+v, want linearizable with an empty witness", res)
	}
}
