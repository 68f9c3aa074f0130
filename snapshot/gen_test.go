package snapshot

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"sort"

	"github.com/ravelmc/ravel/model"
)

// A family of nested values for the property tests: structs with maps of slices of
// pointers to structs, interfaces, nil and empty collections. Everything is exported, so
// copystructure can copy it; CWorld adds unexported state and a hand-written Clone.

type Leaf struct {
	I   int
	S   string
	B   bool
	F   float64
	U8  uint8
	I32 int32
}

type Key struct {
	A int
	B string
}

type Node struct {
	Name   string
	Leaves []*Leaf
	Kids   map[string][]*Leaf
	Pair   [2]Leaf
	Next   *Node
	Any    any
	Tags   map[int]bool
	Bytes  []byte
	Matrix [][]int
}

type World struct {
	ID    int
	Nodes []Node
	ByKey map[string]*Node
	Ptr   *Leaf
	Opt   *int
	Set   map[Key]struct{}
	Anys  []any
}

func (*World) Receive(*model.Ctx, model.Envelope) {}

// CWorld is a World with unexported state and a Clone method.
type CWorld struct {
	W      World
	secret map[int][]int
}

func (*CWorld) Receive(*model.Ctx, model.Envelope) {}

func (c *CWorld) Clone() model.Actor {
	out := &CWorld{W: copyWorld(c.W)}
	if c.secret != nil {
		out.secret = make(map[int][]int, len(c.secret))
		for k, v := range c.secret {
			out.secret[k] = cloneSlice(v)
		}
	}
	return out
}

// cloneSlice copies s, keeping nil nil and empty empty.
func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

func copyLeafPtr(l *Leaf) *Leaf {
	if l == nil {
		return nil
	}
	c := *l
	return &c
}

func copyLeafPtrs(s []*Leaf) []*Leaf {
	if s == nil {
		return nil
	}
	out := make([]*Leaf, len(s))
	for i, l := range s {
		out[i] = copyLeafPtr(l)
	}
	return out
}

func copyNode(n Node) Node {
	out := n
	out.Leaves = copyLeafPtrs(n.Leaves)
	if n.Kids != nil {
		out.Kids = make(map[string][]*Leaf, len(n.Kids))
		for k, v := range n.Kids {
			out.Kids[k] = copyLeafPtrs(v)
		}
	}
	if n.Next != nil {
		next := copyNode(*n.Next)
		out.Next = &next
	}
	out.Any = copyAny(n.Any)
	if n.Tags != nil {
		out.Tags = make(map[int]bool, len(n.Tags))
		for k, v := range n.Tags {
			out.Tags[k] = v
		}
	}
	out.Bytes = cloneSlice(n.Bytes)
	if n.Matrix != nil {
		out.Matrix = make([][]int, len(n.Matrix))
		for i, row := range n.Matrix {
			out.Matrix[i] = cloneSlice(row)
		}
	}
	return out
}

func copyAny(a any) any {
	switch x := a.(type) {
	case *Leaf:
		return copyLeafPtr(x)
	case []int:
		return cloneSlice(x)
	case map[string]int:
		if x == nil {
			return x
		}
		out := make(map[string]int, len(x))
		for k, v := range x {
			out[k] = v
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = copyAny(v)
		}
		return out
	}
	return a // nil, int, string, Leaf, Key: values
}

func copyWorld(w World) World {
	out := w
	if w.Nodes != nil {
		out.Nodes = make([]Node, len(w.Nodes))
		for i, n := range w.Nodes {
			out.Nodes[i] = copyNode(n)
		}
	}
	if w.ByKey != nil {
		out.ByKey = make(map[string]*Node, len(w.ByKey))
		for k, n := range w.ByKey {
			if n == nil {
				out.ByKey[k] = nil
				continue
			}
			c := copyNode(*n)
			out.ByKey[k] = &c
		}
	}
	out.Ptr = copyLeafPtr(w.Ptr)
	if w.Opt != nil {
		v := *w.Opt
		out.Opt = &v
	}
	if w.Set != nil {
		out.Set = make(map[Key]struct{}, len(w.Set))
		for k := range w.Set {
			out.Set[k] = struct{}{}
		}
	}
	if w.Anys != nil {
		out.Anys = make([]any, len(w.Anys))
		for i, a := range w.Anys {
			out.Anys[i] = copyAny(a)
		}
	}
	return out
}

// gen builds random values. Everything about a value comes from r; order only decides
// the order in which map entries are inserted, so two gens with the same r seed and
// different order seeds build equal values through different insertion orders.
type gen struct {
	r, order *rand.Rand
}

func newGen(seed, orderSeed int64) *gen {
	return &gen{r: rand.New(rand.NewSource(seed)), order: rand.New(rand.NewSource(orderSeed))}
}

// shape returns −1 for nil, 0 for empty, else a length up to max.
func (g *gen) shape(max int) int {
	switch g.r.Intn(5) {
	case 0:
		return -1
	case 1:
		return 0
	}
	return 1 + g.r.Intn(max)
}

