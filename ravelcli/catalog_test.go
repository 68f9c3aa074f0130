package ravelcli

import (
	"bytes"
	"cmp"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems"
)

// TestCatalogChecked: a mistake in the user's catalog is exit 2 with a one-line reason
// before any command runs, whatever the command.
func TestCatalogChecked(t *testing.T) {
	build := func(Config) (model.System, error) { return model.System{}, nil }
	good := System{Name: "mine", Harnesses: []string{"h"}, Agents: 1, Build: build}
	edit := func(f func(*System)) System { s := good; f(&s); return s }
	for _, c := range []struct {
		name string
		opts []Option
		want string
	}{
		{"nameless", []Option{Systems(edit(func(s *System) { s.Name = "" }))}, `system 0 has name ""`},
		{"name with a comma", []Option{Systems(edit(func(s *System) { s.Name = "a,b" }))}, `name "a,b"`},
		{"duplicate", []Option{Systems(good, good)}, `two systems are named "mine"`},
		{"duplicate of a built-in", []Option{Builtins(), Systems(edit(func(s *System) { s.Name = "register" }))}, `two systems are named "register"`},
		{"no harness", []Option{Systems(edit(func(s *System) { s.Harnesses = nil }))}, `"mine" names no harness`},
		{"no agents", []Option{Systems(edit(func(s *System) { s.Agents = 0 }))}, "must be at least 1, got 0"},
		{"negative retries", []Option{Systems(edit(func(s *System) { s.Retries = -1 }))}, "must be 0 or more, got -1"},
		{"no Build", []Option{Systems(edit(func(s *System) { s.Build = nil }))}, `"mine" has no Build function`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run([]string{"list"}, &stdout, &stderr, c.opts...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d", code, exitUsage)
			}
			if got := stderr.String(); !strings.HasPrefix(got, "ravel: bad catalog: ") || !strings.Contains(got, c.want) || strings.Count(got, "\n") != 1 {
				t.Errorf("stderr %q, want one line with %q", got, c.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
		})
	}
}

// TestCatalogContents: a catalog holds what its options add, in order — no built-in
// unless asked — and an empty one says so when a system is looked up.
func TestCatalogContents(t *testing.T) {
	mine := System{Name: "mine", Harnesses: []string{"h"}, Agents: 1, Build: func(Config) (model.System, error) { return model.System{}, nil }}
	for _, c := range []struct {
		name string
		opts []Option
		want []string
	}{
		{"empty", nil, []string{}},
		{"user's only", []Option{Systems(mine)}, []string{"mine"}},
		{"user's then built-ins", []Option{Systems(mine), Builtins()}, append([]string{"mine"}, systems.Names()...)},
		{"built-ins then user's", []Option{Builtins(), Systems(mine)}, append(systems.Names(), "mine")},
	} {
		t.Run(c.name, func(t *testing.T) {
			cat, err := newCatalog(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(cat.names(), " "); got != strings.Join(c.want, " ") {
				t.Errorf("names %q, want %q", got, strings.Join(c.want, " "))
			}
		})
	}
	for _, c := range []struct{ args, want string }{
		{"check register", `unknown system "register" (valid: none: this command was built with no systems)`},
		{"bench --quiet", "bench: no systems to run (valid: none: this command was built with no systems)"},
	} {
		var stderr bytes.Buffer
		if code := Run(strings.Fields(c.args), &bytes.Buffer{}, &stderr); code != exitUsage {
			t.Fatalf("%s with no systems: exit %d, want %d", c.args, code, exitUsage)
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: stderr %q, want %q", c.args, stderr.String(), c.want)
		}
	}
}

// TestProgramName: the command's name is what Main was started as, without directory or
// ".exe"; "ravel" when Run is called without it.
func TestProgramName(t *testing.T) {
	for _, c := range []struct{ arg0, want string }{
		{"/home/u/go/bin/shardkv", "shardkv"},
		{"shardkv.exe", "shardkv"},
		{"ravel", "ravel"},
		{"", ""},
	} {
		cat, err := newCatalog([]Option{program(c.arg0)})
		if err != nil {
			t.Fatal(err)
		}
		if cat.prog != c.want {
			t.Errorf("program(%q): %q, want %q", c.arg0, cat.prog, c.want)
		}
		if got, want := cat.name(), cmp.Or(c.want, "ravel"); got != want {
			t.Errorf("program(%q): the replay line names %q, want %q", c.arg0, got, want)
		}
	}
}

// TestOwnCommandInHelp: a user's own command names itself in every command line its help
// and errors tell the user to type; ravel's own help is unchanged.
func TestOwnCommandInHelp(t *testing.T) {
	for _, args := range [][]string{
		{"-h"}, {"check", "-h"}, {"replay", "-h"}, {"bench", "-h"}, {"bench", "samplers", "-h"},
		{"deps", "-h"}, {"lincheck", "-h"}, {"explore", "-h"}, {"run", "-h"},
		{"check", "register", "--no-such-flag"}, {"replay"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, stdout, stderr := runWith([]Option{Builtins(), program("/home/u/go/bin/qrep")}, args...)
			text := stdout + stderr
			if !strings.Contains(text, "qrep ") {
				t.Errorf("the text does not name qrep:\n%s", text)
			}
			if m := commandLine.FindString(text); m != "" {
				t.Errorf("the text tells the user to type %q, which does not know their systems:\n%s", m, text)
			}
			_, stdout, stderr = runWith([]Option{Builtins()}, args...)
			if !commandLine.MatchString(stdout + stderr) {
				t.Errorf("ravel's own text names no ravel command line:\n%s", stdout+stderr)
			}
		})
	}
}
