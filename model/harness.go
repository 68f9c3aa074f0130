package model

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/specs"
)

// RequestID names one operation of the harness: the client that invokes it and its place
// in that client's sequence (0, 1, …).
type RequestID struct {
	Client ID
	Seq    int
}

// String names the operation: "c0.1" is client c0's second operation. The zero
// RequestID, which names no operation (an actor's request field before any request), is
// "none", not "n0.0" (probe M5).
func (r RequestID) String() string {
	if r == (RequestID{}) {
		return "none"
	}
	return r.Client.String() + "." + strconv.Itoa(r.Seq)
}

// Before orders requests by client — c0, c1, … (client IDs are negative, so the larger
// ID comes first) — then by sequence number.
func (r RequestID) Before(o RequestID) bool {
	if r.Client != o.Client {
		return r.Client > o.Client
	}
	return r.Seq < o.Seq
}

// InsertByRequest inserts v into s, which is ordered by key under RequestID.Before, and
// keeps it ordered. It replaces nothing: v goes before any element of s with the same
// key, which stays. Actors use it for their tables of operations in progress, whose
// order is part of their fingerprint.
func InsertByRequest[T any](s []T, v T, key func(T) RequestID) []T {
	i := 0
	for i < len(s) && key(s[i]).Before(key(v)) {
		i++
	}
	s = append(s, v)
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}

// Request is the message a client sends to invoke an operation with input I. Actors
// receive it as a model.Request[I] (for example model.Request[specs.RegisterInput]),
// may forward it as it is, and answer it with Ctx.Respond(req.ID, output).
//
// I is exactly the input type of the harness's specification (Harness.RequestType names
// it): a handler whose type switch matches a Request of another I — model.Request[int],
// or an input type of the same name from another package — never sees the request, and
// never answers it. Such an operation stays open in every history, which the checker
// cannot fault; ravel check and raveltest say when no operation, or not every one, was
// answered in any schedule (explorer.Stats.Answered), and raveltest.Check fails a test in
// which none was.
//
// A request is fingerprinted by its ID: the harness fixes the input of every ID, so an
// actor that forwards a request must not change its Input (copy it into a message of its
// own instead).
type Request[I any] struct {
	ID    RequestID
	Input I
}

// String renders the request: "Request{c0.0 Write(1)}".
func (r Request[I]) String() string { return fmt.Sprintf("Request{%v %v}", r.ID, r.Input) }

// request gives RequestOf the ID and input of a request of any input type.
func (r Request[I]) request() (RequestID, any) { return r.ID, r.Input }

// RequestOf reports whether msg is a client's request, a Request of any input type, and
// if so its ID and input. It lets code that does not know the harness's input type (the
// reports) render a request with the specification's DescribeInput.
func RequestOf(msg any) (id RequestID, input any, ok bool) {
	r, ok := msg.(interface{ request() (RequestID, any) })
	if !ok {
		return RequestID{}, nil, false
	}
	id, input = r.request()
	return id, input, true
}

// HashState fingerprints the request by its ID.
func (r Request[I]) HashState(h *Hasher) {
	h.Uint64(0x5265717565737400) // "Request"
	h.ID(r.ID.Client)
	h.Int(r.ID.Seq)
}

// Client is one client of a harness: the actor it talks to and the operations it invokes,
// one after another — each after the previous one has been answered.
type Client[I any] struct {
	Target ID
	Ops    []I
}

// Calls is a client that invokes ops, in order, on actor target.
func Calls[I any](target ID, ops ...I) Client[I] {
	return Client[I]{Target: target, Ops: ops}
}

// Harness says what the clients of a system do and which sequential specification their
// answers are checked against. Build one with Clients. Its methods panic on a nil
// Harness, and those taking a client or operation index (Target, Ops, Input, Request,
// InputOf) on one out of range, as a slice index does; model.System.Validate refuses a
// system without a harness.
type Harness struct {
	spec    specs.Erased
	targets []ID
	inputs  [][]any
	request func(id RequestID, in any) any
	// reqType is the request's type name, for RequestType.
	reqType string
	// timeouts is how many times each client may time out and retry (Retrying).
	timeouts int
}

// Clients returns the harness in which each of clients runs its operations against its
// target, all clients concurrently, and whose histories must be linearizable with
// respect to spec. DS2's harnesses use one client per operation.
func Clients[S, I, O comparable](spec specs.Spec[S, I, O], clients ...Client[I]) *Harness {
	h := &Harness{
		spec:    specs.Erase(spec),
		targets: make([]ID, len(clients)),
		inputs:  make([][]any, len(clients)),
		request: func(id RequestID, in any) any { return Request[I]{ID: id, Input: in.(I)} },
		reqType: fmt.Sprintf("%T", Request[I]{}),
	}
	for c, cl := range clients {
		h.targets[c] = cl.Target
		h.inputs[c] = make([]any, len(cl.Ops))
		for k, op := range cl.Ops {
			h.inputs[c][k] = op
		}
	}
	return h
}

