package samplers

// World is what a sampler schedules: a model's states, or a live cluster.
type World interface {
	// Enabled lists the identities of the events deliverable now, in ascending creation
	// order; empty when the run is over.
	Enabled() []uint64
	// Deliver delivers the enabled event id and returns the events the delivery created,
	// in creation order. ok is false when the run ends at this step (a failure).
	Deliver(id uint64) (created []Event, ok bool)
}

// Outcome says how a run ended.
type Outcome uint8

// The outcomes.
const (
	Quiescent Outcome = iota // nothing was left to deliver
	Cut                      // the step bound ended it with events still enabled
	Failed                   // a delivery failed (World.Deliver said so)
)

// Drive runs one run of s over w: initial are the events that exist at the start, c the
// run's randomness, maxSteps the step bound. It returns the steps taken and how the run
// ended. Drive is the loop every engine shares, so that a sampler behaves the same over
// a model and over real processes.
func Drive(w World, s Sampler, run int, c Chooser, initial []Event, maxSteps int) (int, Outcome) {
	s.Begin(run, c)
	for i := range initial {
		s.Created(&initial[i])
	}
	for steps := 0; ; steps++ {
		enabled := w.Enabled()
		if len(enabled) == 0 {
			return steps, Quiescent
		}
		if steps >= maxSteps {
			return steps, Cut
		}
		id := s.Next(enabled)
		created, ok := w.Deliver(id)
		if !ok {
			return steps + 1, Failed
		}
		s.Delivered(id)
		for i := range created {
			s.Created(&created[i])
		}
	}
}
