package docs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/klauspost/compress/s2"
)

// A snapshot can be saved and read back (package corpus keeps it in its
// cache between runs): AppendBinary writes its docs as they are held, each
// with the stamp of the file it was read from; DecodeSnapshot makes a
// snapshot of them again, whose docs share the bytes they are decoded from.
// A decoded snapshot is not trusted as it is: its docs are as they were
// when saved, and Update with Changes.All, which re-reads every file whose
// stamp moved, makes it true to the disk. A doc saved while racy (see
// markRacy) is saved without its stamp, so that update reads it again.

// ErrCorrupt says that bytes given to DecodeSnapshot are not a snapshot's
// encoding.
var ErrCorrupt = errors.New("not a saved snapshot")

// AppendBinary appends the encoding of s to b: its docs in path order
// (path, size, stamp, line count, and the text as held, compressed or
// not), the files it skipped with the stamps that keep them skipped, and
// the dictionary its docs are compressed against.
func (s *Snapshot) AppendBinary(b []byte) []byte {
	var dict []byte
	if s.codec != nil {
		dict = s.codec.dict.Bytes()
	}
	b = appendBytes(b, dict)
	b = binary.AppendUvarint(b, uint64(len(s.docs)))
	for _, d := range s.docs {
		st := d.stamp
		if d.racy {
			st = stamp{} // matches no file: read it again
		}
		var flags byte
		if d.packed {
			flags |= flagPacked
		}
		if d.dict != nil {
			flags |= flagDict
		}
		if d.outline != nil {
			flags |= flagOutline
		}
		b = appendBytes(b, []byte(d.Path))
		b = binary.AppendVarint(b, d.Size)
		b = appendStamp(b, st)
		b = binary.AppendUvarint(b, uint64(d.lines))
		b = append(b, flags)
		b = appendBytes(b, bytesOf(d.body))
	}
	b = binary.AppendUvarint(b, uint64(len(s.skipped)))
	for _, k := range s.skipped {
		b = appendBytes(b, []byte(k.Path))
		b = appendBytes(b, []byte(k.Reason))
		b = appendStamp(b, k.stamp)
	}
	return b
}

// The flags of a saved doc.
const (
	flagPacked  = 1 << iota // the text is compressed
	flagDict                // against the snapshot's dictionary
	flagOutline             // the doc keeps its outline (see Doc.Outline)
)

// DecodeSnapshot returns the snapshot that AppendBinary encoded in data, at
// the given generation. Its docs' texts are data's bytes, not copies: data must
// never be written again, and lives as long as one of them. Bytes that are
// not such an encoding give an error wrapping ErrCorrupt, never a panic.
func DecodeSnapshot(data []byte, generation uint64) (*Snapshot, error) {
	d := decoder{data: data}
	if len(data) > 0 {
		d.text = unsafe.String(&data[0], len(data))
	}
	s := &Snapshot{generation: generation}
	if dict := d.bytes(); len(dict) > 0 {
		sd := s2.NewDict(dict)
		if sd == nil {
			return nil, fmt.Errorf("%w: a dictionary s2 refuses", ErrCorrupt)
		}
		s.codec = &codec{dict: sd}
	}
	n := d.count(8)
	s.docs = make([]*Doc, 0, n)
	for range n {
		doc := &Doc{Path: d.string(), Size: d.varint()}
		doc.stamp = d.stamp()
		doc.lines = int(d.uvarint())
		flags := d.byte()
		doc.body = d.string()
		doc.packed = flags&flagPacked != 0
		if flags&flagDict != 0 {
			if s.codec == nil || !doc.packed {
				return nil, fmt.Errorf("%w: %s: compressed against a dictionary the snapshot lacks", ErrCorrupt, doc.Path)
			}
			doc.dict = s.codec.dict
		}
		if d.err != nil {
			return nil, d.err
		}
		if err := checkSaved(doc, s.docs); err != nil {
			return nil, err
		}
		if flags&flagOutline != 0 {
			// Made again, as the load makes it: no request makes one.
			// Only docs of many headings keep one, and a saved outline
			// would be one more encoding to keep true.
			text, err := doc.decodedText()
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, doc.Path, err)
			}
			doc.keepOutline(text)
		}
		s.docs = append(s.docs, doc)
	}
	k := d.count(3)
	for range k {
		s.skipped = append(s.skipped, Skipped{Path: d.string(), Reason: d.string(), stamp: d.stamp()})
	}
	switch {
	case d.err != nil:
		return nil, d.err
	case len(d.data) != 0:
		return nil, fmt.Errorf("%w: %d bytes after the end", ErrCorrupt, len(d.data))
	}
	return s, nil
}

// checkSaved checks what a decoded doc must be for the snapshot's methods
// to hold: a clean path after the docs before it, and a compressed text
// that says its length.
func checkSaved(d *Doc, before []*Doc) error {
	if clean, err := CleanPath(d.Path); err != nil || clean != d.Path {
		return fmt.Errorf("%w: doc path %q", ErrCorrupt, d.Path)
	}
	if n := len(before); n > 0 && strings.Compare(before[n-1].Path, d.Path) >= 0 {
		return fmt.Errorf("%w: %s out of path order", ErrCorrupt, d.Path)
	}
	if d.packed {
		if n, err := s2.DecodedLen(bytesOf(d.body)); err != nil || int64(n) > d.Size {
			return fmt.Errorf("%w: %s: a compressed text of the wrong length", ErrCorrupt, d.Path)
		}
	}
	return nil
}

func appendBytes(b, v []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

func appendStamp(b []byte, st stamp) []byte {
	b = binary.AppendVarint(b, st.size)
	b = binary.AppendVarint(b, st.mod)
	return binary.AppendUvarint(b, st.ino)
}

// decoder reads an encoding; the first fault is kept in err, after which
// every read gives zero values.
type decoder struct {
	data []byte
	text string // data as a string, for strings that share its bytes
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
	d.advance(n)
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.data)
	if n <= 0 {
		d.fail("a number cut short")
		return 0
	}
	d.advance(n)
	return v
}

func (d *decoder) byte() byte {
	if len(d.data) == 0 {
		d.fail("a flag cut short")
		return 0
	}
	b := d.data[0]
	d.advance(1)
	return b
}

// count reads a count of items that take at least min bytes each, which
// the bytes left must be able to hold.
func (d *decoder) count(min int) int {
	n := d.uvarint()
	if n > uint64(len(d.data)/min) {
		d.fail("a count larger than the bytes left")
		return 0
	}
	return int(n)
}

// bytes reads a length and that many bytes, shared with data.
func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.data)) {
		d.fail("a text cut short")
		return nil
	}
	b := d.data[:n:n]
	d.advance(int(n))
	return b
}

// string is bytes as a string sharing data's bytes.
func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.data)) {
		d.fail("a text cut short")
		return ""
	}
	at := len(d.text) - len(d.data)
	d.advance(int(n))
	return d.text[at : at+int(n)]
}

func (d *decoder) stamp() stamp {
	return stamp{size: d.varint(), mod: d.varint(), ino: d.uvarint()}
}

func (d *decoder) advance(n int) { d.data = d.data[n:] }
