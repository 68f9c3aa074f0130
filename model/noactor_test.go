package model_test

import (
	"fmt"
	"testing"

	"github.com/ravelmc/ravel/model"
)

// TestNoActor: NoActor, the ID of no one (Raft's votedFor before a vote), is no client
// and prints "none", alone and in a struct's fields, where reports render it (probe T7:
// a sentinel of the user's own, -100, printed as client c99).
func TestNoActor(t *testing.T) {
	if c, ok := model.NoActor.Client(); ok {
		t.Errorf("NoActor.Client() = %d, true: want no client", c)
	}
	type vote struct {
		Term     int
		VotedFor model.ID
	}
	for _, c := range []struct{ got, want string }{
		{model.NoActor.String(), "none"},
		{fmt.Sprintf("%+v", vote{Term: 2, VotedFor: model.NoActor}), "{Term:2 VotedFor:none}"},
		{fmt.Sprintf("%+v", vote{Term: 2, VotedFor: 1}), "{Term:2 VotedFor:n1}"},
		{model.ClientID(0).String(), "c0"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
