//go:build !unix

package headless

import (
	"os/exec"
	"syscall"
)

// groupAttr has no process groups to ask for on this platform.
func groupAttr() *syscall.SysProcAttr { return nil }

// killGroup kills Chromium itself; its helpers end when it does.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
