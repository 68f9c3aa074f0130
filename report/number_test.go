package report

import "testing"

func TestThousands(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {4204200, "4,204,200"},
		{-1000, "-1,000"}, {-999, "-999"}, {-9223372036854775808, "-9,223,372,036,854,775,808"},
	} {
		if got := Thousands(c.n); got != c.want {
			t.Errorf("Thousands(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0 agents"}, {1, "1 agent"}, {2, "2 agents"}, {50000, "50,000 agents"},
	} {
		if got := Count(c.n, "agent"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