// OnePerOperation returns the harness of the DS2 paper's benchmarks (§4.1.2): one client
// per operation, all concurrent, operation k sent to actor k mod n. It panics, saying
// so, if n is below 1: n is the number of actors, which a system validates before.
func OnePerOperation[S, I, O comparable](spec specs.Spec[S, I, O], n int, ops []I) *Harness {
	if n < 1 {
		panic(fmt.Sprintf("model: OnePerOperation over %d actors: it needs at least 1", n))
	}
	clients := make([]Client[I], len(ops))
	for k, op := range ops {
		clients[k] = Calls(ID(k%n), op)
	}
	return Clients(spec, clients...)
}

// NamedOperations returns the operations of the harness called name in table, or an
// error that lists the valid names: those of names that table has, in the order of names,
// then table's other names, sorted.
func NamedOperations[I any](table map[string][]I, names []string, name string) ([]I, error) {
	ops, ok := table[name]
	if !ok {
		var valid, rest []string
		listed := make(map[string]bool, len(names))
		for _, n := range names {
			if _, ok := table[n]; ok && !listed[n] {
				valid = append(valid, n)
			}
			listed[n] = true
		}
		for n := range table {
			if !listed[n] {
				rest = append(rest, n)
			}
		}
		sort.Strings(rest)
		return nil, fmt.Errorf("unknown harness %q (valid: %s)", name, strings.Join(append(valid, rest...), ", "))
	}
	return ops, nil
}

// Retrying sets, in h itself, every client's retry limit: each may time out and retry, up
// to n times per schedule (0: never). While
// an operation of the client is invoked and not answered, the explorer may fire the
// client's timer, which sends the same request again (the same RequestID and input) to
// the next actor after the one it last tried, in ID order. The operation's invocation
// stays the first delivery's; the first answer to either copy is its response, later
// ones are ignored. The timer fires at the explorer's choice, like a fault, so both a
// premature retry and a retry after a lost answer are explored. It returns h, for
// chaining: a system that shares h with another (sysB.Harness = sysA.Harness.Retrying(2))
// makes both retry.
func (h *Harness) Retrying(n int) *Harness {
	h.timeouts = n
	return h
}

// Timeouts is how many times each client may time out and retry (0: never).
func (h *Harness) Timeouts() int { return h.timeouts }

// Spec is the specification, with its types erased.
func (h *Harness) Spec() specs.Erased { return h.spec }

// NumClients is the number of clients.
func (h *Harness) NumClients() int { return len(h.targets) }

// Target is the actor client c (0-based, not its ID) talks to.
func (h *Harness) Target(c int) ID { return h.targets[c] }

// Ops is the number of operations client c invokes.
func (h *Harness) Ops(c int) int { return len(h.inputs[c]) }

// Input is the input of client c's operation k.
func (h *Harness) Input(c, k int) any { return h.inputs[c][k] }

// Request builds the message that invokes operation id.
func (h *Harness) Request(id RequestID) any {
	c, _ := id.Client.Client()
	return h.request(id, h.inputs[c][id.Seq])
}

// RequestType names the type of the messages h's clients send, as a handler's type
// switch must name it: "model.Request[specs.RegisterInput]" (package paths left out).
func (h *Harness) RequestType() string {
	return requestPath.ReplaceAllString(h.reqType, "")
}

// requestPath matches the import path before a package name in a type's name.
var requestPath = regexp.MustCompile(`[A-Za-z0-9_.~-]+/`)

// InputOf is the input of operation id.
func (h *Harness) InputOf(id RequestID) any {
	c, _ := id.Client.Client()
	return h.inputs[c][id.Seq]
}

// NumOps is the total number of operations of all clients.
func (h *Harness) NumOps() int {
	n := 0
	for _, in := range h.inputs {
		n += len(in)
	}
	return n
}

func (h *Harness) validate(actors int) error {
	if h == nil {
		return fmt.Errorf("model: the system has no harness")
	}
	if err := h.spec.Validate(); err != nil {
		return err
	}
	if h.timeouts < 0 {
		return fmt.Errorf("model: the harness's clients retry %d times; want 0 or more", h.timeouts)
	}
	if len(h.targets) == 0 {
		return fmt.Errorf("model: the harness has no clients")
	}
	for c, t := range h.targets {
		if t < 0 || int(t) >= actors {
			return fmt.Errorf("model: client %d targets actor %d, but the system has actors 0…%d", c, t, actors-1)
		}
	}
	return nil
}
