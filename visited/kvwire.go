package visited

import (
	"encoding/binary"

	"github.com/dgraph-io/ristretto/v2/z"
)

// appendKV appends to buf the entry a stream writer reads for one fingerprint: badger's
// pb.KV message with the 8-byte big-endian key fp, the value val, the version and, for a
// deletion, the meta byte bitDelete — the bytes badger.KVToBuffer writes for that message.
//
// Why not KVToBuffer: it marshals through the protobuf runtime's reflection, about 0.2 µs
// and an allocation per key; on gossip with 4 agents spilling at 1 MiB that was 0.5 of the
// 8.7 CPU seconds (docs/visited-states.md). The message is fixed and tiny, so it is
// written here in protobuf's wire format, fields in number order with proto3's rule that
// an empty or zero field is left out, as the Go protobuf marshaller does;
// TestAppendKVMatchesBadger compares the bytes with KVToBuffer's.
func appendKV(buf *z.Buffer, fp uint64, val []byte, version uint64, del bool) {
	const (
		tagKey     = 1<<3 | 2 // field 1, length-delimited
		tagValue   = 2<<3 | 2
		tagVersion = 4<<3 | 0 // field 4, varint
		tagMeta    = 6<<3 | 2
	)
	n := 2 + 8
	if len(val) > 0 {
		n += 1 + uvarintLen(uint64(len(val))) + len(val)
	}
	if version != 0 {
		n += 1 + uvarintLen(version)
	}
	if del {
		n += 3
	}
	out := buf.SliceAllocate(n)[:0]
	out = append(out, tagKey, 8)
	out = binary.BigEndian.AppendUint64(out, fp)
	if len(val) > 0 {
		out = append(out, tagValue)
		out = binary.AppendUvarint(out, uint64(len(val)))
		out = append(out, val...)
	}
	if version != 0 {
		out = append(out, tagVersion)
		out = binary.AppendUvarint(out, version)
	}
	if del {
		out = append(out, tagMeta, 1, bitDelete)
	}
	_ = out
}

// uvarintLen is the length of x as a uvarint.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}
