package specs

// KeyedInput is an input of spec's object stored under Key.
type KeyedInput[I comparable] struct {
	Key string
	In  I
}

// Keyed is a map from keys to independent copies of spec's object, each starting at
// spec.Init(): Keyed(CASRegister()) is a store of compare-and-set registers, as a
// key-value service with reads, writes and compare-and-set is. It is partitioned by key,
// so the checker checks each key on its own. spec must not be partitioned itself.
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
	return k
}
