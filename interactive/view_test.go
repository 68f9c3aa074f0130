package interactive_test

import (
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

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/register"
)

// volatileServer serves register-volatile 1r1w with the fault budgets f (nil: none),
// rebuilding a loaded file's run with its budgets, as ravel explore does.
func volatileServer(t *testing.T, f *report.Faults) (*httptest.Server, func(*report.Faults) model.System) {
	t.Helper()
	volatile := func(f *report.Faults) model.System {
		sys, err := register.NewVolatile(3, "1r1w")
		if err != nil {
			t.Fatal(err)
		}
		f.ApplyTo(&sys)
		return sys
	}
	srv, err := interactive.NewWith(volatile(f), interactive.Options{Harness: "1r1w", Rebuild: func(f report.File) (model.System, error) {
		return volatile(f.Run.Faults), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return httptest.NewServer(srv.Handler()), volatile
}

func getState(t *testing.T, url string) interactive.State {
	t.Helper()
	resp, err := http.Get(url + "/api/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st interactive.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

func deliver(t *testing.T, url string, s interactive.Pending) interactive.State {
	t.Helper()
	st, code := post(t, url+"/api/deliver", `{"id":"`+s.ID+`"}`)
	if code != http.StatusOK {
		t.Fatalf("deliver %s: status %d", s.Msg, code)
	}
	return st
}

func pageText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestStateShowsACrash (U2): after a crash the actor is down, with whether it may
// restart, and the crash step lists the pending request it took away undelivered.
func TestStateShowsACrash(t *testing.T) {
	for _, f := range []*report.Faults{{Crash: 1}, {Crash: 1, CrashStop: true}} {
		ts, _ := volatileServer(t, f)
		st := getState(t, ts.URL)
		var req, crash interactive.Pending
		for _, s := range st.Enabled {
			if s.Kind == "request" && req.ID == "" {
				req = s
			}
		}
		for _, s := range st.Enabled {
			if s.Kind == "crash" && s.Msg == "CRASH "+req.To {
				crash = s
			}
		}
		st = deliver(t, ts.URL, crash)
		for _, a := range st.Actors {
			if down := a.Name == req.To; a.Down != down || a.MayRestart != (down && !f.CrashStop) {
				t.Errorf("crash-stop %v, %s crashed: actor %s down %v, may restart %v", f.CrashStop, req.To, a.Name, a.Down, a.MayRestart)
			}
		}
		if len(st.Lost) != 1 || len(st.Lost[0]) != 1 || !strings.Contains(st.Lost[0][0], req.Msg) {
			t.Errorf("lost with the crash: %q, want the request %s", st.Lost, req.Msg)
		}
		if st.FaultsLeft != "crash 0 of 1" {
			t.Errorf("faults left %q, want %q", st.FaultsLeft, "crash 0 of 1")
		}
		ts.Close()
	}
	page := pageText(t, "http://"+strings.TrimPrefix(httptestURL(t), "http://"))
	for _, want := range []string{"crashed — may restart", "crashed for good", "lost with it"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page never says %q", want)
		}
	}
}

// httptestURL serves a fresh buggy register and returns its URL (closed with the test).
func httptestURL(t *testing.T) string {
	_, _, ts := buggyServer(t)
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestStateExplainsTheViolation (U3, U4): at the end of a violation's schedule the state
// carries check's explanation of the verdict, and each step the events it caused, as
// check's text lists them.
func TestStateExplainsTheViolation(t *testing.T) {
	sys, res, ts := buggyServer(t)
	defer ts.Close()
	var st interactive.State
	for _, d := range res.First.Steps {
		st, _ = post(t, ts.URL+"/api/deliver", fmt.Sprintf(`{"id":"%016x"}`, d.ID))
	}
	if want := report.Why(&sys, res.First.Events); st.Why != want || !strings.Contains(st.Why, "but the specification answers") {
		t.Errorf("why: %q, want check's %q", st.Why, want)
	}
	text := report.Text(&sys, res.First.Steps, res.First.Events)
	if len(st.Caused) != len(st.Steps) {
		t.Fatalf("%d steps, caused given for %d", len(st.Steps), len(st.Caused))
	}
	returns := 0
	for i, c := range st.Caused {
		line := strings.TrimSpace(explorer.DescribeDelivery(&sys, i+1, res.First.Steps[i]))
		if len(c) > 0 {
			line += "  → " + strings.Join(c, "; ")
			returns += strings.Count(strings.Join(c, ";"), " returns ")
		}
		if !strings.Contains(text, line) {
			t.Errorf("step %d shown as %q, which check's schedule does not list:\n%s", i+1, line, text)
		}
	}
	if returns == 0 {
		t.Errorf("no step caused a response: %q", st.Caused)
	}
	page := pageText(t, ts.URL)
	for _, want := range []string{`id="why"`, "not a delivery"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// loadBuggy saves the buggy register's violation as check --out does and loads it as
// v.json.
func loadBuggy(t *testing.T, url string, sys model.System, res *explorer.Result) interactive.State {
	t.Helper()
	path := filepath.Join(t.TempDir(), "v.json")
	if err := report.WriteFile(path, report.RunInfo{System: sys.Name, Agents: len(sys.Actors)}, report.NewViolation(&sys, res.First), res.First.Fingerprint); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(path)
	st, code := post(t, url+"/api/load?name=v.json", string(file))
	if code != http.StatusOK {
		t.Fatalf("load: %d", code)
	}
	return st
}

// TestLoadedSchedule (U5): a loaded file is named, its steps described, what it records
// said, and why Next cannot act given in the state.
func TestLoadedSchedule(t *testing.T) {
	sys, res, ts := buggyServer(t)
	defer ts.Close()
	st := loadBuggy(t, ts.URL, sys, res)
	if st.Loaded != "v.json" || st.Records != "not linearizable" || st.NextNote != "" {
		t.Errorf("loaded %q recording %q, next note %q", st.Loaded, st.Records, st.NextNote)
	}
	want := report.NewSteps(&sys, res.First.Steps)
	for i, s := range st.Script {
		if s != want[i] {
			t.Errorf("scripted step %d: %+v, want %+v", i+1, s, want[i])
		}
	}
	// Off the schedule: the reason Next is disabled.
	var off interactive.Pending
	for _, s := range st.Enabled {
		if s.ID != st.Script[0].ID {
			off = s
		}
	}
	st = deliver(t, ts.URL, off)
	if !strings.Contains(st.NextNote, "left the counterexample's schedule") {
		t.Errorf("off the schedule, next note %q", st.NextNote)
	}
	post(t, ts.URL+"/api/undo", "")
	for range st.Script {
		st, _ = post(t, ts.URL+"/api/next", "")
	}
	if !strings.Contains(st.NextNote, "complete") || st.Next == nil || *st.Next != len(st.Script) {
		t.Errorf("at the end: next %v, note %q", st.Next, st.NextNote)
	}
	page := pageText(t, ts.URL)
	for _, want := range []string{"Loaded: ", "This is the violation the file records", "next_note", "▶ next", "?name="} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestResetGoesBackToTheSystemAsStarted (U6): the state names the setup in use; a load
// of a file found with a crash budget replaces it, saying what it replaced, and a reset
// brings back the system the server was started with.
func TestResetGoesBackToTheSystemAsStarted(t *testing.T) {
	ts, volatile := volatileServer(t, nil)
	defer ts.Close()
	st := getState(t, ts.URL)
	if st.Setup != "harness 1r1w · agents 3 · faults none" || st.Harness != "1r1w" || st.Agents != 3 || st.Started != "" {
		t.Errorf("setup %q, harness %q, agents %d, started %q", st.Setup, st.Harness, st.Agents, st.Started)
	}
	found := volatile(&report.Faults{Crash: 1})
	res, err := explorer.Run(context.Background(), found, explorer.Options{StateCaching: true})
	if err != nil || res.First == nil {
		t.Fatalf("no violation with a crash: %v", err)
	}
	info := report.RunInfo{System: found.Name, Harness: "1r1w", Agents: 3, Faults: report.FaultsOf(&found), Clients: report.Clients(&found)}
	path := filepath.Join(t.TempDir(), "crash.json")
	if err := report.WriteFile(path, info, report.NewViolation(&found, res.First), res.First.Fingerprint); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(path)
	st, code := post(t, ts.URL+"/api/load", string(file))
	if code != http.StatusOK || st.Setup != "harness 1r1w · agents 3 · faults crash 1" || st.Started != "harness 1r1w · agents 3 · faults none" {
		t.Errorf("after the load: status %d, setup %q, started %q", code, st.Setup, st.Started)
	}
	st, _ = post(t, ts.URL+"/api/next", "")
	st, _ = post(t, ts.URL+"/api/reset", "")
	if st.Setup != "harness 1r1w · agents 3 · faults none" || st.Started != "" || st.Script != nil || st.Loaded != "" || len(st.Steps) != 0 {
		t.Errorf("after reset: setup %q, started %q, script %d, steps %d", st.Setup, st.Started, len(st.Script), len(st.Steps))
	}
	for _, s := range st.Enabled {
		if s.Kind == dpor.Crash.String() {
			t.Errorf("after reset a crash is still enabled: the loaded run's budget stayed")
		}
	}
}

// TestStaleVersionRefused (U7): a change asked for from a state that is no longer the
// current one is refused with 409 and changes nothing; without a version it is made.
func TestStaleVersionRefused(t *testing.T) {
	_, res, ts := buggyServer(t)
	defer ts.Close()
	st := getState(t, ts.URL)
	seen := st.Version
	id := fmt.Sprintf("%016x", res.First.Steps[0].ID)
	st, code := post(t, ts.URL+"/api/deliver", fmt.Sprintf(`{"id":%q,"version":%d}`, id, seen))
	if code != http.StatusOK || st.Version == seen {
		t.Fatalf("deliver at the current version: status %d, version %d → %d", code, seen, st.Version)
	}
	// Another tab undoes; this one, still showing version seen+1, delivers again.
	now := st.Version
	post(t, ts.URL+"/api/undo", "")
	for _, path := range []string{"/api/deliver", "/api/undo", "/api/next", "/api/reset"} {
		resp, err := http.Post(ts.URL+path, "application/json", strings.NewReader(fmt.Sprintf(`{"id":%q,"version":%d}`, id, now)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), "another tab") {
			t.Errorf("%s at a stale version: %d %s", path, resp.StatusCode, b)
		}
	}
	if st := getState(t, ts.URL); len(st.Steps) != 0 || st.Version != now+1 {
		t.Errorf("after the refused changes: %d steps, version %d (want 0, %d)", len(st.Steps), st.Version, now+1)
	}
	page := pageText(t, ts.URL)
	for _, want := range []string{"b.version=cur.version", "refresh();", "every tab of this page drives the same one"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestFaultsBesideTheirMessages (U9): each enabled drop and duplicate names the message
// it acts on, and the state says what is left of the budgets.
func TestFaultsBesideTheirMessages(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	sys.Faults.Drop, sys.Faults.Duplicate = 1, 1
	srv, err := interactive.New(sys)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	st := getState(t, ts.URL)
	st = deliver(t, ts.URL, st.Enabled[0])
	byID := map[string]interactive.Pending{}
	for _, s := range st.Enabled {
		byID[s.ID] = s
	}
	faults := 0
	for _, s := range st.Enabled {
		if s.Kind != "drop" && s.Kind != "duplicate" {
			continue
		}
		faults++
		m, ok := byID[st.FaultOf[s.ID]]
		if !ok || !strings.HasSuffix(s.Msg, m.Msg) || m.From != s.From || m.To != s.To {
			t.Errorf("%s acts on %q", s.Msg, m.Msg)
		}
	}
	if faults == 0 || len(st.FaultOf) != faults {
		t.Errorf("%d drops and duplicates, %d in fault_of", faults, len(st.FaultOf))
	}
	if st.FaultsLeft != "drop 1 of 1 · duplicate 1 of 1" {
		t.Errorf("faults left %q", st.FaultsLeft)
	}
	page := pageText(t, ts.URL)
	for _, want := range []string{"position:sticky", "fault_of", `"drop":"dup"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestUndoBackTo (U11): undo {"to":k} takes back every step after the k-th; one past the
// steps made is refused.
func TestUndoBackTo(t *testing.T) {
	_, res, ts := buggyServer(t)
	defer ts.Close()
	for _, d := range res.First.Steps {
		post(t, ts.URL+"/api/deliver", fmt.Sprintf(`{"id":"%016x"}`, d.ID))
	}
	st, code := post(t, ts.URL+"/api/undo", `{"to":1}`)
	if code != http.StatusOK || len(st.Steps) != 1 || st.Steps[0].ID != fmt.Sprintf("%016x", res.First.Steps[0].ID) {
		t.Errorf("undo to 1: status %d, %d steps", code, len(st.Steps))
	}
	if _, code := post(t, ts.URL+"/api/undo", `{"to":1}`); code != http.StatusBadRequest {
		t.Errorf("undo to the current step: status %d, want 400", code)
	}
	st, _ = post(t, ts.URL+"/api/undo", `{"to":0}`)
	if len(st.Steps) != 0 {
		t.Errorf("undo to 0: %d steps", len(st.Steps))
	}
}

// TestPageText (U10, U12): the columns wrap, words in actor states are not split, and the
// file input is cleared after a load so that the same file can be picked again.
func TestPageText(t *testing.T) {
	page := pageText(t, httptestURL(t))
	for _, want := range []string{"#cols{display:flex;flex-wrap:wrap", "overflow-wrap:anywhere", `e.target.value=""`, "@media"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"break-all", "min-width:360px", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page has %q", bad)
		}
	}
}
