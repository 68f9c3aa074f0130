package model

import "testing"

// TestRequestIDString: a request is named by its client and sequence number; the zero
// RequestID, an actor's request field before any request, names none (probe M5).
func TestRequestIDString(t *testing.T) {
	for _, c := range []struct {
		id   RequestID
		want string
	}{
		{RequestID{}, "none"},
		{RequestID{Client: ClientID(0), Seq: 0}, "c0.0"},
		{RequestID{Client: ClientID(1), Seq: 2}, "c1.2"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := c.id.String(); got != c.want {
				t.Errorf("%#v.String() = %q, want %q", c.id, got, c.want)
			}
		})
	}
}
