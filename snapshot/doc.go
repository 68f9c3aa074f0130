// Package snapshot copies and fingerprints the state of a system under test.
//
// The explorer copies the receiving actor before each step (copy-on-write snapshots, see
// docs/visited-states.md) and remembers states by 64-bit fingerprints. Both
// have a fast path the user writes and a reflective fallback:
//
//   - Copying: an actor with a Clone() model.Actor method ([Cloner]) is copied by calling
//     it; any other value is deep-copied by github.com/mitchellh/copystructure. The
//     fallback cannot copy unexported fields (it leaves them zero, silently) and
//     mishandles funcs, channels, typed nils in interfaces, cycles and shared pointers,
//     so [Mode.CheckCopyable] refuses such values up front with a one-line [CopyError],
//     and [Mode.Clone] refuses them on every call.
//   - Fingerprints: a value with a HashState(*model.Hasher) method ([model.StateHasher])
//     writes itself; any other value is walked by reflection along a plan compiled once
//     per type. [Mode.NewHasher] makes a Hasher whose Value method falls back to that
//     walker, so a HashState method can hand the parts it does not hash by hand to h.Value.
//
// # Equality
//
// Fingerprints follow reflect.DeepEqual: values that are deeply equal have equal
// fingerprints (with the two exceptions below), and values of different dynamic types
// differ (with overwhelming probability), also inside interfaces. Maps are hashed
// independently of iteration order; nil and empty slices and maps differ, as in
// DeepEqual; pointers are hashed by what they point to, so two distinct pointers to equal
// values hash alike; floats are hashed by their bits after −0 is made +0 (DeepEqual uses
// ==, under which −0 == +0).
//
// The exceptions: NaN is not DeepEqual to itself, but a NaN hashes like itself (so a state
// holding a NaN is recognised when it recurs). And a cyclic value is hashed by unrolling
// its cycles to a fixed depth and then writing back-references; two cyclic values whose
// pointer graphs have the same shape hash alike, but DeepEqual also equates some cyclic
// values of different shapes (a one-node loop and a two-node loop of equal nodes), and
// those may hash differently. A HashState method replaces all of this for its type: it is
// trusted to agree with the value.
//
// [Mode] selects between the fast paths and the fallbacks; its zero value uses the fast
// paths where they exist. All functions are safe for concurrent use.
package snapshot
