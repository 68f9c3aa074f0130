package live

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/ravelmc/ravel/samplers"
	"go.yaml.in/yaml/v3"
)

// Config describes a test of a real cluster: how to start its nodes, how its peers talk,
// the client workload, the scheduler, the faults and the session. Its YAML form uses the
// yaml tags; durations are written as "500ms", "2s". A count or duration left out takes
// its default; written 0 where 0 would only mean that default (clients, ops, keys,
// values, iterations, depth, events, every timeout, wait, patience, restart_after,
// heal_after) it is refused by LoadConfig, naming the field. 0 is a value where it
// means one: think_time (no pause), base_port (free ports), a fault probability or
// budget (none), read_percent (no reads), seed.
type Config struct {
	Name       string          `yaml:"name"`
	Nodes      NodesConfig     `yaml:"nodes"`
	Network    NetworkConfig   `yaml:"network"`
	Workload   WorkloadConfig  `yaml:"workload"`
	Scheduler  SchedulerConfig `yaml:"scheduler"`
	Faults     FaultsConfig    `yaml:"faults"`
	Iterations int             `yaml:"iterations"`
	Seed       uint64          `yaml:"seed"`
	Output     string          `yaml:"output"` // directory for every iteration's logs, history and events (see SetAsideOutput for an earlier session's)
	// StopOnViolation ends the session at the first non-linearizable history.
	StopOnViolation bool `yaml:"stop_on_violation"`
	// KeepData (keep_data) is which iterations keep their nodes' data directories
	// (OUTPUT/iter-NNN/nN/, 123 MB a member for etcd): "failing" (default) those not
	// linearizable, with a node that exited on its own, or stopped by an error or an
	// interruption; "all"; or "none". Logs, events, schedules, histories and verdicts are
	// always kept.
	KeepData string `yaml:"keep_data"`

	// Progress, when not nil, receives a line every ProgressEvery (default 5s) while an
	// iteration runs: how long it has run, its steps, operations done, messages and
	// faults so far (ravel run writes them on stderr unless --quiet).
	Progress      io.Writer        `yaml:"-"`
	ProgressEvery time.Duration    `yaml:"-"`
	progressTick  <-chan time.Time // tests: the ticks, instead of a timer

	// Replay, when set, makes every iteration re-impose this recorded schedule (and use its
	// seed and iteration number for the workload) instead of sampling.
	Replay *Schedule `yaml:"-"`

	// Earlier, when set, is what SetAsideOutput set aside of an earlier session: Run
	// removes it once the first iteration's nodes are all healthy, and puts it back if
	// they never are, so that a run that cannot start keeps the earlier results.
	Earlier *Earlier `yaml:"-"`

	// Dir is the directory relative paths of the command and output are taken from: the
	// config file's directory when loaded with LoadConfig.
	Dir string `yaml:"-"`

	// written holds the dotted keys the YAML file gives a value (LoadConfig), so that
	// Validate tells a 0 written out from a key left out: a count or duration left out
	// takes its default, one written 0 is refused. A Config built in Go has none, and
	// its zeros take the defaults.
	written map[string]bool
}

// NodesConfig is how to run the nodes. Command is a list of text/template strings over
// [NodeVars]: the program (a script or binary) and its arguments. A relative program is
// taken from the config's directory, but the node runs with its data directory as
// working directory, so relative paths in its arguments or in a wrapper script are
// taken from there; a wrapper must exec the node (if Ravel is killed with SIGKILL, only
// the process it started is killed with it).
type NodesConfig struct {
	Count        int           `yaml:"count"`
	Command      []string      `yaml:"command"`
	Env          []string      `yaml:"env"`
	BasePort     int           `yaml:"base_port"`     // node i's client, peer, proxy ports: base+10i, +1, +2; 0 picks free ports
	Health       string        `yaml:"health"`        // URL template answered 2xx when the node is ready; empty: a TCP connect to the client port
	StartTimeout time.Duration `yaml:"start_timeout"` // for every node to become healthy (default 10s)
}

