package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocRunCommandsWriteOutside: every `ravel run` of a config that the documentation
// shows, in a block or inline, writes with --out under /tmp. Without it the output goes
// to ravel-out beside the config, in the checkout: an etcd iteration keeps 367 MB there.
func TestDocRunCommandsWriteOutside(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, "../../README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i, line := range lines {
			// A command continued with `\` is one command.
			cmd := line
			for j := i; strings.HasSuffix(strings.TrimSpace(lines[j]), `\`) && j+1 < len(lines); j++ {
				cmd += " " + lines[j+1]
			}
			if strings.Contains(cmd, "ravel run ") && strings.Contains(cmd, ".yaml") && !strings.Contains(cmd, "--out /tmp/") {
				t.Errorf("%s:%d: ravel run without --out /tmp/…: %s", filepath.Base(f), i+1, strings.TrimSpace(line))
			}
		}
	}
}
