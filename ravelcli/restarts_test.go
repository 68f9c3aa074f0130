package ravelcli

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
)

// stays is an actor without a Restart method: a crash keeps it down.
type stays struct{}

func (stays) Receive(*model.Ctx, model.Envelope) {}

// comesBack is an actor with one: it restarts after a crash.
type comesBack struct{ stays }

func (comesBack) Restart() model.Actor { return comesBack{} }

// TestRestartsLine: ravel list SYSTEM's line on crashes names which actors restart,
// for systems where every actor, none, or some do.
func TestRestartsLine(t *testing.T) {
	for _, c := range []struct {
		name   string
		actors []model.Actor
		want   string
	}{
		{"every actor restarts", []model.Actor{comesBack{}, comesBack{}},
			"crashes (--crash): every actor restarts, with what its Restart method keeps (--crash-stop: none does)"},
		{"none restarts", []model.Actor{stays{}, stays{}},
			"crashes (--crash): no actor restarts (none has a Restart method): a crash is crash-stop, and --crash-stop changes nothing"},
		{"one restarts", []model.Actor{stays{}, comesBack{}, stays{}},
			"crashes (--crash): n1 restarts, with what its Restart method keeps, the others stay down (--crash-stop: none does)"},
		{"two restart", []model.Actor{comesBack{}, stays{}, comesBack{}},
			"crashes (--crash): n0, n2 restart, with what their Restart method keeps, the others stay down (--crash-stop: none does)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := model.System{Actors: c.actors}
			if got := restartsLine(&sys); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestListSaysWhatRestarts: ravel list and ravel list SYSTEM say whether a system's
// actors restart after a crash (probe F2: nothing said that --crash is crash-stop on
// abd, where --crash-stop changes nothing).
func TestListSaysWhatRestarts(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "register"}, "\ncrashes (--crash): every actor restarts, with what its Restart method keeps (--crash-stop: none does)\n"},
		{[]string{"list", "abd"}, "\ncrashes (--crash): no actor restarts (none has a Restart method): a crash is crash-stop, and --crash-stop changes nothing\n"},
		{[]string{"list"}, "\nSYSTEM               HARNESSES                                        AGENTS  RESTARTS  WHAT\n"},
		{[]string{"list"}, "\nregister             2r1w,2r2w,1r1w                                   2       yes       DS2's"},
		{[]string{"list"}, "\nabd                  1w2r,2w2r,1w1r,1w2r-seq                          3       no        leaderless"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, stdout, stderr := runRavel(c.args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if !strings.Contains("\n"+stdout, c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, stdout)
			}
		})
	}
}

// TestCrashStopNote: check notes that --crash-stop changes nothing on a system none of
// whose actors restarts, in the text report and in --json's notes, and only then.
func TestCrashStopNote(t *testing.T) {
	const note = "note: --crash-stop changes nothing here: no actor of abd restarts (none has a Restart method)"
	for _, c := range []struct {
		name string
		args []string
		want bool
	}{
		{"abd --crash-stop", []string{"check", "abd", "--harness", "1w1r", "--crash", "1", "--crash-stop", "--max-schedules", "5", "--quiet"}, true},
		{"abd --crash-stop --json", []string{"check", "abd", "--harness", "1w1r", "--crash", "1", "--crash-stop", "--max-schedules", "5", "--quiet", "--json"}, true},
		{"abd without --crash-stop", []string{"check", "abd", "--harness", "1w1r", "--crash", "1", "--max-schedules", "5", "--quiet"}, false},
		{"register --crash-stop", []string{"check", "register", "--harness", "1r1w", "--crash", "1", "--crash-stop", "--max-schedules", "5", "--quiet"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stdout, stderr := runRavel(c.args...)
			if got := strings.Contains(stdout, note); got != c.want {
				t.Errorf("the output has the note: %v, want %v:\n%s\nstderr: %s", got, c.want, stdout, stderr)
			}
			if got := strings.Count(stdout+stderr, "--crash-stop changes nothing"); c.want && got != 1 {
				t.Errorf("the note is told %d times, want once:\n%s", got, stdout)
			}
		})
	}
}
