// Package model is Ravel's language for distributed systems: actors, messages, timers,
// clients and harnesses.
//
// An actor is a Go value whose fields are its state and whose Receive method handles one
// message at a time through a [Ctx]. Messages are plain Go values. A [System] puts actors
// together with the network they talk over and a [Harness]: the clients, what each of them
// asks of which actor, and the sequential specification the answers must agree with.
//
// # Determinism
//
// Ravel explores the orders in which messages can be delivered and must be able to replay
// any of them, so a handler must be a deterministic function of the actor's state and the
// message: no goroutines, no clocks, no global randomness, no I/O, and nothing it sends may
// depend on map iteration order. Every effect — a send, a response, a timer — goes through
// the context. Ravel checks this when it reports a finding: the schedule is replayed from
// the initial state and must reach the same fingerprints.
//
// # What a step is
//
// One step delivers one pending message (or fires one timer) to its receiver and runs the
// handler to completion. Steps are the only scheduling points. A client's request is
// invoked when it is delivered to the system; it returns when an actor calls
// [Ctx.Respond] for it. The response is not a message the network can reorder: it only
// lets that client send its next request.
//
// # Faults
//
// A [System]'s [Faults] give the explorer budgets per schedule for losing, duplicating
// and partitioning messages and for crashing actors; all zero, the default, injects none.
// A crashed actor that is a [Restarter] may come back with what its Restart method keeps
// (its durable state); one that is not stays down. A [Harness] made [Harness.Retrying]
// lets its clients time out and send a request again to another actor. An operation whose
// answer is lost stays open in the history: its outcome is unknown.
//
// # Snapshots
//
// Ravel copies an actor before each step that changes it, with the actor's own
// Clone() Actor method when it has one and a reflective deep copy otherwise; the
// reflective copy cannot see unexported fields, so an actor with unexported state must
// have a Clone method (Ravel refuses it otherwise). An actor (or a message) with a
// HashState(*Hasher) method fingerprints itself; otherwise Ravel walks it by reflection.
// Both fast paths are optional and must agree with the value: equal states, equal
// fingerprints; a clone shares no mutable memory with the original. Ravel checks the
// last on the first 100,000 steps that change an actor with a Clone method: when the
// handler, running on the copy, changed the original too, the run ends with a finding
// of kind "shared-clone" naming the map, slice or pointer the two share. Sharing data no handler changes is
// fine, and is not reported.
//
// A step can leave a state, message or timer payload that Ravel cannot copy or
// fingerprint, which the checks made before the search could not see: an error value
// (its unexported fields), two fields made to point to one value, a func behind an
// interface. The run then ends with a finding of kind "uncopyable" that names the step,
// the part at fault and what to change. Both kinds say that Ravel could not check the
// system as written, not that the protocol is wrong: ravel check exits with status 2 for
// them, and raveltest does not save them as counterexamples.
package model
