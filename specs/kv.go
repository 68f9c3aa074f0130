package specs

import (
	"strconv"
	"strings"
)

// KVOp names an operation of the key-value map.
type KVOp uint8

// The operations of the key-value map.
const (
	KVGet KVOp = iota
	KVPut
	KVAppend
)

// KVInput is an operation on one key of a key-value map. An Op other than KVGet, KVPut
// and KVAppend is a Get, for String and for the specification's Apply alike.
type KVInput struct {
	Op    KVOp
	Key   string
	Value string
}

// String renders the input: "Get(k)", "Put(k, \"v\")", "Append(k, \"v\")". A key
// that is not a plain word is quoted as values are, so that a recorded key holding
// spaces, punctuation or terminal escape codes prints as what it is.
func (in KVInput) String() string {
	key := quoteKey(in.Key)
	switch in.Op {
	case KVPut:
		return "Put(" + key + ", " + strconv.Quote(in.Value) + ")"
	case KVAppend:
		return "Append(" + key + ", " + strconv.Quote(in.Value) + ")"
	default:
		return "Get(" + key + ")"
	}
}

// quoteKey returns k bare when it is made of ASCII letters, digits and _ - . : / only,
// and quoted otherwise.
func quoteKey(k string) string {
	if k == "" {
		return `""`
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_-.:/", c) >= 0) {
			return strconv.Quote(k)
		}
	}
	return k
}

// KVOutput is the map's answer: the value a get saw; empty for put and append.
type KVOutput struct {
	Value string
}

// Get reads key.
func Get(key string) KVInput { return KVInput{Op: KVGet, Key: key} }

// Put sets key to value.
func Put(key, value string) KVInput { return KVInput{Op: KVPut, Key: key, Value: value} }

// Append appends value to key's value.
func Append(key, value string) KVInput { return KVInput{Op: KVAppend, Key: key, Value: value} }

// KV is a map from string keys to string values, every key starting as "", with get,
// put and append. It is partitioned by key: its state is the value of one key.
func KV() Spec[string, KVInput, KVOutput] {
	return Spec[string, KVInput, KVOutput]{
		Name: "kv",
		Init: func() string { return "" },
		Apply: func(s string, in KVInput) (string, KVOutput) {
			switch in.Op {
			case KVPut:
				return in.Value, KVOutput{}
			case KVAppend:
				return s + in.Value, KVOutput{}
			default:
				return s, KVOutput{Value: s}
			}
		},
		Partition:     func(in KVInput) string { return in.Key },
		DescribeInput: KVInput.String,
		DescribeOutput: func(in KVInput, out KVOutput) string {
			if in.Op != KVGet {
				return "ok"
			}
			return strconv.Quote(out.Value)
		},
	}
}
