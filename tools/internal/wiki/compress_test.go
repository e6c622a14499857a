package wiki

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestBuildPrecompressed checks what a build writes for docs-mcp to serve
// compressed: every text file of 1 KiB or more has a .gz beside it holding
// exactly its bytes, and a .br too unless it is a page's own (the page, its
// Markdown, its search excerpt), and the favicons are there, the SVG being
// docs-mcp's own icon.
func TestBuildPrecompressed(t *testing.T) {
	opt := options(t, fixture(t))
	out, _ := build(t, opt)
	checked := map[string]int{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(p)
		if !compressible[ext] {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) < compressMin {
			return err
		}
		checked[ext]++
		pageOwn := ext == ".html" || ext == ".md" || filepath.Base(filepath.Dir(p)) == searchExcerpts
		if pageOwn {
			checked["a page's own"]++
		}
		for suffix, open := range map[string]func(io.Reader) (io.Reader, error){
			".gz": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
			".br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
		} {
			z, err := os.ReadFile(p + suffix)
			if suffix == ".br" && pageOwn {
				if err == nil {
					t.Errorf("%s: a .br beside a page's own file", p)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: no %s beside it: %v", p, suffix, err)
				continue
			}
			r, err := open(bytes.NewReader(z))
			if err == nil {
				z, err = io.ReadAll(r)
			}
			if err != nil || !bytes.Equal(z, src) {
				t.Errorf("%s%s does not decode to %s (err %v)", p, suffix, filepath.Base(p), err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".html", ".md", ".css", ".js", ".json", ".txt", "a page's own"} {
		if checked[ext] == 0 {
			t.Errorf("no %s file of %d bytes or more was checked", ext, compressMin)
		}
	}
	icon := mcptest.ReadFile(t, filepath.Join(opt.Repo, "mcp-server", "internal", "mcpserver", "icon.svg"))
	if got := mcptest.ReadFile(t, filepath.Join(out, "favicon.svg")); got != icon {
		t.Errorf("favicon.svg is not mcp-server/internal/mcpserver/icon.svg")
	}
	if ico := mcptest.ReadFile(t, filepath.Join(out, "favicon.ico")); !strings.HasPrefix(ico, "\x00\x00\x01\x00") {
		t.Errorf("favicon.ico is not an ICO file")
	}
	home := mcptest.ReadFile(t, filepath.Join(out, "index.html"))
	for _, want := range []string{`<link rel="icon" href="/wiki/favicon.ico" sizes="32x32">`, `<link rel="icon" href="/wiki/favicon.svg" type="image/svg+xml">`} {
		if !strings.Contains(home, want) {
			t.Errorf("home page: no %s", want)
		}
	}
}

// TestCompressedBytesDependOnTheFileAlone checks that a file's .br and .gz
// are the same bytes whatever the same compressor (one a core) wrote
// before: which core takes which file varies from build to build, and two
// builds of the same tree are byte-identical. A Brotli writer reset after
// one file carried some of it into a large next one (llms.txt of cpp-docs,
// 1.3 MB: 161,452 bytes after any other file, 161,466 alone).
func TestCompressedBytesDependOnTheFileAlone(t *testing.T) {
	dir := t.TempDir()
	// Words in no repeating order (a linear congruential generator), about
	// 1.5 MB of them, as an llms.txt, after a small file.
	words := strings.Fields("player joins the server hook event handler mod config reload registry world chunk entity tick block item")
	x := uint32(1)
	var large strings.Builder
	for i := 0; large.Len() < 1_500_000; i++ {
		x = x*1664525 + 1013904223
		w1 := words[(x>>8)%uint32(len(words))]
		w2 := words[(x>>16)%uint32(len(words))]
		fmt.Fprintf(&large, "- [%s %s](https://example.org/%s/%d): %d\n", w1, w2, w1, i, x>>20)
	}
	small, big := filepath.Join(dir, "small.txt"), filepath.Join(dir, "llms.txt")
	mcptest.WriteFile(t, small, strings.Repeat("a small file before it\n", 100))
	mcptest.WriteFile(t, big, large.String())
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if err := newCompressor().file(big); err != nil {
		t.Fatal(err)
	}
	alone := map[string][]byte{".br": read(big + ".br"), ".gz": read(big + ".gz")}
	c := newCompressor()
	for _, p := range []string{small, big} {
		if err := c.file(p); err != nil {
			t.Fatal(err)
		}
	}
	for suffix, want := range alone {
		if got := read(big + suffix); !bytes.Equal(got, want) {
			t.Errorf("llms.txt%s: %d bytes compressed after another file, %d alone", suffix, len(got), len(want))
		}
	}
}
