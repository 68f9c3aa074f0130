package specs

import (
	"strconv"
	"strings"
)

// KeyedInput is an input of spec's object stored under Key.
type KeyedInput[I comparable] struct {
	Key string
	In  I
}

// Keyed is a map from keys to independent copies of spec's object, each starting at
// spec.Init(): Keyed(CASRegister()) is a store of compare-and-set registers, as a
// key-value service with reads, writes and compare-and-set is. It is partitioned by key,
// so the checker checks each key on its own. When spec is partitioned itself
// (Keyed(KV()): a map of maps), each key's partitions are checked on their own too: the
// partition of key "x" and spec's partition "a" is "x.a" (with x quoted when it holds a
// dot or starts with a quote, so that two pairs never share a partition).
func Keyed[S, I, O comparable](spec Spec[S, I, O]) Spec[S, KeyedInput[I], O] {
	k := Spec[S, KeyedInput[I], O]{
		Name:      "keyed-" + spec.Name,
		Init:      spec.Init,
		Partition: func(in KeyedInput[I]) string { return in.Key },
		DescribeInput: func(in KeyedInput[I]) string {
			return in.Key + "." + spec.Input(in.In)
		},
		DescribeOutput: func(in KeyedInput[I], out O) string { return spec.Output(in.In, out) },
	}
	if spec.Apply != nil {
		k.Apply = func(s S, in KeyedInput[I]) (S, O) { return spec.Apply(s, in.In) }
	}
	if inner := spec.Partition; inner != nil {
		// Without the inner partition, every key of one key's KV would share one state.
		k.Partition = func(in KeyedInput[I]) string { return keyPrefix(in.Key) + inner(in.In) }
	}
	return k
}

// keyPrefix is key followed by a dot, quoted when a dot in it or a leading quote would
// let two keys and inner partitions run together.
func keyPrefix(key string) string {
	if strings.Contains(key, ".") || strings.HasPrefix(key, `"`) {
		return strconv.Quote(key) + "."
	}
	return key + "."
}
