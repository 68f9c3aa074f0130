package live

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// TestValidateRefuses: every bad value is refused naming its field in the config's own
// terms: negative durations (which would let a run time out at once and pass having
// checked nothing), negative depth, events and budgets, and depth or events given to a
// scheduler that ignores them.
func TestValidateRefuses(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(c *Config)
		field string
		want  string
	}{
		{"start_timeout", func(c *Config) { c.Nodes.StartTimeout = -time.Second }, "nodes.start_timeout", "must not be negative (got -1s)"},
		{"op_timeout", func(c *Config) { c.Workload.OpTimeout = -time.Second }, "workload.op_timeout", "must not be negative"},
		{"think_time", func(c *Config) { c.Workload.ThinkTime = -time.Millisecond }, "workload.think_time", "must not be negative"},
		{"iteration_timeout", func(c *Config) { c.Workload.Iteration = -time.Second }, "workload.iteration_timeout", "must not be negative"},
		{"wait", func(c *Config) { c.Scheduler.Wait = -time.Millisecond }, "scheduler.wait", "must not be negative"},
		{"patience", func(c *Config) { c.Scheduler.Patience = -time.Millisecond }, "scheduler.patience", "must not be negative"},
		{"restart_after", func(c *Config) { c.Faults.Restart = -time.Millisecond }, "faults.restart_after", "must not be negative"},
		{"depth", func(c *Config) { c.Scheduler.Type, c.Scheduler.Depth = "pct", -2 }, "scheduler.depth", "must be at least 1 (got -2; leave it out for 3)"},
		{"events", func(c *Config) { c.Scheduler.Type, c.Scheduler.Events = "dpos", -1 }, "scheduler.events", "must be at least 1 (got -1; leave it out for 200)"},
		{"depth with random", func(c *Config) { c.Scheduler.Depth = 3 }, "scheduler.depth", "the random scheduler ignores it (it applies to pctcp, tapct and dpos); remove it"},
		{"events with rapos", func(c *Config) { c.Scheduler.Type, c.Scheduler.Events = "rapos", 150 }, "scheduler.events", "the rapos scheduler ignores it"},
		{"unknown scheduler", func(c *Config) { c.Scheduler.Type = "fifo" }, "scheduler.type", `unknown sampler "fifo"`},
		{"drop", func(c *Config) { c.Faults.Drop = -1 }, "faults.drop", "must not be negative (got -1)"},
		{"crash", func(c *Config) { c.Faults.Crash = -1 }, "faults.crash", "must not be negative"},
		{"partition", func(c *Config) { c.Faults.Partition = -1 }, "faults.partition", "must not be negative"},
		{"probability without budget", func(c *Config) { c.Faults.Probability = 0.1 }, "faults.probability", "no fault can be injected: no budget is set"},
		{"budget without probability", func(c *Config) { c.Faults.Partition = 1 }, "faults.partition", "no fault is injected while faults.probability is 0"},
		{"restart_after without crash", func(c *Config) { c.Faults.Probability, c.Faults.Drop, c.Faults.Restart = 0.1, 1, time.Second }, "faults.restart_after", "applies only to crashed nodes"},
		{"heal_after", func(c *Config) { c.Faults.Heal = -time.Millisecond }, "faults.heal_after", "must not be negative"},
		{"heal_after without partition", func(c *Config) { c.Faults.Probability, c.Faults.Drop, c.Faults.Heal = 0.1, 1, time.Second }, "faults.heal_after", "applies only to partitions"},
		{"partition with tcp", func(c *Config) { c.Faults.Probability, c.Faults.Partition, c.Network.Protocol = 0.1, 1, "tcp" }, "faults.partition", "cannot tell a message's sender"},
		{"partition with http and no sender_header", func(c *Config) { c.Faults.Probability, c.Faults.Partition = 0.1, 1 }, "faults.partition", "set network.sender_header"},
		{"keep_data", func(c *Config) { c.KeepData = "some" }, "keep_data", `unknown "some" (valid: failing, all, none)`},
		{"read_percent", func(c *Config) { c.Workload.Reads = ptr(101) }, "workload.read_percent", "must be within [0, 100] (got 101)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &Config{Nodes: NodesConfig{Count: 1, Command: []string{"/bin/sh"}}}
			tc.edit(c)
			err := c.Validate()
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Validate = %v, want a *ConfigError", err)
			}
			if ce.Field != tc.field || !strings.Contains(ce.Msg, tc.want) {
				t.Errorf("Validate = %q, want field %s and %q", err, tc.field, tc.want)
			}
		})
	}
}

// TestValidateAccepts: the settings each sampler uses are accepted, and zero means the
// default, not a refusal.
func TestValidateAccepts(t *testing.T) {
	for _, typ := range []string{"", "random", "rapos", "pos"} {
		c := &Config{Nodes: NodesConfig{Count: 1, Command: []string{"/bin/sh"}}, Scheduler: SchedulerConfig{Type: typ}}
		if err := c.Validate(); err != nil {
			t.Errorf("%q: %v", typ, err)
		}
	}
	for _, typ := range []string{"pct", "pctcp", "tapct", "dpos"} {
		c := &Config{Nodes: NodesConfig{Count: 1, Command: []string{"/bin/sh"}}, Scheduler: SchedulerConfig{Type: typ, Depth: 2, Events: 50}}
		if err := c.Validate(); err != nil {
			t.Errorf("%q: %v", typ, err)
		}
	}
}

