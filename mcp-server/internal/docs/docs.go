// Package docs holds the documentation corpus: every Markdown file under the
// docs root, loaded once into an immutable Snapshot.
//
// A Snapshot is never modified after Load returns it, so any number of
// readers may use it without locks. A Store hands out the current Snapshot
// and lets a later reload replace it atomically: a reader that took a
// snapshot keeps a consistent corpus for as long as it holds it.
package docs

import (
	"context"
	"fmt"
	"io/fs"
	"iter"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/s2"
)

// Doc is one Markdown file.
//
// A doc holds its text once, compressed (see pack.go), and little derived
// from it: its line count, and the outline of a doc with many headings
// (see Outline). Its title, lines, headings and
// heading trails are otherwise found in the text when asked for.
// Everything else a doc needs, its path included, costs about 130 bytes,
// so the docs of a corpus take less than half the memory of its bytes on
// disk (see docs/server/architecture.md, Memory).
type Doc struct {
	Path string // slash-separated, relative to the docs root
	Size int64  // bytes on disk

	// body is the text without a leading BOM, lines ending in "\n" or
	// "\r\n": as it is, or when packed compressed (against dict, if any).
	body   string
	packed bool
	racy   bool // modified too close to its read to be trusted by its stamp later (see markRacy)
	dict   *s2.Dict
	lines  int   // number of lines
	stamp  stamp // the file's size and time when read, to notice changes

	outline *Outline // kept for a doc of many headings, see Outline; nil for the others
}

// keptHeadings is the number of headings from which a doc keeps its
// outline (see Outline).
const keptHeadings = 64

// Outline returns the doc's outline (see OutlineOf); text must be the
// doc's text, as Text or TextIn gave it to the caller.
//
// A doc of keptHeadings or more headings has its outline made when it is
// read from disk, with the doc, before any snapshot holding it is
// published, and kept with it (see keepOutline): outlining a doc of
// 100,000 headings took 0.28 to 0.39 s on a loaded 2-core machine
// (BenchmarkOutlineManyHeadings), which no request should pay, even
// once. A smaller doc's outline costs about what reading its text costs,
// and is made for each request that asks, stopping with ctx's error when
// ctx ends: kept for every doc, outlines would add to the memory of every
// doc of the tree.
func (d *Doc) Outline(ctx context.Context, text string) (*Outline, error) {
	if o := d.outline; o != nil {
		return o, nil
	}
	return OutlineOf(ctx, d.Path, text)
}

// keepOutline makes and keeps the outline of a doc of keptHeadings or
// more headings, whose text is given, as the doc is made (see Outline).
// The outline holds copies of its strings, not the text they were cut
// from, which is compressed later.
func (d *Doc) keepOutline(text string) {
	n := 0
	for range headingsOf(text) {
		if n++; n == keptHeadings {
			break
		}
	}
	if n < keptHeadings {
		return
	}
	o, err := OutlineOf(context.Background(), d.Path, text)
	if err != nil {
		return // not with a background context
	}
	o.Title = strings.Clone(o.Title)
	for i := range o.sections {
		o.sections[i].Text = strings.Clone(o.sections[i].Text)
	}
	d.outline = o
}

// ModTime is the file's modification time when it was read.
func (d *Doc) ModTime() time.Time { return time.Unix(0, d.stamp.mod) }

// LineCount is the number of lines: a final line terminator does not
// start another line.
func (d *Doc) LineCount() int { return d.lines }

// Lines yields the doc's lines with their 1-based numbers, without line
// terminators, as SplitLines splits them.
func (d *Doc) Lines() iter.Seq2[int, string] { return Lines(d.Text()) }

// Lines yields the lines of a doc's text (see Doc.Lines).
func Lines(text string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		rest := text
		for n := 1; rest != ""; n++ {
			var line string
			line, rest = CutLine(rest)
			if !yield(n, line) {
				return
			}
		}
	}
}

// Headings returns the doc's headings in line order, found in its text.
func (d *Doc) Headings() []Heading { return Headings(d.Text()) }

// Headings returns the headings of a doc's text in line order.
func Headings(text string) []Heading {
	var out []Heading
	for h := range headingsOf(text) {
		out = append(out, h)
	}
	return out
}

// HeadingTrail returns the headings that enclose a 1-based line: the nearest
// heading above it, its parent, and so on, outermost first. For many lines
// of one doc, call Headings once and Trail for each line.
func (d *Doc) HeadingTrail(line int) []string {
	var above []Heading
	for h := range headingsOf(d.Text()) {
		if h.Line > line {
			break
		}
		above = append(above, h)
	}
	return Trail(above, line)
}

// Trail returns the trail of headings (see HeadingTrail) of a 1-based
// line, from a doc's headings.
func Trail(headings []Heading, line int) []string {
	// Levels grow strictly along a trail, so it holds six headings at
	// most: the stack needs no allocation.
	var stack [6]Heading
	n := 0
	for _, h := range headings {
		if h.Line > line {
			break
		}
		for n > 0 && stack[n-1].Level >= h.Level {
			n--
		}
		stack[n] = h
		n++
	}
	trail := make([]string, n)
	for i, h := range stack[:n] {
		trail[i] = h.Text
	}
	return trail
}

// Skipped records a file the loader left out and why.
type Skipped struct {
	Path   string
	Reason string

	stamp stamp // set when the reason lasts until the file changes (too large, not UTF-8)
}

// stamp identifies a version of a file cheaply, as git's index does: a
// rescan re-reads a file whose stamp differs from the one it had when read.
// The inode tells a file replaced by another of the same size and time (an
// editor's save by rename, a checkout that keeps times) from the one read.
type stamp struct {
	size int64
	mod  int64  // modification time, Unix nanoseconds
	ino  uint64 // inode number; 0 where the system has none
}

