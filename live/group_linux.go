//go:build linux

package live

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// nodesSupported says whether this platform can run a cluster's nodes: it can (process
// groups, and /proc to tell live processes from zombies).
func nodesSupported() error { return nil }

// nodeProcAttr puts a node in a process group of its own, so a crash reaches the node's
// children; Pdeathsig kills the node if Ravel itself dies without cleaning up.
func nodeProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to the process group pgid (a node's group id is its pid, by
// Setpgid). ESRCH means the whole group is gone already, which is not an error.
func killGroup(pgid int) error {
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

func processAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...: comm may hold spaces and parentheses, so look after the last ')'.
	s := string(b)
	j := strings.LastIndexByte(s, ')')
	if j < 0 || j+2 >= len(s) {
		return false
	}
	return s[j+2] != 'Z' && s[j+2] != 'X'
}

// groupAlive reports whether some live process has process group pgid.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); err != nil {
		return false
	}
	// kill(2) succeeds on a group of zombies too: look for a live member.
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		j := strings.LastIndexByte(s, ')')
		if j < 0 {
			continue
		}
		f := strings.Fields(s[j+1:])
		// f[0] state, f[1] ppid, f[2] pgrp
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" && processAlive(pid) {
			return true
		}
	}
	return false
}
