package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

const (
	defaultListLimit = 500
	maxListLimit     = 5000
	maxListFolders   = 100 // folders named on a first page
	maxDidYouMean    = 10  // prefixes offered for one that lists nothing
)

// ListDocPathsInput are the arguments of mod_list_doc_paths.
type ListDocPathsInput struct {
	Prefix  string `json:"prefix,omitempty" jsonschema:"Only paths starting with this, e.g. clients/. Default: all."`
	Limit   *int   `json:"limit,omitempty" jsonschema:"Most paths to return, 1 to 5000. Default 500."`
	Cursor  string `json:"cursor,omitempty" jsonschema:"next_cursor from a previous call with the same prefix."`
	Version string `json:"version,omitempty" jsonschema:"Read a release instead of the working tree: a tag as mod_list_versions lists it, or latest (the newest). Default: the working tree."`
}

func (ListDocPathsInput) defaults() map[string]any { return map[string]any{"limit": defaultListLimit} }

func (in *ListDocPathsInput) versions() []string { return []string{in.Version} }

// ListDocPathsOutput is the result of mod_list_doc_paths.
type ListDocPathsOutput struct {
	Paths       []DocEntry    `json:"paths" jsonschema:"Docs in path order."`
	NextCursor  string        `json:"next_cursor,omitempty" jsonschema:"Cursor for the next page; absent on the last page."`
	Generation  uint64        `json:"generation" jsonschema:"Generation of the docs snapshot listed."`
	Version     string        `json:"version,omitempty" jsonschema:"The release listed; absent for the working tree."`
	Folders     []FolderEntry `json:"folders,omitempty" jsonschema:"On the first page: the folders right below the prefix (those whose name starts with what follows its last /), each with the count of docs under it, at most 100 in path order; one of them as prefix lists its docs."`
	MoreFolders int           `json:"more_folders,omitempty" jsonschema:"How many more folders right below the prefix there are than folders holds."`
	DidYouMean  []FolderEntry `json:"did_you_mean,omitempty" jsonschema:"When no doc path starts with the prefix: at most 10 prefixes that list docs, the folders (else the docs) whose path has it after a folder or differs from it in case only, or without a leading docs/."`
}

// FolderEntry is a folder (or, in did_you_mean, a doc) with the count of
// docs under it.
type FolderEntry struct {
	Path string `json:"path" jsonschema:"A folder relative to docs/, ending in /, to give as prefix (in did_you_mean, a doc path when no folder matched; empty for all docs)."`
	Docs int    `json:"docs" jsonschema:"The docs whose path starts with it, at any depth."`
}

// DocEntry describes one doc.
type DocEntry struct {
	Path  string `json:"path" jsonschema:"Path relative to docs/, valid for mod_read_doc."`
	Title string `json:"title" jsonschema:"Front matter title, else the first level-1 heading, else the file name."`
	Bytes int64  `json:"bytes" jsonschema:"Size of the file in bytes."`
	Lines int    `json:"lines" jsonschema:"Number of lines."`
}

func (s *Server) listDocPathsTool() server.ServerTool {
	return newTool(s, "mod_list_doc_paths", "List doc paths",
		"List the docs under docs/ (the valid paths for mod_read_doc) with each doc's title, size and line count, in path order. "+
			"The first page names the folders right below the prefix with their counts of docs; a prefix that lists no doc gets the folders it may mean (e.g. reference/ for api/reference/).",
		s.listDocPaths)
}

func (s *Server) listDocPaths(ctx context.Context, in ListDocPathsInput) (ListDocPathsOutput, string, error) {
	var out ListDocPathsOutput
	limit, err := limitOf(in.Limit, defaultListLimit, maxListLimit)
	if err != nil {
		return out, "", err
	}
	prefix, err := docs.CleanPrefix(in.Prefix)
	if err != nil {
		return out, "", fmt.Errorf("prefix: %w", err)
	}
	fp := fingerprint(prefix)
	if in.Version != "" {
		fp = fingerprint(prefix, in.Version) // a cursor of one version is no cursor of another
	}
	from := prefix
	if in.Cursor != "" {
		c, err := decodeCursor(in.Cursor, "list", fp)
		if err != nil {
			return out, "", err
		}
		from = max(prefix, c.Path+"\x00") // the smallest path after c.Path
	}

	snap, rel, err := s.docsOf(ctx, in.Version)
	if err != nil {
		return out, "", err
	}
	if rel != nil {
		out.Version = rel.Name
	}
	out.Generation = snap.Generation()
	out.Paths = []DocEntry{}
	all := snap.Docs()
	budget := s.textBudget()
	var tree *docTree
	if in.Cursor == "" {
		tree = treeOf(snap)
		var used int
		out.Folders, out.MoreFolders, used = foldersBelow(snap, tree, prefix, budget/2)
		budget -= used
	}
	more := false
	var buf []byte // each doc's text, decoded for its title
	for _, d := range all[snap.From(from):] {
		if !strings.HasPrefix(d.Path, prefix) {
			break
		}
		if len(out.Paths) == limit {
			more = true
			break
		}
		title := d.TitleIn(&buf)
		if budget -= len(d.Path) + len(title) + 48; budget < 0 && len(out.Paths) > 0 {
			more = true
			break
		}
		out.Paths = append(out.Paths, DocEntry{Path: d.Path, Title: title, Bytes: d.Size, Lines: d.LineCount()})
	}
	if more {
		out.NextCursor = cursor{Kind: "list", Query: fp, Path: out.Paths[len(out.Paths)-1].Path}.encode()
	}
	if tree != nil && len(out.Paths) == 0 {
		out.DidYouMean = didYouMean(snap, tree, prefix)
	}
	return out, out.text(prefix), nil
}

