package report_test

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/wgl"
)

// pageHTML is p's page.
func pageHTML(t *testing.T, p report.Page) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteHTML(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// asText is what a page says read as text, without running its script: its tags and
// scripts dropped, its entities decoded.
func asText(page string) string {
	page = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>`).ReplaceAllString(page, "")
	return html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, ""))
}

// badRegisterPage is the page of a recorded register history that is not linearizable.
func badRegisterPage() report.Page {
	op := func(client int, in specs.RegisterInput, out specs.RegisterOutput, call, ret int64) histories.Operation[specs.RegisterInput, specs.RegisterOutput] {
		return histories.Operation[specs.RegisterInput, specs.RegisterOutput]{Client: client, Input: in, Output: out, Call: call, Return: ret}
	}
	ops := []histories.Operation[specs.RegisterInput, specs.RegisterOutput]{
		op(0, specs.Write(1), specs.WriteOK(), 10, 20), op(1, specs.Read(), specs.ReadOK(0), 30, 40),
	}
	res := wgl.Check(specs.Register(), ops)
	return report.NewHistoryPage("ravel lincheck h.jsonl", res.Verdict.String(), [][2]string{{"operations", "2"}}, specs.Register(), ops, res)
}

// TestPageReadsAsText: without its script a page still says what it is — its title,
// verdict, explanation, figures and what it would draw, as text, with a <noscript> note —
// and the explanation of a violation comes first, before the drawing.
func TestPageReadsAsText(t *testing.T) {
	_, check := buggyViolation(t)
	for _, c := range []struct {
		name string
		p    report.Page
		want []string
	}{
		{"check", *check, []string{"register-buggy", "VIOLATION", "schedules", "Why it is not linearizable", "the counterexample as text", "schedule (deliveries in order)", "c0 invokes"}},
		{"lincheck", badRegisterPage(), []string{"ravel lincheck h.jsonl", "not-linearizable", "operations", "Why it is not linearizable",
			"the history as text", "#1  c0   write(1) → ok   [10 … 20]", "✗  c1   read() → 0   [30 … 40]   but the specification answers 1 here"}},
	} {
		page := pageHTML(t, c.p)
		text := strings.ToLower(asText(page))
		for _, w := range c.want {
			if !strings.Contains(text, strings.ToLower(w)) {
				t.Errorf("%s: read as text, the page lacks %q:\n%s", c.name, w, asText(page))
			}
		}
		if !regexp.MustCompile(`(?s)<noscript>.*JavaScript is off.*</noscript>`).MatchString(page) {
			t.Errorf("%s: no <noscript> note", c.name)
		}
		if w, h := strings.Index(page, `id="whybox"`), strings.Index(page, "<h2>History</h2>"); w < 0 || w > h {
			t.Errorf("%s: the explanation (at %d) does not come before the history (at %d)", c.name, w, h)
		}
	}
}

// TestPageSaysWhatItsNumbersAre: a recorded history's page (lincheck) has no steps and
// does not speak of them; a counterexample's page (check, replay) does; a clean check's
// page, with nothing to draw, says so instead of drawing the clients' empty rows.
func TestPageSaysWhatItsNumbersAre(t *testing.T) {
	note := func(page string) string {
		m := regexp.MustCompile(`<p id="historynote">([^<]*)</p>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no history note in\n%.3000s", page)
		}
		return html.UnescapeString(m[1])
	}
	_, check := buggyViolation(t)
	if n := note(pageHTML(t, *check)); !strings.Contains(n, "steps that invoked and answered it") || !strings.Contains(n, "Click an operation") {
		t.Errorf("check's page: %q", n)
	}
	n := note(pageHTML(t, badRegisterPage()))
	if strings.Contains(n, "step") || strings.Contains(n, "Click") || !strings.Contains(n, "call and return times") {
		t.Errorf("lincheck's page: %q", n)
	}
	sys, err := register.New(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	clean, err := report.NewPage(&sys, "ravel check register", "no violation found", [][2]string{{"schedules", "4,200"}}, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	page := pageHTML(t, clean)
	if n := note(page); !strings.Contains(n, "no counterexample to draw") {
		t.Errorf("clean check's page: %q", n)
	}
	if strings.Contains(page, `id="astext"`) {
		t.Errorf("clean check's page has a text version of nothing")
	}
	if text := asText(page); !strings.Contains(text, "4,200") || !strings.Contains(text, "no violation found") {
		t.Errorf("clean check's page, as text, lacks its figures or verdict:\n%s", text)
	}
}

// TestStatesWrapBetweenWords: the actors' states wrap where a line must, not inside
// every word ("Vers|ion"), as the explorer's page does.
func TestStatesWrapBetweenWords(t *testing.T) {
	_, check := buggyViolation(t)
	page := pageHTML(t, *check)
	if strings.Contains(page, "break-all") || !strings.Contains(page, "#states pre{") || !strings.Contains(page, "overflow-wrap:anywhere;font-size:12px") {
		t.Errorf("the states' style breaks words or is gone:\n%s", page[strings.Index(page, "#states"):][:200])
	}
}