// NodeVars are the values a node's command template can use.
type NodeVars struct {
	ID         int      // 0, 1, …
	Name       string   // "n0", "n1", …
	DataDir    string   // kept across restarts of the node within one iteration
	ClientPort int      // where the node serves clients (not intercepted)
	PeerPort   int      // where the node listens for peers (behind the interceptor)
	ProxyPort  int      // the interceptor's port: the node's address as its peers know it
	ProxyURLs  []string // every node's http://127.0.0.1:ProxyPort, by index
	PeerURLs   []string // every node's http://127.0.0.1:PeerPort: bypasses the interceptors
	ClientURLs []string // every node's http://127.0.0.1:ClientPort, by index
	Count      int      // the number of nodes
}

// NetworkConfig picks the translator of the interceptors.
type NetworkConfig struct {
	Protocol     string `yaml:"protocol"`      // http (default), etcd, tcp
	SenderHeader string `yaml:"sender_header"` // http: header naming the sending node's index
}

// WorkloadConfig is the client workload of each iteration.
type WorkloadConfig struct {
	Client  string `yaml:"client"`  // kvnode (default) or etcd
	Clients int    `yaml:"clients"` // concurrent clients (default 3)
	Ops     int    `yaml:"ops"`     // operations per client and iteration (default 20)
	Keys    int    `yaml:"keys"`    // distinct keys (default 2)
	Values  int    `yaml:"values"`  // written values drawn from [0, values) (default 5)
	// Reads (read_percent) is the share of reads in percent, the rest split evenly
	// between writes and compare-and-sets; 0 is a workload without reads. Left out (nil),
	// reads, writes and compare-and-sets are a third each.
	Reads     *int          `yaml:"read_percent"`
	OpTimeout time.Duration `yaml:"op_timeout"` // an operation not answered by then is open (default 1s)
	ThinkTime time.Duration `yaml:"think_time"` // pause between a client's operations (default none; after a failure at least op_timeout/10)
	// Iteration bounds the workload of one iteration (default 2m): when it expires the
	// clients stop (a write or compare-and-set in flight is open, a read in flight left
	// out, as at op_timeout), and the iteration's line says it was cut and after how many
	// of its operations.
	Iteration time.Duration `yaml:"iteration_timeout"`
}

// SchedulerConfig is the scheduler and its parameters.
type SchedulerConfig struct {
	Type   string        `yaml:"type"`   // a sampler: random (default), rapos, pos, pctcp (pct), tapct, dpos
	Depth  int           `yaml:"depth"`  // pctcp, tapct, dpos: bug depth d (default 3)
	Events int           `yaml:"events"` // pctcp, tapct, dpos: n, the steps change points are drawn from (default 200)
	Wait   time.Duration `yaml:"wait"`   // quiet time before each step (default 1ms)
	// Patience is how long a replay waits for a recorded message to show up before it
	// skips that step as diverged (default 200ms).
	Patience time.Duration `yaml:"patience"`
}

// FaultsConfig is which faults the scheduler may inject and how many per iteration.
// At each step a fault is injected instead of a delivery with Probability; the fault is
// chosen uniformly among those enabled (budget left, and a node up to crash, down to
// restart, a partition to heal).
type FaultsConfig struct {
	Probability float64 `yaml:"probability"`
	Drop        int     `yaml:"drop"`      // messages dropped
	Crash       int     `yaml:"crash"`     // node crashes (each restarted later)
	Partition   int     `yaml:"partition"` // partitions (each healed later)
	// Restart (restart_after) is the longest a crashed node stays down (default 100ms
	// when crashes are budgeted): a restart is also a fault a step may draw, so it may
	// come sooner.
	Restart time.Duration `yaml:"restart_after"`
	// Heal (heal_after) is the longest a partition lasts (default 1s when partitions are
	// budgeted): a heal is also a fault a step may draw, so it may come sooner. Without
	// it a partition that cuts every peer message (one node alone against the rest in a
	// primary-backup cluster, a two-node cluster) would never heal: with nothing held no
	// scheduling decision is taken, so no heal could be drawn. The bound draws nothing
	// from the faults' stream, so a seed's fault decisions stay the same.
	Heal time.Duration `yaml:"heal_after"`
}