// foldersBelow returns the folders right below prefix's folder whose path
// starts with prefix, with their counts of docs, at most maxListFolders
// and as many as room bytes of text hold; how many more there are; and
// the bytes of text they take.
func foldersBelow(snap *docs.Snapshot, tree *docTree, prefix string, room int) (out []FolderEntry, more, used int) {
	dir := prefix[:strings.LastIndexByte(prefix, '/')+1]
	f, ok := tree.dirs[dir]
	if !ok {
		return nil, 0, 0
	}
	below := withPrefix(f.folders, func(i int) string { return f.folders[i] }, prefix)
	for _, p := range below[:min(len(below), maxListFolders)] {
		line := len(p) + 16 // "path  (N docs)\n"
		if used+line > room {
			break
		}
		used += line
		out = append(out, FolderEntry{Path: p, Docs: docsWith(snap, p)})
	}
	return out, len(below) - len(out), used
}

// docsWith counts the docs whose path starts with p: a run of the
// snapshot's docs, which are in path order.
func docsWith(snap *docs.Snapshot, p string) int {
	all := snap.Docs()[snap.From(p):]
	n, _ := slices.BinarySearchFunc(all, true, func(d *docs.Doc, _ bool) int {
		if strings.HasPrefix(d.Path, p) {
			return -1
		}
		return 1
	})
	return n
}

// didYouMean offers prefixes for one that lists no doc: the folders whose
// path has it at its start or after a '/', in any case (compiler-errors-1/
// for error-messages/compiler-errors-1/, Guide/ for guide/), not those
// inside another offered; else such docs; prefix without a leading docs/
// when that lists docs. At most maxDidYouMean, in path order.
func didYouMean(snap *docs.Snapshot, tree *docTree, prefix string) []FolderEntry {
	if rest, ok := cutPrefixFold(prefix, "docs/"); ok {
		if n := docsWith(snap, rest); n > 0 {
			return []FolderEntry{{Path: rest, Docs: n}}
		}
	}
	var folders []string
	for p := range tree.dirs {
		if p != "" && afterFolder(p, prefix) {
			folders = append(folders, p)
		}
	}
	slices.Sort(folders)
	var out []FolderEntry
	for _, p := range folders {
		if n := len(out); n > 0 && strings.HasPrefix(p, out[n-1].Path) {
			continue // inside the folder before it
		}
		if out = append(out, FolderEntry{Path: p, Docs: docsWith(snap, p)}); len(out) == maxDidYouMean {
			return out
		}
	}
	if len(out) > 0 || strings.HasSuffix(prefix, "/") {
		return out // a doc that had prefix after a folder would be in a folder that has it
	}
	for _, d := range snap.Docs() {
		if afterFolder(d.Path, prefix) {
			if out = append(out, FolderEntry{Path: d.Path, Docs: 1}); len(out) == maxDidYouMean {
				break
			}
		}
	}
	return out
}

// afterFolder reports whether p has prefix at its start or right after a
// '/', ignoring case. The first byte is compared alone first: most places
// differ there, and strings.EqualFold costs more.
func afterFolder(p, prefix string) bool {
	if prefix == "" {
		return true
	}
	first := lowerASCII(prefix[0])
	for k := 0; k+len(prefix) <= len(p); {
		if (first >= utf8.RuneSelf || lowerASCII(p[k]) == first) && strings.EqualFold(p[k:k+len(prefix)], prefix) {
			return true
		}
		slash := strings.IndexByte(p[k:], '/')
		if slash < 0 {
			return false
		}
		k += slash + 1
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func (o ListDocPathsOutput) text(prefix string) string {
	var b strings.Builder
	switch {
	case len(o.DidYouMean) > 0:
		fmt.Fprintf(&b, "No doc path starts with %q; these prefixes list docs:\n", prefix)
		for _, f := range o.DidYouMean {
			name := docs.ShowPath(f.Path)
			if name == "" {
				name = "(no prefix)"
			}
			fmt.Fprintf(&b, "%s  (%s)\n", name, plural(f.Docs, "doc", "docs"))
		}
	case len(o.Paths) == 0 && prefix != "":
		fmt.Fprintf(&b, "No doc path starts with %q, nor has it after a folder: list with no prefix for the top folders.\n", prefix)
	case len(o.Folders) > 0:
		b.WriteString("Folders:\n")
		for _, f := range o.Folders {
			fmt.Fprintf(&b, "%s  (%s)\n", docs.ShowPath(f.Path), plural(f.Docs, "doc", "docs"))
		}
		if o.MoreFolders > 0 {
			fmt.Fprintf(&b, "… and %s more\n", plural(o.MoreFolders, "folder", "folders"))
		}
		b.WriteString("\n")
	}
	for _, e := range o.Paths {
		fmt.Fprintf(&b, "%s  %q  (%d lines, %d bytes)\n", docs.ShowPath(e.Path), e.Title, e.Lines, e.Bytes)
	}
	fmt.Fprintf(&b, "\n[%s", plural(len(o.Paths), "doc", "docs"))
	if o.Version != "" {
		fmt.Fprintf(&b, " in %s", o.Version)
	}
	if o.NextCursor != "" {
		fmt.Fprintf(&b, "; more remain: call again with cursor=%q", o.NextCursor)
	}
	b.WriteString("]")
	return b.String()
}
