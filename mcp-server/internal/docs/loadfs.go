package docs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode/utf8"
)

// LoadFS reads every *.md file of fsys (a release's docs folder, read from
// git's objects: gitdocs) into a new Snapshot, as Load reads a folder on
// disk: folders named .git and node_modules skipped, a symlink not
// followed, a file larger than MaxDocBytes or not valid UTF-8 skipped.
//
// shared, when not nil, may give for a file the doc of another snapshot
// made of the same bytes at the same path (a doc unchanged since the
// previous release): that doc is taken as it is, neither read nor
// compressed again, so releases share their unchanged docs' text, and
// search.BuildStacked shares their index.
//
// like, when not nil, is the snapshot this one is most like (the release
// loaded before it, or the working tree): the docs read anew are
// compressed with its dictionary, as an update's are with the snapshot it
// follows, rather than with one made of them (at 40,000 docs, 125 KB a
// release).
func LoadFS(ctx context.Context, fsys fs.FS, opts LoadOptions, like *Snapshot, shared func(p string, e fs.DirEntry) *Doc) (*Snapshot, error) {
	opts = opts.withDefaults()
	var kept, fresh []*Doc
	var skipped []Skipped
	err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == "." && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll // no docs folder: no docs
			}
			return err
		}
		if len(kept)%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		switch {
		case e.IsDir():
			if p != "." && IgnoredName(e.Name()) {
				return fs.SkipDir
			}
			return nil
		case !isMarkdown(p):
			return nil
		case strings.ContainsRune(p, '\\'):
			skipped = append(skipped, Skipped{Path: p, Reason: backslashReason})
			return nil
		case !e.Type().IsRegular():
			skipped = append(skipped, Skipped{Path: p, Reason: "not a regular file (a symlink is not followed in a release)"})
			return nil
		}
		if shared != nil {
			if d := shared(p, e); d != nil {
				kept = append(kept, d)
				return nil
			}
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		if info.Size() > opts.MaxDocBytes {
			skipped = append(skipped, Skipped{Path: p, Reason: fmt.Sprintf("larger than %d bytes", opts.MaxDocBytes)})
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if !utf8.Valid(b) {
			skipped = append(skipped, Skipped{Path: p, Reason: "not valid UTF-8"})
			return nil
		}
		d := parse(p, int64(len(b)), string(b))
		kept, fresh = append(kept, d), append(fresh, d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read docs: %w", err)
	}
	for _, s := range skipped {
		opts.Logger.Warn("skipped doc", "path", s.Path, "reason", s.Reason)
	}
	// A release's snapshot is held for as long as it is served: its list
	// of docs without the room append grew it by (at 40,000 docs, about
	// 50 KB a release).
	snap := newSnapshot(opts.Generation, slices.Clone(kept), skipped)
	// A shared doc keeps the dictionary it was packed with; the fresh
	// ones take like's, or get one of their own.
	if like != nil && like.codec != nil {
		snap.codec = like.codec
	} else {
		snap.codec = newCodec(fresh)
	}
	snap.codec.pack(fresh)
	return snap, nil
}