// ConfigError is a bad configuration, naming the field at fault.
type ConfigError struct {
	Field string
	Msg   string
}

// Error reads "config: FIELD: what is wrong".
func (e *ConfigError) Error() string {
	if e.Field == "" {
		return "config: " + e.Msg
	}
	return "config: " + e.Field + ": " + e.Msg
}

func cfgErr(field, format string, args ...any) error {
	return &ConfigError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// LoadConfig reads a YAML config; unknown fields are errors. It checks the config
// (Validate) and fills defaults.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{Msg: err.Error()}
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); err != nil {
		if msg, ok := unknownKeys(err); ok {
			return nil, &ConfigError{Msg: fmt.Sprintf("%s: %s", path, msg)}
		}
		if msg, ok := typeErrors(b, err); ok {
			return nil, &ConfigError{Msg: fmt.Sprintf("%s: %s", path, msg)}
		}
		return nil, &ConfigError{Msg: fmt.Sprintf("%s: malformed YAML: %v", path, err)}
	}
	abs, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, &ConfigError{Msg: err.Error()}
	}
	c.Dir = abs
	c.written = writtenKeys(b)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// unknownField is the YAML decoder's message for a key no field has.
var unknownField = regexp.MustCompile(`^line (\d+): field (.+) not found in type live\.(\w+)$`)

// unknownKeys rewrites the decoder's error when it is only about unknown keys, in the
// config's terms: `line 3: unknown key "comand" in nodes (valid: name, count, …)`.
func unknownKeys(err error) (string, bool) {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return "", false
	}
	var out []string
	for _, e := range te.Errors {
		m := unknownField.FindStringSubmatch(e)
		if m == nil {
			return "", false
		}
		root := reflect.TypeFor[Config]()
		section, typ := "", root
		for i := range root.NumField() {
			if f := root.Field(i); f.Type.Name() == m[3] {
				section, typ = yamlKey(f), f.Type
			}
		}
		if typ.Name() != m[3] {
			return "", false
		}
		var valid []string
		for i := range typ.NumField() {
			if k := yamlKey(typ.Field(i)); k != "" {
				valid = append(valid, k)
			}
		}
		where := "at the top level"
		if section != "" {
			where = "in " + section
		}
		out = append(out, fmt.Sprintf("line %s: unknown key %q %s (valid: %s)", m[1], m[2], where, strings.Join(valid, ", ")))
	}
	return strings.Join(out, "; "), len(out) > 0
}

// badType is the decoder's message for a value of the wrong type.
var badType = regexp.MustCompile("^line (\\d+): cannot unmarshal !!\\w+ `(.*)` into (.+)$")

// typeHints say what form a Go type's value is written in.
var typeHints = map[string]string{
	"time.Duration": "a duration such as 5s or 500ms",
	"int":           "a whole number",
	"uint64":        "a whole number, not negative",
	"float64":       "a number",
	"bool":          "true or false",
	"string":        "a string",
	"[]string":      "a list of strings",
}

