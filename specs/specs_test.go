package specs

import "testing"

// TestApply runs each specification through a short sequence and checks every output.
func TestApply(t *testing.T) {
	t.Run("register", func(t *testing.T) {
		r := Register()
		s := r.Init()
		steps := []struct {
			in   RegisterInput
			want RegisterOutput
		}{{Read(), ReadOK(0)}, {Write(3), WriteOK()}, {Read(), ReadOK(3)}, {Write(5), WriteOK()}, {Read(), ReadOK(5)}}
		for i, st := range steps {
			var out RegisterOutput
			s, out = r.Apply(s, st.in)
			if out != st.want {
				t.Errorf("step %d %v: got %v, want %v", i, st.in, out, st.want)
			}
		}
	})
	t.Run("cas-register", func(t *testing.T) {
		r := CASRegister()
		s := r.Init()
		steps := []struct {
			in   CASInput
			want CASOutput
		}{
			{CASInput{Op: CASRead}, CASOutput{OK: true, Absent: true}},
			{CASInput{Op: CASSwap, A: 0, B: 1}, CASOutput{}}, // absent: fails
			{CASInput{Op: CASWrite, A: 2}, CASOutput{OK: true}},
			{CASInput{Op: CASSwap, A: 1, B: 3}, CASOutput{}},
			{CASInput{Op: CASSwap, A: 2, B: 4}, CASOutput{OK: true}},
			{CASInput{Op: CASRead}, CASOutput{OK: true, Value: 4}},
		}
		for i, st := range steps {
			var out CASOutput
			s, out = r.Apply(s, st.in)
			if out != st.want {
				t.Errorf("step %d %v: got %+v, want %+v", i, st.in, out, st.want)
			}
		}
	})
	t.Run("kv", func(t *testing.T) {
		r := KV()
		s := r.Init()
		steps := []struct {
			in   KVInput
			want KVOutput
		}{{Get("x"), KVOutput{}}, {Put("x", "a"), KVOutput{}}, {Append("x", "b"), KVOutput{}}, {Get("x"), KVOutput{Value: "ab"}}}
		for i, st := range steps {
			var out KVOutput
			s, out = r.Apply(s, st.in)
			if out != st.want {
				t.Errorf("step %d %v: got %+v, want %+v", i, st.in, out, st.want)
			}
		}
		if got := r.Partition(Put("k", "v")); got != "k" {
			t.Errorf("Partition = %q, want k", got)
		}
	})
}

func TestDescribe(t *testing.T) {
	tests := []struct{ got, want string }{
		{Register().Input(Write(1)), "Write(1)"},
		{Register().Output(Write(1), WriteOK()), "ok"},
		{Register().Output(Read(), ReadOK(0)), "0"},
		{CASRegister().Input(CASInput{Op: CASSwap, A: 1, B: 2}), "CAS(1→2)"},
		{CASRegister().Output(CASInput{Op: CASRead}, CASOutput{OK: true, Absent: true}), "nil"},
		{CASRegister().Output(CASInput{Op: CASRead}, CASOutput{OK: true}), "0"},
		{CASRegister().Output(CASInput{Op: CASSwap}, CASOutput{}), "fail"},
		{KV().Input(Append("k", "x")), `Append(k, "x")`},
		{KV().Input(Get("\x1b[2Jk")), `Get("\x1b[2Jk")`},
		{KV().Input(Put("a key", "v")), `Put("a key", "v")`},
		{KV().Input(Get("")), `Get("")`},
		{KV().Output(Get("k"), KVOutput{Value: "v"}), `"v"`},
		{KV().Output(Put("k", "v"), KVOutput{}), "ok"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestErase(t *testing.T) {
	e := Erase(Register())
	s, out := e.Apply(e.Init(), Write(7))
	if out != any(WriteOK()) || s != any(7) {
		t.Errorf("erased Apply = %v, %v", s, out)
	}
	if !e.IsOutput(ReadOK(1)) || e.IsOutput("ok") || !e.IsInput(Read()) || e.IsInput(1) {
		t.Errorf("erased type checks are wrong")
	}
	if got := e.OutputType(); got != "specs.RegisterOutput" {
		t.Errorf("OutputType = %q", got)
	}
	if err := (Spec[int, int, int]{Name: "x"}).Validate(); err == nil {
		t.Errorf("a spec without Init validated")
	}
}

// A DescribeInput or DescribeOutput that panics is a bug of the user's: it is rendered
// as fmt renders a String method that panics, through Erase too, and goes no further.
func TestDescribePanicIsRendered(t *testing.T) {
	spec := Register()
	spec.DescribeInput = func(in RegisterInput) string { panic("no words") }
	spec.DescribeOutput = func(in RegisterInput, out RegisterOutput) string {
		var names []string
		return names[out.Value]
	}
	erased := Erase(spec)
	for _, tc := range []struct{ got, want string }{
		{spec.Input(Write(1)), "Write(1)(PANIC=DescribeInput: no words)"},
		{erased.Input(Write(1)), "Write(1)(PANIC=DescribeInput: no words)"},
		{spec.Output(Read(), ReadOK(2)), "{2}(PANIC=DescribeOutput: runtime error: index out of range [2] with length 0)"},
		{erased.Output(Read(), ReadOK(2)), "{2}(PANIC=DescribeOutput: runtime error: index out of range [2] with length 0)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// DescribePanic finds the panic that Input and Output render, through Erase and Keyed
// too, and nothing in a text without one.
func TestDescribePanic(t *testing.T) {
	spec := Register()
	spec.DescribeOutput = func(RegisterInput, RegisterOutput) string { panic("no words") }
	keyed := Keyed(spec)
	for _, tc := range []struct {
		name, text, want string
		ok               bool
	}{
		{"output", spec.Output(Read(), ReadOK(2)), "PANIC=DescribeOutput: no words", true},
		{"erased output", Erase(spec).Output(Read(), ReadOK(2)), "PANIC=DescribeOutput: no words", true},
		{"keyed output", keyed.Output(KeyedInput[RegisterInput]{Key: "a", In: Read()}, ReadOK(2)), "PANIC=DescribeOutput: no words", true},
		{"input", spec.Input(Write(1)), "", false},
		{"a text with parentheses", "Write(1)", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := DescribePanic(tc.text)
			if got != tc.want || ok != tc.ok {
				t.Errorf("DescribePanic(%q) = %q, %v; want %q, %v", tc.text, got, ok, tc.want, tc.ok)
			}
		})
	}
}
