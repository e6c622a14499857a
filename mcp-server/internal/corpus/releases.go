package corpus

import (
	"context"
	"errors"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
)

// Latest names the newest release served in a version argument.
const Latest = versions.Latest

// Release is a release served, as a request sees it: its tag, its docs
// and files, and what the corpus derived from them as it loaded (the
// index and ranking of its docs, its registry checked, the last commit
// of each doc). A request reads it; nothing in it is made on a request.
type Release struct {
	gitdocs.Version
	Docs   *docs.Snapshot
	Skills *docs.Snapshot // the skills folder's files; nil when the release has none
	// The release's registry and guide: nil when it has none, or one not
	// served, and then why (a symlink, not a regular file, over the cap).
	Registry, Contributing               []byte
	RegistryProblem, ContributingProblem string

	rel *versions.Release
}

// releaseOf is r's view, nil for nil.
func releaseOf(r *versions.Release) *Release {
	if r == nil {
		return nil
	}
	return &Release{Version: r.Version, Docs: r.Docs, Skills: r.Skills,
		Registry: r.Registry, Contributing: r.Contributing,
		RegistryProblem: r.RegistryProblem, ContributingProblem: r.ContributingProblem, rel: r}
}

// CheckedRegistry is the release's registry parsed and checked
// (registry.Check), as it was when the release loaded.
func (r *Release) CheckedRegistry() (*registry.Registry, []registry.Problem) {
	return r.rel.CheckedRegistry()
}

// History is the last commit of each doc of the release, up to its tag,
// walked as it loaded: nil when it could not be read. Its paths begin
// with the docs folder (DocsDir).
func (r *Release) History() *gitdocs.History { return r.rel.History() }

// ReleaseStatus is what is known of the selected tags at a moment: those
// loaded, loading, and not served.
type ReleaseStatus = versions.Status

// The kinds of error of a version argument, for errors.Is; the error's
// text says which version and what to do.
var (
	// ErrUnknownVersion: no selected tag has that name (the text names
	// the nearest ones).
	ErrUnknownVersion = errors.New("unknown version")
	// ErrReleaseLoading: the release is selected but not loaded yet.
	ErrReleaseLoading = errors.New("release loading")
	// ErrReleaseNotServed: the release is selected but cannot be served.
	ErrReleaseNotServed = errors.New("release not served")
	// ErrNoReleases: the corpus serves the working tree only.
	ErrNoReleases = errors.New("no releases served")
)

// versionError is a versions error with its kind.
type versionError struct {
	err, kind error
}

func (e *versionError) Error() string   { return e.err.Error() }
func (e *versionError) Unwrap() []error { return []error{e.err, e.kind} }

// releaseError gives err (a versions.Set's) its kind.
func releaseError(err error) error {
	var kind error
	switch {
	case err == nil:
		return nil
	case isType[*versions.UnknownError](err):
		kind = ErrUnknownVersion
	case isType[*versions.LoadingError](err):
		kind = ErrReleaseLoading
	case isType[*versions.SkippedError](err):
		kind = ErrReleaseNotServed
	default:
		return err
	}
	return &versionError{err, kind}
}

func isType[E error](err error) bool {
	_, ok := errors.AsType[E](err)
	return ok
}

// ServesReleases is whether release tags are served beside the working
// tree (Config.Versions).
func (c *Corpus) ServesReleases() bool { return c.releases != nil }

// Release returns the release name names (a tag, or Latest) if it is
// served, at once; else an error of one of the kinds above.
func (c *Corpus) Release(name string) (*Release, error) {
	if c.releases == nil {
		return nil, ErrNoReleases
	}
	r, err := c.releases.Lookup(name)
	return releaseOf(r), releaseError(err)
}

// AwaitRelease is Release, waiting while the release is loading, until
// ctx ends (then ErrReleaseLoading, saying how far the loading is). It
// holds nothing while it waits: call it before a turn of work.
func (c *Corpus) AwaitRelease(ctx context.Context, name string) (*Release, error) {
	if c.releases == nil {
		return nil, ErrNoReleases
	}
	r, err := c.releases.Wait(ctx, name)
	return releaseOf(r), releaseError(err)
}

// ReleaseList is the releases served, newest first.
func (c *Corpus) ReleaseList() []*Release {
	if c.releases == nil {
		return nil
	}
	rs := c.releases.List()
	out := make([]*Release, len(rs))
	for i, r := range rs {
		out[i] = releaseOf(r)
	}
	return out
}

// ReleaseStatus says which releases are loaded and which are not.
func (c *Corpus) ReleaseStatus() ReleaseStatus {
	if c.releases == nil {
		return ReleaseStatus{}
	}
	return c.releases.Status()
}

// ReleaseSelector is the text of the selector of the tags served ("" when
// no release is served).
func (c *Corpus) ReleaseSelector() string {
	if c.releases == nil {
		return ""
	}
	return c.releases.Selector()
}
