//go:build !linux

package live

import (
	"errors"
	"runtime"
	"syscall"
)

// nodesSupported refuses: a node is managed through its process group and /proc, which
// this platform does not have in the form the process manager relies on.
func nodesSupported() error {
	return errors.New("live: running a cluster's nodes needs Linux (process groups and /proc), not " + runtime.GOOS)
}

func nodeProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(int) error { return nodesSupported() }

func processAlive(int) bool { return false }

func groupAlive(int) bool { return false }
