package specs

import "testing"

func TestKeyed(t *testing.T) {
	k := Keyed(CASRegister())
	if err := k.Validate(); err != nil {
		t.Fatal(err)
	}
	s := k.Init()
	steps := []struct {
		in   KeyedInput[CASInput]
		want CASOutput
		desc string
	}{
		{KeyedInput[CASInput]{"x", CASInput{Op: CASRead}}, CASOutput{OK: true, Absent: true}, "nil"},
		{KeyedInput[CASInput]{"x", CASInput{Op: CASWrite, A: 1}}, CASOutput{OK: true}, "ok"},
		{KeyedInput[CASInput]{"x", CASInput{Op: CASSwap, A: 1, B: 2}}, CASOutput{OK: true}, "ok"},
		{KeyedInput[CASInput]{"x", CASInput{Op: CASSwap, A: 1, B: 3}}, CASOutput{}, "fail"},
		{KeyedInput[CASInput]{"x", CASInput{Op: CASRead}}, CASOutput{OK: true, Value: 2}, "2"},
	}
	for _, st := range steps {
		var out CASOutput
		s, out = k.Apply(s, st.in)
		if out != st.want {
			t.Errorf("%s = %+v, want %+v", k.Input(st.in), out, st.want)
		}
		if got := k.Output(st.in, out); got != st.desc {
			t.Errorf("Output(%s) = %q, want %q", k.Input(st.in), got, st.desc)
		}
	}
	if got := k.Partition(KeyedInput[CASInput]{Key: "y"}); got != "y" {
		t.Errorf("Partition = %q, want y", got)
	}
	if got := k.Input(KeyedInput[CASInput]{"x", CASInput{Op: CASWrite, A: 4}}); got != "x.Write(4)" {
		t.Errorf("Input = %q", got)
	}
	if k.Name != "keyed-cas-register" {
		t.Errorf("Name = %q", k.Name)
	}
}
