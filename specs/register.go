package specs

import "strconv"

// RegisterInput is an operation on a read/write register: a read, or a write of Value.
type RegisterInput struct {
	Write bool
	Value int
}

// RegisterOutput is what a register answers: the value read, or zero for a write.
type RegisterOutput struct {
	Value int
}

// String renders the input: "Write(1)", "Read()".
func (in RegisterInput) String() string {
	if in.Write {
		return "Write(" + strconv.Itoa(in.Value) + ")"
	}
	return "Read()"
}

// Read is the register's read operation.
func Read() RegisterInput { return RegisterInput{} }

// Write is the register's write of v.
func Write(v int) RegisterInput { return RegisterInput{Write: true, Value: v} }

// ReadOK is the answer to a read that saw v.
func ReadOK(v int) RegisterOutput { return RegisterOutput{Value: v} }

// WriteOK is the answer to a write.
func WriteOK() RegisterOutput { return RegisterOutput{} }

// Register is a read/write register holding an int that starts at 0.
func Register() Spec[int, RegisterInput, RegisterOutput] {
	return Spec[int, RegisterInput, RegisterOutput]{
		Name: "register",
		Init: func() int { return 0 },
		Apply: func(s int, in RegisterInput) (int, RegisterOutput) {
			if in.Write {
				return in.Value, RegisterOutput{}
			}
			return s, RegisterOutput{Value: s}
		},
		DescribeInput: RegisterInput.String,
		DescribeOutput: func(in RegisterInput, out RegisterOutput) string {
			if in.Write {
				return "ok"
			}
			return strconv.Itoa(out.Value)
		},
	}
}
