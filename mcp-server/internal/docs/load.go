package docs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
)

// DefaultMaxDocBytes is the default size above which a file is skipped.
const DefaultMaxDocBytes = 16 << 20

// LoadOptions tunes Load.
type LoadOptions struct {
	MaxDocBytes int64        // files larger than this are skipped; 0 means DefaultMaxDocBytes
	Generation  uint64       // the generation of the new snapshot
	Logger      *slog.Logger // warnings about skipped files; nil discards them
}

// withDefaults fills in the options left zero.
func (o LoadOptions) withDefaults() LoadOptions {
	if o.MaxDocBytes <= 0 {
		o.MaxDocBytes = DefaultMaxDocBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Load reads every *.md file under dir into a new Snapshot.
//
// Files are read through an os.Root opened on dir, so a symlink that leads
// outside dir is never followed. Symlinked folders are not descended into
// (real trees link folders to their siblings, which would double the
// corpus and can loop); a symlinked file that stays inside dir is read.
// Folders named .git and node_modules are skipped. A file that cannot be
// read, is not valid UTF-8 or is larger than MaxDocBytes is skipped with a
// warning; only a dir that cannot be opened or walked is an error.
func Load(ctx context.Context, dir string, opts LoadOptions) (*Snapshot, error) {
	opts = opts.withDefaults()
	log := opts.Logger
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open docs folder: %w", err)
	}
	defer root.Close()

	files, skipped, err := listMarkdown(ctx, root, ".", false)
	if err != nil {
		return nil, fmt.Errorf("walk docs folder %s: %w", dir, err)
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}

	results, err := readAll(ctx, root, paths, opts.MaxDocBytes)
	if err != nil {
		return nil, err
	}
	kept := make([]*Doc, 0, len(results))
	for _, r := range results {
		switch {
		case r.doc != nil:
			kept = append(kept, r.doc)
		case !r.gone:
			skipped = append(skipped, r.skip)
		}
	}
	for _, s := range skipped {
		log.Warn("skipped doc", "path", s.Path, "reason", s.Reason)
	}
	return newSnapshot(opts.Generation, kept, skipped), nil
}

// file is a Markdown file found by a walk.
type file struct {
	path  string
	stamp stamp // zero unless the walk was asked for stamps
}

// listMarkdown walks root from start (a slash path, "." for all of it) and
// returns the Markdown files to read, and the symlinks it refused to follow.
// With stamps, each file's size and modification time come too (one stat
// per file), so that a rescan can tell which files changed.
func listMarkdown(ctx context.Context, root *os.Root, start string, stamps bool) ([]file, []Skipped, error) {
	var (
		files   []file
		skipped []Skipped
	)
	err := fs.WalkDir(root.FS(), start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			skipped = append(skipped, Skipped{Path: p, Reason: trimPathError(err)})
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && IgnoredName(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !isMarkdown(p) {
			return nil
		}
		var info fs.FileInfo
		if d.Type()&fs.ModeSymlink != 0 {
			info, err = root.Stat(p) // follows the link, but only inside root
			switch {
			case err != nil:
				skipped = append(skipped, Skipped{Path: p, Reason: "symlink leads outside the docs folder or nowhere"})
				return nil
			case !info.Mode().IsRegular():
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		f := file{path: p}
		if stamps {
			if info == nil {
				if info, err = d.Info(); err != nil {
					return nil // gone since the folder was read
				}
			}
			f.stamp = stampOf(info)
		}
		files = append(files, f)
		return nil
	})
	return files, skipped, err
}

// IgnoredName reports whether a folder is left out of the corpus: version
// control internals and installed dependencies.
func IgnoredName(name string) bool { return name == ".git" || name == "node_modules" }

// IgnoredPath reports whether a slash path lies in a folder left out of the
// corpus.
func IgnoredPath(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if IgnoredName(seg) {
			return true
		}
	}
	return false
}

func isMarkdown(p string) bool {
	return len(p) > 3 && strings.EqualFold(p[len(p)-3:], ".md")
}

// readResult is what reading one file gave: a doc, or the reason it was
// skipped, or the news that it no longer exists.
type readResult struct {
	doc  *Doc
	skip Skipped
	gone bool // removed (or renamed away) before it could be read
}

// readAll reads paths in parallel; results[i] is for paths[i].
func readAll(ctx context.Context, root *os.Root, paths []string, maxBytes int64) ([]readResult, error) {
	results := make([]readResult, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(1, len(paths))) {
		wg.Go(func() {
			for i := range next {
				results[i] = readDoc(root, paths[i], maxBytes)
			}
		})
	}
	for i := range paths {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return results, ctx.Err()
}

// readDoc reads and parses one file.
func readDoc(root *os.Root, p string, maxBytes int64) readResult {
	skip := func(format string, args ...any) readResult {
		return readResult{skip: Skipped{Path: p, Reason: fmt.Sprintf(format, args...)}}
	}
	f, err := root.Open(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return readResult{gone: true}
	case err != nil:
		if isLink(root, p) {
			return skip("symlink leads outside the docs folder or nowhere")
		}
		return skip("cannot open: %s", trimPathError(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return skip("cannot stat: %s", trimPathError(err))
	}
	if !info.Mode().IsRegular() {
		return readResult{gone: true} // a folder or device now has the name
	}
	st := stampOf(info)
	if info.Size() > maxBytes {
		r := skip("larger than the %d-byte cap (%d bytes)", maxBytes, info.Size())
		r.skip.stamp = st
		return r
	}
	// Read through a limit, not by the size from Stat: the file may be
	// growing while we read it.
	var buf bytes.Buffer
	buf.Grow(int(min(info.Size(), maxBytes)) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, maxBytes+1)); err != nil {
		return skip("cannot read: %s", trimPathError(err))
	}
	if int64(buf.Len()) > maxBytes {
		return skip("larger than the %d-byte cap", maxBytes)
	}
	if !utf8.Valid(buf.Bytes()) {
		r := skip("not valid UTF-8")
		r.skip.stamp = st
		return r
	}
	d := parse(p, int64(buf.Len()), buf.String())
	d.stamp = st
	return readResult{doc: d}
}

// isLink reports whether p is a symbolic link.
func isLink(root *os.Root, p string) bool {
	info, err := root.Lstat(p)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

func trimPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
