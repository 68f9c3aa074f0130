// Package systems is the catalog of the protocol models Ravel ships, one sub-package
// each, by the names the command line knows them by.
package systems

import (
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/gossip"
	"github.com/ravelmc/ravel/systems/register"
)

// Entry is one shipped system.
type Entry struct {
	// Name is the system's name on the command line.
	Name string
	// Summary says what it is, in one line.
	Summary string
	// Harnesses lists the harness names, the default first.
	Harnesses []string
	// Agents is the default number of agents.
	Agents int
	// Retries is the default retry limit, for systems that retry (0: they do not).
	Retries int
	// Build builds the system; it fails, with a message naming the valid choices, on an
	// unknown harness or a bad parameter. Zero fields of the Config take the defaults.
	Build func(Config) (model.System, error)
}

// Config are the parameters of a system.
type Config struct {
	Harness string // the harness; "" is the system's first
	Agents  int    // the number of agents; 0 is the system's default
	Retries int    // the retry limit; 0 is the system's default
}

// New builds e with cfg, filling in e's defaults for zero fields.
func (e Entry) New(cfg Config) (model.System, error) {
	if cfg.Harness == "" {
		cfg.Harness = e.Harnesses[0]
	}
	if cfg.Agents == 0 {
		cfg.Agents = e.Agents
	}
	if cfg.Retries == 0 {
		cfg.Retries = e.Retries
	}
	return e.Build(cfg)
}

var catalog = []Entry{
	{
		Name:      "register",
		Summary:   "DS2's distributed register (§4.1): a leader replicates reads and writes to a majority",
		Harnesses: register.HarnessNames,
		Agents:    2,
		Build:     func(c Config) (model.System, error) { return register.New(c.Agents, c.Harness) },
	},
	{
		Name:      "register-buggy",
		Summary:   "DS2's erroneous register (§4.2): local reads, writes acknowledged after the first ack",
		Harnesses: register.HarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return register.NewBuggy(c.Agents, c.Harness) },
	},
	{
		Name:      "gossip",
		Summary:   "synthetic: n agents broadcast their writes; the state space grows with --agents (scaling benchmarks)",
		Harnesses: gossip.HarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return gossip.New(c.Agents, c.Harness) },
	},
}

// All lists the shipped systems in a fixed order.
func All() []Entry { return catalog }

// Names lists the systems' names.
func Names() []string {
	out := make([]string, len(catalog))
	for i, e := range catalog {
		out[i] = e.Name
	}
	return out
}

// Lookup finds a system by name; the error lists the valid names.
func Lookup(name string) (Entry, error) {
	for _, e := range catalog {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("unknown system %q (valid: %s)", name, strings.Join(Names(), ", "))
}
