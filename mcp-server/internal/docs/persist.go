package docs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/klauspost/compress/s2"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/wire"
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
	b = wire.AppendBytes(b, dict)
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
		b = wire.AppendBytes(b, []byte(d.Path))
		b = binary.AppendVarint(b, d.Size)
		b = appendStamp(b, st)
		b = binary.AppendUvarint(b, uint64(d.lines))
		b = append(b, flags)
		b = wire.AppendBytes(b, bytesOf(d.body))
	}
	b = binary.AppendUvarint(b, uint64(len(s.skipped)))
	for _, k := range s.skipped {
		b = wire.AppendBytes(b, []byte(k.Path))
		b = wire.AppendBytes(b, []byte(k.Reason))
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
	d := wire.NewReader(data, ErrCorrupt)
	s := &Snapshot{generation: generation}
	if dict := d.Bytes(); len(dict) > 0 {
		sd := s2.NewDict(dict)
		if sd == nil {
			return nil, fmt.Errorf("%w: a dictionary s2 refuses", ErrCorrupt)
		}
		s.codec = &codec{dict: sd}
	}
	n := d.Count(8)
	s.docs = make([]*Doc, 0, n)
	for range n {
		doc := &Doc{Path: d.String(), Size: d.Varint()}
		doc.stamp = readStamp(d)
		doc.lines = int(d.Uvarint())
		flags := d.Byte()
		doc.body = d.String()
		doc.packed = flags&flagPacked != 0
		if flags&flagDict != 0 {
			if s.codec == nil || !doc.packed {
				return nil, fmt.Errorf("%w: %s: compressed against a dictionary the snapshot lacks", ErrCorrupt, doc.Path)
			}
			doc.dict = s.codec.dict
		}
		if d.Err() != nil {
			return nil, d.Err()
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
	k := d.Count(3)
	for range k {
		s.skipped = append(s.skipped, Skipped{Path: d.String(), Reason: d.String(), stamp: readStamp(d)})
	}
	switch {
	case d.Err() != nil:
		return nil, d.Err()
	case d.Len() != 0:
		return nil, fmt.Errorf("%w: %d bytes after the end", ErrCorrupt, d.Len())
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

func appendStamp(b []byte, st stamp) []byte {
	b = binary.AppendVarint(b, st.size)
	b = binary.AppendVarint(b, st.mod)
	return binary.AppendUvarint(b, st.ino)
}

func readStamp(d *wire.Reader) stamp {
	return stamp{size: d.Varint(), mod: d.Varint(), ino: d.Uvarint()}
}
