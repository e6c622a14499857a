package mcpserver

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// WorkingTree is the version of the docs on disk, as answers name it.
const WorkingTree = "working tree"

// Provenance says what a doc was read from: the version, and when the data
// root is a git repository, the last commit that changed the doc, or that
// the doc holds edits not committed yet (then no commit is claimed).
type Provenance struct {
	Version     string `json:"version" jsonschema:"What the doc was read from: working tree, or a release tag."`
	Commit      string `json:"commit,omitempty" jsonschema:"Short id of the last commit that changed the doc."`
	Date        string `json:"date,omitempty" jsonschema:"That commit's date (RFC 3339)."`
	Uncommitted bool   `json:"uncommitted,omitempty" jsonschema:"True when the doc on disk differs from its last commit (or was never committed)."`
}

// history is the last commit of each doc at HEAD, as the corpus walked it
// beside the requests (corpus.FollowHistory; requests wait for its first
// walk with the docs, awaitDocs): nil when there is none to tell (not a
// repository, or its history could not be read), and the answer then goes
// without provenance. No request walks the history.
func (s *Server) history() *gitdocs.History { return s.corpus.History() }

// docCommit tells a working-tree doc's last commit: ok is false when there
// is no history to tell, or when the corpus has not attached the doc's
// blob id (yet): the answer then goes without provenance, as outside a
// repository. The blob id (the doc's text as git hashes a blob), made by
// the corpus once per snapshot (corpus.DeriveBlobIDs), is compared with
// HEAD's, so a doc edited since is said to be so. No request hashes a doc.
func (s *Server) docCommit(h *gitdocs.History, d *docs.Doc) (c gitdocs.Commit, uncommitted, ok bool) {
	if h == nil {
		return gitdocs.Commit{}, false, false
	}
	id, ok := s.corpus.BlobID(s.corpus.Snapshot(), d)
	if !ok {
		return gitdocs.Commit{}, false, false
	}
	p := path.Join(s.corpus.DocsDir(), d.Path)
	blob, committed := h.Blob(p)
	if !committed || id != blob {
		return gitdocs.Commit{}, true, true
	}
	c, _ = h.Last(p)
	return c, false, true
}

// provenance is a working-tree doc's provenance, nil when the data root is
// not a git repository (or the doc's blob id is not attached yet).
func (s *Server) provenance(h *gitdocs.History, d *docs.Doc) *Provenance {
	c, uncommitted, ok := s.docCommit(h, d)
	if !ok {
		return nil
	}
	p := &Provenance{Version: WorkingTree, Uncommitted: uncommitted}
	if !uncommitted {
		p.Commit, p.Date = c.Short(), c.Date.UTC().Format(time.RFC3339)
	}
	return p
}

// text is the provenance as one line of a tool's text.
func (p *Provenance) text() string {
	switch {
	case p.Uncommitted:
		return fmt.Sprintf("From %s, with changes not committed yet.", from(p.Version))
	case p.Commit == "":
		return fmt.Sprintf("From %s.", from(p.Version))
	}
	return fmt.Sprintf("From %s, last changed in commit %s (%s).", from(p.Version), p.Commit, dateOf(p.Date))
}

// from names a version in a sentence: "the working tree", "release v1.2.0".
func from(version string) string {
	if version == WorkingTree {
		return "the " + WorkingTree
	}
	return "release " + version
}

// dateOf is the day of an RFC 3339 time.
func dateOf(rfc3339 string) string {
	day, _, _ := strings.Cut(rfc3339, "T")
	return day
}
