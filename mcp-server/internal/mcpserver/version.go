package mcpserver

import (
	"context"
	"errors"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
)

// docsOf returns the docs of a version argument: the working tree's
// snapshot and no release for "" (or "working tree"), else the release's.
// A version not served is a tool error naming those that are.
func (s *Server) docsOf(ctx context.Context, version string) (*docs.Snapshot, *versions.Release, error) {
	if version == "" || version == WorkingTree {
		return s.corpus.Snapshot(), nil, nil
	}
	rel, err := s.release(ctx, version)
	if err != nil {
		return nil, nil, err
	}
	return rel.Docs, rel, nil
}

// release returns the release a version argument names.
func (s *Server) release(ctx context.Context, version string) (*versions.Release, error) {
	if s.opts.Releases == nil {
		return nil, inputErrorf("no version %q: this server serves the working tree only (start it with --versions to serve release tags)", version)
	}
	rel, err := s.opts.Releases.Get(ctx, version)
	var unknown *versions.UnknownError
	if errors.As(err, &unknown) {
		return nil, inputErrorf("%s", unknown.Error())
	}
	return rel, err
}

// releaseProvenance is a release's doc's provenance: the tag, and the last
// commit up to it that changed the doc.
func (s *Server) releaseProvenance(rel *versions.Release, d *docs.Doc) *Provenance {
	p := &Provenance{Version: rel.Name}
	h, err := rel.History()
	if err != nil {
		s.log.Warn("provenance: cannot read the release's history", "version", rel.Name, "err", err)
		return p
	}
	if c, ok := h.Last[path.Join(s.hist.docsDir, d.Path)]; ok {
		p.Commit, p.Date = c.Short(), c.Date.UTC().Format(time.RFC3339)
	}
	return p
}

// provenanceIn is a doc's provenance in the version read: rel's, or the
// working tree's (h, nil outside a repository).
func (s *Server) provenanceIn(rel *versions.Release, d *docs.Doc, text string) *Provenance {
	if rel != nil {
		return s.releaseProvenance(rel, d)
	}
	h := s.history()
	if h == nil {
		return nil
	}
	return s.provenance(h, d, text)
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
