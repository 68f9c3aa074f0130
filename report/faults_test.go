package report_test

import (
	"reflect"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
)

// A replay file's budgets replace the system's own (those its Build set), a file without
// faults included: the replay runs with the budgets the run had.
func TestApplyToReplacesTheSystemsBudgets(t *testing.T) {
	for _, tc := range []struct {
		name string
		file *report.Faults
		want model.Faults
	}{
		{"a run without faults", nil, model.Faults{}},
		{"a run with a drop", &report.Faults{Drop: 1}, model.Faults{Drop: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := model.System{Faults: model.Faults{Crash: 1, Partition: 2, CrashStop: true}}
			tc.file.ApplyTo(&sys)
			if !reflect.DeepEqual(sys.Faults, tc.want) {
				t.Errorf("budgets %+v, want %+v", sys.Faults, tc.want)
			}
		})
	}
}
