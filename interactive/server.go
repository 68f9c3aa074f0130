// Package interactive serves a system to a browser for stepping through by hand: the
// user delivers pending messages one at a time, sees every actor's state and the history
// grow, undoes, and loads a saved counterexample to step through it — on the explorer's
// own snapshots (explorer.Session).
//
// The JSON API, under /api/:
//
//	GET  /api/state    the current state (State)
//	POST /api/deliver  {"id":"<16 hex digits>"}: deliver an enabled event (Pending.ID)
//	POST /api/undo     take back the last delivery; {"to":k}: every delivery after the
//	                   k-th (0: back to the initial state, keeping a loaded schedule)
//	POST /api/reset    back to the initial state of the system the server was started
//	                   with (its harness, agents and fault budgets); forget a loaded
//	                   schedule and the run it rebuilt
//	POST /api/load     body: a file of ravel check --out (?name=FILE names it for the
//	                   page); starts at the initial state of the run the file records
//	                   (its harness, agents, workload and fault budgets, which stay until
//	                   a reset or another load), and Next steps through it
//	POST /api/next     deliver the next step of the loaded schedule
//
// Every POST answers with the new State, or a 4xx and {"error": "…"}; so do an unknown
// path under /api/ (404) and a known one asked with another method (405, with Allow).
// There is one session per server: every tab or client drives the same one. State.Version counts the
// changes made to it; deliver, next, undo and reset take an optional "version" in their
// JSON body, and refuse with 409 Conflict when it is not the current one (the state was
// changed elsewhere since the caller last saw it), changing nothing.
//
// The server answers only requests addressed to it by a loopback name —
// Host 127.0.0.1:PORT, localhost:PORT or [::1]:PORT, PORT the one it listens on — and
// refuses a POST from a page of another origin (an Origin header other than its own):
// 403 and {"error": "…"}. Another site's page open in the same browser can then neither
// read the state through a name it rebinds to 127.0.0.1, nor deliver, load or reset.
package interactive

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/wgl"
)

// Server serves one system. Its methods are safe for concurrent use.
type Server struct {
	mu      sync.Mutex
	sys     model.System
	rebuild func(report.File) (model.System, error)
	sess    *explorer.Session
	script  []uint64 // a loaded schedule

	started  model.System // the system the server was started with, which a reset restores
	opts     Options
	harness  string        // sys's harness, by name: Options.Harness, or the loaded run's
	workload string        // the loaded run's workload, if any
	version  int64         // State.Version
	loaded   string        // the loaded file's name, as the page sent it
	records  string        // the violation the loaded file records
	steps    []report.Step // the loaded schedule, as the file describes it
}

// Options are a server's optional settings.
type Options struct {
	// Rebuild builds the system a loaded counterexample file was found on, from the run
	// it records (report.RunInfo: harness, agents, retries, workload, fault budgets), all
	// of which change the events a schedule can deliver. The file is stepped through on
	// that system, which stays until a reset (back to the system given to NewWith) or the
	// next load. ravel explore passes ravel replay's. Without Rebuild a file is stepped
	// through on the server's own system, and refused when it records other fault
	// budgets, other agents or a workload.
	Rebuild func(f report.File) (model.System, error)
	// Harness names the system's harness in State.Harness (ravel explore passes the one
	// it built the system with); a loaded file's run names its own.
	Harness string
}

// New returns a server at sys's initial state, with no Options.
func New(sys model.System) (*Server, error) { return NewWith(sys, Options{}) }

// NewWith returns a server at sys's initial state, with opts.
func NewWith(sys model.System, opts Options) (*Server, error) {
	sess, err := explorer.NewSession(sys)
	if err != nil {
		return nil, err
	}
	return &Server{sys: sys, rebuild: opts.Rebuild, sess: sess, started: sys, opts: opts, harness: opts.Harness}, nil
}

