// Package release is a release tag's docs as a request reads them: what the
// corpus (package corpus, through package versions) loaded and derived for
// it before serving it, and the kinds of error of a version argument. It
// holds data and makes none, so that the MCP server can read releases
// without depending on how they are loaded or followed.
package release

import (
	"errors"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// Latest names the newest release served in a version argument.
const Latest = "latest"

// Release is a release served: its tag, its docs and files, and what was
// derived from them as it loaded (the index and ranking of its docs, its
// registry checked, the last commit of each doc).
type Release struct {
	gitdocs.Version
	Docs   *docs.Snapshot
	Skills *docs.Snapshot // the skills folder's files; nil when the release has none
	// The release's registry and guide: nil when it has none, or one not
	// served, and then why (a symlink, not a regular file, over the cap).
	Registry, Contributing               []byte
	RegistryProblem, ContributingProblem string
	// Checked is the registry parsed and checked (registry.Check), with
	// its problems.
	Checked  *registry.Registry
	Problems []registry.Problem
	// History returns the last commit of each doc of the release, up to
	// its tag (paths from the repository's root): nil until it is walked,
	// or when it cannot be read.
	History func() *gitdocs.History
}

// Status is what is known of the selected tags at a moment.
type Status struct {
	Listed   bool     // the tags were read once (until then, nothing is known)
	Selected int      // tags selected that are served or loading
	Loaded   int      // releases served
	Pending  []string // tags selected not loaded yet, newest first: they are loading
	Skipped  []Skip   // selected tags not served, and why, by name
}

// Skip is a selected tag not served, and why.
type Skip struct {
	Name, Reason string
}

// The kinds of error of a version argument, for errors.Is; the error's
// text says which version and what to do.
var (
	// ErrUnknown: no selected tag has that name (the text names the
	// nearest ones).
	ErrUnknown = errors.New("unknown version")
	// ErrLoading: the release is selected but not loaded yet.
	ErrLoading = errors.New("release loading")
	// ErrNotServed: the release is selected but cannot be served.
	ErrNotServed = errors.New("release not served")
	// ErrNone: only the working tree is served.
	ErrNone = errors.New("no releases served")
)
