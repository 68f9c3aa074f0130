package ravelcli

import (
	"fmt"

	"github.com/ravelmc/ravel/dpor"
)

// dependenceEntry is a relation an Option asked to register.
type dependenceEntry struct {
	name, doc string
	make      func() dpor.Dependence
}

// Dependence adds a dependence relation under name, beside the built-in actor, history
// and key: --dependence NAME of check and bench, and `ravel deps`, which compares
// relations side by side, then know it, and `list` shows it with doc, one line saying
// what the relation calls dependent. newDep builds a fresh instance for each run.
//
// Relations are registered process-wide (dpor.RegisterDependence) when Main or Run starts;
// a bad registration — an empty or taken name, a name with a comma, a relation whose Name
// is not name — is exit 2 before any command runs, like a bad system. Registering the
// same relation in a second Run of one process is allowed.
func Dependence(name, doc string, newDep func() dpor.Dependence) Option {
	return func(c *catalog) {
		c.dependences = append(c.dependences, dependenceEntry{name: name, doc: doc, make: newDep})
	}
}

// registerDependences registers the relations the options added.
func (c *catalog) registerDependences() error {
	for _, d := range c.dependences {
		if err := dpor.RegisterDependence(d.name, d.doc, d.make); err != nil {
			return fmt.Errorf("dependence: %w", err)
		}
	}
	return nil
}
