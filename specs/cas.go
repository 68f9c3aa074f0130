package specs

import (
	"strconv"
)

// CASOp names an operation of the compare-and-set register.
type CASOp uint8

// The operations of the compare-and-set register.
const (
	CASRead CASOp = iota
	CASWrite
	CASSwap // compare-and-set: if the value is A, make it B
)

// CASInput is an operation on a compare-and-set register: a read, a write of A, or a
// compare-and-set from A to B. An Op other than CASRead, CASWrite and CASSwap is a read:
// String renders it "Read()" and CASRegister's Apply reads.
type CASInput struct {
	Op   CASOp
	A, B int
}

// String renders the input: "Read()", "Write(1)", "CAS(1→2)".
func (in CASInput) String() string {
	switch in.Op {
	case CASWrite:
		return "Write(" + strconv.Itoa(in.A) + ")"
	case CASSwap:
		return "CAS(" + strconv.Itoa(in.A) + "→" + strconv.Itoa(in.B) + ")"
	default:
		return "Read()"
	}
}

// CASOutput is a compare-and-set register's answer. A read gives OK true with Value, or
// with Absent when nothing was ever written; a write gives OK; a compare-and-set gives OK
// when it swapped. The outputs are compared whole, so a read's answer without OK,
// CASOutput{Value: 1}, is not the specification's CASOutput{OK: true, Value: 1}.
type CASOutput struct {
	OK     bool
	Absent bool
	Value  int
}

// CASState is the register's content: absent until the first write.
type CASState struct {
	Set   bool
	Value int
}

// CASRegister is a register with read, write and compare-and-set that starts absent, as
// in Jepsen's etcd tests: a read of the absent register answers Absent (Jepsen's nil) and
// a compare-and-set on it fails.
func CASRegister() Spec[CASState, CASInput, CASOutput] {
	return Spec[CASState, CASInput, CASOutput]{
		Name: "cas-register",
		Init: func() CASState { return CASState{} },
		Apply: func(s CASState, in CASInput) (CASState, CASOutput) {
			switch in.Op {
			case CASWrite:
				return CASState{Set: true, Value: in.A}, CASOutput{OK: true}
			case CASSwap:
				if s.Set && s.Value == in.A {
					return CASState{Set: true, Value: in.B}, CASOutput{OK: true}
				}
				return s, CASOutput{}
			default:
				if !s.Set {
					return s, CASOutput{OK: true, Absent: true}
				}
				return s, CASOutput{OK: true, Value: s.Value}
			}
		},
		DescribeInput: CASInput.String,
		DescribeOutput: func(in CASInput, out CASOutput) string {
			switch {
			case in.Op == CASRead && out.Absent:
				return "nil"
			case in.Op == CASRead:
				return strconv.Itoa(out.Value)
			case out.OK:
				return "ok"
			default:
				return "fail"
			}
		},
	}
}
