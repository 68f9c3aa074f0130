//go:build amd64 || arm64

package words

import "unsafe"

// Prefetch asks the processor to bring the cache line holding p into its caches, and
// returns at once: a later load of it then waits less or not at all. It has no other
// effect — p need not be valid — so a caller that knows an address a few hundred
// nanoseconds before it reads it (a hash table's slot, once the key is known) can overlap
// the memory's latency with other work.
//
//go:noescape
func Prefetch(p unsafe.Pointer)