func stampOf(info fs.FileInfo) stamp {
	return stamp{size: info.Size(), mod: info.ModTime().UnixNano(), ino: inodeOf(info)}
}

// racyWindow is how close to a read a file's modification time may be for
// the read to be trusted later by its stamp alone. A file written again
// within the timestamp granularity of the first write keeps its time (and,
// if its size stays, its stamp): git calls such an entry "racily clean".
// A doc whose time is within racyWindow of the moment its read began is
// marked racy: the snapshot uses it, but a saved copy (Snapshot.AppendBinary)
// does not vouch for it, and the next start reads it again. A second is
// far above the granularity of local file systems (nanoseconds, or a
// kernel tick) and covers FAT's two-second times only in part, which is
// why a racy doc is read again rather than compared by time.
const racyWindow = time.Second

// markRacy marks the docs whose modification time is not at least
// racyWindow before began, the time their read began.
func markRacy(docs []*Doc, began time.Time) {
	limit := began.Add(-racyWindow).UnixNano()
	for _, d := range docs {
		d.racy = d.stamp.mod >= limit
	}
}

// Snapshot is an immutable corpus.
type Snapshot struct {
	generation uint64
	docs       []*Doc // sorted by Path: found by binary search, no map
	skipped    []Skipped
	codec      *codec // compresses the docs an update reads; nil: they stay plain

	attachMu sync.Mutex
	attached map[any]any // Key[T] to T: see Attach
}

func newSnapshot(generation uint64, docs []*Doc, skipped []Skipped) *Snapshot {
	slices.SortFunc(docs, func(a, b *Doc) int { return strings.Compare(a.Path, b.Path) })
	return &Snapshot{generation: generation, docs: docs, skipped: skipped}
}

// Generation numbers snapshots: a newer snapshot has a larger one.
func (s *Snapshot) Generation() uint64 { return s.generation }

// Docs returns every doc in path order. The slice must not be modified.
func (s *Snapshot) Docs() []*Doc { return s.docs }

// Skipped lists the files the loader left out.
func (s *Snapshot) Skipped() []Skipped { return s.skipped }

// Doc returns the doc at a client-supplied path. The error wraps
// ErrInvalidPath for a refused path and ErrNotFound, as a *NotFoundError
// listing the nearest valid paths, for a path that names no doc (none once
// ctx is done).
func (s *Snapshot) Doc(ctx context.Context, p string) (*Doc, error) {
	clean, err := CleanPath(p)
	if err != nil {
		return nil, err
	}
	if d, ok := s.Lookup(clean); ok {
		return d, nil
	}
	return nil, &NotFoundError{Path: p, Nearest: s.Nearest(ctx, clean, 5)}
}

// Key names a value derived from snapshots (see Attach), of type T. Each
// package that derives data makes its own keys; two keys are the same when
// their names and types are.
type Key[T any] struct{ name string }

// NewKey returns the key named name for values of type T.
func NewKey[T any](name string) Key[T] { return Key[T]{name: name} }

// Attach returns the value attached to s under k, first attaching the
// result of create when there is none. create runs at most once per key
// and snapshot, under a lock: it must be quick (start slow work in a
// goroutine and return a handle to it).
//
// Packages that derive data from a snapshot, such as the search index, keep
// it here so that it lives exactly as long as the snapshot it describes: a
// reload that replaces the snapshot leaves the old data to the collector
// with the old snapshot.
func Attach[T any](s *Snapshot, k Key[T], create func() T) T {
	s.attachMu.Lock()
	defer s.attachMu.Unlock()
	if v, ok := s.attached[k]; ok {
		return v.(T)
	}
	if s.attached == nil {
		s.attached = make(map[any]any)
	}
	v := create()
	s.attached[k] = v
	return v
}

// Attached returns the value attached to s under k, if there is one,
// without attaching anything.
func Attached[T any](s *Snapshot, k Key[T]) (T, bool) {
	s.attachMu.Lock()
	defer s.attachMu.Unlock()
	v, ok := s.attached[k]
	if !ok {
		var zero T
		return zero, false
	}
	return v.(T), true
}

// From returns the index of the first doc whose path is >= p.
func (s *Snapshot) From(p string) int {
	i, _ := slices.BinarySearchFunc(s.docs, p, func(d *Doc, p string) int { return strings.Compare(d.Path, p) })
	return i
}

// NotFoundError says that a path names no doc, and which paths come closest.
type NotFoundError struct {
	Path    string
	Nearest []string
}

func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("no doc at %q", e.Path)
	if len(e.Nearest) > 0 {
		shown := make([]string, len(e.Nearest))
		for i, p := range e.Nearest {
			shown[i] = ShowPath(p)
		}
		msg += "; nearest valid paths: " + strings.Join(shown, ", ")
	}
	return msg
}

func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// Store holds the current snapshot. It is safe for concurrent use.
type Store struct {
	current atomic.Pointer[Snapshot]
}

// NewStore returns a store serving s. A nil s gives a store whose docs are
// still loading: Snapshot returns nil until the first Replace.
func NewStore(s *Snapshot) *Store {
	st := &Store{}
	st.current.Store(s)
	return st
}

// Snapshot returns the current snapshot, or nil while the first one loads.
func (st *Store) Snapshot() *Snapshot { return st.current.Load() }

// Replace makes s the current snapshot.
func (st *Store) Replace(s *Snapshot) { st.current.Store(s) }

// Lookup returns the doc at a path exactly as the snapshot spells it (a
// path from a Diff or another snapshot), without the checks Doc makes on
// client input.
func (s *Snapshot) Lookup(p string) (*Doc, bool) {
	if i := s.From(p); i < len(s.docs) && s.docs[i].Path == p {
		return s.docs[i], true
	}
	return nil, false
}
