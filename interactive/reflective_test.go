package interactive_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/register"
)

// TestLoadReflective: a counterexample found with the reflective fingerprint (its file's
// run.reflective) loads and steps to its end, as one found with the default does; and
// after it, one of the default mode still does.
func TestLoadReflective(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := interactive.New(sys)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	for _, reflective := range []bool{true, false} {
		name := map[bool]string{true: "reflective", false: "default"}[reflective]
		t.Run(name, func(t *testing.T) {
			res, err := explorer.Run(context.Background(), sys, explorer.Options{Reflective: reflective})
			if err != nil || res.First == nil {
				t.Fatalf("no violation: %v", err)
			}
			path := filepath.Join(t.TempDir(), "v.json")
			info := report.RunInfo{System: sys.Name, Agents: len(sys.Actors), Reflective: reflective}
			if err := report.WriteFile(path, info, report.NewViolation(&sys, res.First), res.First.Fingerprint); err != nil {
				t.Fatal(err)
			}
			file, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, code := post(t, ts.URL+"/api/load", string(file)); code != http.StatusOK {
				t.Fatalf("load: status %d, want 200", code)
			}
			var st interactive.State
			for i := range res.First.Steps {
				var code int
				if st, code = post(t, ts.URL+"/api/next", ""); code != http.StatusOK {
					t.Fatalf("next %d: status %d, want 200", i+1, code)
				}
			}
			if got, want := st.Verdict, "not linearizable"; got != want {
				t.Errorf("verdict at the end of the counterexample: %q, want %q", got, want)
			}
		})
	}
}
