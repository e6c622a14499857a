// Package wire reads the binary encodings the server saves (the docs
// snapshot and the search index of package corpus's cache): lengths and
// numbers as varints, fixed-width words little-endian, and byte runs that
// share the bytes they are read from. A Reader keeps the first fault and
// reads zeros after it, so that a decoder reads on and checks once; a
// fault never panics.
package wire

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

// Reader reads an encoding from the front of a byte slice.
type Reader struct {
	data    []byte
	text    string // data as a string, for strings that share its bytes
	corrupt error  // what a fault wraps
	err     error
}

// NewReader reads data, which must never be written again (strings and
// byte runs read share it); a fault wraps corrupt.
func NewReader(data []byte, corrupt error) *Reader {
	r := &Reader{data: data, corrupt: corrupt}
	if len(data) > 0 {
		r.text = unsafe.String(&data[0], len(data))
	}
	return r
}

// Err is the first fault, or nil.
func (r *Reader) Err() error { return r.err }

// Len is how many bytes are left.
func (r *Reader) Len() int { return len(r.data) }

// Fail records a fault the caller found (if none came before), wrapping
// the Reader's corrupt error, and stops the reads.
func (r *Reader) Fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", r.corrupt, what)
	}
	r.data = nil
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.Fail("a number cut short")
		return 0
	}
	r.data = r.data[n:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	v, n := binary.Varint(r.data)
	if n <= 0 {
		r.Fail("a number cut short")
		return 0
	}
	r.data = r.data[n:]
	return v
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if len(r.data) < 1 {
		r.Fail("a byte cut short")
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

// Uint64 reads a little-endian 64-bit word.
func (r *Reader) Uint64() uint64 {
	if len(r.data) < 8 {
		r.Fail("a word cut short")
		return 0
	}
	v := binary.LittleEndian.Uint64(r.data)
	r.data = r.data[8:]
	return v
}

// Count reads a count of items that take at least size bytes each, which
// the bytes left must be able to hold: a damaged count never makes the
// caller allocate more than the encoding's size.
func (r *Reader) Count(size int) int {
	n := r.Uvarint()
	if n > uint64(len(r.data)/size) {
		r.Fail("a count larger than the bytes left")
		return 0
	}
	return int(n)
}

// Bytes reads a length and that many bytes, shared with the data.
func (r *Reader) Bytes() []byte {
	n := r.Count(1)
	b := r.data[:n:n]
	r.data = r.data[n:]
	return b
}

// String reads a length and that many bytes as a string sharing the data.
func (r *Reader) String() string {
	n := r.Count(1)
	at := len(r.text) - len(r.data)
	r.data = r.data[n:]
	return r.text[at : at+n]
}

// Uint32s reads a count and that many little-endian 32-bit words; a count
// of 0 gives nil.
func (r *Reader) Uint32s() []uint32 {
	n := r.Count(4)
	if n == 0 {
		return nil
	}
	v := make([]uint32, n)
	for i := range v {
		v[i] = binary.LittleEndian.Uint32(r.data[4*i:])
	}
	r.data = r.data[4*n:]
	return v
}

// AppendBytes appends v's length as a uvarint, then v: what Bytes and
// String read.
func AppendBytes(b, v []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

// AppendUint32s appends v's length as a uvarint, then each word
// little-endian: what Uint32s reads.
func AppendUint32s(b []byte, v []uint32) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}
