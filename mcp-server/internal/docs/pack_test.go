package docs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// heldBytes is TextBytes, checked against the texts as read.
func heldBytes(t testing.TB, s *Snapshot) (held, text int) {
	for _, d := range s.Docs() {
		held += len(d.body)
		text += len(d.Text())
	}
	if gotText, gotHeld := s.TextBytes(); gotText != int64(text) || gotHeld != int64(held) {
		t.Errorf("TextBytes = %d, %d; the docs hold %d bytes of text in %d", gotText, gotHeld, text, held)
	}
	return held, text
}

// generated loads a generated tree, and returns it with its folder.
func generated(t testing.TB, shape corpusgen.Shape, seed uint64, files int) (*Snapshot, string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: seed, Files: files, Shape: shape}); err != nil {
		t.Fatal(err)
	}
	snap, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return snap, dir
}

// readsBack checks that every doc of snap reads back as its file in dir,
// through both ways of reading it (TestLoadManyFolders checks Text on
// another tree), and that TitleIn agrees with Title.
func readsBack(t *testing.T, snap *Snapshot, dir string) {
	t.Helper()
	var buf, title []byte
	var titles []string
	for _, d := range snap.Docs() {
		raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d.Path)))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimPrefix(string(raw), "\ufeff")
		buf = d.AppendText(buf[:0])
		if got := d.Text(); got != want || string(buf) != want {
			t.Fatalf("%s: read back differs from the file", d.Path)
		}
		titles = append(titles, d.TitleIn(&title))
	}
	// The titles TitleIn returned are their own, not views of its buffer.
	for i, d := range snap.Docs() {
		if want := Title(d.Path, d.Text()); titles[i] != want {
			t.Fatalf("%s: TitleIn gave %q, the text has %q", d.Path, titles[i], want)
		}
	}
}

func TestPackedDocs(t *testing.T) {
	snap, dir := generated(t, corpusgen.Small, 5, 1000)
	if snap.codec == nil {
		t.Fatal("no dictionary for a tree of 1,000 docs")
	}
	held, text := heldBytes(t, snap)
	t.Logf("%d docs: %d bytes of text held in %d (%.2f×)", len(snap.Docs()), text, held, float64(text)/float64(held))
	if held*2 > text {
		t.Errorf("the docs hold %d bytes for %d of text: compressed less than 2×", held, text)
	}
	readsBack(t, snap, dir)

	// An edited doc is compressed against the same dictionary.
	edited := snap.Docs()[17]
	newText := edited.Text() + "\nA line added by the test.\n"
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(edited.Path)), []byte(newText), 0o644); err != nil {
		t.Fatal(err)
	}
	next, diff, err := Update(context.Background(), snap, dir, Changes{Paths: []string{edited.Path}}, LoadOptions{Generation: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(diff.Changed) != 1 {
		t.Fatalf("diff %+v, want the one edit", diff)
	}
	d, _ := next.Lookup(edited.Path)
	if d.dict != snap.codec.dict || len(d.body) >= len(newText) {
		t.Errorf("the edited doc is held in %d bytes for %d of text, dictionary shared: %v", len(d.body), len(newText), d.dict == snap.codec.dict)
	}
	if d.Text() != newText {
		t.Errorf("the edited doc reads back as %q", d.Text())
	}
}

// TestLargeDocsPackedAlone checks that docs over soloBytes are compressed
// without the dictionary, the others against it, and that both read back.
func TestLargeDocsPackedAlone(t *testing.T) {
	snap, dir := generated(t, corpusgen.Large, 2, 200)
	var alone, against int
	for _, d := range snap.Docs() {
		n := len(d.Text())
		switch {
		case !d.packed:
			t.Errorf("%s (%d bytes) is not compressed", d.Path, n)
		case d.dict == nil && n > soloBytes:
			alone++
		case d.dict == snap.codec.dict && n <= soloBytes:
			against++
		default:
			t.Errorf("%s (%d bytes) packed with dictionary %p, the tree's is %p", d.Path, n, d.dict, snap.codec.dict)
		}
	}
	if alone < 20 || against < 20 {
		t.Fatalf("%d docs compressed alone and %d against the dictionary: want many of both", alone, against)
	}
	readsBack(t, snap, dir)
}

func TestSmallTreeStaysPlain(t *testing.T) {
	dir := t.TempDir()
	mcptest.WriteTree(t, dir, map[string]string{"a.md": "# A\n" + strings.Repeat("some text\n", 100), "b/c.md": "# C\n"})
	snap, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range snap.Docs() {
		if d.packed {
			t.Errorf("%s is compressed in a tree too small for a dictionary", d.Path)
		}
	}
	if held, text := heldBytes(t, snap); held != text {
		t.Errorf("held %d bytes for %d of text", held, text)
	}
}

// BenchmarkDocText decodes the docs of 2,000 generated small files one
// after the other, each to a string of its own (Text) or into one buffer
// (AppendText), and reports how much the texts shrink.
//
//	go test -run '^$' -bench DocText ./mcp-server/internal/docs
func BenchmarkDocText(b *testing.B) {
	snap, _ := generated(b, corpusgen.Small, 1, 2000)
	all := snap.Docs()
	held, text := heldBytes(b, snap)
	b.Run("Text", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			_ = all[i%len(all)].Text()
		}
		b.ReportMetric(float64(text)/float64(held), "text/held")
	})
	b.Run("AppendText", func(b *testing.B) {
		var buf []byte
		for i := 0; b.Loop(); i++ {
			buf = all[i%len(all)].AppendText(buf[:0])
		}
	})
}