// typeErrors rewrites the decoder's error when it is only about values of the wrong
// type, naming each one's field and the form expected: "line 6: nodes.start_timeout:
// write a duration such as 5s or 500ms (got 5)".
func typeErrors(src []byte, err error) (string, bool) {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return "", false
	}
	var root yaml.Node
	if yaml.Unmarshal(src, &root) != nil {
		return "", false
	}
	fields := map[int]string{} // line → dotted key of the value on it
	eachKey(&root, "", func(k string, v *yaml.Node) {
		fields[v.Line] = k
		if v.Kind == yaml.SequenceNode {
			for _, c := range v.Content {
				if _, ok := fields[c.Line]; !ok {
					fields[c.Line] = k
				}
			}
		}
	})
	var out []string
	for _, e := range te.Errors {
		m := badType.FindStringSubmatch(e)
		if m == nil {
			return "", false
		}
		line, _ := strconv.Atoi(m[1])
		field, hint := fields[line], typeHints[m[3]]
		if field == "" || hint == "" {
			return "", false
		}
		out = append(out, fmt.Sprintf("line %d: %s: write %s (got %s)", line, field, hint, m[2]))
	}
	return strings.Join(out, "; "), len(out) > 0
}

// eachKey calls visit with the dotted key ("workload.ops") and the value of every key of
// the maps in n, outer keys before the keys inside their values.
func eachKey(n *yaml.Node, prefix string, visit func(key string, v *yaml.Node)) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			eachKey(c, prefix, visit)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			if prefix != "" {
				k = prefix + "." + k
			}
			visit(k, v)
			eachKey(v, k, visit)
		}
	}
}

// writtenKeys is the dotted keys src gives a value other than null: "workload.ops".
func writtenKeys(src []byte) map[string]bool {
	var root yaml.Node
	if yaml.Unmarshal(src, &root) != nil {
		return nil
	}
	keys := map[string]bool{}
	eachKey(&root, "", func(k string, v *yaml.Node) {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!null" {
			keys[k] = true
		}
	})
	return keys
}

// zeroWritten refuses a 0 written out for a key whose 0 would silently mean its
// default (def, written as the key's value is): a user who writes ops: 0 means none,
// or made a mistake, and would get the default without a word.
func (c *Config) zeroWritten(name string, def any) error {
	if !c.written[name] {
		return nil
	}
	if d, ok := def.(time.Duration); ok {
		return cfgErr(name, "must be positive (got 0s; leave it out for the default %v)", d)
	}
	return cfgErr(name, "must be at least 1 (got 0; leave it out for the default %v)", def)
}

// yamlKey is f's key in the YAML form, "" for a field that has none.
func yamlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if k == "-" || !f.IsExported() {
		return ""
	}
	if k == "" {
		return strings.ToLower(f.Name)
	}
	return k
}

