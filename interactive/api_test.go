package interactive_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/leader"
)

// call sends a request and returns the status and the body decoded as JSON: every
// answer under /api/ is a JSON object, a State or {"error": …}.
func call(t *testing.T, method, url, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Errorf("%s %s: status %d, not a JSON object: %q", method, url, resp.StatusCode, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q", method, url, ct)
	}
	return resp.StatusCode, m
}

// TestDeliverIDs: /api/deliver takes exactly 16 hex digits as a string, and says so in
// its own words rather than Go's (probe U15: "1" was taken as 0x1, and {"id":12}
// answered "json: cannot unmarshal number into Go struct field .id of type string").
func TestDeliverIDs(t *testing.T) {
	_, _, ts := buggyServer(t)
	defer ts.Close()
	code, st := call(t, "GET", ts.URL+"/api/state", "")
	if code != http.StatusOK {
		t.Fatalf("state: %d", code)
	}
	first := st["enabled"].([]any)[0].(map[string]any)["id"].(string)
	for _, body := range []string{
		`{"id":"1"}`,
		`{"id":"0` + first + `"}`, // 17 digits, of an enabled event
		`{"id":"` + first[1:] + `"}`,
		`{"id":"` + first[:15] + `g"}`,
	} {
		code, m := call(t, "POST", ts.URL+"/api/deliver", body)
		if e, _ := m["error"].(string); code != http.StatusBadRequest || !strings.Contains(e, "16 hex digits") {
			t.Errorf("deliver %s: status %d, %q; want 400 asking for 16 hex digits", body, code, e)
		}
	}
	for _, body := range []string{`{"id":12}`, `{"id":`, `[]`, ``} {
		code, m := call(t, "POST", ts.URL+"/api/deliver", body)
		e, _ := m["error"].(string)
		if code != http.StatusBadRequest || !strings.Contains(e, `{"id": "<16 hex digits>"}`) || strings.Contains(e, "Go struct") || strings.Contains(e, "json:") {
			t.Errorf("deliver %s: status %d, %q; want 400 saying what it takes, in its own words", body, code, e)
		}
	}
	if e := postError(t, ts.URL+"/api/deliver", `{"id":"`+strings.ToUpper(first)+`"}`); e != "" {
		t.Errorf("deliver of an enabled event in capitals: %s", e)
	}
}

// TestStateFields: a pending event has no step number, a step taken has; next is absent
// until a schedule is loaded; the fault budgets read as a list (probe U15: every pending
// event had "step": 1, 2, 3…, next was 0 with nothing loaded, and faults read
// "partition 1  timeouts 1").
func TestStateFields(t *testing.T) {
	sys, res, ts := buggyServer(t)
	defer ts.Close()
	_, st := call(t, "GET", ts.URL+"/api/state", "")
	for _, e := range st["enabled"].([]any) {
		if n, ok := e.(map[string]any)["step"]; ok {
			t.Errorf("a pending event has step %v: %v", n, e)
			break
		}
	}
	if n, ok := st["next"]; ok {
		t.Errorf("next is %v with no schedule loaded, want it absent", n)
	}
	id := st["enabled"].([]any)[0].(map[string]any)["id"].(string)
	_, st = call(t, "POST", ts.URL+"/api/deliver", `{"id":"`+id+`"}`)
	if steps := st["steps"].([]any); len(steps) != 1 || steps[0].(map[string]any)["step"] != 1.0 {
		t.Errorf("the step taken: %v, want step 1", steps)
	}
	path := filepath.Join(t.TempDir(), "v.json")
	if err := report.WriteFile(path, report.RunInfo{System: sys.Name, Agents: len(sys.Actors)}, report.NewViolation(&sys, res.First), res.First.Fingerprint); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, st = call(t, "POST", ts.URL+"/api/load", string(file)); st["next"] != 0.0 {
		t.Errorf("next after a load: %v, want 0", st["next"])
	}

	ls, err := leader.New(3, leader.HarnessNames[0])
	if err != nil {
		t.Fatal(err)
	}
	(&report.Faults{Partition: 1, Timeouts: 1}).ApplyTo(&ls)
	srv, err := interactive.New(ls)
	if err != nil {
		t.Fatal(err)
	}
	lt := httptest.NewServer(srv.Handler())
	defer lt.Close()
	if _, st = call(t, "GET", lt.URL+"/api/state", ""); st["faults"] != "partition 1, timeouts 1" {
		t.Errorf("faults: %q, want %q", st["faults"], "partition 1, timeouts 1")
	}
}

// TestAPIAnswersJSON: an unknown path under /api/, or a known one with the wrong
// method, is answered {"error": …} with the status that says which (probe U15: "404
// page not found" and "Method Not Allowed" in plain text).
func TestAPIAnswersJSON(t *testing.T) {
	_, _, ts := buggyServer(t)
	defer ts.Close()
	for _, tc := range []struct {
		method, path string
		code         int
		says, allow  string
	}{
		{"GET", "/api/nothing", http.StatusNotFound, "/api/state", ""},
		{"POST", "/api/", http.StatusNotFound, "/api/deliver", ""},
		{"GET", "/api/deliver", http.StatusMethodNotAllowed, "POST", "POST"},
		{"POST", "/api/state", http.StatusMethodNotAllowed, "GET", "GET, HEAD"},
		{"DELETE", "/api/undo", http.StatusMethodNotAllowed, "POST", "POST"},
	} {
		req, _ := http.NewRequest(tc.method, ts.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e struct{ Error string }
		if err := json.Unmarshal(b, &e); err != nil || resp.StatusCode != tc.code || !strings.Contains(e.Error, tc.says) {
			t.Errorf("%s %s: status %d, %q; want %d and a JSON error naming %s", tc.method, tc.path, resp.StatusCode, b, tc.code, tc.says)
		}
		if got := resp.Header.Get("Allow"); got != tc.allow {
			t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, got, tc.allow)
		}
	}
}

// TestErrorsReadAsText: an error answer reads as it is written, "<16 hex digits>", not
// with JSON's HTML escapes ("\u003c16 hex digits\u003e") that curl shows.
func TestErrorsReadAsText(t *testing.T) {
	_, _, ts := buggyServer(t)
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/api/deliver", "application/json", strings.NewReader(`{"id":12}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `<16 hex digits>`) {
		t.Errorf("the error answer escapes what it says: %s", b)
	}
}
