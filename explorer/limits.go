package explorer

import "fmt"

// MaxActors is the most actors a system may have. Every
// state on the search path holds its own list of pending messages, and in a system whose
// actors talk to one another that list grows with the square of the actors while a
// schedule grows with it too: at 200 gossip agents one schedule takes 40,000 steps over
// states of up to 40,000 messages, several gigabytes. Beyond this bound a single
// schedule no longer fits in a sensible memory, and no search covers a useful share of
// the schedules.
const MaxActors = 64

// MaxActorsWhy says in a few words why MaxActors is the bound, for error messages.
const MaxActorsWhy = "every state on the search path keeps its pending messages, which grow with the square of the actors; one schedule of more would not fit in memory"

// checkSize refuses a system too large to explore.
func checkSize(n int) error {
	if n > MaxActors {
		return fmt.Errorf("the system has %d actors, more than the %d Ravel explores (%s)", n, MaxActors, MaxActorsWhy)
	}
	return nil
}
