package live

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitHeld waits until n messages are held and returns them.
func waitHeld(t *testing.T, nw *Network, n int) []Message {
	t.Helper()
	for range 5000 {
		if h := nw.Held(); len(h) >= n {
			return h
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%d messages never held (held: %v)", n, nw.Held())
	return nil
}

func TestVectorClocks(t *testing.T) {
	nw := NewNetwork(3)
	ctx := context.Background()
	got := make(chan Message, 8)
	sent := 0
	send := func(from, to int) {
		go nw.Hold(ctx, Message{From: from, To: to})
		sent++
		for nw.Counts().Intercepted < sent {
			time.Sleep(time.Millisecond)
		}
		h := nw.Held()
		got <- h[len(h)-1]
	}
	send(0, 1) // m0
	m0 := <-got
	nw.Deliver(m0.ID)
	send(1, 2) // m1: after m0 (node 1 received m0 first)
	m1 := <-got
	send(2, 0) // m2: concurrent with m0 and m1 (node 2 has received nothing)
	m2 := <-got
	nw.Deliver(m1.ID)
	nw.Deliver(m2.ID)
	for _, c := range []struct {
		a, b Message
		want bool
	}{{m0, m1, true}, {m1, m0, false}, {m0, m2, false}, {m2, m0, false}, {m1, m2, false}, {m0, m0, false}} {
		if got := HappensBefore(c.a, c.b); got != c.want {
			t.Errorf("HappensBefore(m%d %v, m%d %v) = %v, want %v", c.a.ID, c.a.Clock, c.b.ID, c.b.Clock, got, c.want)
		}
	}
}

func TestPartitionAndDownCut(t *testing.T) {
	nw := NewNetwork(3)
	ctx := context.Background()
	fates := make(chan Fate, 4)
	go func() { fates <- nw.Hold(ctx, Message{From: 0, To: 1}) }()
	go func() { fates <- nw.Hold(ctx, Message{From: 0, To: 2}) }()
	waitHeld(t, nw, 2)
	if n := nw.Partition([]int{0, 0, 1}); n != 1 {
		t.Fatalf("partition cut %d held messages, want 1", n)
	}
	if f := <-fates; f != Cut {
		t.Fatalf("fate = %v, want cut", f)
	}
	if f := nw.Hold(ctx, Message{From: 2, To: 1}); f != Cut {
		t.Fatalf("message across the partition: %v, want cut", f)
	}
	nw.Heal()
	nw.SetDown(1, true)
	if f := <-fates; f != Cut {
		t.Fatalf("message to a node going down: %v, want cut", f)
	}
	c := nw.Counts()
	if c.Intercepted != 3 || c.Cut != 3 || c.Delivered != 0 {
		t.Fatalf("counts %+v, want 3 intercepted, 3 cut", c)
	}
}

// deliverAll plays a scheduler that delivers every held message until stop is closed.
func deliverAll(nw *Network, stop chan struct{}) *sync.WaitGroup { return deliverEach(nw, stop, nil) }

// deliverEach is deliverAll calling seen, if not nil, with each message's sender before
// delivering it.
func deliverEach(nw *Network, stop chan struct{}, seen func(from int)) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-nw.Arrived():
			case <-time.After(5 * time.Millisecond):
			}
			for _, m := range nw.Held() {
				if seen != nil {
					seen(m.From)
				}
				nw.Deliver(m.ID)
			}
		}
	}()
	return &wg
}

