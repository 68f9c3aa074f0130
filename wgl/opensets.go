package wgl

// openSets interns the sets of open operations that the memo's configurations hold, as
// lists sorted by decreasing rank that share their tails: set 0 is empty, and set k > 0
// is its rank top[k] added to set rest[k], every rank of which is smaller. Each set has
// one number, so two configurations hold the same open operations exactly when their
// numbers are equal; and adding or removing an operation of the highest rank, which is
// what the search mostly does (operations called later are linearized later), takes one
// lookup.
type openSets struct {
	rest, top []int32
	// last[k] is the set last made by adding a rank to set k, which the search, going
	// back and forth, mostly asks for again: it spares most map lookups.
	last []int32
	ids  map[uint64]int32 // rest<<32 | top → set
}

func (o *openSets) reset() {
	o.rest, o.top, o.last = append(o.rest[:0], 0), append(o.top[:0], -1), append(o.last[:0], 0)
	if o.ids == nil {
		o.ids = make(map[uint64]int32)
	}
	clear(o.ids)
}

// cons returns the set of rank r added to set rest, whose ranks are all smaller.
func (o *openSets) cons(rest, r int32) int32 {
	if l := o.last[rest]; l != 0 && o.top[l] == r {
		return l
	}
	k := uint64(rest)<<32 | uint64(uint32(r))
	id, ok := o.ids[k]
	if !ok {
		id = int32(len(o.top))
		o.rest, o.top, o.last = append(o.rest, rest), append(o.top, r), append(o.last, 0)
		o.ids[k] = id
	}
	o.last[rest] = id
	return id
}

// flip returns set with rank r added, or removed if it is there.
func (o *openSets) flip(set, r int32) int32 {
	switch t := o.top[set]; {
	case set == 0 || t < r:
		return o.cons(set, r)
	case t == r:
		return o.rest[set]
	default:
		return o.cons(o.flip(o.rest[set], r), t)
	}
}

func (o *openSets) bytes() int64 {
	return int64(cap(o.rest)+cap(o.top)+cap(o.last))*4 + int64(len(o.ids))*24
}
