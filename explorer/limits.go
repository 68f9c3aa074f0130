package explorer

import "fmt"

// MaxActors is the most actors a system may have. Every state on the search path holds
// its own list of pending messages, and every node its list of enabled events; in a
// system whose actors talk to one another those lists grow with the square of the
// actors, and a schedule grows with it too, so one schedule's memory grows with the
// fourth power. Measured with ravel check gossip --max-schedules 1 --max-depth 0 on a
// 2-core shared VM: 48 agents, 2,304 steps, 308 MB peak; 64 agents, 4,096 steps, 952 MB;
// 200 agents took 6.9 GB before it was stopped. Beyond this bound a single schedule no
// longer fits in a sensible memory, and no search covers a useful share of the
// schedules.
const MaxActors = 48

// MaxActorsWhy says in a few words why MaxActors is the bound, for error messages.
const MaxActorsWhy = "every state on the search path keeps its pending messages, which grow with the square of the actors; one schedule of more would not fit in memory"

// checkSize refuses a system too large to explore.
func checkSize(n int) error {
	if n > MaxActors {
		return fmt.Errorf("the system has %d actors, more than the %d Ravel explores (%s)", n, MaxActors, MaxActorsWhy)
	}
	return nil
}
