package interactive_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/internal/headless"
	"github.com/ravelmc/ravel/systems/register"
)

// request sends method path to ts with the Host and Origin given ("" for the default
// Host, none for Origin) and returns the status and the JSON error, if any.
func request(t *testing.T, ts *httptest.Server, method, path, host, origin, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e struct{ Error string }
	if resp.StatusCode != http.StatusOK {
		if err := json.Unmarshal(b, &e); err != nil {
			t.Errorf("%s %s: status %d, not a JSON error: %q", method, path, resp.StatusCode, b)
		}
	}
	return resp.StatusCode, e.Error
}

// steps is the number of steps the server's session has made.
func steps(t *testing.T, ts *httptest.Server) int {
	t.Helper()
	st, code := get(t, ts.URL+"/api/state")
	if code != http.StatusOK {
		t.Fatalf("state: %d", code)
	}
	return len(st.Steps)
}

func get(t *testing.T, url string) (interactive.State, int) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st interactive.State
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
	}
	return st, resp.StatusCode
}

// TestHostAndOriginChecked: the server answers only requests addressed to a loopback
// name with its own port, and takes a change only from its own origin (probe U16: Host
// evil.example was answered, and a text/plain POST with Origin http://evil.example was
// delivered).
func TestHostAndOriginChecked(t *testing.T) {
	_, _, ts := buggyServer(t)
	defer ts.Close()
	u, _ := url.Parse(ts.URL)
	port := u.Port()
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "[::1]:" + port} {
		if code, e := request(t, ts, "GET", "/api/state", host, "", ""); code != http.StatusOK {
			t.Errorf("Host %s: %d %s, want 200", host, code, e)
		}
	}
	other := "1"
	if port == "1" {
		other = "2"
	}
	for _, host := range []string{"evil.example", "evil.example:" + port, "127.0.0.1:" + other, "127.0.0.2:" + port, "localhost.evil.example:" + port} {
		for _, path := range []string{"/", "/api/state"} {
			if code, e := request(t, ts, "GET", path, host, "", ""); code != http.StatusForbidden || !strings.Contains(e, "refused") {
				t.Errorf("GET %s, Host %s: %d %q, want 403 refused", path, host, code, e)
			}
		}
	}

	st, _ := get(t, ts.URL+"/api/state")
	body := fmt.Sprintf(`{"id":%q}`, st.Enabled[0].ID)
	for _, origin := range []string{"http://evil.example", "null", "http://127.0.0.1:" + other, "https://127.0.0.1:" + port, "http://evil.example:" + port} {
		for _, path := range []string{"/api/deliver", "/api/reset", "/api/undo", "/api/nothing"} {
			if code, e := request(t, ts, "POST", path, "", origin, body); code != http.StatusForbidden || !strings.Contains(e, "refused") {
				t.Errorf("POST %s from %s: %d %q, want 403 refused", path, origin, code, e)
			}
		}
	}
	if n := steps(t, ts); n != 0 {
		t.Fatalf("a POST from another origin was delivered: %d steps", n)
	}
	// The server's own page, and a client that sends no Origin, are served.
	for _, origin := range []string{ts.URL, "http://localhost:" + port, ""} {
		if code, e := request(t, ts, "POST", "/api/reset", "", origin, ""); code != http.StatusOK {
			t.Errorf("POST /api/reset from %q: %d %s, want 200", origin, code, e)
		}
	}
	if code, e := request(t, ts, "POST", "/api/deliver", "", ts.URL, body); code != http.StatusOK {
		t.Errorf("POST /api/deliver from its own page: %d %s", code, e)
	}
	// A GET from another page is not a change: the Host check alone guards it.
	if code, e := request(t, ts, "GET", "/api/state", "", "http://evil.example", ""); code != http.StatusOK {
		t.Errorf("GET with another Origin: %d %s", code, e)
	}
}

// TestBrowserPostsFromOwnPageOnly: in Chromium, a script of a page the server serves
// delivers through the API as the explorer's page does (a fetch POST, which carries the
// page's Origin), and a page of another origin that posts to it delivers nothing.
func TestBrowserPostsFromOwnPageOnly(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := explorer.NewSession(sys)
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprintf("%016x", sess.Enabled()[0].ID)
	// A page that delivers the way the explorer's page does, fetch(path, {method, body})
	// as call() in page.go: to its own server's API, or to target's.
	probe := func(target string) string {
		mode := ""
		if target != "" {
			mode = `,mode:"no-cors"`
		}
		return `<!DOCTYPE html><html><body><script>
fetch(` + fmt.Sprintf("%q", target+"/api/deliver") + `,{method:"POST",body:JSON.stringify({id:"` + id + `"})` + mode + `})
.then(function(r){document.body.setAttribute("data-status",String(r.status));})
.catch(function(e){document.body.setAttribute("data-status","failed "+e.message);});
</script></body></html>`
	}
	srv, err := interactive.New(sys)
	if err != nil {
		t.Fatal(err)
	}
	// Same origin: the probe page is served beside the API, by a handler in front of the
	// server's (the server's own page takes no parameters to script).
	own := http.NewServeMux()
	own.Handle("/", srv.Handler())
	own.HandleFunc("/probe", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, probe(""))
	})
	ts := httptest.NewServer(own)
	defer ts.Close()
	// Another origin: a server of its own, on another port.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, probe(ts.URL))
	}))
	defer evil.Close()

	headless.Chromium(t, "--virtual-time-budget=5000", "--dump-dom", evil.URL+"/")
	if n := steps(t, ts); n != 0 {
		t.Fatalf("a page of another origin delivered: %d steps", n)
	}
	dom := headless.Chromium(t, "--virtual-time-budget=5000", "--dump-dom", ts.URL+"/probe")
	if m := regexp.MustCompile(`data-status="([^"]*)"`).FindStringSubmatch(dom); m == nil || m[1] != "200" {
		t.Errorf("the server's own page could not deliver: %v\n%.2000s", m, dom)
	}
	if n := steps(t, ts); n != 1 {
		t.Errorf("after the own page's delivery: %d steps, want 1", n)
	}
}
