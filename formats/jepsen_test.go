package formats

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

type casOp = histories.Operation[specs.CASInput, specs.CASOutput]

// TestReadJepsenFiles reads every etcd log of porcupine's data and checks what the
// data's README says of them: 73 to 90 invocations, each giving an operation that is
// completed after its call or open — but the failed reads, which had no effect and are
// dropped — and no fewer open operations than the log has :info lines.
func TestReadJepsenFiles(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "porcupine", "jepsen", "etcd_*.log"))
	if err != nil || len(paths) != 103 {
		t.Fatalf("found %d etcd logs (%v), want 103", len(paths), err)
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := ReadJepsen(strings.NewReader(string(data)), path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 {
			if len(ops) != 0 {
				t.Errorf("%s is empty but gave %d operations", path, len(ops))
			}
			continue
		}
		invokes := strings.Count(string(data), ":invoke")
		failedReads := len(regexp.MustCompile(`:fail\s+:read`).FindAllString(string(data), -1))
		if invokes < 73 || invokes > 90 || len(ops) != invokes-failedReads {
			t.Errorf("%s: %d operations from %d invocations of which %d failed reads, want 73 to 90 invocations",
				path, len(ops), invokes, failedReads)
		}
		open := 0
		for i, op := range ops {
			if op.Open {
				open++
			} else if op.Return <= op.Call {
				t.Errorf("%s: operation %d returns at %d, not after its call at %d", path, i, op.Return, op.Call)
			}
		}
		if infos := strings.Count(string(data), ":info"); open < infos {
			t.Errorf("%s: %d open operations, fewer than its %d :info lines", path, open, infos)
		}
	}
}

func TestReadJepsen(t *testing.T) {
	read := specs.CASInput{Op: specs.CASRead}
	write := func(v int) specs.CASInput { return specs.CASInput{Op: specs.CASWrite, A: v} }
	cas := func(a, b int) specs.CASInput { return specs.CASInput{Op: specs.CASSwap, A: a, B: b} }
	in := "some noise before\n" +
		"INFO  jepsen.util - 0\t:invoke\t:read\tnil\n" +
		"INFO  jepsen.util - 1\t:invoke\t:write\t3\n" +
		"INFO  jepsen.util - 0\t:ok\t:read\tnil\n" +
		"INFO  jepsen.util - 2   :invoke :cas    [3 4]\n" + // spaces, as in etcd_100
		"INFO  jepsen.util - 1\t:ok\t:write\t3\n" +
		"INFO  jepsen.util - 2\t:fail\t:cas\t[3 4]\n" +
		"INFO  jepsen.util - 3\t:invoke\t:cas\t[1 2]\n" +
		"INFO  jepsen.util - 3\t:info\t:cas\t:timed-out\n" +
		"INFO  jepsen.util - 4\t:invoke\t:read\tnil\n" +
		"INFO  jepsen.util - 4\t:fail\t:read\t:timed-out\n" +
		"INFO  jepsen.util - :nemesis\t:info\t:start\tnil\n" +
		"INFO  jepsen.util - 5\t:invoke\t:read\tnil\n" +
		"INFO  jepsen.util - 5\t:ok\t:read\t4\n" +
		"INFO  jepsen.util - 6\t:invoke\t:write\t0\n"
	want := []casOp{
		{Client: 0, Input: read, Output: specs.CASOutput{OK: true, Absent: true}, Call: 2, Return: 4},
		{Client: 1, Input: write(3), Output: specs.CASOutput{OK: true}, Call: 3, Return: 6},
		{Client: 2, Input: cas(3, 4), Output: specs.CASOutput{}, Call: 5, Return: 7},
		{Client: 3, Input: cas(1, 2), Call: 8, Return: 16, Open: true},
		{Client: 5, Input: read, Output: specs.CASOutput{OK: true, Value: 4}, Call: 13, Return: 14},
		{Client: 6, Input: write(0), Call: 15, Return: 16, Open: true},
	}
	got, err := ReadJepsen(strings.NewReader(in), "h.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d operations %+v, want %d %+v", len(got), got, len(want), want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("operation %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestReadJepsenErrors checks that malformed lines are rejected with the file name, the
// line and what was expected.
func TestReadJepsenErrors(t *testing.T) {
	const p = "INFO  jepsen.util - "
	const inv = p + "0\t:invoke\t:write\t1\n"
	for _, c := range []struct {
		name, in string
		line     int
		want     string
	}{
		{"too few fields", "\n" + p + "0 :invoke :read", 2, "expected a process, a :type, an :f and a value"},
		{"bad process", p + "x :invoke :read nil", 1, "expected a process number"},
		{"bad type", p + "0 :start :read nil", 1, "expected :invoke, :ok, :fail or :info"},
		{"bad f", p + "0 :invoke :delete nil", 1, "expected :read, :write or :cas"},
		{"bad value", p + "0 :invoke :write x", 1, "expected nil, an integer, a pair"},
		{"bad pair", p + "0 :invoke :cas [1 2 3]", 1, "expected a pair [A B]"},
		{"write of nil", p + "0 :invoke :write nil", 1, "expected an integer to :write"},
		{"cas of one value", p + "0 :invoke :cas 3", 1, "expected a pair [A B] to :cas"},
		{"read of a value", p + "0 :invoke :read 3", 1, "expected nil as the value"},
		{"ok without invoke", p + "0 :ok :read 3", 1, "expected an :invoke from process 0"},
		{"two invokes", inv + inv, 2, "invoked at line 1"},
		{"ok of another f", inv + p + "0 :ok :read 1", 2, "expected :write as invoked at line 1"},
		{"ok of another value", inv + p + "0 :ok :write 2", 2, "expected :write 1 as invoked at line 1"},
		{"ok of another pair", p + "0 :invoke :cas [1 2]\n" + p + "0 :ok :cas [2 1]", 2, "expected :cas [1 2]"},
		{"read of a pair", p + "0 :invoke :read nil\n" + p + "0 :ok :read [1 2]", 2, "expected nil or an integer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadJepsen(strings.NewReader(c.in), "dir/e.log")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, want a *ParseError", err, err)
			}
			prefix := "dir/e.log:" + strconv.Itoa(c.line) + ": "
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, c.want) {
				t.Errorf("error %q, want it to start with %q and contain %q", msg, prefix, c.want)
			}
		})
	}
}

// FuzzReadJepsen checks that no input makes the reader panic, and that what it accepts
// is a well-formed history.
func FuzzReadJepsen(f *testing.F) {
	f.Add("INFO  jepsen.util - 0\t:invoke\t:cas\t[1 2]\nINFO  jepsen.util - 0\t:ok\t:cas\t[1 2]\n")
	f.Add("INFO  jepsen.util - 3\t:invoke\t:write\t4\nINFO  jepsen.util - 3\t:info\t:write\t:timed-out\n")
	f.Add("noise\nINFO  jepsen.util - 1 :invoke :read nil\nINFO  jepsen.util - 1 :ok :read nil")
	addSeeds(f, "porcupine/jepsen/etcd_00*.log", 40)
	f.Fuzz(func(t *testing.T, in string) {
		ops, err := ReadJepsen(strings.NewReader(in), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz:") {
				t.Errorf("error %q does not start with the name", err)
			}
			return
		}
		for i, op := range ops {
			if !op.Open && op.Return <= op.Call {
				t.Errorf("operation %d returns at %d, not after its call at %d", i, op.Return, op.Call)
			}
		}
	})
}
