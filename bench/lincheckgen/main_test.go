package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestFormatHelpListsEveryFormat: -format's help names every format main writes.
func TestFormatHelpListsEveryFormat(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(src), "switch *format {")
	block, _, _ = strings.Cut(block, "\n\t}")
	cases := regexp.MustCompile(`\n\tcase "([a-z]+)":`).FindAllStringSubmatch(block, -1)
	if len(cases) < 3 {
		t.Fatalf("found %d formats in main's switch", len(cases))
	}
	for _, m := range cases {
		if !strings.Contains(formatHelp, m[1]+" (") {
			t.Errorf("-format's help %q does not name %s", formatHelp, m[1])
		}
	}
}
