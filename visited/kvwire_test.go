package visited

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"
)

// TestAppendKVMatchesBadger: appendKV writes, for every kind of entry the visited set
// writes (and more: long values, big versions), exactly the bytes badger's own
// KVToBuffer writes for the same message.
func TestAppendKVMatchesBadger(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	type entry struct {
		fp      uint64
		val     []byte
		version uint64
		del     bool
	}
	cases := []entry{
		{0, nil, 0, false},
		{math.MaxUint64, nil, storeVersion, false},
		{1, []byte{1}, storeVersion, false},
		{2, nil, storeVersion, true},
		{3, binary.AppendUvarint(nil, 1<<40), math.MaxUint64, false},
		{4, bytes.Repeat([]byte{7}, 200), 300, false},
	}
	for range 500 {
		e := entry{fp: r.Uint64(), version: r.Uint64N(1 << r.UintN(64)), del: r.IntN(3) == 0}
		if !e.del && r.IntN(2) == 0 {
			e.val = binary.AppendUvarint(nil, r.Uint64N(1<<r.UintN(64)))
		}
		cases = append(cases, e)
	}
	for i, e := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			want := z.NewBuffer(64, "test")
			defer want.Release()
			var key [8]byte
			binary.BigEndian.PutUint64(key[:], e.fp)
			kv := pb.KV{Key: key[:], Value: e.val, Version: e.version}
			if e.del {
				kv.Meta = []byte{bitDelete}
			}
			badger.KVToBuffer(&kv, want)
			got := z.NewBuffer(64, "test")
			defer got.Release()
			appendKV(got, e.fp, e.val, e.version, e.del)
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("appendKV(%x, %x, %d, %v) = %x, want %x", e.fp, e.val, e.version, e.del, got.Bytes(), want.Bytes())
			}
		})
	}
}
