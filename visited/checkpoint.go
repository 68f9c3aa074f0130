package visited

import "errors"

// ErrNotDurable is returned by Checkpoint and Resume on a set opened without
// Options.Durable.
var ErrNotDurable = errors.New("visited set has no durable store")

// Checkpoint makes every fingerprint added so far durable in the store and returns the
// version that names this state of the set, for Resume. The in-memory table is written
// to the store as a sorted batch (as when it spills) and emptied, the store is synced,
// and later additions go to a new version, so a resume from this checkpoint can drop
// them. It needs Options.Durable.
func (v *Set) Checkpoint() (uint64, error) {
	if v.err != nil {
		return 0, v.err
	}
	if !v.durable {
		return 0, ErrNotDurable
	}
	if v.used > 0 || v.zero {
		if err := v.spillAll(); err != nil {
			return 0, err
		}
	}
	if err := v.store.sync(); err != nil {
		return 0, v.fail("sync", err)
	}
	ver := v.store.version
	if err := guard(func() error { v.store.setVersion(ver + 1); return nil }); err != nil {
		return 0, v.fail("write", err)
	}
	return ver, nil
}

// spillAll writes the table's fingerprints, and 0 if it was added, to the store: a spill
// of a table that need not be full.
func (v *Set) spillAll() error {
	if v.zero && !v.zeroStored {
		if v.used >= v.limit {
			if err := v.makeRoom(); err != nil {
				return err
			}
		}
		// 0 marks an empty slot, so it cannot go through the table: write it alone.
		if err := v.store.write([]uint64{0}); err != nil {
			return v.fail("write", err)
		}
		v.zeroStored = true
		v.st.Spilled++
		if err := v.updateFilter([]uint64{0}); err != nil {
			return err
		}
	}
	if v.used == 0 {
		return nil
	}
	return v.spill()
}

// Resume makes the set hold exactly the fingerprints of the checkpoint that returned
// version: whatever was added after it (by a run killed before its next checkpoint) is
// dropped from the store. It must be called once, right after Open, on a set opened with
// the checkpoint's Options.Durable.
func (v *Set) Resume(version uint64) error {
	if v.err != nil {
		return v.err
	}
	if !v.durable {
		return ErrNotDurable
	}
	if v.st.States != 0 {
		return errors.New("visited set: Resume after Add")
	}
	kept, err := v.store.dropAfter(version, func(fp uint64) {
		if fp == 0 {
			v.zero, v.zeroStored = true, true
		}
	})
	if err != nil {
		return v.fail("read", err)
	}
	v.st.States, v.st.Spilled = kept, kept
	if kept == 0 {
		return nil
	}
	bytes := v.memCap - int64(v.maxLen)*8
	v.filter = newVisitedFilter(bytes, max(uint64(bytes)*8/filterTargetBitsPerKey, 2*kept))
	if err := v.store.scan(v.filter.add); err != nil {
		return v.fail("scan", err)
	}
	return nil
}
