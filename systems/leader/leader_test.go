package leader_test

import (
	"fmt"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/systemstest"
)

// TestVerdicts: on a state space with cycles (heartbeats and election timeouts, requests
// bouncing between a candidate and the old leader), with state caching, exhaustive search completes on the correct register
// without a violation and finds the buggy one's; dpor with caching completes too, with
// no cut schedule, the same canonical histories and violations, in no more states.
func TestVerdicts(t *testing.T) {
	tests := []struct {
		name      string
		build     func(int, string) (model.System, error)
		harness   string
		violation bool
		long      bool
	}{
		{"leader 1rw", leader.New, "1rw", false, false},
		{"leader-buggy 1rw", leader.NewBuggy, "1rw", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long && testing.Short() {
				t.Skip("hundreds of thousands of states; skipped with -short")
			}
			sys, err := tt.build(3, tt.harness)
			if err != nil {
				t.Fatal(err)
			}
			systemstest.StatefulVerdict(t, sys, tt.violation)
		})
	}
}

func TestFastPaths(t *testing.T) {
	sys, err := leader.NewBuggy(3, "1rw")
	if err != nil {
		t.Fatal(err)
	}
	systemstest.FastPathsAgree(t, sys)
	systemstest.Deterministic(t, sys, explorer.Options{StateCaching: true, MaxSchedules: explorer.Unlimited})
}

func TestBadParameters(t *testing.T) {
	if _, err := leader.New(2, "1w2r"); err == nil {
		t.Errorf("2 nodes accepted")
	}
	if _, err := leader.New(3, "9w"); err == nil {
		t.Errorf("unknown harness accepted")
	}
}

// TestMessagesPrintAlike: every message of the leader prints as name{field:value …},
// as Accept did not ("Accept{t0 v1 1}" beside "AcceptOK{Term:0 Ver:1}").
func TestMessagesPrintAlike(t *testing.T) {
	for _, c := range []struct {
		msg  any
		want string
	}{
		{leader.Accept{Term: 0, Ver: 1, Val: 1}, "Accept{term:0 ver:1 val:1}"},
		{leader.AcceptOK{Term: 0, Ver: 1}, "AcceptOK{term:0 ver:1}"},
		{leader.Promise{Term: 1, Ver: 1, Val: 1}, "Promise{term:1 ver:1 val:1}"},
		{leader.Prepare{Term: 1}, "Prepare{term:1}"},
		{leader.Heartbeat{Term: 2}, "Heartbeat{term:2}"},
		{leader.HeartbeatOK{Term: 2}, "HeartbeatOK{term:2}"},
	} {
		if got := fmt.Sprint(c.msg); got != c.want {
			t.Errorf("%T prints as %s, want %s", c.msg, got, c.want)
		}
	}
}
