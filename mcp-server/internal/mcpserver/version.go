package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
)

// docsOf returns the docs of a version argument: the working tree's
// snapshot and no release for "" (or "working tree"), else the release's.
// A version not served is a tool error naming those that are. It does not
// wait: a tool's call waits for its release before its turn of work
// (awaitVersions).
func (s *Server) docsOf(ctx context.Context, version string) (*docs.Snapshot, *release.Release, error) {
	if isWorkingTree(version) {
		return s.corpus.Snapshot(), nil, nil
	}
	rel, err := s.release(ctx, version)
	if err != nil {
		return nil, nil, err
	}
	return rel.Docs, rel, nil
}

// isWorkingTree is whether a version argument names the working tree.
func isWorkingTree(version string) bool { return version == "" || version == WorkingTree }

// release returns the release a version argument names, if it is served
// now: one still loading is a tool error that says so, at once.
func (s *Server) release(_ context.Context, version string) (*release.Release, error) {
	if !s.corpus.ServesReleases() {
		return nil, inputErrorf("no version %q: this server serves the working tree only (start it with --versions to serve release tags)", version)
	}
	rel, err := s.corpus.Release(version)
	return rel, releaseError(err)
}

// releaseWait is the longest a call waits for the release it names to
// load, outside the work queue: as long as a search waits for an index.
const releaseWait = indexWait

// awaitRelease is release, waiting while the release is loading, for at
// most releaseWait, then a tool error saying how far the loading is. It
// holds nothing while it waits: call it before a turn of work.
func (s *Server) awaitRelease(ctx context.Context, version string) (*release.Release, error) {
	if !s.corpus.ServesReleases() {
		return s.release(ctx, version)
	}
	wait, cancel := context.WithTimeout(ctx, releaseWait)
	defer cancel()
	rel, err := s.corpus.AwaitRelease(wait, version)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return rel, releaseError(err)
}

// releaseError is the corpus's error of a version argument as a tool
// error: what the client can fix (a version not served: the nearest
// ones) or must wait for (one loading), or a tag the server cannot serve.
func releaseError(err error) error {
	switch {
	case errors.Is(err, release.ErrUnknown):
		return inputErrorf("%s", err.Error())
	case errors.Is(err, release.ErrLoading), errors.Is(err, release.ErrNotServed):
		return fmt.Errorf("%w: %w", errUnavailable, err)
	}
	return err
}

// versionArgs is a tool's input that names versions (its version
// argument, or mod_docs_changes' from and to): a call waits for those
// releases to load before it takes its turn of work (see handle).
type versionArgs interface{ versions() []string }

// awaitVersions waits for the releases a call names, outside the work
// queue (see awaitRelease): the call then finds them at once in its turn.
func (s *Server) awaitVersions(ctx context.Context, in any) error {
	va, ok := in.(versionArgs)
	if !ok || !s.corpus.ServesReleases() {
		return nil
	}
	for _, v := range va.versions() {
		if isWorkingTree(v) {
			continue
		}
		if _, err := s.awaitRelease(ctx, v); err != nil {
			return err
		}
	}
	return nil
}

// releaseProvenance is a release's doc's provenance: the tag, and the last
// commit up to it that changed the doc, as the release's history, walked
// as it loaded, tells it.
func (s *Server) releaseProvenance(rel *release.Release, d *docs.Doc) *Provenance {
	p := &Provenance{Version: rel.Name}
	h := rel.History()
	if h == nil {
		return p
	}
	if c, ok := h.Last(path.Join(s.corpus.DocsDir(), d.Path)); ok {
		p.Commit, p.Date = c.Short(), c.Date.UTC().Format(time.RFC3339)
	}
	return p
}

// provenanceIn is a doc's provenance in the version read: rel's, or the
// working tree's (nil outside a repository).
func (s *Server) provenanceIn(rel *release.Release, d *docs.Doc) *Provenance {
	if rel != nil {
		return s.releaseProvenance(rel, d)
	}
	return s.provenance(s.history(), d)
}

