package explorer

// PollEveryStep makes the search loop look at its context at every iteration, so that
// tests of small systems can interrupt it anywhere; the returned func restores it.
func PollEveryStep() func() {
	old := pollMask
	pollMask = 0
	return func() { pollMask = old }
}

// NewestFirst makes every state list its enabled events newest first (newestFirst), an
// order in which stateful DPOR needs its cycle proviso; the returned func restores the
// engine's order.
func NewestFirst() func() {
	enabledHook = newestFirst
	return func() { enabledHook = nil }
}
