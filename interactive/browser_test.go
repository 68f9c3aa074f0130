package interactive_test

import (
	"fmt"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/internal/headless"
	"github.com/ravelmc/ravel/report"
)

// TestBrowserShowsTheSession delivers three steps through the API, then loads the page in
// headless Chromium and checks that its script drew the session: the steps, a button per
// pending delivery, every actor, and the fingerprint of the state.
func TestBrowserShowsTheSession(t *testing.T) {
	_, res, ts := buggyServer(t)
	defer ts.Close()
	var st interactive.State
	for _, d := range res.First.Steps[:3] {
		var code int
		st, code = post(t, ts.URL+"/api/deliver", fmt.Sprintf(`{"id":"%016x"}`, d.ID))
		if code != http.StatusOK {
			t.Fatalf("deliver: %d", code)
		}
	}
	dom := headless.Chromium(t, "--virtual-time-budget=5000", "--dump-dom", ts.URL+"/")
	m := regexp.MustCompile(`<body[^>]*data-steps="(\d+)"[^>]*data-fingerprint="([0-9a-f]+)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page's script did not draw the state:\n%.3000s", dom)
	}
	if m[1] != "3" || m[2] != st.Fingerprint {
		t.Errorf("page shows %s steps at %s; want 3 at %s", m[1], m[2], st.Fingerprint)
	}
	if got := len(regexp.MustCompile(`<button data-id="[0-9a-f]{16}"`).FindAllString(dom, -1)); got != len(st.Enabled) {
		t.Errorf("%d delivery buttons, want %d", got, len(st.Enabled))
	}
	for _, a := range st.Actors {
		if !regexp.MustCompile(`<pre data-actor="` + regexp.QuoteMeta(a.Name) + `">`).MatchString(dom) {
			t.Errorf("actor %s not shown", a.Name)
		}
	}
}

// TestBrowserShowsTheViolation loads a counterexample, steps to its end and checks what
// the page drew: the banner naming the file and the step, the scripted steps ticked,
// each step with the events it caused, check's explanation of the verdict, and the
// buttons that cannot act disabled.
func TestBrowserShowsTheViolation(t *testing.T) {
	sys, res, ts := buggyServer(t)
	defer ts.Close()
	st := loadBuggy(t, ts.URL, sys, res)
	dom := headless.Chromium(t, "--virtual-time-budget=5000", "--dump-dom", ts.URL+"/")
	for _, want := range []string{`<button id="undo" title="Take back the last step" disabled="">`, "Loaded: v.json", fmt.Sprintf("At step 0 of %d", len(st.Script)), `<span class="tag">▶ next</span>`, "<span>Yellow ▶ marks its next step"} {
		if !strings.Contains(dom, want) {
			t.Errorf("at the start the page lacks %q", want)
		}
	}
	for range st.Script {
		st, _ = post(t, ts.URL+"/api/next", "")
	}
	dom = headless.Chromium(t, "--virtual-time-budget=5000", "--dump-dom", ts.URL+"/")
	for _, want := range []string{fmt.Sprintf("At step %d of %d", len(st.Script), len(st.Script)), "This is the violation the file records: not linearizable", `<li class="done">`,
		"→ c0 Write(1) returns ok", "but the specification answers 1 here", `<button id="next" disabled=""`} {
		if !strings.Contains(dom, html.EscapeString(want)) && !strings.Contains(dom, want) {
			t.Errorf("at the end the page lacks %q", want)
		}
	}
	if strings.Contains(dom, `id="undo" title="Take back the last step" disabled`) {
		t.Errorf("undo disabled after 4 steps")
	}
	if dir := os.Getenv("RAVEL_SCREENSHOTS"); dir != "" {
		// RAVEL_SCREENSHOTS=$PWD/../docs go test ./interactive -run Browser
		headless.Chromium(t, "--virtual-time-budget=5000", "--window-size=1400,900", "--screenshot="+filepath.Join(dir, "explorer.png"), ts.URL+"/")
	}
}

// TestBrowserShowsACrash crashes an actor and checks the page shows it down, and the
// request lost with it.
func TestBrowserShowsACrash(t *testing.T) {
	ts, _ := volatileServer(t, &report.Faults{Crash: 1, Drop: 1})
	defer ts.Close()
	st := getState(t, ts.URL)
	st = deliver(t, ts.URL, st.Enabled[0]) // c0's request, which sends messages a drop may take
	for _, s := range st.Enabled {
		if s.Msg == "CRASH n1" {
			st = deliver(t, ts.URL, s)
		}
	}
	dom := headless.Chromium(t, "--virtual-time-budget=5000", "--dump-dom", ts.URL+"/")
	for _, want := range []string{`<div class="actor down">`, `<span class="badge restart">crashed — may restart</span>`, "lost with it, undelivered: c1 → n1", "left: drop 1 of 1 · crash 0 of 1", `>drop</button>`} {
		if !strings.Contains(dom, want) {
			t.Errorf("after the crash the page lacks %q", want)
		}
	}
	if strings.Contains(dom, "[crash]") || strings.Contains(dom, "n1 → n1") {
		t.Errorf("the crash is shown with its kind and endpoints repeated")
	}
}
