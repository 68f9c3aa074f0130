package explorer

// PollEveryStep makes the search loop look at its context at every iteration, so that
// tests of small systems can interrupt it anywhere; the returned func restores it.
func PollEveryStep() func() {
	old := pollMask
	pollMask = 0
	return func() { pollMask = old }
}