// State is what the page shows.
type State struct {
	System      string         `json:"system"`
	Steps       []report.Step  `json:"steps"`
	Enabled     []Pending      `json:"enabled"`
	Actors      []ActorState   `json:"actors"`
	Events      []report.Event `json:"events"`
	Timeline    string         `json:"timeline"`
	Failure     string         `json:"failure,omitempty"`
	Verdict     string         `json:"verdict"`
	Fingerprint string         `json:"fingerprint"`
	Faults      string         `json:"faults,omitempty"` // the fault budgets, as check's header shows them: "partition 1, timeouts 1"
	Script      []report.Step  `json:"script,omitempty"`
	// Next is, with a schedule loaded, the index in Script of its next step, -1 when the
	// steps made have left it; absent (nil) with none loaded.
	Next *int `json:"next,omitempty"`

	// Version counts the changes made to the session (State's doc: a stale caller's
	// deliver, next, undo or reset is refused).
	Version int64 `json:"version"`
	// Harness, Agents and Clients are the setup in use, as check's header names it: the
	// harness by name (or Workload, a loaded run's workload, in its place), the number
	// of agents, and what the clients do (report.Clients).
	Harness  string `json:"harness,omitempty"`
	Workload string `json:"workload,omitempty"`
	Agents   int    `json:"agents"`
	Clients  string `json:"clients,omitempty"`
	// Started is the setup the server was started with, which a reset goes back to, when
	// a load changed it: "harness 2r1w · agents 3 · no faults".
	Started string `json:"started,omitempty"`
	// Setup is the setup in use in one line: "harness 2r1w · agents 3 · faults crash 1".
	Setup string `json:"setup"`
	// FaultsLeft is what is left of the fault budgets: "crash 0 of 1 · drop 1 of 1".
	FaultsLeft string `json:"faults_left,omitempty"`
	// Why explains a history that is not linearizable as check does (report.Why): the
	// longest linearizable prefix found, then the operation that cannot follow it.
	Why string `json:"why,omitempty"`
	// StartEvents are the invocations made when the system started; Caused[i] the
	// invocations and responses step i+1 caused, as check's schedule lists them
	// (report.DescribeEvent); Lost[i] the pending messages step i+1 took away undelivered
	// (a crash's, a partition's). Answers to clients are history events, not deliveries.
	StartEvents []string   `json:"start_events,omitempty"`
	Caused      [][]string `json:"caused,omitempty"`
	Lost        [][]string `json:"lost,omitempty"`
	// FaultOf maps each enabled drop or duplicate to the id of the message it acts on.
	FaultOf map[string]string `json:"fault_of,omitempty"`
	// Loaded is the loaded file's name (as the page sent it), Records the violation it
	// records, and NextNote why Next cannot deliver now ("" when it can).
	Loaded   string `json:"loaded,omitempty"`
	Records  string `json:"records,omitempty"`
	NextNote string `json:"next_note,omitempty"`
}

// Pending is an event that can be delivered now: a step without a step number yet.
type Pending struct {
	ID    string `json:"id"` // 16 hex digits: what /api/deliver takes
	Kind  string `json:"kind"`
	From  string `json:"from"`
	To    string `json:"to"`
	Msg   string `json:"msg"`
	Timer string `json:"timer,omitempty"`
}

// ActorState is one actor's state, as explorer.DescribeActor renders it. Down: the actor
// is crashed, and State is what it held when it crashed; MayRestart: a later step may
// restart it.
type ActorState struct {
	Name       string `json:"name"`
	State      string `json:"state"`
	Down       bool   `json:"down,omitempty"`
	MayRestart bool   `json:"may_restart,omitempty"`
}

