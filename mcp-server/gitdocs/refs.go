package gitdocs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// BadTag is a selected tag that cannot be read, and why: its ref file or
// its line of packed-refs is not a ref, or the object it names cannot be
// read (missing, or in a truncated pack).
type BadTag struct {
	Name   string // the tag's name; a line of packed-refs that names none is named by its place, "packed-refs line N"
	Reason string
}

// matcher picks tags by name: a Selector, or every tag (anyTag).
type matcher interface{ Match(name string) bool }

// anyTag matches every tag.
type anyTag struct{}

func (anyTag) Match(string) bool { return true }

// TagNames lists the names of every tag of the repository (selected or
// not, readable or not), as git sorts them: for telling an operator what
// a selector could have matched.
func (r *Repo) TagNames() ([]string, error) {
	refs, bad, err := r.tagRefs(anyTag{})
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(refs)+len(bad))
	for _, ref := range refs {
		names = append(names, ref.name)
	}
	for _, b := range bad {
		if !strings.HasPrefix(b.Name, "packed-refs line ") {
			names = append(names, b.Name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// tagRef is a tag's ref: its name (without refs/tags/) and the object it
// names.
type tagRef struct {
	name string
	hash plumbing.Hash
}

// looseRef is a loose ref file as last read: its size and time, and what
// it held (an object id, or why it holds none).
type looseRef struct {
	size int64
	mod  time.Time
	hash plumbing.Hash
	err  string
}

// racyWindow is how recent a ref file's time may be for its read to be
// kept: a file written again within the file system's time resolution
// could keep its size and time (git's "racily clean" entries); one that
// old is read again each time.
const racyWindow = 2 * time.Second

// maxRefFileBytes bounds what is read of a loose ref file: a ref is a
// line of 41 bytes (or "ref: " and a name).
const maxRefFileBytes = 4 << 10

// tagRefs lists the tags the selector matches, as git does: the loose refs
// under refs/tags, then the lines of packed-refs (a loose ref wins). It
// reads them itself rather than through go-git, which fails the whole
// listing on one malformed line of packed-refs: such a line, or a ref
// file that holds no ref, is returned in bad, and the other tags are
// listed. A loose ref file whose size and time are those it had at the
// last listing, and not recent (racyWindow), is not read again: 5,000
// loose tags were 5,000 files opened every 2 s.
func (r *Repo) tagRefs(sel matcher) (refs []tagRef, bad []BadTag, err error) {
	r.refsMu.Lock()
	defer r.refsMu.Unlock()
	lt := looseTags{dot: r.dot, sel: sel, seen: map[string]bool{}, last: r.loose, now: map[string]looseRef{}, refs: &refs, bad: &bad}
	if err := lt.read("refs/tags"); err != nil {
		return nil, nil, err
	}
	if _, all := sel.(anyTag); !all {
		r.loose = lt.now // what a selector's listing read, for its next one
	}
	seen := lt.seen
	dot := r.dot
	f, err := dot.Open("packed-refs")
	if errors.Is(err, os.ErrNotExist) {
		return refs, bad, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read packed-refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' { // a comment, or the peeled id of the tag above
			continue
		}
		id, ref, ok := strings.Cut(line, " ")
		name, isTag := strings.CutPrefix(ref, "refs/tags/")
		if !ok || strings.ContainsAny(ref, " \t") || !plumbing.IsHash(id) || !strings.HasPrefix(ref, "refs/") {
			if i := strings.Index(line, "refs/tags/"); i >= 0 {
				name, _, _ = strings.Cut(line[i+len("refs/tags/"):], " ")
				if sel.Match(name) && !seen[name] {
					seen[name] = true
					bad = append(bad, BadTag{Name: name, Reason: fmt.Sprintf("line %d of packed-refs is not a ref: %q", n, cut(line, 120))})
				}
				continue
			}
			bad = append(bad, BadTag{Name: fmt.Sprintf("packed-refs line %d", n), Reason: fmt.Sprintf("not a ref: %q", cut(line, 120))})
			continue
		}
		if !isTag || seen[name] || !sel.Match(name) {
			continue
		}
		seen[name] = true
		refs = append(refs, tagRef{name: name, hash: plumbing.NewHash(id)})
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("read packed-refs: %w", err)
	}
	return refs, bad, nil
}

// looseTags reads the loose tags: what they name goes to refs, or to bad
// when a file holds no ref.
type looseTags struct {
	dot        billy.Filesystem
	sel        matcher
	seen       map[string]bool     // the tags named, by name
	last, now  map[string]looseRef // the ref files read, by path: at the last listing, and at this one
	refs       *[]tagRef
	bad        *[]BadTag
	recentFrom time.Time
}

// read adds the loose refs under dir (refs/tags, and its folders: a
// tag's name may hold a slash).
func (lt *looseTags) read(dir string) error {
	if lt.recentFrom.IsZero() {
		lt.recentFrom = time.Now().Add(-racyWindow)
	}
	entries, err := lt.dot.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil // no loose tags, or a folder deleted as it was read
	}
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		if e.IsDir() {
			if err := lt.read(p); err != nil {
				return err
			}
			continue
		}
		name := strings.TrimPrefix(p, "refs/tags/")
		if strings.HasSuffix(name, ".lock") || !lt.sel.Match(name) {
			continue // a ref being written: git renames it into place
		}
		ref, ok := lt.last[p]
		if !ok || ref.size != e.Size() || !ref.mod.Equal(e.ModTime()) || !e.ModTime().Before(lt.recentFrom) {
			id, err := readRef(lt.dot, p)
			if errors.Is(err, os.ErrNotExist) {
				continue // deleted as it was read
			}
			ref = looseRef{size: e.Size(), mod: e.ModTime(), hash: id}
			if err != nil {
				ref.err = err.Error()
			}
		}
		lt.now[p] = ref
		lt.seen[name] = true
		if ref.err != "" {
			*lt.bad = append(*lt.bad, BadTag{Name: name, Reason: ref.err})
			continue
		}
		*lt.refs = append(*lt.refs, tagRef{name: name, hash: ref.hash})
	}
	return nil
}

// readRef reads a loose ref file: one object id on a line.
func readRef(dot billy.Filesystem, p string) (plumbing.Hash, error) {
	f, err := dot.Open(p)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRefFileBytes))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read %s: %w", p, err)
	}
	line := string(bytes.TrimSpace(b))
	if target, ok := strings.CutPrefix(line, "ref: "); ok {
		return plumbing.ZeroHash, fmt.Errorf("%s is a symbolic ref (to %s), not followed", p, cut(target, 120))
	}
	if !plumbing.IsHash(line) {
		return plumbing.ZeroHash, fmt.Errorf("%s holds no object id: %q", p, cut(line, 120))
	}
	return plumbing.NewHash(line), nil
}

// cut shortens s to at most n bytes for a message, at a character's start.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
