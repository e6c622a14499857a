package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/wire"
)

// An index can be saved with its snapshot and read back (package corpus
// keeps both in its cache between runs): AppendBinary writes its segments,
// DecodeIndex reads them for the snapshot decoded beside them, and Restore
// attaches the result. A build that follows (Build on the snapshot an
// update makes of the decoded one) reuses every segment whose docs the
// update did not read again, as after an edit.

// ErrCorrupt says that bytes given to DecodeIndex are not an index's
// encoding, or not one this build can use.
var ErrCorrupt = errors.New("not a saved search index")

// layout identifies how this build lays an index out and which grams it
// indexes: the encoding's version, the sizes that cut docs into segments
// and units, and the hashes and fold classes of a few grams. An index saved
// by a build that differs in any of them would find other candidates, so
// DecodeIndex refuses it. Change encodingVersion with the encoding.
func layout() uint64 {
	const encodingVersion = 1
	x := mix(encodingVersion<<48 | SegmentBytes<<16 | UnitBytes)
	for _, g := range [][3]rune{{'a', 'b', 'c'}, {'K', 'ſ', 'ß'}, {'Σ', 'ς', 'İ'}} {
		x = mix(x ^ hash3(foldClass(g[0]), foldClass(g[1]), foldClass(g[2])))
		x = mix(x ^ hash2(foldClass(g[0]), foldClass(g[1])) ^ hash1(foldClass(g[2])))
	}
	return x
}

// AppendBinary appends the encoding of ix to b. Its docs are not in it:
// they are the snapshot's, saved with it (docs.Snapshot.AppendBinary).
// Only an index that is not stacked (see Stack) can be saved: DecodeIndex
// refuses the encoding of one that is.
func (ix *Index) AppendBinary(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, layout())
	b = binary.AppendUvarint(b, uint64(len(ix.segs)))
	for i, sg := range ix.segs {
		b = binary.AppendUvarint(b, uint64(ix.lens[i]))
		b = wire.AppendUint32s(b, sg.units)
		b = append(b, byte(sg.shift))
		b = binary.AppendUvarint(b, uint64(len(sg.dir)))
		for _, w := range sg.dir {
			b = binary.LittleEndian.AppendUint64(b, w.used)
			b = binary.LittleEndian.AppendUint64(b, w.dense)
		}
		b = wire.AppendUint32s(b, sg.start)
		b = wire.AppendBytes(b, sg.data)
		b = binary.AppendVarint(b, sg.corpus)
		b = binary.AppendUvarint(b, uint64(sg.pairs))
	}
	return b
}

// DecodeIndex returns the index of snap that AppendBinary encoded in data.
// Its posting lists are data's bytes, not copies: data must never be
// written again. Bytes that are not such an encoding, or one that does not
// describe snap's docs, give an error wrapping ErrCorrupt, never a panic;
// what is checked is what a search relies on not to fail (every list lies
// in its segment's data, bitmaps are whole, each list ends), not that the
// lists are the ones a build would make: the cache's checksum keeps what
// was written.
func DecodeIndex(data []byte, snap *docs.Snapshot) (*Index, error) {
	if len(data) < 8 || binary.LittleEndian.Uint64(data) != layout() {
		return nil, fmt.Errorf("%w: saved by a build that lays indexes out otherwise", ErrCorrupt)
	}
	d := wire.NewReader(data[8:], ErrCorrupt)
	all := snap.Docs()
	n := d.Count(1)
	ix := &Index{snap: snap, segs: make([]*segment, 0, n), offs: make([]int, 0, n), lens: make([]int, 0, n)}
	off := 0
	for range n {
		size := int(d.Uvarint())
		if d.Err() != nil || size < 1 || size > len(all)-off {
			return nil, fmt.Errorf("%w: a segment past the docs", ErrCorrupt)
		}
		sg := &segment{docs: all[off : off+size]}
		sg.units = d.Uint32s()
		sg.shift = uint(d.Byte())
		sg.dir = make([]bucketWord, d.Count(16))
		for i := range sg.dir {
			sg.dir[i] = bucketWord{used: d.Uint64(), dense: d.Uint64()}
		}
		sg.start = d.Uint32s()
		sg.data = d.Bytes()
		sg.corpus = d.Varint()
		sg.pairs = int(d.Uvarint())
		if d.Err() != nil {
			return nil, d.Err()
		}
		if err := sg.check(); err != nil {
			return nil, fmt.Errorf("%w: segment %d: %v", ErrCorrupt, len(ix.segs), err)
		}
		ix.segs, ix.offs, ix.lens = append(ix.segs, sg), append(ix.offs, off), append(ix.lens, size)
		off += size
	}
	switch {
	case d.Err() != nil:
		return nil, d.Err()
	case off != len(all):
		return nil, fmt.Errorf("%w: segments for %d of %d docs", ErrCorrupt, off, len(all))
	case d.Len() != 0:
		return nil, fmt.Errorf("%w: %d bytes after the end", ErrCorrupt, d.Len())
	}
	ix.tally()
	ix.stats.ReusedDocs = ix.stats.Docs // every segment taken over, none built
	return ix, nil
}

// check checks a decoded segment's shape, and sets what the encoding
// leaves out: the directory's ranks, and the count of bitmaps.
func (sg *segment) check() error {
	if sg.units != nil {
		if len(sg.units) < 2 || sg.units[0] != 0 || int(sg.units[len(sg.units)-1]) != len(sg.docs) {
			return errors.New("units that do not cover its docs")
		}
		for i := 1; i < len(sg.units); i++ {
			if sg.units[i] <= sg.units[i-1] {
				return errors.New("units out of order")
			}
		}
	}
	if sg.shift < 40 || sg.shift > 63 || len(sg.dir) != (1<<(64-sg.shift)+63)/64 {
		return errors.New("a bucket table of the wrong size")
	}
	lists := 0
	for i := range sg.dir {
		w := &sg.dir[i]
		if w.dense&^w.used != 0 {
			return errors.New("a bitmap in an empty bucket")
		}
		w.rank = uint32(lists)
		lists += bits.OnesCount64(w.used)
		sg.bitmaps += bits.OnesCount64(w.dense)
	}
	if len(sg.start) != lists+1 || sg.start[0] != 0 || int(sg.start[lists]) != len(sg.data) {
		return errors.New("list offsets that do not cover its data")
	}
	for i := 1; i < len(sg.start); i++ {
		if sg.start[i] <= sg.start[i-1] {
			return errors.New("list offsets out of order, or an empty list")
		}
	}
	bitmapBytes := (sg.nunits() + 63) / 64 * 8
	list := 0
	for _, w := range sg.dir {
		for used := w.used; used != 0; used &= used - 1 {
			bit := uint64(1) << bits.TrailingZeros64(used)
			from, to := sg.start[list], sg.start[list+1]
			list++
			if w.dense&bit != 0 {
				if int(to-from) != bitmapBytes {
					return errors.New("a bitmap of the wrong length")
				}
				continue
			}
			// A list of uvarints must end with a byte that ends one, and
			// hold none longer than a unit number takes (5 bytes), so that
			// reading it always moves on.
			run := 0
			for _, c := range sg.data[from:to] {
				if run++; c < 0x80 {
					run = 0
				} else if run == 5 {
					return errors.New("a posting list with an overlong number")
				}
			}
			if run != 0 {
				return errors.New("a posting list cut short")
			}
		}
	}
	return nil
}
