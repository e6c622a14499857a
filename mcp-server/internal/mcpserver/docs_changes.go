package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
)

// DocsChangesInput are the arguments of mod_docs_changes.
type DocsChangesInput struct {
	From string `json:"from" jsonschema:"The older version: a release tag as mod_list_versions lists it, latest, or working tree."`
	To   string `json:"to,omitempty" jsonschema:"The newer version, named the same way. Default: the working tree."`
}

func (in *DocsChangesInput) versions() []string { return []string{in.From, in.To} }

// DocsChangesOutput is the result of mod_docs_changes.
type DocsChangesOutput struct {
	From      string       `json:"from" jsonschema:"The older version compared."`
	To        string       `json:"to" jsonschema:"The newer version compared."`
	Added     []string     `json:"added" jsonschema:"Docs in to only, paths relative to docs/."`
	Removed   []string     `json:"removed" jsonschema:"Docs in from only."`
	Changed   []ChangedDoc `json:"changed" jsonschema:"Docs in both whose text differs, with the sections that differ."`
	Hooks     HookChanges  `json:"hooks" jsonschema:"Whether framework/mod_hooks.json changed, and which hooks by name."`
	Truncated bool         `json:"truncated,omitempty" jsonschema:"True when the lists were cut at the size cap; the counts in the text are whole."`
}

// HookChanges says how the hook registry changed.
type HookChanges struct {
	Changed bool     `json:"changed" jsonschema:"True when framework/mod_hooks.json differs."`
	Added   []string `json:"added,omitempty" jsonschema:"Hooks in to only, by name."`
	Removed []string `json:"removed,omitempty" jsonschema:"Hooks in from only."`
	Edited  []string `json:"edited,omitempty" jsonschema:"Hooks in both whose entry differs in any field. When the registry changed but one side is not valid JSON, the three lists are empty."`
}

// ChangedDoc is a doc whose text differs between two versions.
type ChangedDoc struct {
	Path     string           `json:"path" jsonschema:"Doc path relative to docs/."`
	Sections []ChangedSection `json:"sections" jsonschema:"The sections whose own text differs (from the heading to the next heading), in the newer doc's order, then those removed."`
}

// ChangedSection is a section added, removed or changed.
type ChangedSection struct {
	Anchor  string `json:"anchor" jsonschema:"The section's anchor (mod_read_doc's section argument); empty for the text above the first heading."`
	Heading string `json:"heading" jsonschema:"The heading's text."`
	Change  string `json:"change" jsonschema:"added, removed or changed."`
}

func (s *Server) docsChangesTool() server.ServerTool {
	return newTool(s, "mod_docs_changes", "What changed in the docs",
		"Compare the docs of two versions (release tags served with --versions, latest, or the working tree): "+
			"the docs added, removed and changed, for each changed doc the sections (by anchor) whose text differs, "+
			"and the hooks of the registry added, removed or changed.",
		s.docsChanges)
}

func (s *Server) docsChanges(ctx context.Context, in DocsChangesInput) (DocsChangesOutput, string, error) {
	if in.From == "" {
		return DocsChangesOutput{}, "", inputErrorf("from is empty; give the older version (mod_list_versions lists them)")
	}
	if in.To == "" {
		in.To = WorkingTree
	}
	d, fromName, toName, err := s.changes(ctx, in.From, in.To)
	if err != nil {
		return DocsChangesOutput{}, "", err
	}
	out := DocsChangesOutput{From: fromName, To: toName, Added: []string{}, Removed: []string{}, Changed: []ChangedDoc{},
		Hooks: HookChanges{Changed: d.Hooks.Changed, Added: d.Hooks.Added, Removed: d.Hooks.Removed, Edited: d.Hooks.Edited}}
	var b strings.Builder
	fmt.Fprintf(&b, "From %s to %s: %s added, %s removed, %s changed.\n", fromName, toName,
		plural(len(d.Added), "doc", "docs"), plural(len(d.Removed), "doc", "docs"), plural(len(d.Changed), "doc", "docs"))
	budget := s.textBudget()
	fits := func(line string) bool {
		if budget -= 2 * len(line); budget < 0 { // the line, and its part of the structured copy
			out.Truncated = true
			return false
		}
		b.WriteString(line)
		return true
	}
	if h := d.Hooks; h.Changed {
		fits(fmt.Sprintf("Hook registry changed: added %s; removed %s; changed %s.\n", list(h.Added), list(h.Removed), list(h.Edited)))
	}
	for _, p := range d.Added {
		if !fits("+ " + docs.ShowPath(p) + "\n") {
			break
		}
		out.Added = append(out.Added, p)
	}
	for _, p := range d.Removed {
		if out.Truncated || !fits("- "+docs.ShowPath(p)+"\n") {
			break
		}
		out.Removed = append(out.Removed, p)
	}
	for _, c := range d.Changed {
		line := "~ " + docs.ShowPath(c.Path)
		cd := ChangedDoc{Path: c.Path, Sections: make([]ChangedSection, len(c.Sections))}
		for i, sec := range c.Sections {
			cd.Sections[i] = ChangedSection{Anchor: sec.Anchor, Heading: sec.Heading, Change: string(sec.Change)}
			anchor := "#" + sec.Anchor
			if sec.Anchor == "" {
				anchor = "(above the first heading)"
			}
			line += fmt.Sprintf("\n    %s %s", sec.Change, anchor)
		}
		if out.Truncated || !fits(line+"\n") {
			break
		}
		out.Changed = append(out.Changed, cd)
	}
	if out.Truncated {
		b.WriteString("\n[cut at the size cap: compare closer versions for the rest]")
	}
	return out, strings.TrimSuffix(b.String(), "\n"), nil
}

// changes compares two versions, in the corpus: between two releases
// once, then from what it kept, as both are what their tags name; with the
// working tree afresh each time, as its files on disk may have changed.
func (s *Server) changes(ctx context.Context, fromVersion, toVersion string) (d *gitdocs.Diff, fromName, toName string, err error) {
	var fromRel, toRel *release.Release
	fromName, toName = WorkingTree, WorkingTree
	if !isWorkingTree(fromVersion) {
		if fromRel, err = s.release(ctx, fromVersion); err != nil {
			return nil, "", "", fmt.Errorf("from: %w", err)
		}
		fromName = fromRel.Name
	}
	if !isWorkingTree(toVersion) {
		if toRel, err = s.release(ctx, toVersion); err != nil {
			return nil, "", "", fmt.Errorf("to: %w", err)
		}
		toName = toRel.Name
	}
	d, err = s.corpus.Changes(fromRel, toRel)
	return d, fromName, toName, err
}

func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
