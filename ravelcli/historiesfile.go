package ravelcli

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// historyLines returns a line of --histories for every canonical history of res, a
// search of sys: one JSON object each with its verdict, and, under --workloads, the
// name of the workload it was found under (workload, "" for none).
func historyLines(sys *model.System, res *explorer.Result, workload string) ([]string, error) {
	type line struct {
		Spec     string `json:"spec,omitempty"`
		Workload string `json:"workload,omitempty"`
		histories.CanonicalJSON
		Verdict string `json:"verdict"`
	}
	lines := make([]string, len(res.Canonical))
	for i, c := range res.Canonical {
		v := "linearizable"
		switch {
		case c.Err != nil:
			v = "unknown"
		case !c.Linearizable:
			v = "not-linearizable"
		}
		b, err := json.Marshal(line{Spec: sys.Harness.Spec().Name, Workload: workload, CanonicalJSON: c.History.JSON(sys.Harness), Verdict: v})
		if err != nil {
			return nil, err
		}
		lines[i] = string(b)
	}
	return lines, nil
}

// writeHistories writes lines (historyLines), sorted, so that the files of two runs
// compare with cmp. It sorts lines in place.
func writeHistories(path string, lines []string) error {
	slices.Sort(lines)
	var buf strings.Builder
	for _, l := range lines {
		buf.WriteString(l)
		buf.WriteByte('\n')
	}
	return writeOutput(path, []byte(buf.String()))
}
