package ravelcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/buggysys"
	"github.com/ravelmc/ravel/model"
)

var offByOneSystem = System{Name: "off-by-one", Harnesses: []string{"w1r"}, Agents: 2,
	Build: func(Config) (model.System, error) { return buggysys.OffByOneSystem(), nil }}

// TestCheckPanickingString: a message and an actor whose String methods panic do not
// crash check: its report, in text and in HTML, minimized or not, gives the system's real
// bug, with the message and the actor's states rendered as fmt renders a panicking String
// method.
func TestCheckPanickingString(t *testing.T) {
	const (
		msgMark   = "%!v(PANIC=String method: OffByOneCopy.String)"
		actorMark = "%!v(PANIC=String method: OffByOne.String)"
	)
	for _, tc := range []struct {
		name string
		args []string
		html bool
	}{
		{"text", nil, false},
		{"not minimized", []string{"--minimize=false"}, false},
		{"html", []string{"--html"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "r.html")
			args := append([]string{"check", "off-by-one", "--quiet"}, tc.args...)
			if tc.html {
				args = append(args, page)
			}
			var stdout, stderr bytes.Buffer
			if code := Run(args, &stdout, &stderr, Systems(offByOneSystem)); code != exitViolation {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitViolation, stderr.String())
			}
			for _, want := range []string{"VIOLATION: schedule", "c1  Read()", "├──┤ 2", "n0 → n1  " + msgMark} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			if !tc.html {
				return
			}
			b, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`"verdict":"VIOLATION (nonlinearizable)`, msgMark, actorMark} {
				if !strings.Contains(string(b), want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}
}
