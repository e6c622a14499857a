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
	Versions []VersionInfo `json:"versions" jsonschema:"The working tree first, then the releases served, newest first."`
	Selector string        `json:"selector,omitempty" jsonschema:"The tags selected (--versions); absent when only the working tree is served."`
}

// VersionInfo describes a version served.
type VersionInfo struct {
	Name   string `json:"name" jsonschema:"working tree, or a release tag: the value of the tools' version argument."`
	Commit string `json:"commit,omitempty" jsonschema:"Short id of the tag's commit (of HEAD for the working tree, when the data root is a git repository)."`
	Date   string `json:"date,omitempty" jsonschema:"That commit's date (RFC 3339)."`
	Docs   int    `json:"docs" jsonschema:"How many docs the version has."`
}

func (s *Server) listVersionsTool() server.ServerTool {
	return newTool(s, "mod_list_versions", "List versions",
		"List the versions of the docs served: the working tree, and each release tag selected with --versions (newest first), "+
			"with its commit, date and number of docs. Pass a name as version to mod_search_docs, mod_read_doc, mod_list_doc_paths, "+
			"mod_hook_registry or mod_get_hook, or to mod_docs_changes.",
		s.listVersions)
}

func (s *Server) listVersions(ctx context.Context, _ struct{}) (ListVersionsOutput, string, error) {
	wt := VersionInfo{Name: WorkingTree, Docs: len(s.corpus.Snapshot().Docs())}
	if h := s.history(); h != nil && h.Head != "" {
		wt.Commit, wt.Date = h.Head[:7], h.Date.UTC().Format(time.RFC3339)
	}
	out := ListVersionsOutput{Versions: []VersionInfo{wt}}
	if s.opts.Releases != nil {
		select {
		case <-s.opts.Releases.Loaded():
		case <-ctx.Done():
			return out, "", ctx.Err()
		}
		out.Selector = s.opts.Releases.Selector()
		for _, r := range s.opts.Releases.List() {
			out.Versions = append(out.Versions, VersionInfo{Name: r.Name, Commit: r.Commit[:7], Date: r.Date.UTC().Format(time.RFC3339), Docs: len(r.Docs.Docs())})
		}
	}
	var b strings.Builder
	for _, v := range out.Versions {
		fmt.Fprintf(&b, "%s  %s  %s  (%s)\n", v.Name, v.Commit, dateOf(v.Date), plural(v.Docs, "doc", "docs"))
	}
	if out.Selector == "" {
		b.WriteString("\n[only the working tree is served; start docs-mcp with --versions 'v*' to serve release tags too]")
	} else {
		fmt.Fprintf(&b, "\n[releases: the tags matching %s]", out.Selector)
	}
	return out, b.String(), nil
}
