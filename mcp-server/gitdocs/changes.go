package gitdocs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Diff is what changed in the docs from one tree to another: the docs
// added, removed and changed (paths relative to docs/, as the server's
// tools take them, in path order), and the hook registry.
type Diff struct {
	Added   []string
	Removed []string
	Changed []DocChange
	Hooks   HookChanges
}

// DocChange is a changed doc and its sections whose text differs.
type DocChange struct {
	Path     string
	Sections []SectionChange // in the order of the newer doc, then the removed ones
}

// Change says how a section or a hook changed.
type Change string

// The ways a section or a hook changes.
const (
	Added   Change = "added"
	Removed Change = "removed"
	Edited  Change = "changed"
)

// SectionChange is a section whose own text differs: the lines from its
// heading down to the next heading of any level, so that an edit in a
// subsection names the subsection, not also every section around it, and
// without the blank lines that end it.
// Anchor is the section's anchor as the server and the wiki give it
// (docs.Anchors); the text above the first heading (the whole doc, when
// it has none) is the section with the empty anchor and heading. Heading is the heading's text, from the
// newer doc unless the section was removed.
type SectionChange struct {
	Anchor  string
	Heading string
	Change  Change
}

// HookChanges says whether framework/mod_hooks.json changed and, when both
// versions parse, which hooks (by name, sorted) were added, removed or
// changed in any field. A file missing on one side counts as no hooks.
type HookChanges struct {
	Changed bool
	Added   []string
	Removed []string
	Edited  []string
}

// The files Changes compares, relative to a tree's root.
const (
	docsDir   = "docs"
	HooksPath = "framework/mod_hooks.json"
)

// Changes compares the docs (docs/**/*.md, as the server loads them:
// folders named .git and node_modules skipped, symlinks not followed) and
// the hook registry of two trees rooted at a repository's root: a tag's
// (Repo.FS) or the working tree's (os.DirFS). Files whose BlobIDs are
// known on both sides are compared by id without being read; a file on
// disk is hashed as git would, and its blob read only when it differs.
func Changes(from, to fs.FS) (*Diff, error) { return ChangesWithin(from, to, 0) }

// ChangesWithin is Changes with a size cap, as the server reads a version:
// a doc larger than maxBytes is not served, so it counts as absent on
// that side (a doc grown past the cap is removed), and it is never read;
// a registry larger than maxBytes is not read either: it changed when its
// blob differs (or, on disk, its size), and which hooks is not told. A
// maxBytes of 0 or less is no cap.
func ChangesWithin(from, to fs.FS, maxBytes int64) (*Diff, error) {
	a, err := docFiles(from)
	if err != nil {
		return nil, fmt.Errorf("changes: older tree: %w", err)
	}
	b, err := docFiles(to)
	if err != nil {
		return nil, fmt.Errorf("changes: newer tree: %w", err)
	}
	within := func(fsys fs.FS, p string) (bool, error) {
		if maxBytes <= 0 {
			return true, nil
		}
		info, err := fs.Stat(fsys, path.Join(docsDir, p))
		if err != nil {
			return false, err
		}
		return info.Size() <= maxBytes, nil
	}
	d := &Diff{}
	for _, p := range sortedKeys(b) {
		if _, ok := a[p]; !ok {
			if ok, err := within(to, p); err != nil || !ok {
				if err != nil {
					return nil, err
				}
				continue
			}
			d.Added = append(d.Added, p)
		}
	}
	for _, p := range sortedKeys(a) {
		idA := a[p]
		idB, ok := b[p]
		inA, err := within(from, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			if inA {
				d.Removed = append(d.Removed, p)
			}
			continue
		}
		if idA != (BlobID{}) && idA == idB {
			continue
		}
		inB, err := within(to, p)
		if err != nil {
			return nil, err
		}
		switch {
		case !inA && !inB:
			continue
		case !inA:
			d.Added = append(d.Added, p)
			continue
		case !inB:
			d.Removed = append(d.Removed, p)
			continue
		}
		name := path.Join(docsDir, p)
		oldText, newText, same, err := readPair(from, to, name, idA, idB)
		if err != nil {
			return nil, err
		}
		if !same {
			d.Changed = append(d.Changed, DocChange{Path: p, Sections: sectionChanges(oldText, newText)})
		}
	}
	slices.Sort(d.Added) // with those grown back within the cap
	if d.Hooks, err = hookChanges(from, to, maxBytes); err != nil {
		return nil, err
	}
	return d, nil
}

// docFiles lists docs/**/*.md of a tree with their BlobIDs (zero when the
// tree does not know them). A tree without docs/ has none.
func docFiles(fsys fs.FS) (map[string]BlobID, error) {
	out := map[string]BlobID{}
	err := fs.WalkDir(fsys, docsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == docsDir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			if p != docsDir && docs.IgnoredName(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(strings.ToLower(p), ".md") {
			return nil
		}
		var id BlobID
		if e, ok := d.(dirEntry); ok { // a tag's tree knows it without a read
			id = BlobID(e.e.Hash)
		}
		out[strings.TrimPrefix(p, docsDir+"/")] = id
		return nil
	})
	return out, err
}

// readPair reads a doc on both sides unless its bytes are found the same
// by id.
func readPair(from, to fs.FS, name string, idA, idB BlobID) (a, b []byte, same bool, err error) {
	read := func(fsys fs.FS, other BlobID) ([]byte, bool, error) {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, false, err
		}
		return data, other != BlobID{} && BlobIDOf(data) == other, nil
	}
	if idA == (BlobID{}) {
		if a, same, err = read(from, idB); err != nil || same {
			return nil, nil, same, err
		}
	}
	if idB == (BlobID{}) {
		if b, same, err = read(to, idA); err != nil || same {
			return nil, nil, same, err
		}
	}
	if a == nil {
		if a, err = fs.ReadFile(from, name); err != nil {
			return nil, nil, false, err
		}
	}
	if b == nil {
		if b, err = fs.ReadFile(to, name); err != nil {
			return nil, nil, false, err
		}
	}
	return a, b, bytes.Equal(a, b), nil
}

