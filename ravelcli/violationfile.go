package ravelcli

import (
	"io"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/report"
)

// The replay file — its digest, fingerprint and strict reading — lives in package
// report, which raveltest shares: one implementation writes and reads it.

// scheduleDigest identifies a violation's run and schedule (report.ScheduleDigest).
func scheduleDigest(info runInfo, ids []uint64) string { return report.ScheduleDigest(info, ids) }

// writeViolation writes vj, the report of v found by the run info describes, for ravel
// replay.
func writeViolation(path string, info runInfo, v *explorer.Violation, vj violationJSON) error {
	b, err := report.Marshal(info, vj, v.Fingerprint)
	if err != nil {
		return err
	}
	return writeOutput(path, b)
}

// readViolationFile reads and checks a violation file (report.Read) and returns the
// schedule's event identities.
func readViolationFile(r io.Reader, name string) (violationFile, []uint64, error) {
	return report.Read(r, name)
}
