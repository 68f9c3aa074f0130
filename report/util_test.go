package report_test

import (
	"strconv"
	"strings"
)

func itoa(i int) string { return strconv.Itoa(i) }

func joinInts(s []int) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}