func TestHTTPKeepAlive(t *testing.T) {
	var conns, reqs atomic.Int32
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reqs.Add(1)
			b, _ := io.ReadAll(r.Body)
			fmt.Fprintf(w, "echo %s %s", r.URL.Path, b)
		}),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				conns.Add(1)
			}
		},
	}
	go srv.Serve(ln)
	defer srv.Close()
	nw := NewNetwork(2)
	ic, err := Intercept(nw, 0, "127.0.0.1:0", ln.Addr().String(), HTTP{
		Sender: HeaderSender("X-From"),
		Refuse: func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/stream/") },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Close()
	stop := make(chan struct{})
	wg := deliverAll(nw, stop)
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	do := func(path, body string) (int, string, error) {
		req, _ := http.NewRequest("POST", "http://"+ic.Addr()+path, strings.NewReader(body))
		req.Header.Set("X-From", "1")
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	for i := range 3 {
		code, body, err := do(fmt.Sprintf("/m%d", i), "x")
		if want := fmt.Sprintf("echo /m%d x", i); err != nil || code != 200 || body != want {
			t.Fatalf("request %d: %d %q %v, want 200 %q", i, code, body, err, want)
		}
	}
	if code, _, err := do("/stream/a", ""); err != nil || code != 404 {
		t.Fatalf("refused stream: %d %v, want 404", code, err)
	}
	close(stop)
	wg.Wait()
	if c := conns.Load(); c != 1 {
		t.Errorf("backend saw %d connections, want 1 (keep-alive)", c)
	}
	if r := reqs.Load(); r != 3 {
		t.Errorf("backend saw %d requests, want 3", r)
	}
	c := nw.Counts()
	if c.Intercepted != 3 || c.Delivered != 3 || c.Refused != 1 {
		t.Errorf("counts %+v, want 3 intercepted, 3 delivered, 1 refused", c)
	}

	// A dropped request gets no answer; a request on another connection held meanwhile
	// can pass first.
	errc := make(chan error, 1)
	go func() { _, _, err := do("/lost", "y"); errc <- err }()
	m := waitHeld(t, nw, 1)[0]
	if m.From != 1 || m.To != 0 || m.Kind != "POST /lost" {
		t.Fatalf("held %+v, want POST /lost from 1 to 0", m)
	}
	nw.Drop(m.ID)
	if err := <-errc; err == nil {
		t.Fatal("dropped request got a response")
	}
}

func TestLengthPrefixed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // echo every frame with a prefix
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for {
			f, err := readFrame(c)
			if err != nil {
				return
			}
			writeFrame(c, "echo "+f)
		}
	}()
	nw := NewNetwork(2)
	ic, err := Intercept(nw, 0, "127.0.0.1:0", ln.Addr().String(), LengthPrefixed{
		Sender:   func(first []byte) int { return int(first[0] - '0') },
		Describe: func(f []byte) string { return string(f) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Close()
	c, err := net.Dial("tcp", ic.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	writeFrame(c, "1 hello")
	writeFrame(c, "1 lost")
	writeFrame(c, "1 world")
	m := waitHeld(t, nw, 1)
	if len(m) != 1 || m[0].Summary != "1 hello" || m[0].From != 1 || m[0].To != 0 {
		t.Fatalf("held %+v, want one frame \"1 hello\" from 1 to 0 (frames of one direction in order)", m)
	}
	nw.Deliver(m[0].ID)
	// Now "1 lost" upstream and "echo 1 hello" downstream are held together.
	m = waitHeld(t, nw, 2)
	for _, x := range m {
		switch x.Summary {
		case "1 lost":
			nw.Drop(x.ID)
		case "echo 1 hello":
			if x.From != 0 || x.To != 1 {
				t.Errorf("reply %+v, want from 0 to 1", x)
			}
			nw.Deliver(x.ID)
		default:
			t.Fatalf("unexpected held frame %+v", x)
		}
	}
	stop := make(chan struct{})
	wg := deliverAll(nw, stop)
	defer func() { close(stop); wg.Wait() }()
	for _, want := range []string{"echo 1 hello", "echo 1 world"} {
		got, err := readFrame(c)
		if err != nil || got != want {
			t.Fatalf("read %q %v, want %q", got, err, want)
		}
	}
}

func writeFrame(w io.Writer, s string) error {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(s)))
	_, err := w.Write(append(b, s...))
	return err
}

func readFrame(r io.Reader) (string, error) {
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return "", err
	}
	b := make([]byte, binary.BigEndian.Uint32(h[:]))
	_, err := io.ReadFull(r, b)
	return string(b), err
}

// TestPartitionUnknownSender: a message whose sender the translator could not tell is
// cut when its receiver is alone on its side (every other node is across the cut), and
// passes otherwise, as it cannot be placed. It used to pass always, so etcd's
// GET /raft/probing reached a member cut off from the rest.
func TestPartitionUnknownSender(t *testing.T) {
	nw := NewNetwork(3)
	ctx := context.Background()
	nw.Partition([]int{0, 1, 1})
	fate := make(chan Fate, 1)
	go func() { fate <- nw.Hold(ctx, Message{From: -1, To: 0}) }()
	for cut := false; !cut; {
		select {
		case f := <-fate:
			if f != Cut {
				t.Fatalf("?→n0 with n0 alone on its side: %v, want cut", f)
			}
			cut = true
		default:
			if len(nw.Held()) > 0 {
				nw.Close()
				t.Fatalf("?→n0 with n0 alone on its side is held, want it cut on arrival")
			}
			runtime.Gosched()
		}
	}
	go func() { fate <- nw.Hold(ctx, Message{From: -1, To: 1}) }()
	waitHeld(t, nw, 1)
	if n := nw.Partition([]int{1, 0, 1}); n != 1 {
		nw.Close()
		t.Fatalf("partitioning n1 off cut %d held messages ?→n1, want 1", n)
	}
	if f := <-fate; f != Cut {
		t.Errorf("held ?→n1 when n1 is cut off: %v, want cut", f)
	}
	go func() { fate <- nw.Hold(ctx, Message{From: -1, To: 0}) }()
	waitHeld(t, nw, 1)
	nw.Deliver(nw.Held()[0].ID)
	if f := <-fate; f != Delivered {
		t.Errorf("?→n0 with n0 beside n2: %v, want it held and delivered", f)
	}
}

// TestHTTPSenderPerConnection: a request whose sender the Sender cannot name, on a
// connection on which an earlier request named one, is from that sender (a connection
// comes from one process), as etcd's GET /raft/probing after a POST /raft.
func TestHTTPSenderPerConnection(t *testing.T) {
	nw := NewNetwork(3)
	target, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	go http.Serve(target, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	ic, err := Intercept(nw, 1, "127.0.0.1:0", target.Addr().String(), HTTP{Sender: HeaderSender("X-From")})
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Close()
	stop := make(chan struct{})
	var froms []int
	var mu sync.Mutex
	wg := deliverEach(nw, stop, func(from int) {
		mu.Lock()
		froms = append(froms, from)
		mu.Unlock()
	})
	c := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	req, _ := http.NewRequest("POST", "http://"+ic.Addr()+"/raft", strings.NewReader("x"))
	req.Header.Set("X-From", "2")
	for _, r := range []*http.Request{req, mustGet(t, "http://"+ic.Addr()+"/raft/probing")} {
		resp, err := c.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	close(stop)
	wg.Wait()
	if fmt.Sprint(froms) != "[2 2]" {
		t.Errorf("senders %v, want [2 2] (the probe on the POST's connection)", froms)
	}
}

func mustGet(t *testing.T, url string) *http.Request {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
