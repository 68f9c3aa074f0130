package dpor_test

import (
	"fmt"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
)

// TestPairsThatBothRecordHistoryNeverCommute: context-sensitive sleep sets answer
// "dependent" without running the check when both events record history (an invocation
// or a response), since the two orders record them in opposite orders. Running the check
// on those pairs too must give exactly the same search — states, states explored again,
// revisits, steps, schedules and canonical histories — on shipped systems and on random
// cyclic ones, FIFO and with faults.
func TestPairsThatBothRecordHistoryNeverCommute(t *testing.T) {
	type tc struct {
		name string
		sys  model.System
	}
	var cases []tc
	for _, name := range []string{"register/2r2w", "abd/1w2r-seq", "leader/1rw", "chord/2r1w", "paxos/2r1w", "adr-buggy/2r1w"} {
		cases = append(cases, tc{name, shippedSystem(t, name)})
	}
	for i, f := range []model.Faults{{}, {Drop: 1}, {Duplicate: 1}, {Crash: 1}, {Partition: 1}} {
		for _, seed := range []uint64{7, 58, 97} {
			sys := randomCyclicSystem(seed + uint64(i))
			sys.Network, sys.Faults = model.FIFO, f
			cases = append(cases, tc{fmt.Sprintf("cyclic-%d-fifo/%+v", seed+uint64(i), f), sys})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fast, fr := exploreCached(t, c.sys, dpor.StatefulDPOR(dpor.History()), explorer.Unlimited)
			restore := dpor.CheckEveryPair()
			slow, sr := exploreCached(t, c.sys, dpor.StatefulDPOR(dpor.History()), explorer.Unlimited)
			restore()
			sameSearch(t, "answered", fast, fr, "checked", slow, sr)
		})
	}
}
