// Package microbench is the micro-benchmark of Ozkan et al. 2019, §5.1, as docs/samplers.md
// restates it: actor N receives three racy chains A, B, C of L messages each, and each of k
// non-racy chains Y¹…Yᵏ lives on an actor of its own. Delivering the i-th message of a
// chain (i < L) makes its receiver send the next one to itself; the first of every chain
// is a client's request (harness roots, unordered). N asserts (ctx.Fail) when the bug's
// order happened:
//
//   - bug 1 (depth 2): all of A, then all of B, then C begins — A_L before B_1 and B_L
//     before C_1; tuple (B_1, C_1);
//   - bug 2 (depth 3, L ≥ 2, h = ⌈L/2⌉): A_L before B_1, B_1 before C_h, C_h before B_L;
//     tuple (B_1, C_h, B_L).
//
// The system declares A, B and C racy (model.System.Racy), as Ozkan et al. 2019 did, so n =
// (3+k)·L and n̂ = 3L.
package microbench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Link is the i-th message (from 1) of chain Chain: 0, 1, 2 are A, B, C; 3+j is Y^(j+1).
type Link struct{ Chain, I int }

// String renders the link: "A2", "Y1_3".
func (l Link) String() string {
	if l.Chain < 3 {
		return string(rune('A'+l.Chain)) + strconv.Itoa(l.I)
	}
	return "Y" + strconv.Itoa(l.Chain-2) + "_" + strconv.Itoa(l.I)
}

// HashState fingerprints the link.
func (l Link) HashState(h *model.Hasher) { h.Int(l.Chain); h.Int(l.I) }

// Node is an actor of the benchmark: N (Bug > 0) or one of the M_j.
type Node struct {
	L, Bug int
	// Seen[c] is the last link of chain c delivered here; AB, BC are bug 2's (and 1's)
	// order conditions seen so far.
	Seen   [3]int
	AB, BC bool
}

// Clone returns a copy.
func (n *Node) Clone() model.Actor { c := *n; return &c }

// HashState fingerprints the node.
func (n *Node) HashState(h *model.Hasher) {
	h.Int(n.L)
	h.Int(n.Bug)
	for _, s := range n.Seen {
		h.Int(s)
	}
	h.Bool(n.AB)
	h.Bool(n.BC)
}

// Receive passes a chain on and, at N, checks the bug's order.
func (n *Node) Receive(ctx *model.Ctx, env model.Envelope) {
	var l Link
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		l = Link{Chain: m.Input.Value, I: 1}
		ctx.Respond(m.ID, specs.WriteOK())
	case Link:
		l = m
	default:
		return
	}
	if l.I < n.L {
		ctx.Send(ctx.Self(), Link{Chain: l.Chain, I: l.I + 1})
	}
	if n.Bug == 0 || l.Chain >= 3 {
		return
	}
	n.Seen[l.Chain] = l.I
	h := (n.L + 1) / 2
	switch {
	case l.Chain == 1 && l.I == 1:
		n.AB = n.Seen[0] == n.L // A_L before B_1
	case n.Bug == 1 && l.Chain == 2 && l.I == 1:
		if n.AB && n.Seen[1] == n.L { // B_L before C_1
			ctx.Fail("bug 1: all of A, then all of B, before C_1")
		}
	case n.Bug == 2 && l.Chain == 2 && l.I == h:
		n.BC = n.AB && n.Seen[1] >= 1 && n.Seen[1] < n.L // B_1 before C_h, B_L not yet
	case n.Bug == 2 && l.Chain == 1 && l.I == n.L:
		if n.BC { // C_h before B_L
			ctx.Fail(fmt.Sprintf("bug 2: A_%d before B_1 before C_%d before B_%d", n.L, h, n.L))
		}
	}
}

// New returns microbench(L, k, bug): actor 0 is N, actors 1…k the M_j.
func New(L, k, bug int) (model.System, error) {
	switch {
	case L < 1:
		return model.System{}, fmt.Errorf("microbench: L must be at least 1, got %d", L)
	case k < 0:
		return model.System{}, fmt.Errorf("microbench: k must be 0 or more, got %d", k)
	case bug != 1 && bug != 2:
		return model.System{}, fmt.Errorf("microbench: bug must be 1 or 2, got %d", bug)
	case bug == 2 && L < 2:
		return model.System{}, fmt.Errorf("microbench: bug 2 needs L ≥ 2, got %d", L)
	}
	actors := []model.Actor{&Node{L: L, Bug: bug}}
	names := []string{"N"}
	clients := []model.Client[specs.RegisterInput]{model.Calls(0, specs.Write(0)), model.Calls(0, specs.Write(1)), model.Calls(0, specs.Write(2))}
	for j := 0; j < k; j++ {
		actors = append(actors, &Node{L: L})
		names = append(names, "M"+strconv.Itoa(j+1))
		clients = append(clients, model.Calls(model.ID(j+1), specs.Write(3+j)))
	}
	return model.System{
		Name:    fmt.Sprintf("microbench(L=%d,k=%d,bug=%d)", L, k, bug),
		Actors:  actors,
		Names:   names,
		Harness: model.Clients(specs.Register(), clients...),
		Racy:    Racy,
	}, nil
}

// Racy declares the chains A, B and C racy: their links and their first requests.
func Racy(msg any) bool {
	switch m := msg.(type) {
	case Link:
		return m.Chain < 3
	case model.Request[specs.RegisterInput]:
		return m.Input.Value < 3
	}
	return false
}

// HarnessNames are the catalog's harnesses: the bug and L; --agents is k.
var HarnessNames = []string{"bug1-L2", "bug2-L3", "bug1-L1", "bug1-L3", "bug2-L2", "bug2-L4"}

// ParseHarness reads "bug<1|2>-L<n>".
func ParseHarness(name string) (bug, L int, err error) {
	b, l, ok := strings.Cut(name, "-L")
	if ok {
		L, err = strconv.Atoi(l)
	}
	if !ok || err != nil || (b != "bug1" && b != "bug2") {
		return 0, 0, fmt.Errorf("unknown harness %q (valid: bug1-L<n> or bug2-L<n>, e.g. %s)", name, strings.Join(HarnessNames, ", "))
	}
	return int(b[3] - '0'), L, nil
}