// Validate checks c and fills its defaults. Every error is a *ConfigError naming the
// field at fault.
func (c *Config) Validate() error {
	if err := c.durations(); err != nil {
		return err
	}
	if err := c.faultsApply(); err != nil {
		return err
	}
	if c.Nodes.Count < 1 {
		return cfgErr("nodes.count", "must be at least 1 (got %d)", c.Nodes.Count)
	}
	for i, e := range c.Nodes.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return cfgErr(fmt.Sprintf("nodes.env[%d]", i), "%q: write KEY=VALUE", e)
		}
	}
	if len(c.Nodes.Command) == 0 {
		return cfgErr("nodes.command", "missing: the node's program and arguments")
	}
	for i, a := range c.Nodes.Command {
		if _, err := template.New("").Funcs(funcs).Parse(a); err != nil {
			return cfgErr(fmt.Sprintf("nodes.command[%d]", i), "%v", err)
		}
	}
	if _, err := c.renderCommand(c.vars(0, make([]ports, c.Nodes.Count), "")); err != nil {
		return err
	}
	prog := c.program()
	if strings.Contains(prog, "/") {
		st, err := os.Stat(prog)
		switch {
		case err != nil:
			return cfgErr("nodes.command[0]", "%s: no such script or program", prog)
		case st.IsDir() || st.Mode()&0o111 == 0:
			return cfgErr("nodes.command[0]", "%s is not executable", prog)
		}
	} else if _, err := exec.LookPath(prog); err != nil {
		return cfgErr("nodes.command[0]", "%s: not found on PATH", prog)
	}
	if c.Nodes.BasePort < 0 || c.Nodes.BasePort+10*c.Nodes.Count > 65535 {
		return cfgErr("nodes.base_port", "%d leaves no room for %d nodes", c.Nodes.BasePort, c.Nodes.Count)
	}
	if _, err := template.New("").Funcs(funcs).Parse(c.Nodes.Health); err != nil {
		return cfgErr("nodes.health", "%v", err)
	}
	switch c.Network.Protocol {
	case "":
		c.Network.Protocol = "http"
	case "http", "etcd", "tcp":
	default:
		return cfgErr("network.protocol", "unknown %q (valid: http, etcd, tcp)", c.Network.Protocol)
	}
	if c.Faults.Partition > 0 {
		// A partition cuts the messages whose sender is on the other side: with no
		// sender it would cut nothing and still be reported as injected.
		switch {
		case c.Network.Protocol == "tcp":
			return cfgErr("faults.partition", "network.protocol tcp cannot tell a message's sender, so a partition would cut nothing; remove partition (drop and crash work with tcp)")
		case c.Network.Protocol == "http" && c.Network.SenderHeader == "":
			return cfgErr("faults.partition", "a partition needs each message's sender, which protocol http reads from a header: set network.sender_header (the header the nodes put their index in), or remove partition")
		}
	}
	w := &c.Workload
	switch w.Client {
	case "":
		w.Client = "kvnode"
	case "kvnode", "etcd":
	default:
		return cfgErr("workload.client", "unknown %q (valid: kvnode, etcd)", w.Client)
	}
	for _, d := range []struct {
		name string
		v    *int
		def  int
	}{{"workload.clients", &w.Clients, 3}, {"workload.ops", &w.Ops, 20}, {"workload.keys", &w.Keys, 2}, {"workload.values", &w.Values, 5}} {
		if *d.v < 0 {
			return cfgErr(d.name, "must not be negative (got %d)", *d.v)
		}
		if *d.v == 0 {
			if err := c.zeroWritten(d.name, d.def); err != nil {
				return err
			}
			*d.v = d.def
		}
	}
	if w.Reads != nil && (*w.Reads < 0 || *w.Reads > 100) {
		return cfgErr("workload.read_percent", "must be within [0, 100] (got %d)", *w.Reads)
	}
	if err := c.scheduler(); err != nil {
		return err
	}
	f := &c.Faults
	if f.Probability < 0 || f.Probability > 1 {
		return cfgErr("faults.probability", "must be within [0, 1] (got %v)", f.Probability)
	}
	for _, b := range []struct {
		name string
		v    int
	}{{"faults.drop", f.Drop}, {"faults.crash", f.Crash}, {"faults.partition", f.Partition}} {
		if b.v < 0 {
			return cfgErr(b.name, "must not be negative (got %d)", b.v)
		}
	}
	if c.Iterations == 0 {
		if err := c.zeroWritten("iterations", 1); err != nil {
			return err
		}
		c.Iterations = 1
	}
	if c.Iterations < 0 {
		return cfgErr("iterations", "must be positive (got %d)", c.Iterations)
	}
	if c.Output == "" {
		c.Output = "ravel-out"
	}
	switch c.KeepData {
	case "":
		c.KeepData = "failing"
	case "failing", "all", "none":
	default:
		return cfgErr("keep_data", "unknown %q (valid: failing, all, none)", c.KeepData)
	}
	return nil
}

