package report_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/internal/headless"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/abd"
	"github.com/ravelmc/ravel/systems/adr"
	"github.com/ravelmc/ravel/systems/paxos"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/wgl"
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

// TestBrowserHistoryDrawingsDoNotMeet loads a report whose client runs two operations one
// after the other (abd-buggy, 1w2r-seq: c1 reads twice) and checks, in the DOM, that no
// operation's bar, label or place number meets another's: a label drawn after its bar
// used to run over the next operation of the same client.
func TestBrowserHistoryDrawingsDoNotMeet(t *testing.T) {
	sys, err := abd.NewBuggy(3, "1w2r-seq")
	if err != nil {
		t.Fatal(err)
	}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{StateCaching: true})
	if err != nil || res.First == nil {
		t.Fatalf("no violation: %v", err)
	}
	p, err := report.NewPage(&sys, "abd-buggy", "VIOLATION", nil, res.First.Steps, false)
	if err != nil {
		t.Fatal(err)
	}
	perClient := map[int]int{}
	for _, o := range p.Ops {
		perClient[o.Client]++
	}
	if perClient[1] != 2 {
		t.Fatalf("client c1 has %d operations in the violation, want 2: the test needs a client with two", perClient[1])
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := report.WriteHTMLFile(path, p); err != nil {
		t.Fatal(err)
	}
	dom := headless.Chromium(t, "--dump-dom", "file://"+path)
	m := regexp.MustCompile(`<body[^>]*\sdata-history-overlaps="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("<body> has no data-history-overlaps: the script did not run\n%.2000s", dom)
	}
	if m[1] != "0" {
		t.Errorf("%s pairs of operations' drawings meet, want 0", m[1])
	}
}

// TestBrowserDrawsARecordedHistory loads the page of a recorded history (ravel lincheck
// --html: operations, no schedule, no states) and checks that its script runs to the end,
// draws every operation, and keeps a client's consecutive operations apart.
func TestBrowserDrawsARecordedHistory(t *testing.T) {
	op := func(client int, in specs.RegisterInput, out specs.RegisterOutput, call, ret int64) histories.Operation[specs.RegisterInput, specs.RegisterOutput] {
		return histories.Operation[specs.RegisterInput, specs.RegisterOutput]{Client: client, Input: in, Output: out, Call: call, Return: ret}
	}
	ops := []histories.Operation[specs.RegisterInput, specs.RegisterOutput]{
		op(0, specs.Write(1), specs.WriteOK(), 0, 1), op(0, specs.Read(), specs.ReadOK(1), 2, 3), op(0, specs.Write(2), specs.WriteOK(), 4, 5),
		op(1, specs.Read(), specs.ReadOK(0), 6, 7),
	}
	res := wgl.Check(specs.Register(), ops)
	p := report.NewHistoryPage("ravel lincheck h", res.Verdict.String(), nil, specs.Register(), ops, res)
	path := filepath.Join(t.TempDir(), "history.html")
	if err := report.WriteHTMLFile(path, p); err != nil {
		t.Fatal(err)
	}
	dom := headless.Chromium(t, "--dump-dom", "file://"+path)
	for name, want := range map[string]string{"data-rendered": "true", "data-ops-drawn": "4", "data-history-overlaps": "0"} {
		m := regexp.MustCompile(`<body[^>]*\s` + name + `="([^"]*)"`).FindStringSubmatch(dom)
		if m == nil || m[1] != want {
			t.Errorf("<body> %s = %v, want %q (the script did not run to the end?)", name, m, want)
		}
	}
}

