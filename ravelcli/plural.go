package ravelcli

import "fmt"

// plural is n with noun, in the plural unless n is 1: "1 operation", "3 operations".
// The plural is noun with an s, which every noun counted here takes.
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// differVerb agrees "differ" with the n things that differ.
func differVerb(n int) string {
	if n == 1 {
		return "differs"
	}
	return "differ"
}
