package corpus

import (
	"context"
	"errors"
	"fmt"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
)

// The release tags served beside the working tree (Config.Versions), as a
// request reads them (package release): loaded, derived and followed by
// the versions set the corpus runs; nothing here loads or walks.

// releaseOf is r as a request reads it, nil for nil.
func releaseOf(r *versions.Release) *release.Release {
	if r == nil {
		return nil
	}
	checked, problems := r.CheckedRegistry()
	return &release.Release{Version: r.Version, Docs: r.Docs, Skills: r.Skills,
		Registry: r.Registry, Contributing: r.Contributing,
		RegistryProblem: r.RegistryProblem, ContributingProblem: r.ContributingProblem,
		Checked: checked, Problems: problems, History: r.History}
}

// versionError is a versions error with its kind (release.ErrUnknown, ...).
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
		kind = release.ErrUnknown
	case isType[*versions.LoadingError](err):
		kind = release.ErrLoading
	case isType[*versions.SkippedError](err):
		kind = release.ErrNotServed
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

// Release returns the release name names (a tag, or release.Latest) if it
// is served, at once; else an error of one of release's kinds.
func (c *Corpus) Release(name string) (*release.Release, error) {
	if c.releases == nil {
		return nil, release.ErrNone
	}
	r, err := c.releases.Lookup(name)
	return releaseOf(r), releaseError(err)
}

// AwaitRelease is Release, waiting while the release is loading, until
// ctx ends (then release.ErrLoading, saying how far the loading is). It
// holds nothing while it waits: call it before a turn of work.
func (c *Corpus) AwaitRelease(ctx context.Context, name string) (*release.Release, error) {
	if c.releases == nil {
		return nil, release.ErrNone
	}
	r, err := c.releases.Wait(ctx, name)
	return releaseOf(r), releaseError(err)
}

// ReleaseList is the releases served, newest first.
func (c *Corpus) ReleaseList() []*release.Release {
	if c.releases == nil {
		return nil
	}
	rs := c.releases.List()
	out := make([]*release.Release, len(rs))
	for i, r := range rs {
		out[i] = releaseOf(r)
	}
	return out
}

// ReleaseStatus says which releases are loaded and which are not.
func (c *Corpus) ReleaseStatus() release.Status {
	if c.releases == nil {
		return release.Status{}
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

// loaded is the release served that r is (the same tag at the same
// commit): an error when its tag has gone or moved since r was read.
func (c *Corpus) loaded(r *release.Release) (*versions.Release, error) {
	if c.releases == nil {
		return nil, release.ErrNone
	}
	v, err := c.releases.Lookup(r.Name)
	if err != nil {
		return nil, releaseError(err)
	}
	if v.Commit != r.Commit {
		return nil, &versionError{fmt.Errorf("version %q moved to another commit; ask again", r.Name), release.ErrLoading}
	}
	return v, nil
}
