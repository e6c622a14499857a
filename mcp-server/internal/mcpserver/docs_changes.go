package mcpserver

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
)

// DocsChangesInput are the arguments of mod_docs_changes.
type DocsChangesInput struct {
	From string `json:"from" jsonschema:"The older version: a release tag as mod_list_versions lists it, latest, or working tree."`
	To   string `json:"to,omitempty" jsonschema:"The newer version, named the same way. Default: the working tree."`
}

func (in *DocsChangesInput) versions() []string { return []string{in.From, in.To} }

// DocsChangesOutput is the result of mod_docs_changes.
type DocsChangesOutput struct {
	From      string       `json:"from" jsonschema:"The older version compared."`
	To        string       `json:"to" jsonschema:"The newer version compared."`
	Added     []string     `json:"added" jsonschema:"Docs in to only, paths relative to docs/."`
	Removed   []string     `json:"removed" jsonschema:"Docs in from only."`
	Changed   []ChangedDoc `json:"changed" jsonschema:"Docs in both whose text differs, with the sections that differ."`
	Hooks     HookChanges  `json:"hooks" jsonschema:"Whether framework/mod_hooks.json changed, and which hooks by name."`
	Truncated bool         `json:"truncated,omitempty" jsonschema:"True when the lists were cut at the size cap; the counts in the text are whole."`
}

// HookChanges says how the hook registry changed.
type HookChanges struct {
	Changed bool     `json:"changed" jsonschema:"True when framework/mod_hooks.json differs."`
	Added   []string `json:"added,omitempty" jsonschema:"Hooks in to only, by name."`
	Removed []string `json:"removed,omitempty" jsonschema:"Hooks in from only."`
	Edited  []string `json:"edited,omitempty" jsonschema:"Hooks in both whose entry differs in any field. When the registry changed but one side is not valid JSON, the three lists are empty."`
}

// ChangedDoc is a doc whose text differs between two versions.
type ChangedDoc struct {
	Path     string           `json:"path" jsonschema:"Doc path relative to docs/."`
	Sections []ChangedSection `json:"sections" jsonschema:"The sections whose own text differs (from the heading to the next heading), in the newer doc's order, then those removed."`
}

// ChangedSection is a section added, removed or changed.
type ChangedSection struct {
	Anchor  string `json:"anchor" jsonschema:"The section's anchor (mod_read_doc's section argument); empty for the text above the first heading."`
	Heading string `json:"heading" jsonschema:"The heading's text."`
	Change  string `json:"change" jsonschema:"added, removed or changed."`
}

func (s *Server) docsChangesTool() server.ServerTool {
	return newTool(s, "mod_docs_changes", "What changed in the docs",
		"Compare the docs of two versions (release tags served with --versions, latest, or the working tree): "+
			"the docs added, removed and changed, for each changed doc the sections (by anchor) whose text differs, "+
			"and the hooks of the registry added, removed or changed.",
		s.docsChanges)
}

func (s *Server) docsChanges(ctx context.Context, in DocsChangesInput) (DocsChangesOutput, string, error) {
	if in.From == "" {
		return DocsChangesOutput{}, "", inputErrorf("from is empty; give the older version (mod_list_versions lists them)")
	}
	if in.To == "" {
		in.To = WorkingTree
	}
	d, fromName, toName, err := s.changes(ctx, in.From, in.To)
	if err != nil {
		return DocsChangesOutput{}, "", err
	}
	out := DocsChangesOutput{From: fromName, To: toName, Added: []string{}, Removed: []string{}, Changed: []ChangedDoc{},
		Hooks: HookChanges{Changed: d.Hooks.Changed, Added: d.Hooks.Added, Removed: d.Hooks.Removed, Edited: d.Hooks.Edited}}
	var b strings.Builder
	fmt.Fprintf(&b, "From %s to %s: %s added, %s removed, %s changed.\n", fromName, toName,
		plural(len(d.Added), "doc", "docs"), plural(len(d.Removed), "doc", "docs"), plural(len(d.Changed), "doc", "docs"))
	budget := s.textBudget()
	fits := func(line string) bool {
		if budget -= 2 * len(line); budget < 0 { // the line, and its part of the structured copy
			out.Truncated = true
			return false
		}
		b.WriteString(line)
		return true
	}
	if h := d.Hooks; h.Changed {
		fits(fmt.Sprintf("Hook registry changed: added %s; removed %s; changed %s.\n", list(h.Added), list(h.Removed), list(h.Edited)))
	}
	for _, p := range d.Added {
		if !fits("+ " + docs.ShowPath(p) + "\n") {
			break
		}
		out.Added = append(out.Added, p)
	}
	for _, p := range d.Removed {
		if out.Truncated || !fits("- "+docs.ShowPath(p)+"\n") {
			break
		}
		out.Removed = append(out.Removed, p)
	}
	for _, c := range d.Changed {
		line := "~ " + docs.ShowPath(c.Path)
		cd := ChangedDoc{Path: c.Path, Sections: make([]ChangedSection, len(c.Sections))}
		for i, sec := range c.Sections {
			cd.Sections[i] = ChangedSection{Anchor: sec.Anchor, Heading: sec.Heading, Change: string(sec.Change)}
			anchor := "#" + sec.Anchor
			if sec.Anchor == "" {
				anchor = "(above the first heading)"
			}
			line += fmt.Sprintf("\n    %s %s", sec.Change, anchor)
		}
		if out.Truncated || !fits(line+"\n") {
			break
		}
		out.Changed = append(out.Changed, cd)
	}
	if out.Truncated {
		b.WriteString("\n[cut at the size cap: compare closer versions for the rest]")
	}
	return out, strings.TrimSuffix(b.String(), "\n"), nil
}

