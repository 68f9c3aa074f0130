package interactive_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/register"
)

func post(t *testing.T, url, body string) (interactive.State, int) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var st interactive.State
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatalf("%s: %v\n%s", url, err, b)
		}
	}
	return st, resp.StatusCode
}

// replayed is the oracle: the fingerprint and history length a stateless replay of ids
// reaches.
func replayed(t *testing.T, ids []uint64) (string, int) {
	t.Helper()
	sys, _ := register.NewBuggy(3, "2r1w")
	ex, err := explorer.Replay(sys, ids, false)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%016x", ex.Fingerprint), len(ex.Events)
}

// TestExplorerOverHTTP delivers a violation's schedule through the API, undoes, loads the
// saved counterexample and steps through it, checking every state shown against
// explorer.Replay of the same prefix.
func TestExplorerOverHTTP(t *testing.T) {
	sys, res, ts := buggyServer(t)
	defer ts.Close()

	check := func(what string, st interactive.State, ids []uint64) {
		t.Helper()
		fp, n := replayed(t, ids)
		if st.Fingerprint != fp || len(st.Events) != n || len(st.Steps) != len(ids) {
			t.Errorf("%s: shows %s with %d events and %d steps; replay gives %s, %d, %d", what, st.Fingerprint, len(st.Events), len(st.Steps), fp, n, len(ids))
		}
		if len(st.Actors) != 3 {
			t.Errorf("%s: %d actors shown, want 3", what, len(st.Actors))
		}
	}
	var ids []uint64
	for i, d := range res.First.Steps {
		id := fmt.Sprintf("%016x", d.ID)
		st, code := post(t, ts.URL+"/api/deliver", `{"id":"`+id+`"}`)
		if code != http.StatusOK {
			t.Fatalf("deliver step %d: status %d", i+1, code)
		}
		ids = append(ids, d.ID)
		check(fmt.Sprintf("after step %d", i+1), st, ids)
	}
	if _, code := post(t, ts.URL+"/api/deliver", `{"id":"0000000000000001"}`); code != http.StatusBadRequest {
		t.Errorf("delivering what is not enabled: status %d, want 400", code)
	}
	st, _ := post(t, ts.URL+"/api/undo", "")
	ids = ids[:len(ids)-1]
	check("after undo", st, ids)

	// Load the counterexample as check --out writes it, and step through it.
	path := filepath.Join(t.TempDir(), "v.json")
	if err := report.WriteFile(path, report.RunInfo{System: sys.Name, Agents: len(sys.Actors)}, report.NewViolation(&sys, res.First), res.First.Fingerprint); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(path)
	st, code := post(t, ts.URL+"/api/load", string(file))
	if code != http.StatusOK || len(st.Steps) != 0 || len(st.Script) != len(res.First.Steps) || st.Next == nil || *st.Next != 0 {
		t.Fatalf("load: status %d, %d steps, script %d, next %v", code, len(st.Steps), len(st.Script), st.Next)
	}
	ids = nil
	for i, d := range res.First.Steps {
		st, code = post(t, ts.URL+"/api/next", "")
		if code != http.StatusOK {
			t.Fatalf("next %d: status %d", i+1, code)
		}
		ids = append(ids, d.ID)
		check(fmt.Sprintf("loaded, step %d", i+1), st, ids)
	}
	if st.Verdict != "not linearizable" {
		t.Errorf("verdict at the end of the counterexample: %q", st.Verdict)
	}
	if _, code := post(t, ts.URL+"/api/next", ""); code != http.StatusBadRequest {
		t.Errorf("next past the end: status %d, want 400", code)
	}
	if _, code := post(t, ts.URL+"/api/load", `{"format":"other"}`); code != http.StatusBadRequest {
		t.Errorf("load of a bad file: status %d, want 400", code)
	}
	// A counterexample found under another harness is refused.
	other := filepath.Join(t.TempDir(), "other.json")
	info := report.RunInfo{System: sys.Name, Agents: len(sys.Actors), Clients: "spec register; c0 → n0: Read()"}
	if err := report.WriteFile(other, info, report.NewViolation(&sys, res.First), res.First.Fingerprint); err != nil {
		t.Fatal(err)
	}
	file, _ = os.ReadFile(other)
	if _, code := post(t, ts.URL+"/api/load", string(file)); code != http.StatusBadRequest {
		t.Errorf("load of a file of another harness: status %d, want 400", code)
	}
	resp, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	io.Copy(&b, resp.Body)
	resp.Body.Close()
	if !strings.Contains(b.String(), "/api/deliver") {
		t.Errorf("the page does not call the API")
	}
}

// buggyServer serves a session of the erroneous register 2r1w, with the violation
// exhaustive search finds first in it. The caller closes the server.
func buggyServer(t *testing.T) (model.System, *explorer.Result, *httptest.Server) {
	t.Helper()
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{})
	if err != nil || res.First == nil {
		t.Fatalf("no violation: %v", err)
	}
	srv, err := interactive.NewWith(sys, interactive.Options{Harness: "2r1w"})
	if err != nil {
		t.Fatal(err)
	}
	return sys, res, httptest.NewServer(srv.Handler())
}
