package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/register"
)

func buggyViolation(t *testing.T) (*explorer.Violation, *report.Page) {
	t.Helper()
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{})
	if err != nil || res.First == nil {
		t.Fatalf("no violation: %v", err)
	}
	p, err := report.NewPage(&sys, "register-buggy", "VIOLATION", [][2]string{{"schedules", "1"}}, res.First.Steps, false)
	if err != nil {
		t.Fatal(err)
	}
	return res.First, &p
}

// TestPageTiesOperationsToSteps checks the page's data against a stateless replay of
// every prefix (report.EventSteps): each operation's invoking and answering steps, and
// each step's list of operations, agree.
func TestPageTiesOperationsToSteps(t *testing.T) {
	v, p := buggyViolation(t)
	sys, _ := register.NewBuggy(3, "2r1w")
	at, err := report.EventSteps(&sys, v.Steps, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Steps) != len(v.Steps) || p.Events != len(v.Events) {
		t.Fatalf("page has %d steps and %d events, violation %d and %d", len(p.Steps), p.Events, len(v.Steps), len(v.Events))
	}
	for k, o := range p.Ops {
		if o.CallStep != at[o.CallAt] || (o.ReturnAt >= 0 && o.ReturnStep != at[o.ReturnAt]) {
			t.Errorf("op %d: steps %d→%d, replay says %d→%d", k, o.CallStep, o.ReturnStep, at[o.CallAt], at[o.ReturnAt])
		}
		for _, s := range []int{o.CallStep, o.ReturnStep} {
			if s > 0 && !strings.Contains(","+joinInts(p.Steps[s-1].Ops)+",", ","+itoa(k)+",") {
				t.Errorf("step %d does not list op %d", s, k)
			}
		}
	}
	if len(p.Initial) != 3 || len(p.Steps[0].States) != 3 {
		t.Errorf("states: %d initial, %d after step 1; want 3 each", len(p.Initial), len(p.Steps[0].States))
	}
}

func TestHTMLIsSelfContained(t *testing.T) {
	_, p := buggyViolation(t)
	p.Title = `</script><script>alert(1)</script>`
	var b bytes.Buffer
	if err := report.WriteHTML(&b, *p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:|//)`).MatchString(page) || strings.Contains(page, "<link") {
		t.Errorf("the page refers to something outside itself")
	}
	if strings.Contains(page, "<script>alert(1)") {
		t.Errorf("the title is not escaped")
	}
	m := regexp.MustCompile(`(?s)<script id="data" type="application/json">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data block")
	}
	var back report.Page
	if err := json.Unmarshal([]byte(m[1]), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Ops) != len(p.Ops) || len(back.Steps) != len(p.Steps) || back.Title != p.Title {
		t.Errorf("data block: %d ops, %d steps, title %q; want %d, %d, %q", len(back.Ops), len(back.Steps), back.Title, len(p.Ops), len(p.Steps), p.Title)
	}
}