// versionScheme is the scheme of a release's docs as resources,
// versionScheme + version + "/" + path: a scheme apart from docs://, so
// that no doc path of the working tree (a folder named like a tag) can be
// read as a release's.
const versionScheme = "docs-version://"

// versionedDocURI is the URI of a release's doc; the version is escaped
// (a tag may hold a "/"), the path as docURI escapes it.
func versionedDocURI(version, p string) string {
	return versionScheme + url.PathEscape(version) + "/" + strings.TrimPrefix(docURI(p), docScheme)
}

// versionTemplate is the resource template of a release's docs.
const versionTemplate = versionScheme + "{version}/{+path}"

// readVersionedDoc serves docs-version://{version}/{path}, and a section
// of it with #{anchor}, as readDocResource serves the working tree's.
func (s *Server) readVersionedDoc(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	uri := req.Params.URI
	rel, d, frag, err := s.versionedDoc(ctx, uri, true)
	if err != nil {
		return nil, err
	}
	text := docText(d)
	if frag != "" {
		sec, err := section(ctx, d, text, frag)
		if err != nil {
			return nil, err
		}
		text = strings.Join(docs.SplitLines(text)[sec.Line-1:sec.EndLine], "\n") + "\n"
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "text/markdown", Text: text,
		Meta: map[string]any{"provenance": s.releaseProvenance(rel, d)}}}, nil
}

// versionedDoc is the release and the doc that a docs-version:// URI
// names, and its #fragment. With wait, it waits for a release loading
// (awaitRelease); without, a release loading is release.ErrLoading
// (wrapped), at once.
func (s *Server) versionedDoc(ctx context.Context, uri string, wait bool) (*release.Release, *docs.Doc, string, error) {
	rest, _ := strings.CutPrefix(uri, versionScheme)
	escaped, docPart, ok := strings.Cut(rest, "/")
	if !ok {
		return nil, nil, "", inputErrorf("%q names no doc: give docs-version://{version}/{path}", uri)
	}
	version, err := url.PathUnescape(escaped)
	if err != nil {
		return nil, nil, "", inputErrorf("bad escape in %q: %v", uri, err)
	}
	docPart, frag := cutFragment(docPart)
	p, err := docPathOf(docScheme + docPart)
	if err != nil {
		return nil, nil, "", err
	}
	find := s.release
	if wait {
		find = s.awaitRelease
	}
	rel, err := find(ctx, version)
	if err != nil {
		return nil, nil, "", err
	}
	d, err := rel.Docs.Doc(ctx, p)
	if err != nil {
		return nil, nil, "", err
	}
	return rel, d, frag, nil
}

// completeVersion completes the version argument: latest and the
// releases served whose name starts with prefix, newest first.
func (s *Server) completeVersion(prefix string) *mcp.Completion {
	var out []string
	if s.corpus.ServesReleases() {
		if strings.HasPrefix(release.Latest, prefix) {
			out = append(out, release.Latest)
		}
		for _, r := range s.corpus.ReleaseList() {
			if strings.HasPrefix(r.Name, prefix) {
				out = append(out, r.Name)
			}
		}
	}
	return capped(out)
}

// completeVersionedPath completes a path within the version the client
// has chosen already (the context's arguments); nothing without one.
func (s *Server) completeVersionedPath(version, prefix string) *mcp.Completion {
	if version == "" || !s.corpus.ServesReleases() {
		return &mcp.Completion{}
	}
	rel, err := s.corpus.Release(version) // a completion does not wait for a release to load
	if err != nil {
		return &mcp.Completion{}
	}
	return completePath(rel.Docs, prefix)
}

// addVersionTemplate adds the resource template of the releases' docs.
func (s *Server) addVersionTemplate(m *server.MCPServer) {
	m.AddResourceTemplate(
		mcp.NewResourceTemplate(versionTemplate, "doc of a release",
			mcp.WithTemplateTitle("A release's doc by version and path"),
			mcp.WithTemplateDescription("A doc as a release tag served with --versions has it, e.g. docs-version://v1.2.0/server/tools.md (or docs-version://latest/...); #anchor reads one section."),
			mcp.WithTemplateMIMEType("text/markdown"),
		),
		s.readVersionedDoc,
	)
}
