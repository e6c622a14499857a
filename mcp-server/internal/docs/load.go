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
	if opts.MaxDocBytes <= 0 {
		opts.MaxDocBytes = DefaultMaxDocBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open docs folder: %w", err)
	}
	defer root.Close()

	paths, skipped, err := listMarkdown(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("walk docs folder %s: %w", dir, err)
	}

	docs := make([]*Doc, len(paths))
	reasons := make([]string, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				docs[i], reasons[i] = readDoc(root, paths[i], opts.MaxDocBytes)
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
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	kept := docs[:0]
	for i, d := range docs {
		if d == nil {
			skipped = append(skipped, Skipped{Path: paths[i], Reason: reasons[i]})
			continue
		}
		kept = append(kept, d)
	}
	for _, s := range skipped {
		log.Warn("skipped doc", "path", s.Path, "reason", s.Reason)
	}
	return newSnapshot(opts.Generation, kept, skipped), nil
}

// listMarkdown walks root and returns the paths of the Markdown files to
// read, and the symlinks it refused to follow.
func listMarkdown(ctx context.Context, root *os.Root) ([]string, []Skipped, error) {
	var (
		paths   []string
		skipped []Skipped
	)
	err := fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			skipped = append(skipped, Skipped{Path: p, Reason: err.Error()})
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (d.Name() == ".git" || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if !isMarkdown(p) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			info, err := root.Stat(p) // follows the link, but only inside root
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
		paths = append(paths, p)
		return nil
	})
	return paths, skipped, err
}

func isMarkdown(p string) bool {
	return len(p) > 3 && strings.EqualFold(p[len(p)-3:], ".md")
}

// readDoc reads and parses one file; on failure it returns the reason.
func readDoc(root *os.Root, p string, maxBytes int64) (*Doc, string) {
	f, err := root.Open(p)
	if err != nil {
		return nil, "cannot open: " + trimPathError(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, "cannot stat: " + trimPathError(err)
	}
	if info.Size() > maxBytes {
		return nil, fmt.Sprintf("larger than the %d-byte cap (%d bytes)", maxBytes, info.Size())
	}
	// Read through a limit, not by the size from Stat: the file may be
	// growing while we read it.
	var buf bytes.Buffer
	buf.Grow(int(min(info.Size(), maxBytes)) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, maxBytes+1)); err != nil {
		return nil, "cannot read: " + trimPathError(err)
	}
	if int64(buf.Len()) > maxBytes {
		return nil, fmt.Sprintf("larger than the %d-byte cap", maxBytes)
	}
	if !utf8.Valid(buf.Bytes()) {
		return nil, "not valid UTF-8"
	}
	return parse(p, int64(buf.Len()), buf.String()), ""
}

func trimPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
