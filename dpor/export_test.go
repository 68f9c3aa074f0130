package dpor

// CheckEveryPair makes stateful DPOR's context-sensitive sleep sets run the check on
// pairs that both record history too, until the returned function is called: for the
// test that answering those without the check changes nothing.
func CheckEveryPair() (restore func()) {
	checkEveryPair = true
	return func() { checkEveryPair = false }
}
