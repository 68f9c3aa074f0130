package live

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// HTTP is the HTTP/1.1 request-level translator: one request is one message, from the
// node named by a header to the node behind the interceptor. Requests are read one at a
// time from a keep-alive connection; a delivered request is forwarded on a kept-alive
// upstream connection and its response (not itself a message) written back. A dropped or
// cut request gets no response: the connection is closed, as a lost packet with a broken
// connection looks to the sender.
type HTTP struct {
	// Sender names the sending node from the request, -1 when unknown.
	Sender func(r *http.Request) int
	// Refuse, when set and true, answers the request 404 without holding it.
	Refuse func(r *http.Request) bool
	// Describe gives the message's kind and summary; nil uses the method and path. It is
	// called before Sender.
	Describe func(r *http.Request, body []byte) (kind, summary string)
	// MaxBody bounds a request body held in memory (default 64 MiB).
	MaxBody int64
}

// HeaderSender returns a function for HTTP.Sender that reads the sending node's index
// (0, 1, …) from the request's header name: -1 (unknown) when the header is missing or
// does not start with an integer.
func HeaderSender(name string) func(r *http.Request) int {
	return func(r *http.Request) int {
		var i int
		if _, err := fmt.Sscan(r.Header.Get(name), &i); err != nil {
			return -1
		}
		return i
	}
}

// Serve implements Translator.
func (t HTTP) Serve(ctx context.Context, nw *Network, to int, down net.Conn, dial func() (net.Conn, error)) {
	br := bufio.NewReader(down)
	var up net.Conn
	var upr *bufio.Reader
	connFrom := -1 // the sender named on this connection so far
	maxBody := t.MaxBody
	if maxBody <= 0 {
		maxBody = 64 << 20
	}
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body, err := io.ReadAll(io.LimitReader(req.Body, maxBody+1))
		req.Body.Close()
		if err != nil || int64(len(body)) > maxBody {
			return
		}
		if t.Refuse != nil && t.Refuse(req) {
			nw.Refused()
			resp := &http.Response{StatusCode: http.StatusNotFound, ProtoMajor: 1, ProtoMinor: 1,
				Header: http.Header{"Content-Type": {"text/plain"}}, Body: io.NopCloser(strings.NewReader("refused by ravel\n")),
				ContentLength: int64(len("refused by ravel\n")), Request: req}
			if resp.Write(down) != nil {
				return
			}
			continue
		}
		m := Message{From: -1, To: to, Kind: req.Method + " " + req.URL.Path}
		m.Summary = m.Kind
		if t.Describe != nil {
			m.Kind, m.Summary = t.Describe(req, body)
		}
		if t.Sender != nil {
			m.From = t.Sender(req)
		}
		// A connection comes from one process: a request Sender cannot name (etcd's GET
		// /raft/probing carries no X-Server-From) is from the sender an earlier request
		// on the connection named.
		if m.From >= 0 {
			connFrom = m.From
		} else {
			m.From = connFrom
		}
		if nw.Hold(ctx, m) != Delivered {
			return
		}
		if up == nil {
			if up, err = dial(); err != nil {
				return
			}
			upr = bufio.NewReader(up)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.TransferEncoding = nil
		if err := req.Write(up); err != nil {
			return
		}
		resp, err := http.ReadResponse(upr, req)
		if err != nil {
			return
		}
		err = resp.Write(down)
		resp.Body.Close()
		if err != nil || resp.Close || req.Close {
			return
		}
	}
}

// LengthPrefixed is the raw TCP translator for protocols framed as a 4-byte big-endian
// length and that many bytes. Each frame in either direction is a message; frames of one
// direction of one connection pass in order (TCP's order), those of different
// connections and directions in any order the scheduler picks. A dropped or cut frame is
// skipped, the connection kept: frames are the protocol's messages, so one can be lost
// alone.
type LengthPrefixed struct {
	// Sender names the sending node from the first frame a peer sends on a connection,
	// -1 when unknown (nil: unknown).
	Sender func(first []byte) int
	// Describe summarizes a frame; nil gives its length.
	Describe func(frame []byte) string
	// MaxFrame bounds a frame (default 16 MiB).
	MaxFrame uint32
}

// Serve implements Translator.
func (t LengthPrefixed) Serve(ctx context.Context, nw *Network, to int, down net.Conn, dial func() (net.Conn, error)) {
	up, err := dial()
	if err != nil {
		return
	}
	maxFrame := t.MaxFrame
	if maxFrame == 0 {
		maxFrame = 16 << 20
	}
	peer := -1
	known := make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(known) })
	pump := func(src io.Reader, dst io.Writer, upstream bool) {
		first := true
		for {
			var hdr [4]byte
			if _, err := io.ReadFull(src, hdr[:]); err != nil {
				return
			}
			size := binary.BigEndian.Uint32(hdr[:])
			if size > maxFrame {
				return
			}
			frame := make([]byte, 4+size)
			copy(frame, hdr[:])
			if _, err := io.ReadFull(src, frame[4:]); err != nil {
				return
			}
			m := Message{Kind: "frame", Summary: fmt.Sprintf("frame of %d bytes", size)}
			if t.Describe != nil {
				m.Summary = t.Describe(frame[4:])
			}
			if upstream {
				if first && t.Sender != nil {
					peer = t.Sender(frame[4:])
				}
				if first {
					once.Do(func() { close(known) })
				}
				m.From, m.To = peer, to
			} else {
				select {
				case <-known:
				case <-ctx.Done():
					return
				}
				m.From, m.To = to, peer
			}
			first = false
			if nw.Hold(ctx, m) != Delivered {
				continue
			}
			if _, err := dst.Write(frame); err != nil {
				return
			}
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		pump(up, down, false)
		down.Close()
	}()
	pump(down, up, true)
	once.Do(func() { close(known) })
	up.Close()
	<-done
}
