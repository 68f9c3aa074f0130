package ravelcli

import (
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/specs"
)

// Spec adds a specification to lincheck, under spec.Name: `lincheck --spec NAME FILE…`
// checks recorded histories in Ravel's format (one JSON object a line, docs/lincheck.md),
// reading each operation's input and output with codec, against spec. lincheck's help and
// `list` name it. formats.JSONCodec is a codec for inputs and outputs written as
// encoding/json writes them.
//
// The systems a command checks carry their specification in their harness already;
// Spec is for the histories recorded elsewhere — a real deployment, a test run —
// of an object only the user's specification describes.
//
// A bad registration — a spec that fails specs.Spec.Validate, a name that is not one
// word or that a built-in specification or another Spec has, a codec with a nil
// function — is exit 2 before any command runs, like a bad system.
func Spec[S, I, O comparable](spec specs.Spec[S, I, O], codec formats.Codec[I, O]) Option {
	return func(c *catalog) {
		s := lincheckSpec{name: spec.Name, formats: []string{"ravel"}, check: ravelSpec(spec, codec)}
		if s.bad = spec.Validate(); s.bad == nil && (codec.EncodeInput == nil || codec.EncodeOutput == nil || codec.DecodeInput == nil || codec.DecodeOutput == nil) {
			s.bad = fmt.Errorf("specification %q: its codec lacks a function (EncodeInput, EncodeOutput, DecodeInput and DecodeOutput are all needed)", spec.Name)
		}
		c.specs = append(c.specs, s)
	}
}

// checkSpecs reports the first bad specification the options added.
func (c *catalog) checkSpecs() error {
	seen := map[string]bool{}
	for _, s := range builtinSpecs {
		seen[s.name] = true
	}
	for _, s := range c.specs {
		switch {
		case s.bad != nil:
			return s.bad
		case strings.ContainsAny(s.name, " \t\n,"):
			return fmt.Errorf("specification %q: a name is one word without commas", s.name)
		case seen[s.name]:
			return fmt.Errorf("two specifications are named %q (built in: %s)", s.name, specNames(builtinSpecs))
		}
		seen[s.name] = true
	}
	return nil
}
