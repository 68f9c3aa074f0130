package interactive_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/internal/headless"
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
		if !regexp.MustCompile(`<pre>` + regexp.QuoteMeta(a.Name+": ")).MatchString(dom) {
			t.Errorf("actor %s not shown", a.Name)
		}
	}
	if dir := os.Getenv("RAVEL_SCREENSHOTS"); dir != "" {
		// RAVEL_SCREENSHOTS=$PWD/../docs go test ./interactive -run Browser
		headless.Chromium(t, "--virtual-time-budget=5000", "--window-size=1300,760", "--screenshot="+filepath.Join(dir, "explorer.png"), ts.URL+"/")
	}
}
