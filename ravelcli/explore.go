package ravelcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
)

// cmdExplore serves SYSTEM to a browser on 127.0.0.1 until interrupted.
func (c *catalog) cmdExplore(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	port := fs.Int("port", 0, "the port on 127.0.0.1 to serve on; 0 picks a free one (printed)")
	harness := fs.String("harness", "", "the harness (default: the system's first)")
	agents := fs.Int("agents", 0, "the number of agents (default: the system's)")
	var retries int
	retriesVar(fs, &retries, "the retry limit of systems that retry: at most `N` retries; 0 means none (default: the system's)")
	var faults faultFlags
	faults.declareBudgets(fs, "explore")
	fs.Usage = func() {}
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printHelp(stdout, fmt.Sprintf("Usage: ravel explore SYSTEM [flags]: deliver messages by hand in a browser, undo, load a counterexample of ravel check --out and step through it (on the run the file records: its harness, agents, retries, workload and fault budgets, in place of these flags, until Reset, which goes back to the system these flags give and forgets the file). Every tab of the page drives the same session. SIGINT or SIGTERM stops the server (exit 0).\n\nSystems: %s\n\nFlags:\n", c.validNames()), fs)
		return exitOK, nil
	}
	if err != nil {
		return 0, usagef("explore: %v (see ravel explore -h)", err)
	}
	if len(pos) != 1 {
		return 0, usagef("explore needs exactly one system (valid: %s), got %d arguments", c.validNames(), len(pos))
	}
	entry, err := c.lookup(pos[0])
	if err != nil {
		return 0, usagef("explore: %v", err)
	}
	if err := (exploreFlags{agents: *agents, retries: retries, zeroAgents: entry.ZeroAgents}).validate("explore", fs); err != nil {
		return 0, err
	}
	n := *agents // 0: the system's default
	if flagGiven(fs, "agents") {
		n = configAgents(entry, n)
	}
	sys, err := entry.New(Config{Harness: *harness, Agents: n, Retries: retries})
	if err != nil {
		return 0, usagef("explore %s: %v", entry.Name, err)
	}
	if err := faults.apply(&sys, &explorer.Options{}); err != nil {
		return 0, err
	}
	// The fault flags that need a budget are refused without one, as check refuses them.
	if err := refuseInapplicable("explore", fs, applyFacts{name: "explore", sys: &sys}); err != nil {
		return 0, err
	}
	if *port < 0 || *port > 65535 {
		return 0, usagef("explore: --port must be 0…65535, got %d", *port)
	}
	named := *harness
	if named == "" {
		named = entry.Harnesses[0]
	}
	srv, err := interactive.NewWith(sys, interactive.Options{Rebuild: exploreRebuild(entry), Harness: named})
	if err != nil {
		return 0, usagef("explore %s: %v", entry.Name, err)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		return 0, usagef("explore: %v", err)
	}
	// SIGINT and SIGTERM both stop the server, which then exits 0 (ravel -h): caught
	// before the line that says it serves, so a signal sent on reading it is handled.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "ravel explore %s: serving on http://%s/ (interrupt to stop)\n", entry.Name, ln.Addr())
	hs := &http.Server{Handler: srv.Handler()}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return 0, fmt.Errorf("explore: %w", err)
	}
	fmt.Fprintf(stdout, "ravel explore %s: stopped\n", entry.Name)
	return exitOK, nil
}

// exploreRebuild is explore's interactive.Options.Rebuild: a loaded file is stepped
// through on the system it was found on, rebuilt as ravel replay rebuilds it, since its
// fault budgets, workload, agents or retries change which events a step can deliver.
func exploreRebuild(entry System) func(report.File) (model.System, error) {
	return func(f report.File) (model.System, error) {
		sys, _, err := replaySystem(entry, f)
		return sys, err
	}
}
