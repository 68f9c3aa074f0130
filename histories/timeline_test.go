package histories_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// TestTimelineAlignsOperations: the operations' names start in one column and their spans
// are drawn on one time axis, whatever the widths of the clients' names (c3 beside c12:
// CLI probe, a nit).
func TestTimelineAlignsOperations(t *testing.T) {
	clients := make([]model.Client[specs.RegisterInput], 13)
	for i := range clients {
		clients[i] = model.Calls(0, specs.Read())
	}
	clients[3] = model.Calls(0, specs.Write(7))
	sys := model.System{Name: "wide", Actors: []model.Actor{nil}, Harness: model.Clients(specs.Register(), clients...)}
	c3 := model.RequestID{Client: model.ClientID(3)}
	c12 := model.RequestID{Client: model.ClientID(12)}
	events := []histories.Event{
		{Kind: histories.Invoke, Req: c3},
		{Kind: histories.Invoke, Req: c12},
		{Kind: histories.Return, Req: c3, Output: specs.WriteOK()},
		{Kind: histories.Return, Req: c12, Output: specs.ReadOK(7)},
	}
	got := histories.Timeline(&sys, events)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("Timeline drew %d lines, want 2:\n%s", len(lines), got)
	}
	column := func(line, part string) int {
		i := strings.Index(line, part)
		if i < 0 {
			t.Fatalf("line %q lacks %q", line, part)
		}
		return len([]rune(line[:i]))
	}
	if a, b := column(lines[0], "Write(7)"), column(lines[1], "Read()"); a != b {
		t.Errorf("the operations start in columns %d and %d, want one column:\n%s", a, b, got)
	}
	if a, b := column(lines[0], "├"), column(lines[1], "├"); b-a != 3 {
		t.Errorf("c12's span starts %d columns after c3's, want 3 (one event):\n%s", b-a, got)
	}
}
