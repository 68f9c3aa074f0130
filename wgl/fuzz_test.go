package wgl

import (
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// fuzzMaxOps keeps decoded histories small enough for CheckBruteForce.
const fuzzMaxOps = 12

// decodeOps turns data into up to fuzzMaxOps operations, four bytes each: the input
// (decoded by input), the call time, the duration with the top bit marking an open
// operation, and the output (decoded by output).
func decodeOps[I, O any](data []byte, input func(b byte) I, output func(in I, b byte) O) []histories.Operation[I, O] {
	var ops []histories.Operation[I, O]
	for len(data) >= 4 && len(ops) < fuzzMaxOps {
		in := input(data[0])
		call := int64(data[1] % 16)
		ops = append(ops, histories.Operation[I, O]{
			Client: len(ops), Input: in, Output: output(in, data[3]),
			Call: call, Return: call + int64(data[2]%8), Open: data[2]&0x80 != 0,
		})
		data = data[4:]
	}
	return ops
}

// FuzzCheck compares Check with CheckBruteForce (and the witness with the history) on
// small histories of the register, the compare-and-set register and the key-value map,
// chosen by the first byte.
func FuzzCheck(f *testing.F) {
	// Seeds: a stale read; a concurrent read; an open write that must take effect; a
	// failing cas; two appends and a get; identical open writes.
	f.Add([]byte{0, 3, 0, 1, 0, 0, 2, 1, 0})
	f.Add([]byte{0, 3, 0, 5, 0, 0, 1, 1, 1})
	f.Add([]byte{0, 3, 0, 0x80, 0, 0, 1, 1, 1})
	f.Add([]byte{1, 1, 0, 1, 0, 6, 2, 1, 0, 0, 4, 1, 1})
	f.Add([]byte{2, 2, 0, 4, 0, 10, 0, 4, 0, 0, 5, 1, 3})
	f.Add([]byte{0, 3, 0, 0x80, 0, 3, 1, 0x80, 0, 0, 2, 1, 1, 0, 4, 1, 0, 3, 6, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		which, data := data[0]%3, data[1:]
		var err error
		switch which {
		case 0:
			ops := decodeOps(data,
				func(b byte) specs.RegisterInput {
					if b&1 == 0 {
						return specs.Read()
					}
					return specs.Write(1 + int(b>>1)%3)
				},
				func(in specs.RegisterInput, b byte) specs.RegisterOutput {
					if in.Write {
						return specs.WriteOK()
					}
					return specs.ReadOK(int(b % 4))
				})
			_, err = agree(specs.Register(), ops, false)
			if err != nil {
				t.Fatalf("%v; history:%s", err, describe(specs.Register(), ops))
			}
		case 1:
			ops := decodeOps(data,
				func(b byte) specs.CASInput {
					return specs.CASInput{Op: specs.CASOp(b % 3), A: int(b>>2) % 3, B: int(b>>4) % 3}
				},
				func(in specs.CASInput, b byte) specs.CASOutput {
					switch {
					case in.Op == specs.CASRead && b%4 == 3:
						return specs.CASOutput{OK: true, Absent: true}
					case in.Op == specs.CASRead:
						return specs.CASOutput{OK: true, Value: int(b % 3)}
					case in.Op == specs.CASSwap:
						return specs.CASOutput{OK: b&1 == 1}
					default:
						return specs.CASOutput{OK: true}
					}
				})
			if _, err = agree(specs.CASRegister(), ops, false); err != nil {
				t.Fatalf("%v; history:%s", err, describe(specs.CASRegister(), ops))
			}
		default:
			reads := []string{"", "x", "y", "xy", "yx", "xx"}
			ops := decodeOps(data,
				func(b byte) specs.KVInput {
					key, value := string(rune('a'+b&1)), string(rune('x'+(b>>3)&1))
					return specs.KVInput{Op: specs.KVOp((b >> 1) % 3), Key: key, Value: value}
				},
				func(in specs.KVInput, b byte) specs.KVOutput {
					if in.Op != specs.KVGet {
						return specs.KVOutput{}
					}
					return specs.KVOutput{Value: reads[int(b)%len(reads)]}
				})
			if _, err = agree(specs.KV(), ops, false); err != nil {
				t.Fatalf("%v; history:%s", err, describe(specs.KV(), ops))
			}
		}
	})
}
