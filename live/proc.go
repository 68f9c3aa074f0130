// Package live tests real distributed systems: it starts their nodes as processes,
// stands an interceptor in front of every node's peer port, holds each intercepted message
// until a scheduler delivers it, drops it or a partition cuts it, crashes and restarts
// nodes, drives a client workload and checks the history the clients saw with wgl.
//
// The three parts are those of DSTest (Gulcan, Neto and Ozkan 2024, §2): a process manager ([Procs]), a
// network manager ([Network], one [Interceptor] per node with a protocol [Translator]) and
// a scheduler ([Sampler]), tied together by [Run].
package live

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// NodeCommand is how to start one node: its argument vector (Argv[0] is the program),
// the directory it keeps its data in (created when missing, kept across restarts) and the
// file its standard output and error are appended to.
type NodeCommand struct {
	Argv    []string
	Env     []string // added to the environment of Ravel
	DataDir string
	LogPath string
}

// Procs is the process manager. Every node runs in a process group of its own, so that a
// crash (SIGKILL to the group) takes the node and any child it started; it only ever
// signals the groups of processes it started itself, by their ids.
//
// Procs is safe for concurrent use.
type Procs struct {
	mu      sync.Mutex
	nodes   []*proc
	started []int // every pid ever started, in order, for the no-orphan check
	closed  bool
}

type proc struct {
	cmd  NodeCommand
	run  *exec.Cmd
	done chan struct{} // closed when run has been waited for
	err  error         // its exit status, once done is closed
	log  *os.File
}

// NewProcs returns a manager of len(cmds) nodes, none started; node i is cmds[i].
func NewProcs(cmds []NodeCommand) *Procs {
	p := &Procs{}
	for _, c := range cmds {
		p.nodes = append(p.nodes, &proc{cmd: c})
	}
	return p
}

// N is the number of nodes.
func (p *Procs) N() int { return len(p.nodes) }

// Start starts node i, which must not be running. Its data directory is created if
// missing and left as it is otherwise (a restart starts on the same directory).
func (p *Procs) Start(i int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := nodesSupported(); err != nil {
		return err
	}
	if p.closed {
		return errors.New("live: process manager is stopped")
	}
	n := p.nodes[i]
	if n.run != nil {
		return fmt.Errorf("live: node %d is already running (pid %d)", i, n.run.Process.Pid)
	}
	if len(n.cmd.Argv) == 0 {
		return fmt.Errorf("live: node %d has an empty command", i)
	}
	if n.cmd.DataDir != "" {
		if err := os.MkdirAll(n.cmd.DataDir, 0o755); err != nil {
			return fmt.Errorf("live: node %d: data directory: %w", i, err)
		}
	}
	if n.log == nil && n.cmd.LogPath != "" {
		if err := os.MkdirAll(filepath.Dir(n.cmd.LogPath), 0o755); err != nil {
			return fmt.Errorf("live: node %d: log directory: %w", i, err)
		}
		f, err := os.OpenFile(n.cmd.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("live: node %d: log: %w", i, err)
		}
		n.log = f
	}
	c := exec.Command(n.cmd.Argv[0], n.cmd.Argv[1:]...)
	c.Dir = n.cmd.DataDir
	c.Env = append(os.Environ(), n.cmd.Env...)
	if n.log != nil {
		c.Stdout, c.Stderr = n.log, n.log
		fmt.Fprintf(n.log, "=== ravel: start node %d at %s: %s\n", i, time.Now().UTC().Format(time.RFC3339Nano), strings.Join(n.cmd.Argv, " "))
	}
	c.SysProcAttr = nodeProcAttr()
	if err := c.Start(); err != nil {
		return fmt.Errorf("live: node %d: start %s: %w", i, n.cmd.Argv[0], err)
	}
	n.run = c
	n.done = make(chan struct{})
	p.started = append(p.started, c.Process.Pid)
	go func(n *proc, c *exec.Cmd, done chan struct{}) {
		err := c.Wait()
		p.mu.Lock()
		n.err = err
		p.mu.Unlock()
		close(done)
	}(n, c, n.done)
	return nil
}

// Running reports whether node i was started and has not been crashed or exited.
func (p *Procs) Running(i int) bool {
	p.mu.Lock()
	n := p.nodes[i]
	run, done := n.run, n.done
	p.mu.Unlock()
	if run == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// Exited reports whether node i was started and its process ended on its own (not by
// Crash or Stop): its exit error, and true.
func (p *Procs) Exited(i int) (error, bool) {
	p.mu.Lock()
	n := p.nodes[i]
	run, done := n.run, n.done
	p.mu.Unlock()
	if run == nil {
		return nil, false
	}
	select {
	case <-done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return n.err, true
	default:
		return nil, false
	}
}

// Pid is node i's process id, 0 when it is not started.
func (p *Procs) Pid(i int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := p.nodes[i]; n.run != nil {
		return n.run.Process.Pid
	}
	return 0
}

// Crash kills node i's process group with SIGKILL and waits for the node to be reaped.
// Crashing a node that is not running does nothing.
func (p *Procs) Crash(i int) error { return p.kill(i, "crash") }

// kill is Crash, logged in the node's log as what (a crash injected, or the stop at the
// end of an iteration, which is no fault).
func (p *Procs) kill(i int, what string) error {
	p.mu.Lock()
	n := p.nodes[i]
	run, done := n.run, n.done
	n.run, n.done = nil, nil
	if n.log != nil && run != nil {
		already := ""
		select {
		case <-done:
			already = "; it had already exited on its own"
			if n.err != nil {
				already += " (" + n.err.Error() + ")"
			}
		default:
		}
		fmt.Fprintf(n.log, "=== ravel: %s node %d (SIGKILL to group %d%s) at %s\n", what, i, run.Process.Pid, already, time.Now().UTC().Format(time.RFC3339Nano))
	}
	p.mu.Unlock()
	if run == nil {
		return nil
	}
	pid := run.Process.Pid
	if err := killGroup(pid); err != nil {
		return fmt.Errorf("live: %s node %d (pgid %d): %w", what, i, pid, err)
	}
	<-done
	// Other members of the group die asynchronously; wait until none is left alive.
	for range 5000 {
		if !groupAlive(pid) {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("live: %s node %d: process group %d still alive 5s after SIGKILL", what, i, pid)
}

// Restart starts node i again on its data directory; it crashes it first if it is
// running.
func (p *Procs) Restart(i int) error {
	if err := p.Crash(i); err != nil {
		return err
	}
	return p.Start(i)
}

// Stop kills every node as Crash does (logged as a stop, not a crash) and refuses to
// start any again; it closes the logs. It is safe to call more than once.
func (p *Procs) Stop() error {
	var errs []error
	for i := range p.nodes {
		errs = append(errs, p.kill(i, "stop"))
	}
	p.mu.Lock()
	p.closed = true
	for _, n := range p.nodes {
		if n.log != nil {
			errs = append(errs, n.log.Close())
			n.log = nil
		}
	}
	p.mu.Unlock()
	return errors.Join(errs...)
}

// Started is every pid this manager ever started, in order.
func (p *Procs) Started() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.started...)
}

// Alive returns those of pids that still name a live process or process group: a process
// that exists and is not a zombie, or any member of the group with that id. A zombie is
// dead (it only waits to be reaped, which in a container without an init may never happen).
func Alive(pids []int) []int {
	var alive []int
	for _, pid := range pids {
		if processAlive(pid) || groupAlive(pid) {
			alive = append(alive, pid)
		}
	}
	return alive
}