// durations refuses a negative duration, naming its field, and gives every duration left
// at 0 its default. A negative duration would not be an error anywhere downstream: an
// operation or iteration that times out at once leaves nothing checked, and the run would
// pass having tested nothing.
func (c *Config) durations() error {
	for _, d := range []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"nodes.start_timeout", &c.Nodes.StartTimeout, 10 * time.Second},
		{"workload.op_timeout", &c.Workload.OpTimeout, time.Second},
		{"workload.think_time", &c.Workload.ThinkTime, 0},
		{"workload.iteration_timeout", &c.Workload.Iteration, 2 * time.Minute},
		{"scheduler.wait", &c.Scheduler.Wait, time.Millisecond},
		{"scheduler.patience", &c.Scheduler.Patience, 200 * time.Millisecond},
		{"faults.restart_after", &c.Faults.Restart, restartDefault(c.Faults.Crash)},
		{"faults.heal_after", &c.Faults.Heal, healDefault(c.Faults.Partition)},
	} {
		if *d.v < 0 {
			return cfgErr(d.name, "must not be negative (got %v)", *d.v)
		}
		if *d.v == 0 && d.def != 0 {
			if err := c.zeroWritten(d.name, d.def); err != nil {
				return err
			}
			*d.v = d.def
		}
	}
	return nil
}

// restartDefault is restart_after's default: 100ms when nodes may crash, and none
// otherwise, so that faultsApply, on a config Validate filled, does not find a
// restart_after that no crash uses.
func restartDefault(crash int) time.Duration {
	if crash > 0 {
		return 100 * time.Millisecond
	}
	return 0
}

// healDefault is heal_after's default: 1s when the network may be partitioned, and none
// otherwise (as restartDefault).
func healDefault(partition int) time.Duration {
	if partition > 0 {
		return time.Second
	}
	return 0
}

// faultsApply refuses fault settings that cannot take effect, as ravel check refuses a
// flag that does not apply: a user who sets them expects faults, and a run without any
// would pass having injected none. A fault is injected only with a probability and a
// budget left, and restart_after only restarts crashed nodes.
func (c *Config) faultsApply() error {
	f := &c.Faults
	budget := ""
	for _, b := range []struct {
		name string
		v    int
	}{{"faults.drop", f.Drop}, {"faults.crash", f.Crash}, {"faults.partition", f.Partition}} {
		if b.v > 0 && budget == "" {
			budget = b.name
		}
	}
	switch {
	case f.Probability > 0 && budget == "":
		return cfgErr("faults.probability", "no fault can be injected: no budget is set (drop, crash or partition); set one or remove probability")
	case f.Probability == 0 && budget != "":
		return cfgErr(budget, "no fault is injected while faults.probability is 0; set it (the chance of a fault instead of a delivery at a step, e.g. 0.05)")
	case f.Restart > 0 && f.Crash <= 0:
		return cfgErr("faults.restart_after", "applies only to crashed nodes, and faults.crash is 0; set a crash budget or remove restart_after")
	case f.Heal > 0 && f.Partition <= 0:
		return cfgErr("faults.heal_after", "applies only to partitions, and faults.partition is 0; set a partition budget or remove heal_after")
	}
	return nil
}

// scheduler checks the scheduler section and fills its defaults. depth and events are
// refused for a sampler that ignores them, as ravel check refuses --depth and --events
// (ravelcli/flagsapply.go): a user who sets them expects them to change something.
func (c *Config) scheduler() error {
	s := &c.Scheduler
	if s.Type == "" {
		s.Type = "random"
	}
	sc, err := samplers.New(s.Type, samplers.Options{})
	if err != nil {
		return cfgErr("scheduler.type", "%v", err)
	}
	for _, p := range []struct {
		name string
		v    *int
		def  int
	}{{"scheduler.depth", &s.Depth, 3}, {"scheduler.events", &s.Events, 200}} {
		switch {
		case *p.v < 0:
			return cfgErr(p.name, "must be at least 1 (got %d; leave it out for %d)", *p.v, p.def)
		case *p.v > 0 && !sc.HasBound():
			return cfgErr(p.name, "the %s scheduler ignores it (it applies to %s); remove it", s.Type, boundedSamplers())
		case *p.v == 0 && sc.HasBound():
			if err := c.zeroWritten(p.name, p.def); err != nil {
				return err
			}
			*p.v = p.def
		}
	}
	if _, err := NewSampler(s.Type, s.Depth, s.Events); err != nil {
		return cfgErr("scheduler", "%v", err)
	}
	return nil
}

