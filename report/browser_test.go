package report_test

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/headless"
	"github.com/ravelmc/ravel/report"
)

// TestBrowserDrawsEveryOperationAndStep loads register-buggy's report in headless
// Chromium and checks, in the DOM the page's script built, that every operation and every
// step is drawn and that each is linked to the other as the page's data says.
func TestBrowserDrawsEveryOperationAndStep(t *testing.T) {
	_, p := buggyViolation(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := report.WriteHTMLFile(path, *p); err != nil {
		t.Fatal(err)
	}
	dom := headless.Chromium(t, "--dump-dom", "file://"+path)
	attr := func(name string) string {
		m := regexp.MustCompile(`<body[^>]*\s` + name + `="([^"]*)"`).FindStringSubmatch(dom)
		if m == nil {
			t.Fatalf("<body> has no %s: the script did not run\n%.2000s", name, dom)
		}
		return m[1]
	}
	if attr("data-rendered") != "true" {
		t.Fatal("not rendered")
	}
	if got := attr("data-ops-drawn"); got != strconv.Itoa(len(p.Ops)) {
		t.Errorf("ops drawn %s, want %d", got, len(p.Ops))
	}
	if got := attr("data-steps-drawn"); got != strconv.Itoa(len(p.Steps)) {
		t.Errorf("steps drawn %s, want %d", got, len(p.Steps))
	}
	for k, o := range p.Ops {
		var want []string
		for _, s := range []int{o.CallStep, o.ReturnStep} {
			if s > 0 {
				want = append(want, strconv.Itoa(s))
			}
		}
		re := regexp.MustCompile(`<g class="op[^"]*" data-op="` + strconv.Itoa(k) + `" data-linked-steps="([^"]*)"`)
		m := re.FindStringSubmatch(dom)
		if m == nil || m[1] != strings.Join(want, ",") {
			t.Errorf("op %d: drawn with linked steps %v, want %q", k, m, strings.Join(want, ","))
		}
	}
	for _, s := range p.Steps {
		re := regexp.MustCompile(`<g class="step[^"]*" data-step="` + strconv.Itoa(s.N) + `" data-kind="[^"]*" data-linked-ops="([^"]*)"`)
		m := re.FindStringSubmatch(dom)
		if m == nil || m[1] != joinInts(s.Ops) {
			t.Errorf("step %d: drawn with linked ops %v, want %q", s.N, m, joinInts(s.Ops))
		}
	}
}
