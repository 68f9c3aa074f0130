package ravelcli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ravelmc/ravel/systems"
)

// System is one system the command line knows by name: `list` shows it, and `check`,
// `replay`, `bench` and `explore` build it. It is the built-in catalog's entry type, so a
// user's systems and Ravel's own mix freely.
//
// Name is what the user types; Harnesses names the harnesses Build accepts, the default
// first; Agents is the default number of agents (at least 1); Retries the default retry
// limit (0 for a system that does not retry); Build builds the system for a Config and
// fails, naming the valid choices, on an unknown harness or a bad parameter — the command
// line turns that error into exit 2. Build gets the Config with the defaults filled in
// (Harness never "", Agents never 0, Retries never negative; Retries 0 is `--retries 0`,
// no retries): it needs no defaults of its own.
type System = systems.Entry

// Config is what Build receives: the harness, agents and retries asked for on the command
// line, or recorded in a counterexample file, with the System's defaults filled in.
type Config = systems.Config

// An Option adds to the catalog Main and Run serve: systems, dependence relations,
// specifications for lincheck.
type Option func(*catalog)

// Systems adds systems to the catalog, in order; `list` shows them in the order added.
func Systems(s ...System) Option {
	return func(c *catalog) { c.systems = append(c.systems, s...) }
}

// Builtins adds the systems Ravel ships (package systems), after those added so far. A
// user's command has none of them unless it asks; cmd/ravel is Main(Builtins()).
func Builtins() Option { return Systems(systems.All()...) }

// catalog is what one command line runs against.
type catalog struct {
	systems     []System
	dependences []dependenceEntry // dependence.go
	specs       []lincheckSpec    // the user's, for lincheck (specs.go)
	// prog is the command's name, for the commands check tells a user to run next:
	// "ravel", or a user's own command built on Main.
	prog string
}

// program names the command: what Main was started as, without its directory or a
// Windows ".exe".
func program(arg0 string) Option {
	return func(c *catalog) {
		if name := strings.TrimSuffix(filepath.Base(arg0), ".exe"); name != "" && name != "." && name != string(filepath.Separator) {
			c.prog = name
		}
	}
}

// newCatalog applies opts and checks the result: a catalog with a nameless, duplicate or
// unbuildable system is a mistake in the user's main, reported before any command runs.
func newCatalog(opts []Option) (*catalog, error) {
	c := &catalog{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	seen := map[string]bool{}
	for i, s := range c.systems {
		switch {
		case s.Name == "" || strings.ContainsAny(s.Name, " \t\n,"):
			return nil, fmt.Errorf("system %d has name %q: a name is one word without commas", i, s.Name)
		case seen[s.Name]:
			return nil, fmt.Errorf("two systems are named %q", s.Name)
		case len(s.Harnesses) == 0:
			return nil, fmt.Errorf("system %q names no harness (Harnesses lists them, the default first)", s.Name)
		case s.Agents < 1:
			return nil, fmt.Errorf("system %q: Agents, the default number of agents, must be at least 1, got %d", s.Name, s.Agents)
		case s.Retries < 0:
			return nil, fmt.Errorf("system %q: Retries, the default retry limit, must be 0 or more, got %d", s.Name, s.Retries)
		case s.Build == nil:
			return nil, fmt.Errorf("system %q has no Build function", s.Name)
		}
		seen[s.Name] = true
	}
	if err := c.checkSpecs(); err != nil {
		return nil, err
	}
	if err := c.registerDependences(); err != nil {
		return nil, err
	}
	return c, nil
}

// names lists the systems' names, in order.
func (c *catalog) names() []string {
	out := make([]string, len(c.systems))
	for i, s := range c.systems {
		out[i] = s.Name
	}
	return out
}

// validNames is the names for an error message or a usage line.
func (c *catalog) validNames() string {
	if len(c.systems) == 0 {
		return "none: this command was built with no systems"
	}
	return strings.Join(c.names(), ", ")
}

// lookup finds a system by name; the error lists the valid names.
func (c *catalog) lookup(name string) (System, error) {
	for _, s := range c.systems {
		if s.Name == name {
			return s, nil
		}
	}
	return System{}, fmt.Errorf("unknown system %q (valid: %s)", name, c.validNames())
}
