package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
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
func (ix *Index) AppendBinary(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, layout())
	b = binary.AppendUvarint(b, uint64(len(ix.segs)))
	for i, sg := range ix.segs {
		b = binary.AppendUvarint(b, uint64(ix.lens[i]))
		b = appendUint32s(b, sg.units)
		b = append(b, byte(sg.shift))
		b = binary.AppendUvarint(b, uint64(len(sg.dir)))
		for _, w := range sg.dir {
			b = binary.LittleEndian.AppendUint64(b, w.used)
			b = binary.LittleEndian.AppendUint64(b, w.dense)
		}
		b = appendUint32s(b, sg.start)
		b = binary.AppendUvarint(b, uint64(len(sg.data)))
		b = append(b, sg.data...)
		b = binary.AppendVarint(b, sg.corpus)
		b = binary.AppendUvarint(b, uint64(sg.pairs))
	}
	return b
}

func appendUint32s(b []byte, v []uint32) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, x)
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
	d := &decoder{data: data}
	if len(data) < 8 || binary.LittleEndian.Uint64(data) != layout() {
		return nil, fmt.Errorf("%w: saved by a build that lays indexes out otherwise", ErrCorrupt)
	}
	d.data = data[8:]
	all := snap.Docs()
	n := d.count(1)
	ix := &Index{snap: snap, segs: make([]*segment, 0, n), offs: make([]int, 0, n), lens: make([]int, 0, n)}
	off := 0
	for range n {
		size := int(d.uvarint())
		if d.err != nil || size < 1 || size > len(all)-off {
			return nil, fmt.Errorf("%w: a segment past the docs", ErrCorrupt)
		}
		sg := &segment{docs: all[off : off+size]}
		sg.units = d.uint32s()
		sg.shift = uint(d.byte())
		sg.dir = make([]bucketWord, d.count(16))
		for i := range sg.dir {
			sg.dir[i] = bucketWord{used: d.uint64(), dense: d.uint64()}
		}
		sg.start = d.uint32s()
		sg.data = d.bytes()
		sg.corpus = d.varint()
		sg.pairs = int(d.uvarint())
		if d.err != nil {
			return nil, d.err
		}
		if err := sg.check(); err != nil {
			return nil, fmt.Errorf("%w: segment %d: %v", ErrCorrupt, len(ix.segs), err)
		}
		ix.segs, ix.offs, ix.lens = append(ix.segs, sg), append(ix.offs, off), append(ix.lens, size)
		off += size
	}
	switch {
	case d.err != nil:
		return nil, d.err
	case off != len(all):
		return nil, fmt.Errorf("%w: segments for %d of %d docs", ErrCorrupt, off, len(all))
	case len(d.data) != 0:
		return nil, fmt.Errorf("%w: %d bytes after the end", ErrCorrupt, len(d.data))
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

// decoder reads an encoding; the first fault is kept in err, after which
// every read gives zero values.
type decoder struct {
	data []byte
	err  error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, what)
	}
	d.data = nil
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.fail("a number cut short")
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.data)
	if n <= 0 {
		d.fail("a number cut short")
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.data) < 1 {
		d.fail("a byte cut short")
		return 0
	}
	b := d.data[0]
	d.data = d.data[1:]
	return b
}

func (d *decoder) uint64() uint64 {
	if len(d.data) < 8 {
		d.fail("a word cut short")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.data)
	d.data = d.data[8:]
	return v
}

// count reads a count of items that take at least size bytes each, which
// the bytes left must be able to hold.
func (d *decoder) count(size int) int {
	n := d.uvarint()
	if n > uint64(len(d.data)/size) {
		d.fail("a count larger than the bytes left")
		return 0
	}
	return int(n)
}

// uint32s reads a count and that many little-endian uint32s; a count of 0
// gives nil.
func (d *decoder) uint32s() []uint32 {
	n := d.count(4)
	if n == 0 {
		return nil
	}
	v := make([]uint32, n)
	for i := range v {
		v[i] = binary.LittleEndian.Uint32(d.data[4*i:])
	}
	d.data = d.data[4*n:]
	return v
}

// bytes reads a length and that many bytes, shared with data.
func (d *decoder) bytes() []byte {
	n := d.count(1)
	b := d.data[:n:n]
	d.data = d.data[n:]
	return b
}