// section is a section's own text, keyed by anchor.
type section struct {
	anchor, heading, text string
}

// sectionsOf cuts a doc into its sections' own texts (see SectionChange).
func sectionsOf(text string) []section {
	lines := docs.SplitLines(text)
	hs := docs.Headings(text)
	anchors := docs.Anchors(hs)
	out := make([]section, 0, len(hs)+1)
	start := len(lines) // a doc without headings is all text above the first
	if len(hs) > 0 {
		start = hs[0].Line - 1
	}
	out = append(out, section{text: ownText(lines[:min(start, len(lines))])})
	for i, h := range hs {
		end := len(lines)
		if i+1 < len(hs) {
			end = hs[i+1].Line - 1
		}
		// A setext heading's text is the line above its underline; the
		// section starts there.
		out = append(out, section{anchor: anchors[i], heading: h.Text, text: ownText(lines[min(h.Line-1, end):end])})
	}
	return out
}

// ownText joins a section's lines without the blank lines that end it, so
// that a section followed by a new one has not changed.
func ownText(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

func sectionChanges(oldText, newText []byte) []SectionChange {
	olds := sectionsOf(string(oldText))
	news := sectionsOf(string(newText))
	old := make(map[string]section, len(olds))
	for _, s := range olds {
		old[s.anchor] = s
	}
	seen := make(map[string]bool, len(news))
	var out []SectionChange
	for _, s := range news {
		seen[s.anchor] = true
		o, ok := old[s.anchor]
		switch {
		case !ok:
			out = append(out, SectionChange{Anchor: s.anchor, Heading: s.heading, Change: Added})
		case o.text != s.text:
			out = append(out, SectionChange{Anchor: s.anchor, Heading: s.heading, Change: Edited})
		}
	}
	for _, s := range olds {
		if !seen[s.anchor] {
			out = append(out, SectionChange{Anchor: s.anchor, Heading: s.heading, Change: Removed})
		}
	}
	return out
}

func hookChanges(from, to fs.FS, maxBytes int64) (HookChanges, error) {
	infoA, err := statOptional(from, HooksPath)
	if err != nil {
		return HookChanges{}, err
	}
	infoB, err := statOptional(to, HooksPath)
	if err != nil {
		return HookChanges{}, err
	}
	if maxBytes > 0 && (infoA != nil && infoA.Size() > maxBytes || infoB != nil && infoB.Size() > maxBytes) {
		// Not read whole: changed unless both are the same blob.
		if infoA == nil || infoB == nil || infoA.Size() != infoB.Size() {
			return HookChanges{Changed: true}, nil
		}
		idA, err := streamedID(from, HooksPath, infoA)
		if err != nil {
			return HookChanges{}, err
		}
		idB, err := streamedID(to, HooksPath, infoB)
		if err != nil {
			return HookChanges{}, err
		}
		return HookChanges{Changed: idA != idB}, nil
	}
	a, err := readOptional(from, HooksPath)
	if err != nil {
		return HookChanges{}, err
	}
	b, err := readOptional(to, HooksPath)
	if err != nil {
		return HookChanges{}, err
	}
	if bytes.Equal(a, b) {
		return HookChanges{}, nil
	}
	hc := HookChanges{Changed: true}
	ha, errA := hooksByName(a)
	hb, errB := hooksByName(b)
	if errA != nil || errB != nil {
		return hc, nil // changed, but which hooks cannot be told
	}
	for _, n := range sortedKeys(hb) {
		o, ok := ha[n]
		switch {
		case !ok:
			hc.Added = append(hc.Added, n)
		case o != hb[n]:
			hc.Edited = append(hc.Edited, n)
		}
	}
	for _, n := range sortedKeys(ha) {
		if _, ok := hb[n]; !ok {
			hc.Removed = append(hc.Removed, n)
		}
	}
	return hc, nil
}

// statOptional stats a file: nil when there is none.
func statOptional(fsys fs.FS, name string) (fs.FileInfo, error) {
	info, err := fs.Stat(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return info, err
}

// streamedID is the BlobID of the file name described by info: a tag's
// tree knows it; a file on disk is hashed as it is read, a buffer at a
// time, never held whole.
func streamedID(fsys fs.FS, name string, info fs.FileInfo) (BlobID, error) {
	if id, ok := info.Sys().(BlobID); ok {
		return id, nil
	}
	f, err := fsys.Open(name)
	if err != nil {
		return BlobID{}, err
	}
	defer f.Close()
	h := plumbing.NewHasher(plumbing.BlobObject, info.Size())
	if _, err := io.Copy(h, f); err != nil {
		return BlobID{}, fmt.Errorf("read %s: %w", name, err)
	}
	return BlobID(h.Sum()), nil
}

func readOptional(fsys fs.FS, name string) ([]byte, error) {
	data, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// hooksByName maps each hook's name to its JSON, compacted so that a
// change of layout alone is no change.
func hooksByName(data []byte) (map[string]string, error) {
	out := map[string]string{}
	if len(data) == 0 {
		return out, nil
	}
	var reg struct {
		Hooks []json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		return nil, err
	}
	for _, raw := range reg.Hooks {
		var h struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil, err
		}
		out[h.Name] = buf.String()
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
