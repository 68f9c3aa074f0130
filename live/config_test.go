package live

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "node.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := `nodes:
  count: 2
  command: [./node.sh, "{{.Name}}", '{{join .ProxyURLs ","}}', "{{.DataDir}}"]
  start_timeout: 1500ms
scheduler:
  type: pct
  wait: 2ms
faults:
  probability: 0.5
  crash: 2
`
	path := filepath.Join(dir, "ravel.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Nodes.StartTimeout != 1500*time.Millisecond || cfg.Scheduler.Wait != 2*time.Millisecond {
		t.Errorf("durations: start_timeout %v, wait %v", cfg.Nodes.StartTimeout, cfg.Scheduler.Wait)
	}
	if cfg.Faults.Crash != 2 || cfg.Faults.Probability != 0.5 || cfg.Scheduler.Depth != 3 || cfg.Workload.Clients != 3 || cfg.Iterations != 1 {
		t.Errorf("fields or defaults wrong: %+v", cfg)
	}
	if cfg.Dir != dir {
		t.Errorf("Dir = %q, want %q", cfg.Dir, dir)
	}
	ps := []ports{{1, 2, 3}, {11, 12, 13}}
	argv, err := cfg.renderCommand(cfg.vars(1, ps, "/d/n1"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"./node.sh", "n1", "http://127.0.0.1:3,http://127.0.0.1:13", "/d/n1"}
	if !reflect.DeepEqual(argv, want) {
		t.Errorf("command %q, want %q", argv, want)
	}
}
