package model_test

import (
	"fmt"
	"testing"

	"github.com/ravelmc/ravel/model"
)

// TestRespondChecksArrival: with the engine's count of the requests that have arrived,
// Respond refuses an answer to a later request of the client, naming it (API probe, N3);
// an earlier one (a duplicate) is recorded, for the engine to ignore.
func TestRespondChecksArrival(t *testing.T) {
	c1 := model.ClientID(1)
	for _, tt := range []struct {
		name    string
		arrived []int // nil: the engine gives no count
		req     model.RequestID
		panics  string // "" when Respond records the answer
	}{
		{"the latest to arrive", []int{0, 3}, model.RequestID{Client: c1, Seq: 2}, ""},
		{"an earlier one", []int{0, 3}, model.RequestID{Client: c1, Seq: 0}, ""},
		{"the next one", []int{0, 3}, model.RequestID{Client: c1, Seq: 3},
			"model: Respond to c1.3, a request that has not reached any actor yet (c1's latest request to arrive is c1.2)"},
		{"another client's, none arrived", []int{3, 0}, model.RequestID{Client: c1, Seq: 0},
			"model: Respond to c1.0, a request that has not reached any actor yet (no request of c1 has arrived yet)"},
		{"a negative Seq", []int{0, 3}, model.RequestID{Client: c1, Seq: -1},
			"model: Respond to c1.-1: a request's Seq is never negative"},
		{"no count", nil, model.RequestID{Client: c1, Seq: 7}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := model.NewCtx(1, 2)
			if tt.arrived != nil {
				ctx.SetArrived(func(c int) int { return tt.arrived[c] })
			}
			ctx.Begin(0)
			got := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = fmt.Sprint(r)
					}
				}()
				ctx.Respond(tt.req, "out")
				return ""
			}()
			if got != tt.panics {
				t.Errorf("Respond(%v) panicked with %q, want %q", tt.req, got, tt.panics)
			}
			if n := len(ctx.Effects()); (tt.panics == "") != (n == 1) {
				t.Errorf("%d effects recorded", n)
			}
		})
	}
}
