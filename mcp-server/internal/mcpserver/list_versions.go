package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// ListVersionsOutput is the result of mod_list_versions.
type ListVersionsOutput struct {
	Versions []VersionInfo    `json:"versions" jsonschema:"The working tree first, then the releases served, newest first."`
	Selector string           `json:"selector,omitempty" jsonschema:"The tags selected (--versions); absent when only the working tree is served."`
	Loading  *VersionsLoading `json:"loading,omitempty" jsonschema:"Present while selected tags are still loading: versions lists those loaded so far."`
	Skipped  []SkippedVersion `json:"skipped,omitempty" jsonschema:"Selected tags that are not served, and why (a tag that cannot be read, a release that cannot be loaded)."`
}

// VersionsLoading says how far the loading of the releases is.
type VersionsLoading struct {
	Selected int      `json:"selected" jsonschema:"Release tags selected that are served or loading (0 while the tags are still being read)."`
	Loaded   int      `json:"loaded" jsonschema:"Releases loaded, listed in versions."`
	Pending  int      `json:"pending" jsonschema:"Selected tags still to load."`
	Next     []string `json:"next" jsonschema:"The first of those still to load, in the order they load (newest first), at most 10."`
}

// SkippedVersion is a selected tag that is not served.
type SkippedVersion struct {
	Name   string `json:"name" jsonschema:"The tag."`
	Reason string `json:"reason" jsonschema:"Why it is not served."`
}

// VersionInfo describes a version served.
type VersionInfo struct {
	Name   string `json:"name" jsonschema:"working tree, or a release tag: the value of the tools' version argument."`
	Commit string `json:"commit,omitempty" jsonschema:"Short id of the tag's commit (of HEAD for the working tree, when the data root is a git repository)."`
	Date   string `json:"date,omitempty" jsonschema:"That commit's date (RFC 3339)."`
	Docs   int    `json:"docs" jsonschema:"How many docs the version has."`
}

// maxNextShown is how many of the tags still loading are named.
const maxNextShown = 10

func (s *Server) listVersionsTool() server.ServerTool {
	return newTool(s, "mod_list_versions", "List versions",
		"List the versions of the docs served: the working tree, and each release tag selected with --versions (newest first), "+
			"with its commit, date and number of docs. Pass a name as version to mod_search_docs, mod_read_doc, mod_list_doc_paths, "+
			"mod_hook_registry or mod_get_hook, or to mod_docs_changes.",
		s.listVersions)
}

// listVersions answers at once, from the releases loaded: while others
// load, it says how many and which come next, rather than wait for them.
func (s *Server) listVersions(ctx context.Context, _ struct{}) (ListVersionsOutput, string, error) {
	wt := VersionInfo{Name: WorkingTree, Docs: len(s.corpus.Snapshot().Docs())}
	if h := s.history(); h != nil && h.Head != "" {
		wt.Commit, wt.Date = h.Head[:7], h.Date.UTC().Format(time.RFC3339)
	}
	out := ListVersionsOutput{Versions: []VersionInfo{wt}}
	if s.corpus.ServesReleases() {
		out.Selector = s.corpus.ReleaseSelector()
		st := s.corpus.ReleaseStatus()
		for _, r := range s.corpus.ReleaseList() {
			out.Versions = append(out.Versions, VersionInfo{Name: r.Name, Commit: r.Commit[:7], Date: r.Date.UTC().Format(time.RFC3339), Docs: len(r.Docs.Docs())})
		}
		if !st.Listed || len(st.Pending) > 0 {
			out.Loading = &VersionsLoading{Selected: st.Selected, Loaded: st.Loaded, Pending: len(st.Pending),
				Next: append([]string{}, st.Pending[:min(len(st.Pending), maxNextShown)]...)}
		}
		for _, sk := range st.Skipped {
			out.Skipped = append(out.Skipped, SkippedVersion{Name: sk.Name, Reason: sk.Reason})
		}
	}
	var b strings.Builder
	for _, v := range out.Versions {
		fmt.Fprintf(&b, "%s  %s  %s  (%s)\n", v.Name, v.Commit, dateOf(v.Date), plural(v.Docs, "doc", "docs"))
	}
	for _, sk := range out.Skipped {
		fmt.Fprintf(&b, "%s  not served: %s\n", sk.Name, sk.Reason)
	}
	switch l := out.Loading; {
	case out.Selector == "":
		b.WriteString("\n[only the working tree is served; start docs-mcp with --versions 'v*' to serve release tags too]")
	case l != nil && l.Selected == 0 && l.Loaded == 0:
		fmt.Fprintf(&b, "\n[releases: the tags matching %s are still being read; call again in a moment]", out.Selector)
	case len(out.Versions) == 1 && l == nil:
		fmt.Fprintf(&b, "\n[no release is served: no tag matches %s that can be read; only the working tree is served]", out.Selector)
	case l != nil:
		fmt.Fprintf(&b, "\n[releases: the tags matching %s; %d of %d loaded, %s still loading, newest first (next: %s); call again for those]",
			out.Selector, l.Loaded, l.Selected, plural(l.Pending, "tag", "tags"), strings.Join(l.Next, ", "))
	default:
		fmt.Fprintf(&b, "\n[releases: the tags matching %s]", out.Selector)
	}
	return out, b.String(), nil
}
