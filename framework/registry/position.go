package registry

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// positions records where each value of a JSON document starts, keyed by its
// JSON pointer (RFC 6901), so that problems found on decoded data can be
// reported at a line and column of the source.
type positions struct {
	data   []byte
	starts map[string]int
	order  []span   // by offset
	dups   []dupKey // object keys that occur twice in one object
}

type span struct {
	ptr string
	off int
}

type dupKey struct {
	ptr string // the object holding the key
	key string
	off int // offset of the second occurrence
}

// index walks a well-formed JSON document and records the position of every
// value.
func index(data []byte) (*positions, error) {
	p := &positions{data: data, starts: map[string]int{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := p.walk(dec, ""); err != nil {
		return nil, err
	}
	sort.SliceStable(p.order, func(i, j int) bool { return p.order[i].off < p.order[j].off })
	return p, nil
}

func (p *positions) walk(dec *json.Decoder, ptr string) error {
	start := p.next(int(dec.InputOffset()))
	p.starts[ptr] = start
	p.order = append(p.order, span{ptr, start})
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			keyOff := p.next(int(dec.InputOffset()))
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := k.(string)
			if seen[key] {
				p.dups = append(p.dups, dupKey{ptr: ptr, key: key, off: keyOff})
			}
			seen[key] = true
			if err := p.walk(dec, ptr+"/"+escapePointer(key)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := p.walk(dec, ptr+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	return err
}

// next skips the white space and separators that follow off.
func (p *positions) next(off int) int {
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

// enclosing returns the innermost value that starts before off.
func (p *positions) enclosing(off int) (string, int) {
	i := sort.Search(len(p.order), func(i int) bool { return p.order[i].off >= off })
	if i == 0 {
		return "", 0
	}
	s := p.order[i-1]
	return s.ptr, s.off
}

// lineCol returns the 1-based line and column of ptr, or of its nearest
// ancestor that exists in the document (a missing field is reported at the
// object that lacks it).
func (p *positions) lineCol(ptr string) (int, int) {
	if p == nil {
		return 0, 0
	}
	for {
		if off, ok := p.starts[ptr]; ok {
			return lineCol(p.data, off)
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return 0, 0
		}
		ptr = ptr[:i]
	}
}

// lineCol converts a byte offset to a 1-based line and byte column.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line := 1 + bytes.Count(before, []byte{'\n'})
	col := off - bytes.LastIndexByte(before, '\n')
	return line, col
}

func escapePointer(tok string) string {
	tok = strings.ReplaceAll(tok, "~", "~0")
	return strings.ReplaceAll(tok, "/", "~1")
}

// pointer builds a JSON pointer from reference tokens.
func pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch t := t.(type) {
		case int:
			b.WriteString(strconv.Itoa(t))
		case string:
			b.WriteString(escapePointer(t))
		}
	}
	return b.String()
}
