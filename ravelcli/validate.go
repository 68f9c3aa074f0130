package ravelcli

import (
	"errors"
	"flag"
	"strconv"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems"
)

// exploreFlags are the flags check and bench share. validate is the one place their
// values are checked, so that both commands refuse the same things in the same words.
type exploreFlags struct {
	maxSchedules int64
	maxDepth     int
	agents       int // 0: the system's default, unless given with zeroAgents
	// zeroAgents says the one system the command runs takes --agents 0
	// (systems.Entry.ZeroAgents: microbench, whose --agents is k).
	zeroAgents bool
	retries    int // -1: the system's default
	delays     int
	dependence string
}

// validate checks the values of f; fs tells which flags were given explicitly (a flag
// whose default is a "use the system's" sentinel may not be given that sentinel).
func (f exploreFlags) validate(cmd string, fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case f.maxSchedules < 0:
		return usagef("%s: --max-schedules must be 0 (no limit) or positive, got %d", cmd, f.maxSchedules)
	case f.maxDepth < 0:
		return usagef("%s: --max-depth must be 0 (no limit) or positive, got %d", cmd, f.maxDepth)
	}
	if err := validAgents(cmd, f.agents, set["agents"], f.zeroAgents); err != nil {
		return err
	}
	switch {
	case f.retries < -1 || (set["retries"] && f.retries < 0):
		return usagef("%s: --retries must be 0 (none) or positive, got %d", cmd, f.retries)
	case f.delays < 0:
		return usagef("%s: --delays must be 0 or positive, got %d", cmd, f.delays)
	}
	return nil
}

// configAgents is the systems.Config Agents for n agents of entry, as the command line
// resolved them (the default filled in, or given): n, or systems.NoAgents for 0 of a
// system that takes none (systems.Entry.ZeroAgents), since Config's 0 is the default.
func configAgents(entry systems.Entry, n int) int {
	if n == 0 && entry.ZeroAgents {
		return systems.NoAgents
	}
	return n
}

// validAgents checks --agents n, given explicitly or left at 0 (the system's default):
// check, bench, deps and explore refuse the same counts in the same words. zero says
// the system takes 0 (systems.Entry.ZeroAgents).
func validAgents(cmd string, n int, given, zero bool) error {
	switch {
	case n < 0 && zero:
		return usagef("%s: --agents must be at least 0, got %d", cmd, n)
	case n < 0 || given && n == 0 && !zero:
		return usagef("%s: --agents must be at least 1, got %d", cmd, n)
	case n > explorer.MaxActors:
		return usagef("%s: --agents %d is more than the %d actors a system may have (%s)", cmd, n, explorer.MaxActors, explorer.MaxActorsWhy)
	}
	return nil
}

// retriesVar defines --retries on fs, stored in p: -1 (the system's own retry limit)
// until the flag is given. The help shows usage alone, not the sentinel as a default
// ("(default -1)"), which the flag refuses (validate).
func retriesVar(fs *flag.FlagSet, p *int, usage string) {
	*p = -1
	fs.Var(systemInt{p}, "retries", usage)
}

// systemInt is an int flag whose negative value means "the system's own": its String is
// empty then, as it is for its zero value, so the help prints no default for it.
type systemInt struct{ p *int }

// String is the value given, or "" while it is the system's own.
func (v systemInt) String() string {
	if v.p == nil || *v.p < 0 {
		return ""
	}
	return strconv.Itoa(*v.p)
}

// Set parses s as an int; validate judges its range.
func (v systemInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("parse error")
	}
	*v.p = n
	return nil
}

// flagGiven reports whether the flag name was given on fs's command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
