package report

import (
	"fmt"
	"strings"
)

// Thousands writes n in decimal with thousands separators (4,204,200; -1,000), as every
// table and report of Ravel prints counts.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Count writes n with noun, in the plural unless n is 1, and n with thousands separators:
// "1 schedule", "50,000 schedules". The plural is noun with an s.
func Count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Thousands(n) + " " + noun + "s"
}