func (g *gen) str() string {
	return [...]string{"", "a", "b", "ab", "hello", "κόσμε"}[g.r.Intn(6)] + fmt.Sprint(g.r.Intn(3))
}

func (g *gen) leaf() Leaf {
	f := float64(g.r.Intn(200)-100) / 4
	return Leaf{I: g.r.Intn(7) - 3, S: g.str(), B: g.r.Intn(2) == 0, F: f, U8: uint8(g.r.Intn(256)), I32: int32(g.r.Intn(9) - 4)}
}

func (g *gen) leafPtr() *Leaf {
	if g.r.Intn(4) == 0 {
		return nil
	}
	l := g.leaf()
	return &l
}

func (g *gen) leafPtrs() []*Leaf {
	n := g.shape(3)
	if n < 0 {
		return nil
	}
	s := make([]*Leaf, n)
	for i := range s {
		s[i] = g.leafPtr()
	}
	return s
}

func (g *gen) ints() []int {
	n := g.shape(4)
	if n < 0 {
		return nil
	}
	s := make([]int, n)
	for i := range s {
		s[i] = g.r.Intn(10)
	}
	return s
}

// fill inserts n generated entries into m in an order chosen by g.order.
func fill[K comparable, V any](g *gen, n int, m map[K]V, entry func() (K, V)) {
	type kv struct {
		k K
		v V
	}
	var es []kv
	for range n {
		k, v := entry()
		es = append(es, kv{k, v})
	}
	// Later duplicates win in every order: drop the earlier ones first.
	seen := map[K]bool{}
	var uniq []kv
	for i := len(es) - 1; i >= 0; i-- {
		if !seen[es[i].k] {
			seen[es[i].k] = true
			uniq = append(uniq, es[i])
		}
	}
	g.order.Shuffle(len(uniq), func(i, j int) { uniq[i], uniq[j] = uniq[j], uniq[i] })
	for _, e := range uniq {
		m[e.k] = e.v
	}
}

func (g *gen) any(depth int) any {
	switch g.r.Intn(9) {
	case 0:
		return nil
	case 1:
		return g.r.Intn(5)
	case 2:
		return g.str()
	case 3:
		return g.leaf()
	case 4:
		l := g.leaf()
		return &l
	case 5:
		return g.ints()
	case 6:
		n := g.shape(3)
		if n < 0 {
			return map[string]int(nil)
		}
		m := map[string]int{}
		fill(g, n, m, func() (string, int) { return g.str(), g.r.Intn(5) })
		return m
	case 7:
		return Key{A: g.r.Intn(3), B: g.str()}
	}
	if depth > 1 {
		return nil
	}
	n := g.shape(3)
	if n < 0 {
		return []any(nil)
	}
	s := make([]any, n)
	for i := range s {
		s[i] = g.any(depth + 1)
	}
	return s
}

func (g *gen) node(depth int) Node {
	n := Node{Name: g.str(), Leaves: g.leafPtrs(), Pair: [2]Leaf{g.leaf(), g.leaf()}, Any: g.any(0)}
	if k := g.shape(3); k >= 0 {
		n.Kids = map[string][]*Leaf{}
		fill(g, k, n.Kids, func() (string, []*Leaf) { return g.str(), g.leafPtrs() })
	}
	if depth < 2 && g.r.Intn(2) == 0 {
		next := g.node(depth + 1)
		n.Next = &next
	}
	if k := g.shape(4); k >= 0 {
		n.Tags = map[int]bool{}
		fill(g, k, n.Tags, func() (int, bool) { return g.r.Intn(10), g.r.Intn(2) == 0 })
	}
	if k := g.shape(5); k >= 0 {
		n.Bytes = make([]byte, k)
		g.r.Read(n.Bytes)
	}
	if k := g.shape(3); k >= 0 {
		n.Matrix = make([][]int, k)
		for i := range n.Matrix {
			n.Matrix[i] = g.ints()
		}
	}
	return n
}

func (g *gen) world() *World {
	w := &World{ID: g.r.Intn(100), Ptr: g.leafPtr()}
	if n := g.shape(3); n >= 0 {
		w.Nodes = make([]Node, n)
		for i := range w.Nodes {
			w.Nodes[i] = g.node(0)
		}
	}
	if n := g.shape(3); n >= 0 {
		w.ByKey = map[string]*Node{}
		fill(g, n, w.ByKey, func() (string, *Node) {
			if g.r.Intn(4) == 0 {
				return g.str(), nil
			}
			nd := g.node(1)
			return g.str(), &nd
		})
	}
	if g.r.Intn(2) == 0 {
		v := g.r.Intn(5)
		w.Opt = &v
	}
	if n := g.shape(4); n >= 0 {
		w.Set = map[Key]struct{}{}
		fill(g, n, w.Set, func() (Key, struct{}) { return Key{A: g.r.Intn(4), B: g.str()}, struct{}{} })
	}
	if n := g.shape(4); n >= 0 {
		w.Anys = make([]any, n)
		for i := range w.Anys {
			w.Anys[i] = g.any(0)
		}
	}
	return w
}

