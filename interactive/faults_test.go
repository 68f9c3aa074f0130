package interactive_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/register"
)

// TestLoadFaultCounterexample: a counterexample found with a crash budget is stepped
// through to its end on the system rebuilt from its file, every state as explorer.Replay
// gives it on the system with the file's budgets; a server that cannot rebuild refuses
// the file at load, naming the budgets (docs probe: explore loaded the file and then
// answered "event … is not enabled" at the crash).
func TestLoadFaultCounterexample(t *testing.T) {
	volatile := func(f *report.Faults) model.System {
		sys, err := register.NewVolatile(3, "1r1w")
		if err != nil {
			t.Fatal(err)
		}
		f.ApplyTo(&sys)
		return sys
	}
	found := volatile(&report.Faults{Crash: 1})
	res, err := explorer.Run(context.Background(), found, explorer.Options{StateCaching: true})
	if err != nil || res.First == nil {
		t.Fatalf("no violation with a crash: %v", err)
	}
	crashes := 0
	for _, d := range res.First.Steps {
		if d.Kind == dpor.Crash {
			crashes++
		}
	}
	if crashes == 0 {
		t.Fatal("the counterexample has no crash: it tests nothing")
	}
	info := report.RunInfo{System: found.Name, Agents: len(found.Actors), Faults: report.FaultsOf(&found), Clients: report.Clients(&found)}
	path := filepath.Join(t.TempDir(), "crash.json")
	if err := report.WriteFile(path, info, report.NewViolation(&found, res.First), res.First.Fingerprint); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("rebuilt", func(t *testing.T) {
		// The server's own system has no fault budget, as ravel explore's without --crash.
		srv, err := interactive.NewWith(volatile(nil), interactive.Options{Rebuild: func(f report.File) (model.System, error) {
			return volatile(f.Run.Faults), nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		st, code := post(t, ts.URL+"/api/load", string(file))
		if code != http.StatusOK {
			t.Fatalf("load: status %d: %s", code, postError(t, ts.URL+"/api/load", string(file)))
		}
		if st.Faults != "crash 1" {
			t.Errorf("faults shown after load: %q, want %q", st.Faults, "crash 1")
		}
		var ids []uint64
		for i, d := range res.First.Steps {
			if st, code = post(t, ts.URL+"/api/next", ""); code != http.StatusOK {
				t.Fatalf("next %d (a %v): status %d", i+1, d.Kind, code)
			}
			ids = append(ids, d.ID)
			ex, err := explorer.Replay(found, ids, false)
			if err != nil {
				t.Fatal(err)
			}
			if fp := fmt.Sprintf("%016x", ex.Fingerprint); st.Fingerprint != fp || len(st.Events) != len(ex.Events) {
				t.Errorf("step %d: shows %s with %d events; replay gives %s, %d", i+1, st.Fingerprint, len(st.Events), fp, len(ex.Events))
			}
		}
		if st.Verdict == "linearizable so far" {
			t.Errorf("verdict at the end of the counterexample: %q", st.Verdict)
		}
	})
	t.Run("refused", func(t *testing.T) {
		srv, err := interactive.New(volatile(nil))
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		e := postError(t, ts.URL+"/api/load", string(file))
		if !strings.Contains(e, "crash 1") {
			t.Errorf("load on a server without the budget answers %q, want it to name %q", e, "crash 1")
		}
	})
}
