package docs

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// savedTree loads a tree with docs compressed against the dictionary,
// compressed alone, and plain, and a skipped file.
func savedTree(t *testing.T) *Snapshot {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"big.md":     "# Big\n\n" + strings.Repeat("a long line of the big doc, compressed alone\n", 400),
		"tiny.md":    "# Tiny\n",
		"bad.md":     "not UTF-8 \xff\n",
		"guide/a.md": "# A\n\nThe Kelvin sign \u212a and the long s \u017f.\n",
		"guide/b.md": "\ufeff# B\r\n\r\nCRLF and a BOM.\r\n",
		"many/x.md":  "",
	}
	for i := range 300 { // enough text for a dictionary
		files[filepath.Join("many", strings.Repeat("p", i%7+1)+string(rune('a'+i%26))+strings.Repeat("q", i/26)+".md")] = "# Page\n\n" + strings.Repeat("some shared words of the tree ", 20) + "\n"
	}
	mcptest.WriteTree(t, dir, files)
	snap, err := Load(context.Background(), dir, LoadOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	if snap.codec == nil || len(snap.Skipped()) == 0 {
		t.Fatal("the tree has no dictionary or no skipped file: the test checks less than it says")
	}
	return snap
}

// TestSnapshotRoundTrip checks that a decoded snapshot has the docs, texts,
// stamps and skipped files of the one encoded.
func TestSnapshotRoundTrip(t *testing.T) {
	snap := savedTree(t)
	back, err := DecodeSnapshot(snap.AppendBinary(nil), 7)
	if err != nil {
		t.Fatal(err)
	}
	if back.Generation() != 7 || len(back.Docs()) != len(snap.Docs()) {
		t.Fatalf("generation %d, %d docs; want 7, %d", back.Generation(), len(back.Docs()), len(snap.Docs()))
	}
	packed := 0
	for i, d := range snap.Docs() {
		b := back.Docs()[i]
		if b.Path != d.Path || b.Size != d.Size || b.lines != d.lines || b.Text() != d.Text() || b.packed != d.packed || (b.dict == nil) != (d.dict == nil) {
			t.Errorf("%s: decoded as %s, %d bytes, %d lines, packed %v", d.Path, b.Path, b.Size, b.lines, b.packed)
		}
		if d.racy && b.stamp != (stamp{}) || !d.racy && b.stamp != d.stamp {
			t.Errorf("%s: stamp %+v, saved %+v (racy %v)", d.Path, b.stamp, d.stamp, d.racy)
		}
		if d.packed {
			packed++
		}
		if (b.outline == nil) != (d.outline == nil) || d.outline != nil && !cmp.Equal(b.outline, d.outline, cmp.AllowUnexported(Outline{})) {
			t.Errorf("%s: outline kept %v, decoded %v", d.Path, d.outline != nil, b.outline != nil)
		}
	}
	if packed == 0 {
		t.Error("no doc was compressed: the test checks less than it says")
	}
	if diff := cmp.Diff(snap.Skipped(), back.Skipped(), cmp.AllowUnexported(Skipped{}, stamp{})); diff != "" {
		t.Errorf("skipped (-saved +decoded):\n%s", diff)
	}
}

// TestDecodeSnapshotDamaged decodes every prefix of an encoding, which
// must fail, and the encoding with each of many bytes changed, which must
// fail or give a snapshot, never panic. (The bytes of a compressed text are
// not checked when decoded, which would cost a decode of every doc at
// every start: the cache's checksum keeps them.)
func TestDecodeSnapshotDamaged(t *testing.T) {
	data := savedTree(t).AppendBinary(nil)
	for n := 0; n < len(data); n += mcptest.UnderRace(1, 29) {
		if _, err := DecodeSnapshot(data[:n], 1); err == nil {
			t.Fatalf("a prefix of %d of %d bytes decoded", n, len(data))
		}
	}
	for i := 0; i < len(data); i += 1 + len(data)/mcptest.UnderRace(4000, 400) {
		for _, x := range []byte{1, 0x80, 0xff} {
			b := []byte(string(data))
			b[i] ^= x
			if _, err := DecodeSnapshot(b, 1); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d changed: %v, not ErrCorrupt", i, err)
			}
		}
	}
}
