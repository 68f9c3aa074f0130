//go:build linux

package procmem

import (
	"os"
	"strconv"
)

// Read returns the process's memory now, from /proc/self/status.
func Read() (Usage, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return Usage{}, false
	}
	return parseStatus(b)
}

// ReadPID returns the memory of process pid, from /proc/PID/status: for a test that
// watches a child from outside.
func ReadPID(pid int) (Usage, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return Usage{}, false
	}
	return parseStatus(b)
}
