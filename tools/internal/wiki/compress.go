package wiki

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
)

// compressible are the extensions of the text files a site holds: these get
// a .gz and a .br beside them, which docs-mcp serves by the request's
// Accept-Encoding. Images other than SVG are compressed already.
var compressible = map[string]bool{
	".html": true, ".css": true, ".js": true, ".json": true, ".txt": true,
	".xml": true, ".svg": true, ".md": true, ".ico": true,
}

// compressMin is the smallest file worth compressing: below it the saving
// is less than a packet, and the extra files cost more than they save.
const compressMin = 1024

// compressSite writes FILE.gz beside every compressible file of at least
// compressMin bytes under dir, and FILE.br too unless the file is a page's
// (gzipOnly), on all cores. The output depends on
// the input only (no names or times in the gzip header), so two builds stay
// byte-identical. The entries right under dir that leave names (nil: none)
// are left out.
func compressSite(dir string, leave func(name string) bool) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && leave != nil && p != dir && filepath.Dir(p) == dir && leave(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if err != nil || d.IsDir() || !compressible[strings.ToLower(filepath.Ext(p))] {
			return err
		}
		if info, err := d.Info(); err != nil || info.Size() < compressMin {
			return err
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return fmt.Errorf("compress site: %w", err)
	}
	work := make(chan string)
	go func() {
		defer close(work)
		for _, p := range files {
			work <- p
		}
	}()
	if err := onCores(work, func() func(string) error { return newCompressor().file }); err != nil {
		return fmt.Errorf("compress site: %w", err)
	}
	return nil
}

// onCores runs one worker a core, each calling the function worker made it
// with jobs until jobs is closed, and returns their errors joined. A worker
// does no more after its first error but still takes its share of the jobs,
// so that whoever sends them never blocks.
func onCores[J any](jobs <-chan J, worker func() func(J) error) error {
	errs := make([]error, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range errs {
		wg.Go(func() {
			do := worker()
			for j := range jobs {
				if errs[w] == nil {
					errs[w] = do(j)
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// gzipOnly reports whether p, a compressible file of a site, is one of a
// page's own files, read one at a time by a reader who opens that page: the
// page, its Markdown and its search excerpt (searchExcerpt). These get a
// .gz only; what every visit loads (the stylesheet, the scripts, the search
// manifest and shards, llms.txt) gets a .br too. Brotli at level 5 is
// four times gzip's CPU for 13% fewer bytes on pages (on the 10,393 pages
// of a 10,000-doc tree of real shape, 235 MB of HTML: Brotli 10.1 s and
// 39.1 MB, gzip 2.5 s and 45.2 MB, one core), about 600 bytes of a page
// of 22 KB; it was a third of a large build's steps after Hugo, and its
// files 30% of the files the build created. Browsers ask for Brotli only
// over HTTPS: a wiki served over plain HTTP to other machines sent them
// gzip anyway.
func gzipOnly(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".html", ".md":
		return true
	}
	return searchExcerpt(p)
}

// The levels trade build time for size, measured on 400 pages of a
// generated 10,000-doc wiki (11 MB of HTML) with each writer reused:
// Brotli 5 wrote 1% more than 9 in a quarter of the time (9 made
// compression most of a 10,000-page build) and 4 wrote 7% more; gzip is
// for the few clients without Brotli, and klauspost's level 6 compresses
// 106 MB/s where the standard library's best does 41, for 0.9% more bytes.
const (
	brotliLevel = 5
	gzipLevel   = 6
)

// A compressor writes the .br and .gz of one file after another, reusing
// its gzip writer and buffer. Each .br gets a fresh Brotli writer: one
// reset after a file carries some of it into the next (llms.txt of
// cpp-docs made 161,452 bytes after docfx.json and favicon.ico, 161,466
// alone), so the bytes of a .br depended on which file the same core had
// compressed before, and two builds of the same tree differed in five .br
// files. Pages, where the tables of a fresh writer were most of its cost,
// get gzip only (gzipOnly).
type compressor struct {
	buf bytes.Buffer
	gz  *gzip.Writer
}

func newCompressor() *compressor {
	c := &compressor{}
	c.gz, _ = gzip.NewWriterLevel(nil, gzipLevel) // the level is valid
	return c
}

// file writes p.gz, and p.br unless gzipOnly(p).
func (c *compressor) file(p string) error {
	src, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if err := c.write(p+".gz", src, c.gz); err != nil || gzipOnly(p) {
		return err
	}
	return c.write(p+".br", src, brotli.NewWriterLevel(nil, brotliLevel))
}

// gzip writes p.gz alone.
func (c *compressor) gzip(p string) error {
	src, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	return c.write(p+".gz", src, c.gz)
}

// write compresses src with w into name.
func (c *compressor) write(name string, src []byte, w interface {
	io.WriteCloser
	Reset(io.Writer)
}) error {
	c.buf.Reset()
	w.Reset(&c.buf)
	if _, err := w.Write(src); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(name, c.buf.Bytes(), 0o644)
}
