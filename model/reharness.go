package model

import "fmt"

// Alphabet lists the distinct inputs of h's operations, in the order they first appear:
// the value domain that generated workloads draw from by default.
func (h *Harness) Alphabet() []any {
	var out []any
	seen := map[any]bool{}
	for _, ops := range h.inputs {
		for _, in := range ops {
			if !seen[in] {
				seen[in] = true
				out = append(out, in)
			}
		}
	}
	return out
}

// WithClients returns a harness with h's specification and retry limit (Timeouts) in
// which client c invokes ops[c] on actor targets[c]: the way to run a system's actors
// under another workload. h is not changed. Every
// op must have the specification's input type.
func (h *Harness) WithClients(targets []ID, ops [][]any) (*Harness, error) {
	if len(targets) != len(ops) {
		return nil, fmt.Errorf("model: %d targets for %d clients", len(targets), len(ops))
	}
	c := *h // keeps whatever else the harness says (its clients' retries, …)
	n := &c
	n.targets, n.inputs = append([]ID(nil), targets...), make([][]any, len(ops))
	for c, list := range ops {
		for k, in := range list {
			if !h.spec.IsInput(in) {
				return nil, fmt.Errorf("model: client %d operation %d: %T is not the specification's input type", c, k, in)
			}
		}
		n.inputs[c] = append([]any(nil), list...)
	}
	return n, nil
}
