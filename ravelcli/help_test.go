package ravelcli

import (
	"strings"
	"testing"
)

// TestEveryCommandHelp: every command's -h, and help CMD, prints that command's help on
// standard output and exits 0.
func TestEveryCommandHelp(t *testing.T) {
	for _, cmd := range []string{"list", "check", "replay", "bench", "bench samplers", "deps", "lincheck", "explore", "run"} {
		for _, args := range [][]string{
			append(strings.Fields(cmd), "-h"),
			append(strings.Fields(cmd), "--help"),
			append([]string{"help"}, strings.Fields(cmd)...),
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := runRavel(args...)
				if code != exitOK || stderr != "" {
					t.Fatalf("exit %d, stderr %q; want %d and nothing", code, stderr, exitOK)
				}
				if want := "Usage: ravel " + cmd; !strings.HasPrefix(stdout, want) {
					t.Errorf("help starts %q, want %q", firstLine(stdout), want)
				}
			})
		}
	}
}

// TestCommandBadArguments: an unknown flag or a stray argument is named, as every
// command names it, with exit 2.
func TestCommandBadArguments(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--bogus", "f.json"}, "ravel: replay: flag provided but not defined: -bogus (see ravel replay -h)"},
		{[]string{"replay", "--json", "f.json"}, "flag provided but not defined: -json"},
		{[]string{"replay"}, "replay needs exactly one FILE"},
		{[]string{"replay", "a.json", "b.json"}, "got 2 arguments"},
		{[]string{"list", "x"}, `list takes no arguments, got "x"`},
		{[]string{"help", "nosuch"}, `help: unknown command "nosuch" (valid: list, check, replay`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, stderr := runRavel(c.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not say %q", stderr, c.want)
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
