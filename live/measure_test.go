package live

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ravelmc/ravel/specs"
)

// The figures of docs/real-processes.md. Benchmarks: go test -run X -bench Intercept ./live/
// The etcd latency table: RAVEL_MEASURE=1 go test -run TestMeasureEtcd -v ./live/

// benchHTTP sends b.N keep-alive requests from one client to a trivial server, through an
// interceptor whose scheduler delivers every message as soon as it is held when
// intercept is set.
func benchHTTP(b *testing.B, intercept bool) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	addr := ln.Addr().String()
	nw := NewNetwork(2)
	if intercept {
		ic, err := Intercept(nw, 0, "127.0.0.1:0", addr, HTTP{Sender: HeaderSender("X-From")})
		if err != nil {
			b.Fatal(err)
		}
		defer ic.Close()
		addr = ic.Addr()
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { // the quickest scheduler: deliver whatever is held at each arrival
			defer close(done)
			for {
				select {
				case <-stop:
					return
				case <-nw.Arrived():
				}
				for _, m := range nw.Held() {
					nw.Deliver(m.ID)
				}
			}
		}()
		defer func() { close(stop); <-done }()
	}
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	body := strings.Repeat("x", 200)
	b.ResetTimer()
	for range b.N {
		req, _ := http.NewRequest("POST", "http://"+addr+"/raft", strings.NewReader(body))
		req.Header.Set("X-From", "1")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	if intercept && nw.Counts().Delivered != b.N {
		b.Fatalf("delivered %d of %d", nw.Counts().Delivered, b.N)
	}
}

func BenchmarkInterceptHTTPDirect(b *testing.B)      { benchHTTP(b, false) }
func BenchmarkInterceptHTTPIntercepted(b *testing.B) { benchHTTP(b, true) }

// latencies returns the median and mean latency of the completed operations of kind op.
func latencies(hist []Op, op specs.CASOp) (median, mean time.Duration, n int) {
	var ds []time.Duration
	var sum time.Duration
	for _, o := range hist {
		if !o.Open && o.Input.In.Op == op {
			d := time.Duration(o.Return - o.Call)
			ds = append(ds, d)
			sum += d
		}
	}
	if len(ds) == 0 {
		return 0, 0, 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2], sum / time.Duration(len(ds)), len(ds)
}

// TestMeasureEtcd measures etcd's put (and linearizable get) latency seen by the workload's
// clients: peers talking directly, through the interceptors with a near-zero wait before
// each step, and through them with the default 1ms wait. No faults.
func TestMeasureEtcd(t *testing.T) {
	if os.Getenv("RAVEL_MEASURE") == "" {
		t.Skip("set RAVEL_MEASURE=1 to measure")
	}
	if _, err := exec.LookPath("etcd"); err != nil {
		t.Skip("etcd is not on PATH")
	}
	variants := []struct {
		name   string
		direct bool
		wait   time.Duration
	}{
		{"direct (no interceptor)", true, time.Millisecond},
		{"intercepted, wait 10µs", false, 10 * time.Microsecond},
		{"intercepted, wait 1ms (default)", false, time.Millisecond},
	}
	var rows []string
	for _, v := range variants {
		cfg, err := LoadConfig("../examples/etcd/ravel.yaml")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Output = t.TempDir()
		cfg.Iterations = 1
		cfg.Faults = FaultsConfig{Restart: time.Second}
		cfg.Scheduler.Wait = v.wait
		cfg.Workload.Clients, cfg.Workload.Ops = 4, 100
		if v.direct {
			cfg.Nodes.Command[5] = "{{.PeerPort}}"
			cfg.Nodes.Command[6] = `{{range $i, $u := .PeerURLs}}{{if $i}},{{end}}n{{$i}}={{$u}}{{end}}`
		}
		rep, err := Run(context.Background(), cfg, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ir := rep.Iterations[0]
		pm, pa, pn := latencies(ir.History, specs.CASWrite)
		gm, ga, gn := latencies(ir.History, specs.CASRead)
		rows = append(rows, fmt.Sprintf("| %s | %v / %v (%d) | %v / %v (%d) | %d | %.0f | %v |", v.name,
			pm.Round(10*time.Microsecond), pa.Round(10*time.Microsecond), pn,
			gm.Round(10*time.Microsecond), ga.Round(10*time.Microsecond), gn,
			ir.Net.Delivered, float64(ir.Net.Delivered)/ir.Duration.Seconds(), ir.Duration.Round(10*time.Millisecond)))
	}
	t.Logf("\n| peers | put median / mean (n) | get median / mean (n) | messages delivered | delivered/s | iteration |\n|---|---|---|---|---|---|\n%s", strings.Join(rows, "\n"))
}
