// Package headless runs headless Chromium for the browser tests of the HTML report and
// the interactive explorer.
package headless

import (
	"bytes"
	"os/exec"
	"testing"
)

// Chromium runs headless Chromium with args (a --dump-dom or --screenshot and a URL) and
// returns its standard output. It runs Chromium in a process group of its own and kills
// the whole group before returning, helpers included. It skips the test, saying why,
// when Chromium is not installed.
func Chromium(t testing.TB, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium; .ci/run tries): browser test skipped")
	}
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + t.TempDir()}
	cmd := exec.Command(bin, append(base, args...)...)
	cmd.SysProcAttr = groupAttr()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer killGroup(cmd)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.String()
}