// boundedSamplers lists the samplers that use depth and events, "pctcp, tapct and dpos",
// asked of package samplers so that the list cannot go stale.
func boundedSamplers() string {
	var names []string
	for _, n := range samplers.Names() {
		if sc, err := samplers.New(n, samplers.Options{}); err == nil && sc.Name == n && sc.HasBound() {
			names = append(names, n)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// program is the node's program, resolved against Dir when it is a relative path.
func (c *Config) program() string {
	p, _ := c.renderCommand(c.vars(0, make([]ports, c.Nodes.Count), ""))
	prog := p[0]
	if strings.Contains(prog, "/") && !filepath.IsAbs(prog) && c.Dir != "" {
		prog = filepath.Join(c.Dir, prog)
	}
	return prog
}

type ports struct{ client, peer, proxy int }

func (c *Config) vars(i int, ps []ports, dataDir string) NodeVars {
	v := NodeVars{ID: i, Name: "n" + strconv.Itoa(i), DataDir: dataDir, ClientPort: ps[i].client,
		PeerPort: ps[i].peer, ProxyPort: ps[i].proxy, Count: len(ps)}
	for _, p := range ps {
		v.ProxyURLs = append(v.ProxyURLs, "http://127.0.0.1:"+strconv.Itoa(p.proxy))
		v.PeerURLs = append(v.PeerURLs, "http://127.0.0.1:"+strconv.Itoa(p.peer))
		v.ClientURLs = append(v.ClientURLs, "http://127.0.0.1:"+strconv.Itoa(p.client))
	}
	return v
}

var funcs = template.FuncMap{"join": strings.Join}

func (c *Config) renderCommand(v NodeVars) ([]string, error) {
	var out []string
	for i, a := range c.Nodes.Command {
		s, err := render(a, v)
		if err != nil {
			return nil, cfgErr(fmt.Sprintf("nodes.command[%d]", i), "%v", err)
		}
		out = append(out, s)
	}
	if out[0] == "" {
		return nil, cfgErr("nodes.command[0]", "the program is empty")
	}
	return out, nil
}

func render(tmpl string, v NodeVars) (string, error) {
	t, err := template.New("").Funcs(funcs).Option("missingkey=error").Parse(tmpl)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, v); err != nil {
		return "", err
	}
	return b.String(), nil
}

// CheckPorts reports, as a *ConfigError naming nodes.base_port, a fixed base_port whose
// ports are in use, so that a run can refuse it before clearing an earlier run's
// results (each iteration checks them again).
func (c *Config) CheckPorts() error {
	if c.Nodes.BasePort == 0 {
		return nil
	}
	_, err := c.allocPorts()
	return err
}

// allocPorts gives every node its three ports: from base_port, each checked free, or
// free ports the system picks.
func (c *Config) allocPorts() ([]ports, error) {
	ps := make([]ports, c.Nodes.Count)
	if c.Nodes.BasePort == 0 {
		var lns []net.Listener
		defer func() {
			for _, ln := range lns {
				ln.Close()
			}
		}()
		for i := range ps {
			var got [3]int
			for j := range got {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					return nil, fmt.Errorf("live: pick a free port: %w", err)
				}
				lns = append(lns, ln)
				got[j] = ln.Addr().(*net.TCPAddr).Port
			}
			ps[i] = ports{got[0], got[1], got[2]}
		}
		return ps, nil
	}
	for i := range ps {
		b := c.Nodes.BasePort + 10*i
		ps[i] = ports{b, b + 1, b + 2}
		for _, p := range []int{b, b + 1, b + 2} {
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
			if err != nil {
				return nil, cfgErr("nodes.base_port", "port %d (node %d) is in use: %v", p, i, errors.Unwrap(err))
			}
			ln.Close()
		}
	}
	return ps, nil
}
