package systems

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
)

// TestNewWithoutHarnesses: an Entry that names no harness is an error of New that says
// so, not a panic of New's own reported as Build's (probe G10).
func TestNewWithoutHarnesses(t *testing.T) {
	e := Entry{Name: "x", Agents: 1, Build: func(Config) (model.System, error) { return model.System{}, nil }}
	_, err := e.New(Config{})
	if err == nil || !strings.Contains(err.Error(), "names no harness") || strings.Contains(err.Error(), "Build panicked") {
		t.Errorf("New = %v, want an error saying the system names no harness", err)
	}
}

// TestNewFillsDefaults: Build sees the Entry's defaults for an empty harness, zero agents
// and negative retries, and retries 0 as asked (its doc says so).
func TestNewFillsDefaults(t *testing.T) {
	var got []Config
	e := Entry{Name: "x", Harnesses: []string{"h1", "h2"}, Agents: 3, Retries: 2, Build: func(c Config) (model.System, error) {
		got = append(got, c)
		return model.System{}, nil // New's validation fails; Build's Config is what counts
	}}
	e.New(Config{Retries: -1})
	e.New(Config{Harness: "h2", Agents: 1, Retries: 0})
	want := []Config{{"h1", 3, 2}, {"h2", 1, 0}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Build got %v, want %v", got, want)
	}
}

// TestNewZeroAgents: an Entry with ZeroAgents builds with Agents 0 for NoAgents; every
// Entry fills in its default for 0 (a Go caller that leaves Agents out, as the explorer's
// tests of microbench do, gets the default, not k = 0). microbench (--agents is k, and
// k = 0 is a benchmark) could not be given k = 0.
func TestNewZeroAgents(t *testing.T) {
	for _, tc := range []struct {
		name   string
		zero   bool
		agents int
		want   int
	}{
		{"zero agents, NoAgents", true, NoAgents, 0},
		{"zero agents, 0", true, 0, 3},
		{"zero agents, 2", true, 2, 2},
		{"default, 0", false, 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := -100
			e := Entry{Name: "x", Harnesses: []string{"h"}, Agents: 3, ZeroAgents: tc.zero, Build: func(c Config) (model.System, error) {
				got = c.Agents
				return model.System{}, nil
			}}
			e.New(Config{Agents: tc.agents})
			if got != tc.want {
				t.Errorf("Build got Agents %d, want %d", got, tc.want)
			}
		})
	}
}