func (s *Server) state() State {
	sys := &s.sys
	st := State{
		System:      sys.Name,
		Steps:       report.NewSteps(sys, s.sess.Steps()),
		Failure:     s.sess.Failure(),
		Fingerprint: fmt.Sprintf("%016x", s.sess.Fingerprint()),
		Faults:      report.FaultsOf(sys).Describe(),
	}
	for _, e := range report.NewSteps(sys, s.sess.Enabled()) {
		st.Enabled = append(st.Enabled, Pending{ID: e.ID, Kind: e.Kind, From: e.From, To: e.To, Msg: e.Msg, Timer: e.Timer})
	}
	h := report.NewHistory(sys, s.sess.Events())
	st.Events, st.Timeline = h.Events, h.Timeline
	for i, a := range s.sess.Actors() {
		id := model.ID(i)
		st.Actors = append(st.Actors, ActorState{Name: sys.ActorName(id), State: explorer.DescribeActor(a), Down: s.sess.Down(id), MayRestart: s.sess.MayRestart(id)})
	}
	s.describe(&st)
	switch {
	case st.Failure != "":
		st.Verdict = "failure: " + st.Failure
	case wgl.Check(sys.Harness.Spec().Spec, histories.Operations(sys.Harness, s.sess.Events())).Verdict == wgl.NotLinearizable:
		st.Verdict = "not linearizable"
	default:
		st.Verdict = "linearizable so far"
	}
	if s.script != nil {
		steps := s.sess.Steps()
		st.Script = make([]report.Step, len(s.script))
		for i, id := range s.script {
			st.Script[i] = report.Step{Step: i + 1, ID: fmt.Sprintf("%016x", id)}
			if i < len(s.steps) {
				st.Script[i] = s.steps[i]
				st.Script[i].Step = i + 1
			}
		}
		next := -1
		if len(steps) <= len(s.script) {
			next = len(steps)
			for i, d := range steps {
				if d.ID != s.script[i] {
					next = -1
					break
				}
			}
		}
		st.Next = &next
		st.Loaded, st.Records = s.loaded, s.records
	}
	if err := s.nextErr(st); err != nil {
		st.NextNote = err.Error()
	}
	return st
}

// route is one path of the API: the method it takes and what it does to the session.
type route struct {
	method, path string
	do           func(*http.Request) error
}

// Handler serves the page at / and the API under /api/, to requests addressed to the
// server by a loopback name and, for a POST, from its own page (the package comment).
func (s *Server) Handler() http.Handler {
	routes := []route{
		{"GET", "/api/state", func(*http.Request) error { return nil }},
		{"POST", "/api/deliver", s.deliver},
		{"POST", "/api/undo", s.undo},
		{"POST", "/api/reset", s.reset},
		{"POST", "/api/load", s.load},
		{"POST", "/api/next", s.next},
	}
	var api []string
	for _, rt := range routes {
		api = append(api, rt.method+" "+rt.path)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	})
	// Every path under /api/ answers in JSON, the unknown ones and wrong methods too.
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		i := slices.IndexFunc(routes, func(rt route) bool { return rt.path == r.URL.Path })
		if i < 0 {
			writeError(w, http.StatusNotFound, fmt.Errorf("%s is not in the API, which is %s", r.URL.Path, strings.Join(api, ", ")))
			return
		}
		rt := routes[i]
		if r.Method != rt.method && !(rt.method == "GET" && r.Method == "HEAD") {
			allow := rt.method
			if allow == "GET" {
				allow = "GET, HEAD"
			}
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s takes %s, not %s", rt.path, rt.method, r.Method))
			return
		}
		s.do(rt.do)(w, r)
	})
	return guard(mux)
}

