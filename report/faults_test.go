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

// TestFaultsDescribe: the budgets read as a list, one space inside an item and a comma
// between items (probe U15: the explorer page showed "partition 1  timeouts 1").
func TestFaultsDescribe(t *testing.T) {
	for _, tc := range []struct {
		f    *report.Faults
		want string
	}{
		{nil, ""},
		{&report.Faults{}, ""},
		{&report.Faults{Partition: 1, Timeouts: 1}, "partition 1, timeouts 1"},
		{&report.Faults{Drop: 2, Crash: 1, CrashStop: true}, "drop 2, crash 1, crash-stop"},
		{&report.Faults{Partition: 1, Hold: true}, "partition 1, partition-hold"},
	} {
		if got := tc.f.Describe(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.f, got, tc.want)
		}
	}
}
