package interactive_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/leader"
)

// TestStateDescribesPartitions: /api/state tells the pending partitions of leader
// --partition 1 apart, each as check and replay print the step that delivers it (probe
// U1: all read "PARTITION  | n0 n1 n2").
func TestStateDescribesPartitions(t *testing.T) {
	sys, err := leader.New(3, leader.HarnessNames[0])
	if err != nil {
		t.Fatal(err)
	}
	(&report.Faults{Partition: 1, Timeouts: 1}).ApplyTo(&sys)
	srv, err := interactive.New(sys)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/api/state")
	if err != nil {
		t.Fatal(err)
	}
	var st interactive.State
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range st.Enabled {
		if p.Kind != "partition" {
			continue
		}
		if seen[p.Msg] {
			t.Errorf("two pending partitions both read %q", p.Msg)
		}
		seen[p.Msg] = true
		id, err := strconv.ParseUint(p.ID, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := explorer.Replay(sys, []uint64{id}, false)
		if err != nil {
			t.Fatal(err)
		}
		if want := report.NewSteps(&sys, ex.Steps)[0].Msg; p.Msg != want {
			t.Errorf("pending partition reads %q; a replay's step reads %q", p.Msg, want)
		}
	}
	if len(seen) < 2 {
		t.Errorf("%d distinct pending partitions: %v", len(seen), seen)
	}
	for text := range seen {
		if strings.HasPrefix(text, "PARTITION  |") {
			t.Errorf("a partition with nobody on its left: %q", text)
		}
	}
}
