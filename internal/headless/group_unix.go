//go:build unix

package headless

import (
	"os/exec"
	"syscall"
)

// groupAttr puts Chromium in a process group of its own, so that killGroup reaches its
// helper processes too.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills Chromium's whole process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
