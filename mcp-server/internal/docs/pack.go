package docs

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/s2"
)

// A doc's text is held compressed: the docs of a large tree are most of
// the server's memory, and their text is most of the docs.
//
// Each doc is compressed on its own (s2's block format), so that reading
// or searching one doc decodes that doc only. A doc of a KB or two alone
// gives a compressor little to go on (1.2× to 1.3×), so such docs are
// compressed against one dictionary per tree: 64 KB of the tree's own
// text, docs taken at even intervals through it. That makes 2.3× at 1 KB,
// decoded in 1 to 2 µs. A doc over soloBytes is compressed alone, with
// s2's "better" encoder: 1.9× at 4 to 8 KB and 2.1× above, where the
// dictionary gives 2.4×, but decoded twice as fast (5 µs for 6 KB, not
// 10), since s2 decodes against a dictionary in Go and without one in
// assembly; a search decodes every doc it verifies. (Figures from the
// generated trees of docs/server/architecture.md.)
//
// The dictionary costs nothing to build (it is the text as it stands, see
// s2.MakeDict); one trained on the tree (klauspost/compress/dict) did no
// better there and takes 25 to 34 s. With a dictionary, s2's "better"
// encoder reaches 3.1× but costs 12 times the CPU of the default one
// (1.8 s on 40,000 docs: it sets up 600 KB of tables per call), too much
// for a start-up.
//
// A dictionary is made by Load, from the docs it read, and kept by every
// later snapshot of that tree: the docs an update reads again are
// compressed against it too.

// dictBytes is how much text a dictionary holds: s2's largest.
const dictBytes = s2.MaxDictSize

// codec compresses doc texts against one dictionary. It is safe for
// concurrent use.
type codec struct {
	dict *s2.Dict
}

// newCodec returns a codec whose dictionary is up to dictBytes of docs
// taken at even intervals through docs, or nil when docs hold too little
// text for a dictionary.
func newCodec(docs []*Doc) *codec {
	var total int
	for _, d := range docs {
		total += len(d.body)
	}
	if total < 2*dictBytes {
		// A small tree: a dictionary as large as the tree would cost more
		// memory than compressing saves.
		return nil
	}
	// Docs at even intervals through the tree, about dictBytes in all:
	// after a doc is taken, the text of total/dictBytes such docs is
	// passed over.
	sample := make([]byte, 0, 2*dictBytes)
	var skip int
	for _, d := range docs {
		if skip > 0 {
			skip -= len(d.body)
			continue
		}
		sample = append(sample, d.body...)
		skip = len(d.body) * (total/dictBytes - 1)
	}
	// MakeDict keeps the last dictBytes of the sample.
	dict := s2.MakeDict(sample, nil)
	if dict == nil {
		return nil
	}
	return &codec{dict: dict}
}

// pack compresses the text of each doc of docs, which must be plain (as
// parse returns them), on every core. A doc whose text does not shrink
// stays plain. A nil codec leaves every doc plain.
//
// The compressed texts are laid end to end in blocks of up to blockBytes
// rather than allocated one by one: no size-class rounding, and the plain
// texts they replace leave whole spans free behind them, not holes
// between live texts. A block lives as long as one text in it does, so
// the old texts of edited docs stay until their block's other docs are
// edited too: at most the compressed size of the load, which an update
// (a few docs, packed into blocks of their own size) does not add to.
func (c *codec) pack(docs []*Doc) {
	if c == nil || len(docs) == 0 {
		return
	}
	workers := min(runtime.GOMAXPROCS(0), len(docs))
	var plain int
	for _, d := range docs {
		plain += len(d.body)
	}
	// About a quarter of each worker's share (texts shrink 2 to 3
	// times), so that a few edited docs do not hold a large block.
	block := min(blockBytes, plain/workers/4+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			p := packer{codec: c, blockBytes: block}
			for i := w; i < len(docs); i += workers {
				p.pack(docs[i])
			}
		})
	}
	wg.Wait()
}

// blockBytes is the most compressed text one block holds (see pack).
const blockBytes = 256 << 10