// TestValidateIdempotent: a config Validate filled validates again unchanged, with and
// without crashes (restart_after's default is only filled where a crash uses it).
func TestValidateIdempotent(t *testing.T) {
	for _, f := range []FaultsConfig{{}, {Probability: 0.1, Crash: 1}, {Probability: 0.1, Drop: 2}} {
		c := &Config{Nodes: NodesConfig{Count: 1, Command: []string{"/bin/sh"}}, Faults: f}
		if err := c.Validate(); err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		once := *c
		if err := c.Validate(); err != nil {
			t.Fatalf("%+v, validated again: %v", f, err)
		}
		if !reflect.DeepEqual(once, *c) {
			t.Errorf("%+v: validated again, %+v, want %+v", f, *c, once)
		}
	}
}

// TestReadPercent: read_percent left out is a third each of reads, writes and
// compare-and-sets; 0 is a workload without reads.
func TestReadPercent(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want int
	}{{"", -1}, {"workload:\n  read_percent: 0\n", 0}, {"workload:\n  read_percent: 40\n", 40}} {
		dir := t.TempDir()
		path := filepath.Join(dir, "ravel.yaml")
		if err := os.WriteFile(path, []byte("nodes:\n  count: 1\n  command: [/bin/sh]\n"+tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := readPercent(cfg.Workload.Reads); got != tc.want {
			t.Errorf("%q: read share %d, want %d", tc.yaml, got, tc.want)
		}
	}
}

func ptr(v int) *int { return &v }

// TestExampleConfigsValid: the shipped example configs load, so every field they set
// applies (their programs stubbed: kvnode is built by the user, etcd installed).
func TestExampleConfigsValid(t *testing.T) {
	for _, ex := range []struct{ dir, program string }{{"kvnode", "kvnode"}, {"etcd", "node.sh"}} {
		b, err := os.ReadFile(filepath.Join("..", "examples", ex.dir, "ravel.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ex.program), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "ravel.yaml")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadConfig(path); err != nil {
			t.Errorf("examples/%s/ravel.yaml: %v", ex.dir, err)
		}
	}
}

// TestTemplateVarsListed: the lists of a node command's template variables, in
// docs/real-processes.md and in the kvnode example's comment, name every field of
// NodeVars, so that neither goes stale when one is added.
func TestTemplateVarsListed(t *testing.T) {
	lists := map[string]string{}
	doc, err := os.ReadFile("../docs/real-processes.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "templates over `")
	list, _, _ := strings.Cut(after, "`")
	if !ok {
		t.Fatal("docs/real-processes.md: no \"templates over `…`\" list")
	}
	lists["docs/real-processes.md"] = list
	ex, err := os.ReadFile("../examples/kvnode/ravel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok = strings.Cut(string(ex), "# Templates over ")
	list, _, _ = strings.Cut(after, "(with join)")
	if !ok {
		t.Fatal("examples/kvnode/ravel.yaml: no \"# Templates over … (with join)\" comment")
	}
	lists["examples/kvnode/ravel.yaml"] = list
	for file, list := range lists {
		names := map[string]bool{}
		for _, f := range strings.Fields(strings.ReplaceAll(list, "#", "")) {
			names[f] = true
		}
		for f := range reflect.TypeFor[NodeVars]().Fields() {
			if !names["."+f.Name] {
				t.Errorf("%s: the template variables listed lack .%s: %q", file, f.Name, list)
			}
		}
	}
}

// TestLoadConfigWrittenZeros: a count or duration written 0, where 0 would silently
// mean its default, is refused naming the field and the default; left out (or null),
// it takes the default; 0 where it means something (think_time, base_port, a fault
// budget) is kept. A nodes.env entry that is not KEY=VALUE is refused. clients: 0 used
// to run 3 clients, ops: 0 20 operations each, and env: [FOO] was passed on.
func TestLoadConfigWrittenZeros(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "node.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := "nodes:\n  count: 2\n  command: [./node.sh]\n"
	for _, tc := range []struct{ extra, want string }{
		{"workload:\n  clients: 0\n", "config: workload.clients: must be at least 1 (got 0; leave it out for the default 3)"},
		{"workload:\n  ops: 0\n", "config: workload.ops: must be at least 1 (got 0; leave it out for the default 20)"},
		{"workload:\n  keys: 0\n", "config: workload.keys: must be at least 1"},
		{"workload:\n  values: 0\n", "config: workload.values: must be at least 1"},
		{"iterations: 0\n", "config: iterations: must be at least 1 (got 0; leave it out for the default 1)"},
		{"scheduler:\n  wait: 0s\n", "config: scheduler.wait: must be positive (got 0s; leave it out for the default 1ms)"},
		{"workload:\n  op_timeout: 0s\n", "config: workload.op_timeout: must be positive"},
		{"scheduler:\n  type: pct\n  depth: 0\n", "config: scheduler.depth: must be at least 1 (got 0; leave it out for the default 3)"},
		{"faults:\n  probability: 0.1\n  crash: 1\n  restart_after: 0s\n", "config: faults.restart_after: must be positive (got 0s; leave it out for the default 100ms)"},
		{"  env: [FOO]\n", `config: nodes.env[0]: "FOO": write KEY=VALUE`},
		{"  env: [A=1, =2]\n", `config: nodes.env[1]: "=2": write KEY=VALUE`},
		{"workload:\n  clients: ~\n  think_time: 0s\n", ""},
		{"  base_port: 0\n  env: [A=]\nfaults:\n  drop: 0\n", ""},
	} {
		path := filepath.Join(dir, "ravel.yaml")
		if err := os.WriteFile(path, []byte(base+tc.extra), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v, want accepted", tc.extra, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want %q", tc.extra, err, tc.want)
		}
	}
}
