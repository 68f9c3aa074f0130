package visited

import "github.com/ravelmc/ravel/internal/words"

// allocWords and freeWords hold the visited set's two big arrays, the table and the
// filter. Where the platform allows (internal/words' Map) they are mapped from the
// operating system directly rather than taken from the Go heap, whatever their size, for
// two reasons measured with TestVisitedPeakMemory: a table that doubles leaves its old array to the garbage
// collector, which returns it late, so old and new arrays and the garbage of the search
// all coexisted; and the collector lets the heap grow to twice its live size before it
// runs, and with the set in the heap, its live size is the budget — so a run's RSS was
// about twice the budget. Outside the heap, the set's memory is exactly its arrays, freed
// the moment they are replaced, and the collector paces itself by the engine's own heap.
func allocWords(n int) []uint64 { return words.Map(n) }

func freeWords(w []uint64) { words.Free(w) }
