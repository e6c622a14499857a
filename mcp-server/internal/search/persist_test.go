package search

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestDecodeIndexDamaged decodes every prefix of an index's encoding, which
// must fail, and the encoding with many bytes changed, which must fail
// with ErrCorrupt or give an index that answers without a panic.
func TestDecodeIndexDamaged(t *testing.T) {
	dir := t.TempDir()
	writeTrickyCorpus(t, dir, rand.New(rand.NewPCG(2, 2)), 60)
	snap := load(t, dir)
	ix, err := build(snap, nil, 4<<10)
	if err != nil {
		t.Fatal(err)
	}
	data := ix.AppendBinary(nil)
	// Every prefix and about 3,000 changed bytes; under the race detector
	// (which makes decoding 10 times slower and has no goroutine here to
	// watch) one prefix in 7 and 300 bytes.
	for n := 0; n < len(data); n += mcptest.UnderRace(1, 7) {
		if _, err := DecodeIndex(data[:n], snap); err == nil {
			t.Fatalf("a prefix of %d of %d bytes decoded", n, len(data))
		}
	}
	for i := 8; i < len(data); i += 1 + len(data)/mcptest.UnderRace(3000, 300) {
		for _, x := range []byte{1, 0x80, 0xff} {
			b := append([]byte(nil), data...)
			b[i] ^= x
			back, err := DecodeIndex(b, snap)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("byte %d changed: %v, not ErrCorrupt", i, err)
				}
				continue
			}
			for _, q := range []string{"ka", "the", "ſ", "zz"} {
				for range back.Matches(Query{Text: q}, Position{}) {
				}
			}
		}
	}
}