// changes compares two versions: between two releases once, then from
// the cache (changesCache), as both are what their tags name; with the
// working tree afresh each time, as its files on disk may have changed.
func (s *Server) changes(ctx context.Context, fromVersion, toVersion string) (d *gitdocs.Diff, fromName, toName string, err error) {
	var fromRel, toRel *versions.Release
	fromName, toName = WorkingTree, WorkingTree
	if !isWorkingTree(fromVersion) {
		if fromRel, err = s.release(ctx, fromVersion); err != nil {
			return nil, "", "", fmt.Errorf("from: %w", err)
		}
		fromName = fromRel.Name
	}
	if !isWorkingTree(toVersion) {
		if toRel, err = s.release(ctx, toVersion); err != nil {
			return nil, "", "", fmt.Errorf("to: %w", err)
		}
		toName = toRel.Name
	}
	compare := func() (*gitdocs.Diff, error) {
		from, closeFrom, err := s.tree(fromRel)
		if err != nil {
			return nil, err
		}
		defer closeFrom()
		to, closeTo, err := s.tree(toRel)
		if err != nil {
			return nil, err
		}
		defer closeTo()
		return gitdocs.ChangesWithin(from, to, s.maxDocBytes())
	}
	if fromRel == nil || toRel == nil {
		d, err = compare()
	} else {
		d, err = s.changesCache.get(changesKey{fromRel.Name, fromRel.Commit, toRel.Name, toRel.Commit}, compare)
	}
	return d, fromName, toName, err
}

func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// tree is the whole tree of a release, or of the working tree (rel nil),
// for gitdocs.ChangesWithin: the tag's objects, or the data root on disk
// (through an os.Root, so that no link leads out of it). Call done when
// finished with it.
func (s *Server) tree(rel *versions.Release) (fsys fs.FS, done func(), err error) {
	if rel != nil {
		t, err := rel.Tree()
		return t, func() {}, err
	}
	root, err := os.OpenRoot(s.opts.DataRoot)
	if err != nil {
		return nil, nil, fmt.Errorf("open the data root: %w", err)
	}
	return root.FS(), func() { root.Close() }, nil
}

// maxDocBytes is the cap of a doc read (--max-doc-bytes): of the releases,
// which have it from the command line as the working tree has.
func (s *Server) maxDocBytes() int64 {
	if s.corpus.Releases() == nil {
		return docs.DefaultMaxDocBytes
	}
	return s.corpus.Releases().MaxDocBytes()
}

// changesKey names a comparison of two releases by their tags and commits.
type changesKey struct{ fromName, fromCommit, toName, toCommit string }

// The bounds of changesCache: the comparisons kept, and their size in all
// (about: the bytes of their paths and anchors).
const (
	maxCachedChanges      = 8
	maxCachedChangesBytes = 16 << 20
)

// changesCache keeps the last comparisons of two releases, the most
// recently asked last, within maxCachedChanges and maxCachedChangesBytes:
// comparing two trees of 200,000 docs costs about a second of a core,
// which a client asking again (paging through versions, or several
// clients asking the same) would pay each time. A comparison asked for
// while it is computed waits for it rather than computing it again.
type changesCache struct {
	mu      sync.Mutex
	entries []*changesEntry
}

type changesEntry struct {
	key   changesKey
	once  sync.Once
	diff  *gitdocs.Diff
	err   error
	bytes int
}

// get returns the comparison of key, computed by compute once.
func (c *changesCache) get(key changesKey, compute func() (*gitdocs.Diff, error)) (*gitdocs.Diff, error) {
	c.mu.Lock()
	i := slices.IndexFunc(c.entries, func(e *changesEntry) bool { return e.key == key })
	var e *changesEntry
	if i >= 0 {
		e = c.entries[i]
		c.entries = append(slices.Delete(c.entries, i, i+1), e)
	} else {
		e = &changesEntry{key: key}
		c.entries = append(c.entries, e)
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.diff, e.err = compute()
		if e.err == nil {
			e.bytes = diffBytes(e.diff)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if e.err != nil {
			c.entries = slices.DeleteFunc(c.entries, func(x *changesEntry) bool { return x == e }) // tried again next time
		}
		c.trim()
	})
	return e.diff, e.err
}

// trim drops the least recently asked comparisons past the bounds (c.mu
// held). One being computed counts as empty until it is done.
func (c *changesCache) trim() {
	total := 0
	for _, e := range c.entries {
		total += e.bytes
	}
	for len(c.entries) > maxCachedChanges || total > maxCachedChangesBytes && len(c.entries) > 0 {
		total -= c.entries[0].bytes
		c.entries = c.entries[1:]
	}
}

// size is how many comparisons are kept.
func (c *changesCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// diffBytes is about what a Diff holds: its paths, anchors and headings.
func diffBytes(d *gitdocs.Diff) int {
	n := 0
	for _, ps := range [][]string{d.Added, d.Removed, d.Hooks.Added, d.Hooks.Removed, d.Hooks.Edited} {
		for _, p := range ps {
			n += len(p) + 16
		}
	}
	for _, c := range d.Changed {
		n += len(c.Path) + 16
		for _, sec := range c.Sections {
			n += len(sec.Anchor) + len(sec.Heading) + len(sec.Change) + 48
		}
	}
	return n
}
