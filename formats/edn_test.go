package formats

import (
	"strings"
	"testing"
)

// TestParseEDNMapValues: each kind of value a Jepsen history's map holds reads back as
// written, and what is not EDN's subset is an error saying where.
func TestParseEDNMapValues(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{:a nil, :b true, :c -3, :d "x\"y", :e :kw}`, `nil true -3 "x\"y" :kw`},
		{`{:v [1 [2 3]], :s #{"n1" "n2"}, :m {"n1" ["n2"], :k 1}}`, `[1 [2 3]] #{"n1" "n2"} {"n1" ["n2"] :k 1}`},
		{`{:f 1.5, :g -2e3, :h 0.25M}`, `1.5 -2e3 0.25M`},
		{`{:t #inst "2019-04-01", :r #jepsen.history.Op{:f :read}}`, `"2019-04-01" {:f :read}`},
		{`#jepsen.history.Op{:f :read}`, `:read`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			entries, err := parseEDNMap(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Value.String())
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("got %s, want %s", strings.Join(got, " "), tc.want)
			}
		})
	}
	for _, tc := range []struct{ in, want string }{
		{`{:m {:k}}`, "map ending at column 8 has a key without a value"},
		{`{:n 99999999999999999999}`, "expected an integer of 64 bits at column 5"},
		{`{:n 1.2.3}`, "expected an integer at column 5"},
		{`# {:a 1}`, "expected a tag name after '#' at column 2"},
		{`{:v ` + strings.Repeat("{:a ", 40) + `}`, "nested more than 32 deep"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := parseEDNMap(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
