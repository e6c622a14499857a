package mcpserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// resources/directory/read of the docs' folders: a docs server is made of
// folders, and a client browses them one at a time as it browses a
// skill's (skills.go). docs:// is the docs folder itself, docs://server a
// folder in it; with --versions, docs-version://v1 and
// docs-version://v1/server are a release's. A folder lists its folders
// (inode/directory, named by their last segment), then its docs as
// resources/list lists them, each run in path order, at most dirPageSize
// entries a page. The folders come from the snapshot's tree (treeOf, the
// one completions use): a page reads no folder of the disk.

// docsFolder is a folder of the docs that a URI names: the snapshot it is
// in, its key in the snapshot's tree ("" for the docs folder, else
// "server/"), and how its entries' URIs are made.
type docsFolder struct {
	snap *docs.Snapshot
	dir  string
	// version is the release the folder is in; "" for the working tree.
	version string
}

// isDocsFolderURI reports whether uri is one resources/directory/read
// takes as a folder of the docs (which may not exist).
func isDocsFolderURI(uri string) bool {
	return strings.HasPrefix(uri, docScheme) || strings.HasPrefix(uri, versionScheme)
}

// folderPath is the folder a docs:// URI's path names ("" for none: the
// docs folder), unescaped; ok is false for a path no folder can have
// (a trailing slash, a query or fragment, a segment "." or "..").
func folderPath(raw string) (string, bool) {
	if raw == "" {
		return "", true
	}
	if strings.ContainsAny(raw, "?#") || strings.HasSuffix(raw, "/") {
		return "", false
	}
	p, err := url.PathUnescape(raw)
	if err != nil || p != path.Clean(p) || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// docsFolderOf resolves a docs:// or docs-version:// folder URI. A folder
// that does not exist, a doc, and a malformed URI are input errors that say
// which URIs are folders; a release still loading is said to be, at once.
func (s *Server) docsFolderOf(ctx context.Context, uri string) (docsFolder, error) {
	notFolder := func(what string) error {
		return inputErrorf("%s is not a folder of the docs%s: resources/directory/read reads docs:// (the docs folder), a folder in it such as docs://server (no trailing slash), and with --versions docs-version://VERSION and its folders", clipURI(uri), what)
	}
	var (
		f   docsFolder
		raw string
	)
	if rest, ok := strings.CutPrefix(uri, versionScheme); ok {
		escaped, inRelease, slash := strings.Cut(rest, "/")
		version, err := url.PathUnescape(escaped)
		if err != nil || version == "" || (slash && inRelease == "") {
			return f, notFolder("")
		}
		rel, err := s.release(ctx, version)
		if err != nil {
			return f, err
		}
		f.snap, f.version, raw = rel.Docs, version, inRelease
	} else {
		if err := s.awaitDocs(ctx); err != nil {
			return f, err
		}
		f.snap, raw = s.corpus.Snapshot(), strings.TrimPrefix(uri, docScheme)
	}
	p, ok := folderPath(raw)
	if !ok {
		return f, notFolder("")
	}
	if p != "" {
		f.dir = p + "/"
	}
	if _, ok := treeOf(f.snap).dirs[f.dir]; !ok {
		if _, isDoc := f.snap.Lookup(p); isDoc {
			return f, notFolder(" but a doc (resources/read reads it)")
		}
		return f, notFolder("")
	}
	return f, nil
}

// uri is the URI of a doc or folder (without its trailing slash) of f's
// snapshot.
func (f docsFolder) uri(p string) string {
	if f.version != "" {
		return versionedDocURI(f.version, p)
	}
	return docURI(p)
}

// readDocsDirectory is resources/directory/read of a folder of the docs:
// a page of its folders, then its docs, from the entry after cursor (the
// path of the last entry of the previous page, a folder's with its
// trailing slash, in base64).
func (s *Server) readDocsDirectory(ctx context.Context, uri, cursor string) (readDirectoryResult, error) {
	res := readDirectoryResult{cacheable: s.cacheableFor(s.docsTTL()), Resources: []mcp.Resource{}}
	f, err := s.docsFolderOf(ctx, uri)
	if err != nil {
		return res, err
	}
	dir := treeOf(f.snap).dirs[f.dir]
	all := f.snap.Docs()
	folderStart, docStart := 0, 0
	if cursor != "" {
		b, err := base64.StdEncoding.DecodeString(cursor)
		after := string(b)
		if err != nil || !strings.HasPrefix(after, f.dir) {
			return res, fmt.Errorf("%w: %q is not a cursor resources/directory/read gave for %s", errBadCursor, cursor, clipURI(uri))
		}
		docStart = sort.Search(len(dir.docs), func(i int) bool { return all[dir.docs[i]].Path > after })
		if strings.HasSuffix(after, "/") { // a folder: the docs all follow
			folderStart, docStart = sort.SearchStrings(dir.folders, after+"\x00"), 0
		} else {
			folderStart = len(dir.folders)
		}
	}
	var (
		hist *gitdocs.History
		buf  []byte // each doc's text, decoded for its title
		last string
	)
	if f.version == "" {
		hist = s.history()
	}
	for _, sub := range dir.folders[folderStart:] {
		if len(res.Resources) == dirPageSize {
			break
		}
		p := strings.TrimSuffix(sub, "/")
		res.Resources = append(res.Resources, mcp.NewResource(f.uri(p), path.Base(p), mcp.WithMIMEType(directoryMIME)))
		last = sub
	}
	for _, i := range dir.docs[docStart:] {
		if len(res.Resources) == dirPageSize {
			break
		}
		d := all[i]
		if f.version != "" {
			text, _ := d.TextIn(&buf)
			uri := f.uri(d.Path)
			res.Resources = append(res.Resources, mcp.NewResource(uri, uri, mcp.WithResourceTitle(docs.Title(d.Path, text)), mcp.WithMIMEType("text/markdown")))
		} else {
			res.Resources = append(res.Resources, s.docListing(hist, d, &buf))
		}
		last = d.Path
	}
	if folderStart+docStart+len(res.Resources) < len(dir.folders)+len(dir.docs) && last != "" {
		res.NextCursor = base64.StdEncoding.EncodeToString([]byte(last))
	}
	return res, nil
}
