package interactive_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/report"
)

// postError posts body to url and returns the error the server answers with ("" if
// none).
func postError(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		return ""
	}
	var e struct{ Error string }
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("%s: %v\n%s", url, err, b)
	}
	return e.Error
}

// TestNextSaysWhyThereIsNoNextStep: /api/next names its reason — nothing loaded, the
// steps made have left the loaded schedule, or the schedule is complete (CLI probe, a
// nit: the last was answered as the first two).
func TestNextSaysWhyThereIsNoNextStep(t *testing.T) {
	sys, res, ts := buggyServer(t)
	defer ts.Close()
	want := func(what, got, part string) {
		t.Helper()
		if !strings.Contains(got, part) {
			t.Errorf("%s: next answers %q, want it to say %q", what, got, part)
		}
	}
	want("nothing loaded", postError(t, ts.URL+"/api/next", ""), "load a counterexample first")

	path := filepath.Join(t.TempDir(), "v.json")
	if err := report.WriteFile(path, report.RunInfo{System: sys.Name, Agents: len(sys.Actors)}, report.NewViolation(&sys, res.First), res.First.Fingerprint); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if e := postError(t, ts.URL+"/api/load", string(file)); e != "" {
		t.Fatalf("load: %s", e)
	}
	for range res.First.Steps {
		if e := postError(t, ts.URL+"/api/next", ""); e != "" {
			t.Fatalf("next: %s", e)
		}
	}
	want("at the end", postError(t, ts.URL+"/api/next", ""), "the counterexample's schedule is complete")

	// Step off the schedule: undo back to its start and deliver an event other than its
	// first step.
	var st interactive.State
	for range res.First.Steps {
		st, _ = post(t, ts.URL+"/api/undo", "")
	}
	if st.Next == nil || *st.Next != 0 || len(st.Script) == 0 {
		t.Fatalf("after undoing every step: next %v, script %d", st.Next, len(st.Script))
	}
	other := ""
	for _, e := range st.Enabled {
		if e.ID != st.Script[0].ID {
			other = e.ID
			break
		}
	}
	if other == "" {
		t.Fatal("the first state has no event besides the schedule's first step")
	}
	if e := postError(t, ts.URL+"/api/deliver", `{"id":"`+other+`"}`); e != "" {
		t.Fatalf("deliver: %s", e)
	}
	want("off the schedule", postError(t, ts.URL+"/api/next", ""), "undo back onto it")
}
