// Package interactive serves a system to a browser for stepping through by hand: the
// user delivers pending messages one at a time, sees every actor's state and the history
// grow, undoes, and loads a saved counterexample to step through it — on the explorer's
// own snapshots (explorer.Session).
//
// The JSON API, under /api/:
//
//	GET  /api/state    the current state (State)
//	POST /api/deliver  {"id":"<16 hex digits>"}: deliver an enabled event (Pending.ID)
//	POST /api/undo     take back the last delivery
//	POST /api/reset    back to the initial state; forget a loaded schedule
//	POST /api/load     body: a file of ravel check --out; resets to the initial state of
//	                   the run the file records, and Next steps through it
//	POST /api/next     deliver the next step of the loaded schedule
//
// Every POST answers with the new State, or a 4xx and {"error": "…"}; so do an unknown
// path under /api/ (404) and a known one asked with another method (405, with Allow).
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
}

// Options are a server's optional settings.
type Options struct {
	// Rebuild builds the system a loaded counterexample file was found on, from the run
	// it records (report.RunInfo: harness, agents, retries, workload, fault budgets), all
	// of which change the events a schedule can deliver. The file is stepped through on
	// that system, which stays until the next load (a reset keeps it). ravel explore
	// passes ravel replay's. Without Rebuild a file is stepped through on the server's
	// own system, and refused when it records other fault budgets, other agents or a
	// workload.
	Rebuild func(f report.File) (model.System, error)
}

// New returns a server at sys's initial state, with no Options.
func New(sys model.System) (*Server, error) { return NewWith(sys, Options{}) }

// NewWith returns a server at sys's initial state, with opts.
func NewWith(sys model.System, opts Options) (*Server, error) {
	sess, err := explorer.NewSession(sys)
	if err != nil {
		return nil, err
	}
	return &Server{sys: sys, rebuild: opts.Rebuild, sess: sess}, nil
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

// ActorState is one actor's state, as explorer.DescribeActor renders it.
type ActorState struct {
	Name  string `json:"name"`
	State string `json:"state"`
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
		st.Actors = append(st.Actors, ActorState{Name: sys.ActorName(model.ID(i)), State: explorer.DescribeActor(a)})
	}
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
		{"POST", "/api/undo", func(*http.Request) error {
			if !s.sess.Undo() {
				return fmt.Errorf("nothing to undo")
			}
			return nil
		}},
		{"POST", "/api/reset", func(*http.Request) error {
			for s.sess.Undo() {
			}
			s.script = nil
			return nil
		}},
		{"POST", "/api/load", s.load},
		{"POST", "/api/next", func(*http.Request) error {
			st := s.state()
			switch {
			case s.script == nil:
				return fmt.Errorf("no next step: load a counterexample first")
			case *st.Next < 0:
				return fmt.Errorf("no next step: the steps made have left the counterexample's schedule; undo back onto it")
			case *st.Next >= len(s.script):
				return fmt.Errorf("no next step: the counterexample's schedule is complete (%d steps)", len(s.script))
			}
			return s.sess.Deliver(s.script[*st.Next])
		}},
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

// deliver is POST /api/deliver: {"id": "<16 hex digits>"}, an event of State.Enabled.
func (s *Server) deliver(r *http.Request) error {
	const want = `want {"id": "<16 hex digits>"}, the id of a pending event`
	var req struct {
		ID string `json:"id"`
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
	if req.ID == "" {
		return fmt.Errorf("%s: the body has no id", want)
	}
	id, err := strconv.ParseUint(req.ID, 16, 64)
	if len(req.ID) != 16 || err != nil {
		return fmt.Errorf("bad id %q: want 16 hex digits, the id of a pending event", req.ID)
	}
	return s.sess.Deliver(id)
}

// load is POST /api/load: the body is a file of ravel check --out.
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
	return nil
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
	if t := f.Describe(); t != "" {
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
			st = s.state()
		}
		s.mu.Unlock()
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
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
