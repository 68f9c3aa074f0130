package formats

import (
	"errors"
	"fmt"
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

// TestReadJepsenLaterLogs: Jepsen's logs since about 2017 write "jepsen worker N -
// jepsen.util N" with no dash after the logger, and an error after the value of a :fail
// or an :info; they read as the older form does, and the logger's other lines are
// skipped.
func TestReadJepsenLaterLogs(t *testing.T) {
	const p = "INFO [2019-04-01 11:25:23,790] jepsen worker 0 - jepsen.util "
	in := "INFO [2019-04-01 11:25:23,700] jepsen.core - Running test\n" +
		p + "0\t:invoke\t:write\t4\n" +
		p + "0\t:ok\t:write\t4\n" +
		"INFO [2019-04-01 11:25:23,795] jepsen nemesis - jepsen.util :nemesis\t:info\t:start\tnil\n" +
		"INFO [2019-04-01 11:25:23,796] jepsen.util Waiting for all workers\n" +
		"\tat jepsen.util$timeout.invokeStatic(util.clj:100)\n" +
		p + "1\t:invoke\t:cas\t[4 5]\n" +
		p + "1\t:info\t:cas\t[4 5]\t:timeout\n" +
		p + "2\t:invoke\t:read\tnil\n" +
		p + "2\t:fail\t:read\tnil\t:timeout\n" +
		p + "3\t:invoke\t:read\tnil\n" +
		p + "3\t:ok\t:read\t4\n"
	got, err := ReadJepsen(strings.NewReader(in), "new.log")
	if err != nil {
		t.Fatal(err)
	}
	want := []casOp{
		{Client: 0, Input: specs.CASInput{Op: specs.CASWrite, A: 4}, Output: specs.CASOutput{OK: true}, Call: 2, Return: 3},
		{Client: 1, Input: specs.CASInput{Op: specs.CASSwap, A: 4, B: 5}, Call: 7, Return: 13, Open: true},
		{Client: 3, Input: specs.CASInput{Op: specs.CASRead}, Output: specs.CASOutput{OK: true, Value: 4}, Call: 11, Return: 12},
	}
	if len(got) != len(want) {
		t.Fatalf("read %d operations %+v, want %+v", len(got), got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("operation %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// A malformed line of the later form is an error, as of the older.
	_, err = ReadJepsen(strings.NewReader(p+"0\t:invoke\t:delete\tnil\n"), "new.log")
	if err == nil || !strings.Contains(err.Error(), "new.log:1: expected :read, :write or :cas") {
		t.Errorf("bad :f: %v", err)
	}
	// Only a :fail or an :info carries an error after the value.
	_, err = ReadJepsen(strings.NewReader(p+"0\t:invoke\t:write\t4\t:oops\n"), "new.log")
	if err == nil || !strings.Contains(err.Error(), "expected nothing after the value") {
		t.Errorf("text after an :invoke's value: %v", err)
	}
}

// TestReadJepsenHistoryEDN: Jepsen's history.edn gives the operations its log gives.
// Every etcd log of porcupine's data is written again as history.edn, in the three forms
// Jepsen writes it (one map a line, a record's tag, one vector of maps), with the keys
// in another order, :time and :index, an :error on every :fail and :info, and a nemesis
// line between; each reads back as the log's operations.
func TestReadJepsenHistoryEDN(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "porcupine", "jepsen", "etcd_*.log"))
	if err != nil || len(paths) != 103 {
		t.Fatalf("found %d etcd logs (%v), want 103", len(paths), err)
	}
	line := regexp.MustCompile(`jepsen\.util - (\d+)\s+:(\w+)\s+:(\w+)\s+(.*?)\s*$`)
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ReadJepsen(strings.NewReader(string(data)), path)
		if err != nil {
			t.Fatal(err)
		}
		var maps []string
		for i, text := range strings.Split(string(data), "\n") {
			m := line.FindStringSubmatch(text)
			if m == nil {
				continue
			}
			errKey := ""
			if m[2] == "fail" || m[2] == "info" {
				errKey = `, :error [:timeout "etcd: request timed out, {:cause nil}"]`
			}
			maps = append(maps, fmt.Sprintf("{:index %d, :time %d, :type :%s, :process %s, :f :%s, :value %s%s}", len(maps), 1000*i, m[2], m[1], m[3], m[4], errKey))
			if len(maps) == 3 {
				maps = append(maps, `{:type :info, :f :start-partition, :value {"n1" #{"n2" "n3"}}, :process :nemesis, :time 5}`)
			}
		}
		forms := map[string]string{
			"lines":  strings.Join(maps, "\n") + "\n",
			"tagged": "#jepsen.history.Op" + strings.Join(maps, "\n#jepsen.history.Op") + "\n",
			"vector": "[" + strings.Join(maps, "\n ") + "]\n",
		}
		for form, in := range forms {
			got, err := ReadJepsen(strings.NewReader(in), "history.edn")
			if err != nil {
				t.Fatalf("%s as history.edn (%s): %v", filepath.Base(path), form, err)
			}
			// Times are line numbers, and the log's lines are not the maps' lines.
			if len(got) != len(want) {
				t.Fatalf("%s as history.edn (%s): %d operations, want %d", filepath.Base(path), form, len(got), len(want))
			}
			for i := range got {
				g, w := got[i], want[i]
				if g.Client != w.Client || g.Input != w.Input || g.Output != w.Output || g.Open != w.Open {
					t.Fatalf("%s as history.edn (%s): operation %d = %+v, want %+v", filepath.Base(path), form, i, g, w)
				}
			}
		}
	}
}

// TestReadJepsenHistoryEDNErrors: a history.edn line that is not a register's operation
// is an error of that line, saying what was expected.
func TestReadJepsenHistoryEDNErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{:process 0, :type :invoke, :f :get, :key "1", :value nil}`, `history.edn:1: expected :read, :write or :cas as :f, found ":get" (a map with :key is porcupine's kv log: --spec kv, --format porcupine-kv)`},
		{`{:type :invoke, :f :write, :value 1}`, "history.edn:1: expected a :process in the map"},
		{`{:type :invoke, :f :write, :value 1, :process -1}`, "expected a process number or :nemesis as :process"},
		{`{:type :begin, :f :write, :value 1, :process 0}`, "expected :invoke, :ok, :fail or :info as :type"},
		{`{:type :invoke, :f :write, :value "1", :process 0}`, `expected nil, an integer, a pair [A B] of integers or a keyword as :value, found "\"1\""`},
		{`{:type :invoke, :f :cas, :value [1 2 3], :process 0}`, "found \"[1 2 3]\""},
		{`{:type :invoke, :f :write, :value 1, :process 0`, "history.edn:1: expected a value at column 48, found end of line"},
		{"{:type :invoke, :f :write, :value 1, :process 0}\n{:type :invoke, :f :read, :value nil, :process 0}", "history.edn:2: expected process 0 to complete its operation invoked at line 1"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			_, err := ReadJepsen(strings.NewReader(tc.in+"\n"), "history.edn")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestReadJepsenShortMessages: a bad value is quoted by its first bytes only (one line
// once gave a 20 MB message), and an integer beyond 64 bits is said to be.
func TestReadJepsenShortMessages(t *testing.T) {
	const p = "INFO  jepsen.util - "
	huge := p + "0\t:invoke\t:read\tnil\n" + p + "0\t:ok\t:read\t" + strings.Repeat("1x", 1<<20) + "\n"
	_, err := ReadJepsen(strings.NewReader(huge), "h.log")
	if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "(2097152 bytes)") {
		t.Errorf("a 2 MB bad value: %d bytes of message: %.300s", len(fmt.Sprint(err)), fmt.Sprint(err))
	}
	for _, v := range []string{"99999999999999999999999", "[1 99999999999999999999999]"} {
		_, err = ReadJepsen(strings.NewReader(p+"0\t:invoke\t:read\tnil\n"+p+"0\t:ok\t:read\t"+v+"\n"), "h.log")
		if err == nil || !strings.Contains(err.Error(), "out of range (beyond 64 bits)") && !strings.Contains(err.Error(), "a pair") {
			t.Errorf("%s: %v", v, err)
		}
	}
	_, err = ReadJepsen(strings.NewReader(p+"0\t:invoke\t:write\t99999999999999999999999\n"), "h.log")
	if err == nil || !strings.Contains(err.Error(), "out of range (beyond 64 bits)") {
		t.Errorf("a write beyond 64 bits: %v", err)
	}
}