func (g *gen) cworld() *CWorld {
	c := &CWorld{W: *g.world()}
	if n := g.shape(3); n >= 0 {
		c.secret = map[int][]int{}
		fill(g, n, c.secret, func() (int, []int) { return g.r.Intn(9), g.ints() })
	}
	return c
}

// sharedMemory returns where a and b (of the same type) share mutable memory — a
// pointer, a map, or a slice backing array of non-zero capacity — or "".
func sharedMemory(a, b any) string {
	return shares(reflect.ValueOf(a), reflect.ValueOf(b), "v", map[[2]uintptr]bool{})
}

func shares(a, b reflect.Value, path string, seen map[[2]uintptr]bool) string {
	if a.Type() != b.Type() {
		return path + ": types differ"
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() && a.Type().Elem().Size() > 0 {
			return path + ": same pointer"
		}
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if seen[k] {
			return ""
		}
		seen[k] = true
		return shares(a.Elem(), b.Elem(), "(*"+path+")", seen)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		return shares(a.Elem(), b.Elem(), path+".(T)", seen)
	case reflect.Map:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path + ": same map"
		}
		for _, k := range a.MapKeys() {
			if bv := b.MapIndex(k); bv.IsValid() {
				if s := shares(a.MapIndex(k), bv, fmt.Sprintf("%s[%v]", path, k), seen); s != "" {
					return s
				}
			}
		}
	case reflect.Slice:
		if a.Cap() > 0 && b.Cap() > 0 {
			size := a.Type().Elem().Size()
			a0, b0 := a.Pointer(), b.Pointer()
			if size > 0 && a0 < b0+uintptr(b.Cap())*size && b0 < a0+uintptr(a.Cap())*size {
				return path + ": slices share a backing array"
			}
		}
		return elemsShare(a, b, path, seen)
	case reflect.Array:
		return elemsShare(a, b, path, seen)
	case reflect.Struct:
		for i := range a.NumField() {
			if s := shares(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, seen); s != "" {
				return s
			}
		}
	}
	return ""
}

func elemsShare(a, b reflect.Value, path string, seen map[[2]uintptr]bool) string {
	for i := range min(a.Len(), b.Len()) {
		if s := shares(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), seen); s != "" {
			return s
		}
	}
	return ""
}

// mutation is one change to a value that makes it unequal (reflect.DeepEqual) to what it
// was.
type mutation struct {
	where string
	apply func()
}

// mutations lists the changes that can be made to the value v points to: every settable
// number, string and bool, every map (an entry added or removed), every non-nil pointer
// (set to nil). The order is deterministic, so a seed picks the same one every time.
func mutations(v any) []mutation {
	var out []mutation
	collect(reflect.ValueOf(v), "v", &out)
	return out
}

func collect(v reflect.Value, path string, out *[]mutation) {
	add := func(where string, f func()) { *out = append(*out, mutation{path + where, f}) }
	switch v.Kind() {
	case reflect.Int, reflect.Int32:
		if v.CanSet() {
			add(" +1", func() { v.SetInt(v.Int() + 1) })
		}
	case reflect.Uint8:
		if v.CanSet() {
			add(" +1", func() { v.SetUint(v.Uint() + 1) })
		}
	case reflect.Float64:
		if v.CanSet() {
			add(" +1", func() { v.SetFloat(v.Float() + 1) })
		}
	case reflect.String:
		if v.CanSet() {
			add(` +"x"`, func() { v.SetString(v.String() + "x") })
		}
	case reflect.Bool:
		if v.CanSet() {
			add(" flipped", func() { v.SetBool(!v.Bool()) })
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.CanSet() {
			add(" = nil", func() { v.SetZero() })
		}
		collect(v.Elem(), "(*"+path+")", out)
	case reflect.Interface:
		if !v.IsNil() {
			collect(v.Elem(), path+".(T)", out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collect(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				collect(v.Field(i), path+"."+v.Type().Field(i).Name, out)
			}
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			add(fmt.Sprintf(" delete %v", k), func() { v.SetMapIndex(k, reflect.Value{}) })
			collect(v.MapIndex(k), fmt.Sprintf("%s[%v]", path, k), out)
		}
		nk := newKey(v.Type().Key(), keys)
		add(fmt.Sprintf(" add %v", nk), func() { v.SetMapIndex(nk, reflect.Zero(v.Type().Elem())) })
	}
}

// newKey returns a key of type t that is not among keys.
func newKey(t reflect.Type, keys []reflect.Value) reflect.Value {
	for i := 0; ; i++ {
		k := reflect.New(t).Elem()
		switch t.Kind() {
		case reflect.String:
			k.SetString(fmt.Sprintf("new%d", i))
		case reflect.Int:
			k.SetInt(int64(1000 + i))
		case reflect.Struct:
			k.Field(0).SetInt(int64(-1 - i))
		default:
			panic("newKey: " + t.String())
		}
		if !slices.ContainsFunc(keys, func(x reflect.Value) bool { return x.Equal(k) }) {
			return k
		}
	}
}
