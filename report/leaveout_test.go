package report

import (
	"slices"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// TestLeaveOutOpenKeepsWhatTheStuckOperationFailsWith checks leaveOutOpen's two
// conditions one at a time, on prefixes given by hand (a complete search rarely returns
// one where the second matters): an open operation is left out only if the completed
// ones still answer as they did without it, and the stuck operation still fails.
func TestLeaveOutOpenKeepsWhatTheStuckOperationFailsWith(t *testing.T) {
	w := func(v int) specs.RegisterInput { return specs.RegisterInput{Write: true, Value: v} }
	r := specs.RegisterInput{}
	read := func(v int) specs.RegisterOutput { return specs.RegisterOutput{Value: v} }
	type op = histories.Operation[specs.RegisterInput, specs.RegisterOutput]
	for _, tc := range []struct {
		name              string
		ops               []op
		prefix            []int
		stuck             int
		wantPrefix, wantL []int
	}{
		{"an open write nothing needs is left out",
			[]op{{Client: 0, Input: w(1), Open: true}, {Client: 1, Input: w(2)}, {Client: 2, Input: r, Output: read(7)}},
			[]int{0, 1}, 2, []int{1}, []int{0}},
		{"an open write a completed read needs stays",
			[]op{{Client: 0, Input: w(1), Open: true}, {Client: 1, Input: r, Output: read(1)}, {Client: 2, Input: r, Output: read(7)}},
			[]int{0, 1}, 2, []int{0, 1}, nil},
		{"an open write without which the stuck read would answer as it did stays",
			[]op{{Client: 0, Input: w(1), Open: true}, {Client: 1, Input: w(2)}, {Client: 2, Input: r, Output: read(2)}},
			[]int{1, 0}, 2, []int{1, 0}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix, left := leaveOutOpen(specs.Register(), tc.ops, wgl.Result{Prefix: tc.prefix, Stuck: tc.stuck})
			if !slices.Equal(prefix, tc.wantPrefix) || !slices.Equal(left, tc.wantL) {
				t.Errorf("prefix %v, left out %v; want %v, %v", prefix, left, tc.wantPrefix, tc.wantL)
			}
		})
	}
}