// packer compresses docs for one worker of pack.
type packer struct {
	codec      *codec
	blockBytes int
	scratch    []byte // the encoder's output
	block      []byte // filled up to its length, never grown in place
}

// pack compresses d's text into the packer's block.
func (p *packer) pack(d *Doc) {
	text := d.body
	if n := s2.MaxEncodedLen(len(text)); cap(p.scratch) < n {
		p.scratch = make([]byte, n)
	}
	var dict *s2.Dict
	var enc []byte
	if len(text) > soloBytes {
		enc = s2.EncodeBetter(p.scratch[:cap(p.scratch)], bytesOf(text))
	} else {
		dict, enc = p.codec.dict, p.codec.dict.Encode(p.scratch[:cap(p.scratch)], bytesOf(text))
	}
	if len(enc) >= len(text) {
		return
	}
	if cap(p.block)-len(p.block) < len(enc) {
		p.block = make([]byte, 0, max(p.blockBytes, len(enc)))
	}
	start := len(p.block)
	p.block = append(p.block, enc...) // within capacity: earlier texts stay put
	// The block's bytes up to its length are never written again: the
	// body can share them without a copy.
	d.body, d.packed, d.dict = unsafe.String(&p.block[start], len(enc)), true, dict
}

// soloBytes is the size above which a doc is compressed alone (see the
// top of this file).
const soloBytes = 4 << 10

// Text returns the doc's text. A compressed doc is decoded for the call:
// a caller that needs the text more than once keeps the result.
func (d *Doc) Text() string {
	if !d.packed {
		return d.body
	}
	b := d.AppendText(nil)
	// b is this call's own and never written again: it can be the
	// string's bytes without a copy.
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// TextIn returns the doc's text like Text, but decodes a compressed doc
// into *buf (grown as needed) rather than memory of its own: the text is
// then shared with *buf, valid only until *buf is next written, and
// shared is true. It spares the allocation when most texts read are soon
// dropped, as when a search reads the docs that may hold a match.
func (d *Doc) TextIn(buf *[]byte) (text string, shared bool) {
	if !d.packed {
		return d.body, false
	}
	*buf = d.AppendText((*buf)[:0])
	return unsafe.String(unsafe.SliceData(*buf), len(*buf)), true
}

// AppendText appends the doc's text to buf and returns the extended
// buffer: a caller that reads many docs once each can decode them all
// into one buffer.
func (d *Doc) AppendText(buf []byte) []byte {
	buf, err := d.appendText(buf)
	if err != nil {
		panic("docs: " + err.Error())
	}
	return buf
}

// appendText is AppendText, with an error for a compressed text that does
// not decode.
func (d *Doc) appendText(buf []byte) ([]byte, error) {
	if !d.packed {
		return append(buf, d.body...), nil
	}
	src := bytesOf(d.body)
	n, err := s2.DecodedLen(src)
	if err != nil {
		return buf, fmt.Errorf("corrupt compressed text of %s: %w", d.Path, err)
	}
	buf = slices.Grow(buf, n)
	var out []byte
	if d.dict != nil {
		out, err = d.dict.Decode(buf[len(buf):len(buf)+n], src)
	} else {
		out, err = s2.Decode(buf[len(buf):len(buf)+n], src)
	}
	if err != nil || len(out) != n {
		return buf, fmt.Errorf("corrupt compressed text of %s", d.Path)
	}
	return buf[:len(buf)+n], nil
}

// decodedText is Text, with an error for a compressed text that does not
// decode (a saved snapshot's, see DecodeSnapshot).
func (d *Doc) decodedText() (string, error) {
	b, err := d.appendText(nil)
	if err != nil {
		return "", err
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

// TextBytes returns the length of the docs' texts, and the memory that
// holds them: compressed, or plain for a doc that does not shrink.
func (s *Snapshot) TextBytes() (text, held int64) {
	for _, d := range s.docs {
		held += int64(len(d.body))
		if !d.packed {
			text += int64(len(d.body))
		} else if n, err := s2.DecodedLen(bytesOf(d.body)); err == nil {
			text += int64(n)
		}
	}
	return text, held
}

// bytesOf returns s's bytes without a copy, for reading only.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
