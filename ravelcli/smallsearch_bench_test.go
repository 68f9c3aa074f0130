package ravelcli

import (
	"io"
	"testing"
)

// BenchmarkCheckSmallSearch times `ravel check` in one process on the sixteen shipped
// configurations of a few hundred to a few thousand states, where a whole run is mostly
// the process's start-up: exhaustive search and stateful DPOR, both with caching, side
// by side, without that start-up (docs/stateful-dpor-history.md, "Fewer checks").
//
// Run it with GOGC set (GOGC=400, and GOGC=100 for what a test using raveltest sees):
// without it each run gets the collector settings `ravel check` gives it (tuneCollector:
// GOGC 400 for both, for stateful DPOR until its graph is large), and whether a run
// collects then depends on the garbage the runs before it left, where a fresh `ravel
// check` process of this size never collects at all.
func BenchmarkCheckSmallSearch(b *testing.B) {
	for _, c := range [][2]string{
		{"register", "2r1w"}, {"register-buggy", "2r1w"}, {"adr", "2r1w"}, {"adr-buggy", "2r1w"},
		{"chord", "2r1w"}, {"chord-fixed", "2r1w"}, {"paxos", "2r1w"}, {"paxos-buggy", "2r1w"},
		{"gossip", "writes"}, {"gossip", "rw"}, {"abd", "1w1r"}, {"abd-buggy", "1w1r"},
		{"microbench", "bug2-L2"}, {"microbench", "bug1-L1"}, {"register", "1r1w"}, {"register-buggy", "1r1w"},
	} {
		for _, strategy := range []string{"exhaustive", "dpor"} {
			b.Run(c[0]+"-"+c[1]+"/"+strategy, func(b *testing.B) {
				args := []string{"check", c[0], "--harness", c[1], "--strategy", strategy, "--state-caching", "on", "--max-schedules", "0", "--quiet"}
				for b.Loop() {
					if code := run(args, io.Discard, io.Discard); code != exitOK && code != exitViolation {
						b.Fatalf("exit %d", code)
					}
				}
			})
		}
	}
}