// deliver is POST /api/deliver: {"id": "<16 hex digits>"}, an event of State.Enabled,
// with an optional "version".
func (s *Server) deliver(r *http.Request) error {
	const want = `want {"id": "<16 hex digits>"}, the id of a pending event`
	var req struct {
		ID      string `json:"id"`
		Version *int64 `json:"version"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		var typ *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.EOF):
			return fmt.Errorf("%s: the body is empty", want)
		case errors.As(err, &typ) && typ.Field == "id":
			return fmt.Errorf("%s: the id is a JSON %s, not a string", want, typ.Value)
		case errors.As(err, &typ):
			return fmt.Errorf("%s: the body is a JSON %s, not an object", want, typ.Value)
		default:
			return fmt.Errorf("%s: the body is not JSON", want)
		}
	}
	if err := s.current(req.Version); err != nil {
		return err
	}
	if req.ID == "" {
		return fmt.Errorf("%s: the body has no id", want)
	}
	id, err := strconv.ParseUint(req.ID, 16, 64)
	if len(req.ID) != 16 || err != nil {
		return fmt.Errorf("bad id %q: want 16 hex digits, the id of a pending event", req.ID)
	}
	return s.sess.Deliver(id)
}

// undo is POST /api/undo: take back the last delivery, or {"to":k} every one after the
// k-th.
func (s *Server) undo(r *http.Request) error {
	req, err := s.control(r)
	if err != nil {
		return err
	}
	if req.To == nil {
		if !s.sess.Undo() {
			return fmt.Errorf("nothing to undo")
		}
		return nil
	}
	if *req.To < 0 || *req.To >= len(s.sess.Steps()) {
		return fmt.Errorf("nothing to undo: cannot go back to step %d of %d", *req.To, len(s.sess.Steps()))
	}
	for len(s.sess.Steps()) > *req.To && s.sess.Undo() {
	}
	return nil
}

// reset is POST /api/reset: back to the system the server was started with, not a
// loaded run's, and forget the loaded file.
func (s *Server) reset(r *http.Request) error {
	if _, err := s.control(r); err != nil {
		return err
	}
	sess, err := explorer.NewSession(s.started)
	if err != nil {
		return err
	}
	s.sys, s.sess = s.started, sess
	s.harness, s.workload = s.opts.Harness, ""
	s.script, s.steps, s.loaded, s.records = nil, nil, "", ""
	return nil
}

// load is POST /api/load: the body is a file of ravel check --out (?name=FILE names it
// for the page).
func (s *Server) load(r *http.Request) error {
	// The same strict reading as ravel replay's: format, digest, identities.
	f, ids, err := report.Read(r.Body, "the file")
	if err != nil {
		return err
	}
	if f.Run.System != "" && f.Run.System != s.sys.Name {
		return fmt.Errorf("the file is a counterexample of %s, not of %s", f.Run.System, s.sys.Name)
	}
	sys, err := s.loadSystem(f)
	if err != nil {
		return err
	}
	// The schedule's identities are those of the fingerprint its run used: step it in
	// a session of the same mode.
	sess, err := explorer.NewSessionMode(sys, f.Run.Reflective)
	if err != nil {
		return err
	}
	s.sys, s.sess, s.script = sys, sess, ids
	s.loaded, s.steps, s.records = r.URL.Query().Get("name"), f.Violation.Steps, recorded(f.Violation)
	s.harness, s.workload = f.Run.Harness, f.Run.Workload
	if s.rebuild == nil {
		s.harness, s.workload = s.opts.Harness, "" // the server's own system
	}
	return nil
}

// next is POST /api/next: deliver the loaded schedule's next step.
func (s *Server) next(r *http.Request) error {
	if _, err := s.control(r); err != nil {
		return err
	}
	st := s.state()
	if err := s.nextErr(st); err != nil {
		return err
	}
	return s.sess.Deliver(s.script[*st.Next])
}

// nextErr says why Next cannot deliver in st, or returns nil when it can.
func (s *Server) nextErr(st State) error {
	switch {
	case s.script == nil:
		return fmt.Errorf("no next step: load a counterexample first")
	case *st.Next < 0:
		return fmt.Errorf("no next step: the steps made have left the counterexample's schedule; undo back onto it")
	case *st.Next >= len(s.script):
		return fmt.Errorf("no next step: the counterexample's schedule is complete (%d steps)", len(s.script))
	}
	return nil
}

// recorded names the violation v records, for the page: "not linearizable", or the
// failure ("panic: …").
func recorded(v report.Violation) string {
	if v.Kind == "nonlinearizable" {
		return "not linearizable"
	}
	if v.Message != "" {
		return v.Kind + ": " + v.Message
	}
	return v.Kind
}

// staleError refuses a change asked for from a state that is no longer the current one.
type staleError struct{ seen, now int64 }

func (e staleError) Error() string {
	return fmt.Sprintf("the state changed in another tab or client (version %d, not %d as this page showed): nothing was done; the page shows the current state", e.now, e.seen)
}

// current refuses a version, when given, that is not the session's current one.
func (s *Server) current(v *int64) error {
	if v != nil && *v != s.version {
		return staleError{seen: *v, now: s.version}
	}
	return nil
}

// control reads the optional JSON body of undo, next and reset, {"version":N,"to":k},
// and checks its version.
func (s *Server) control(r *http.Request) (req struct {
	Version *int64 `json:"version"`
	To      *int   `json:"to"`
}, err error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil {
		return req, err
	}
	if len(strings.TrimSpace(string(body))) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			return req, fmt.Errorf("want no body or {\"version\": N, \"to\": K}: %v", err)
		}
	}
	return req, s.current(req.Version)
}

// describe fills in what st says about the setup, the fault budgets left, the events
// each step caused and lost, and why the history is not linearizable.
func (s *Server) describe(st *State) {
	sys := &s.sys
	st.Version, st.Harness, st.Workload, st.Agents, st.Clients = s.version, s.harness, s.workload, len(sys.Actors), report.Clients(sys)
	st.Setup = setup(s.harness, s.workload, sys)
	if s.script != nil {
		if st.Started = setup(s.opts.Harness, "", &s.started); st.Started == st.Setup {
			st.Started = ""
		}
	}
	st.FaultsLeft = faultsLeft(sys, s.sess.Spent())
	st.Why = report.Why(sys, s.sess.Events())
	events, counts := s.sess.Events(), s.sess.EventCounts()
	for _, e := range events[:counts[0]] {
		st.StartEvents = append(st.StartEvents, report.DescribeEvent(sys, e))
	}
	st.Caused = make([][]string, len(st.Steps))
	st.Lost = make([][]string, len(st.Steps))
	for k := range st.Steps {
		for _, e := range events[counts[k]:counts[k+1]] {
			st.Caused[k] = append(st.Caused[k], report.DescribeEvent(sys, e))
		}
		for _, d := range s.sess.Lost(k + 1) {
			st.Lost[k] = append(st.Lost[k], sys.ActorName(d.From)+" → "+sys.ActorName(d.To)+"  "+explorer.DescribeMessageOf(sys, d.Msg))
		}
	}
	for f, m := range s.sess.FaultTargets() {
		if st.FaultOf == nil {
			st.FaultOf = map[string]string{}
		}
		st.FaultOf[fmt.Sprintf("%016x", f)] = fmt.Sprintf("%016x", m)
	}
}

// setup describes a system's setup in one line: "harness 2r1w · agents 3 · faults
// crash 1".
func setup(harness, workload string, sys *model.System) string {
	var parts []string
	switch {
	case workload != "":
		parts = append(parts, "workload "+workload)
	case harness != "":
		parts = append(parts, "harness "+harness)
	}
	parts = append(parts, fmt.Sprintf("agents %d", len(sys.Actors)))
	// The budgets, "drop 1, crash 1", as "faults drop 1 · crash 1".
	parts = append(parts, "faults "+strings.ReplaceAll(faultsText(report.FaultsOf(sys)), ", ", " · "))
	return strings.Join(parts, " · ")
}

// faultsLeft says what is left of sys's fault budgets after spent: "crash 0 of 1 · drop
// 1 of 1", or "" without faults.
func faultsLeft(sys *model.System, spent explorer.FaultsSpent) string {
	f := &sys.Faults
	var parts []string
	add := func(name string, budget, used int) {
		if budget > 0 {
			parts = append(parts, fmt.Sprintf("%s %d of %d", name, budget-used, budget))
		}
	}
	add("drop", f.Drop, spent.Drop)
	add("duplicate", f.Duplicate, spent.Duplicate)
	add("partition", f.Partition, spent.Partition)
	add("crash", f.Crash, spent.Crash)
	if t := sys.Harness.Timeouts(); t > 0 {
		for c := range sys.Harness.NumClients() {
			used := 0
			if c < len(spent.Timeouts) {
				used = spent.Timeouts[c]
			}
			add("timeouts "+sys.ActorName(model.ClientID(c)), t, used)
		}
	}
	return strings.Join(parts, " · ")
}

// guard refuses, 403, a request not addressed to the server by a loopback name and its
// own port, and a POST (or any method that is not GET or HEAD) whose Origin is another
// site's: a page elsewhere may neither read the session through a rebound name nor
// change it.
func guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ownHost(r, r.Host) {
			writeError(w, http.StatusForbidden, fmt.Errorf("refused: the request is addressed to %q; ravel explore answers only at 127.0.0.1, localhost or [::1] with its own port", r.Host))
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && r.Method != "GET" && r.Method != "HEAD" {
			host, ok := strings.CutPrefix(origin, "http://")
			if !ok || !ownHost(r, host) {
				writeError(w, http.StatusForbidden, fmt.Errorf("refused: a %s from a page of %s; ravel explore takes changes only from its own page", r.Method, origin))
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// ownHost reports whether hostport names the server that received r: a loopback name and
// the port it listens on (any port when r does not say which it came in on).
func ownHost(r *http.Request, hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, "80"
	}
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if _, own, err := net.SplitHostPort(a.String()); err == nil && port != own {
			return false
		}
	}
	switch strings.ToLower(host) {
	case "127.0.0.1", "localhost", "::1":
		return true
	}
	return false
}

// loadSystem is the system to step through f on: the one Rebuild builds from f's run, or
// the server's own when f's run used it as it is.
func (s *Server) loadSystem(f report.File) (model.System, error) {
	if s.rebuild != nil {
		sys, err := s.rebuild(f)
		if err != nil {
			return model.System{}, err
		}
		return sys, f.CheckClients(&sys)
	}
	sys := s.sys
	if f.Run.Workload != "" {
		return model.System{}, fmt.Errorf("the counterexample was found under the workload %s, which this server cannot rebuild: replay it with ravel replay", f.Run.Workload)
	}
	if f.Run.Agents != 0 && f.Run.Agents != len(sys.Actors) {
		return model.System{}, fmt.Errorf("the counterexample was found with %d agents, but the system has %d", f.Run.Agents, len(sys.Actors))
	}
	if now, saved := faultsText(report.FaultsOf(&sys)), faultsText(f.Run.Faults); now != saved {
		return model.System{}, fmt.Errorf("the counterexample was found with the fault budgets %s, but the system has %s: its schedule needs the same budgets", saved, now)
	}
	return sys, f.CheckClients(&sys)
}

// faultsText names fault budgets for a message: "crash 1", or "none".
func faultsText(f *report.Faults) string {
	if t := strings.TrimSpace(f.Describe()); t != "" {
		return t
	}
	return "none"
}

// do runs f under the lock and answers with the state, or with the error.
func (s *Server) do(f func(*http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		err := f(r)
		var st State
		if err == nil {
			if r.Method == http.MethodPost {
				s.version++
			}
			st = s.state()
		}
		s.mu.Unlock()
		if err != nil {
			code := http.StatusBadRequest
			if errors.As(err, new(staleError)) {
				code = http.StatusConflict
			}
			writeError(w, code, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(st)
	}
}

// writeError answers {"error": "…"} with code.
func writeError(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // for people reading it: "<16 hex digits>", not "\u003c…"
	enc.Encode(map[string]string{"error": err.Error()})
}