// TestBrowserLongHistoryShowsTheFailingOperation loads lincheck's page of a long history
// (testdata/porcupine/kv/c10-bad.txt, 405 operations of 10 clients) in a 1200-pixel
// window: only the failing key's operations are drawn (36, not every key's 405), and a
// row of stats says so; the page itself does not scroll sideways (the history scrolls in
// its own box), that box starts where the operation that cannot follow is in view, and
// no operations' drawings meet.
func TestBrowserLongHistoryShowsTheFailingOperation(t *testing.T) {
	f, err := os.Open("../testdata/porcupine/kv/c10-bad.txt")
	if err != nil {
		t.Fatal(err)
	}
	ops, err := formats.ReadPorcupineKV(f, "c10-bad.txt")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	res := wgl.Check(specs.KV(), ops)
	if res.Verdict != wgl.NotLinearizable {
		t.Fatalf("c10-bad.txt: %v", res.Verdict)
	}
	p := report.NewHistoryPage("ravel lincheck c10-bad.txt", res.Verdict.String(), nil, specs.KV(), ops, res)
	path := filepath.Join(t.TempDir(), "history.html")
	if err := report.WriteHTMLFile(path, p); err != nil {
		t.Fatal(err)
	}
	inKey := 0
	for _, o := range ops {
		if o.Input.Key == res.Partition {
			inKey++
		}
	}
	if inKey == len(ops) {
		t.Fatalf("every operation is of key %q", res.Partition)
	}
	dom := headless.Chromium(t, "--window-size=1200,2000", "--dump-dom", "file://"+path)
	if want := fmt.Sprintf("the %d operations of key &#34;%s&#34;", inKey, res.Partition); !strings.Contains(dom, want) && !strings.Contains(dom, fmt.Sprintf("the %d operations of key &quot;%s&quot;", inKey, res.Partition)) && !strings.Contains(dom, fmt.Sprintf("the %d operations of key \"%s\"", inKey, res.Partition)) {
		t.Errorf("no row of stats says only key %q's %d operations are drawn", res.Partition, inKey)
	}
	for name, want := range map[string]string{"data-rendered": "true", "data-ops-drawn": strconv.Itoa(inKey), "data-history-overlaps": "0",
		"data-page-wider": "false", "data-stuck-in-view": "true", "data-why-wider": "false"} {
		m := regexp.MustCompile(`<body[^>]*\s` + name + `="([^"]*)"`).FindStringSubmatch(dom)
		if m == nil || m[1] != want {
			t.Errorf("<body> %s = %v, want %q", name, m, want)
		}
	}
	if !strings.Contains(dom, `id="showstuck"`) {
		t.Errorf("no link to the operation that cannot follow")
	}
}

// TestBrowserCleanCheckDrawsNoLanes: check's page of a run that found nothing draws no
// history (it used to draw the clients' names over empty rows).
func TestBrowserCleanCheckDrawsNoLanes(t *testing.T) {
	sys, err := register.New(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	p, err := report.NewPage(&sys, "ravel check register", "no violation found", nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "clean.html")
	if err := report.WriteHTMLFile(path, p); err != nil {
		t.Fatal(err)
	}
	dom := headless.Chromium(t, "--dump-dom", "file://"+path)
	if !strings.Contains(dom, `data-rendered="true"`) {
		t.Fatalf("the script did not run to the end:\n%.2000s", dom)
	}
	if !regexp.MustCompile(`<div id="history" style="display: none;?"`).MatchString(dom) {
		m := regexp.MustCompile(`<div id="history"[^>]*>`).FindString(dom)
		t.Errorf("the empty history is shown: %s", m)
	}
}

// TestBrowserKeepsStepLabelsWhole loads the pages of adr-buggy's and paxos-buggy's
// counterexamples, and of a step whose label is longer than the chart is wide, and checks,
// in the DOM, that no step's label runs out of the message chart: the labels of arrows
// between the right-most lifelines used to be cut off at its right edge, hiding adr's
// val:0 and val:1, which explain the wrong read (probe Y12).
func TestBrowserKeepsStepLabelsWhole(t *testing.T) {
	found := func(name string, sys model.System, err error) func(t *testing.T) report.Page {
		return func(t *testing.T) report.Page {
			if err != nil {
				t.Fatal(err)
			}
			res, err := explorer.Run(context.Background(), sys, explorer.Options{Minimize: true})
			if err != nil || res.First == nil {
				t.Fatalf("no violation: %v", err)
			}
			p, err := report.NewPage(&sys, name, "VIOLATION", nil, res.First.Steps, false)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	adrSys, adrErr := adr.NewBuggy(2, adr.DefaultRetries, "2r1w")
	paxosSys, paxosErr := paxos.NewBuggy(2, paxos.DefaultRetries, "2r1w")
	for _, c := range []struct {
		name string
		page func(t *testing.T) report.Page
	}{
		{"adr-buggy", found("adr-buggy", adrSys, adrErr)},
		{"paxos-buggy", found("paxos-buggy", paxosSys, paxosErr)},
		{"a label longer than the chart", func(t *testing.T) report.Page {
			return report.Page{Title: "long", Lifelines: []string{"c0", "n0", "n1"}, Clients: 1, Initial: []string{"", ""},
				Steps: []report.PageStep{{N: 1, From: 1, To: 2, Kind: "message", Msg: "Long{" + strings.Repeat("field:value ", 40) + "}"}}}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "report.html")
			if err := report.WriteHTMLFile(path, c.page(t)); err != nil {
				t.Fatal(err)
			}
			dom := headless.Chromium(t, "--dump-dom", "file://"+path)
			m := regexp.MustCompile(`<body[^>]*\sdata-labels-clipped="([^"]*)"`).FindStringSubmatch(dom)
			if m == nil {
				t.Fatalf("<body> has no data-labels-clipped: the script did not run\n%.2000s", dom)
			}
			if m[1] != "0" {
				t.Errorf("%s step labels run out of the chart, want 0", m[1])
			}
		})
	}
}
