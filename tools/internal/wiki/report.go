package wiki

import (
	"fmt"
	"io/fs"
	"sort"

	"github.com/docs-mcp/docs-mcp/tools/internal/wiki/linkreport"
)

// Problem is a broken reference in a doc, located by file and line.
type Problem struct {
	Version string // the release tag the file is from; "" for the working tree
	File    string // repository path, e.g. docs/server/index.md
	Line    int    // 1-based; 0 when the destination was not found in the file's text
	Msg     string
	// Warning marks a reference that resolves, but not exactly as written
	// (an inexact link: a name that differs in case or slash direction):
	// listed, never failing a build.
	Warning bool
	// Redirected marks a warning for a link to a doc the tree's site
	// redirects (redirects.go), resolved to where the redirect leads.
	Redirected bool
}

func (p Problem) String() string {
	file := p.File
	if p.Version != "" {
		file = p.Version + ":" + file // as git names a file at a tag
	}
	if p.Line == 0 {
		return fmt.Sprintf("%s: %s", file, p.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", file, p.Line, p.Msg)
}

// problems turns the reports of a build of tree into located problems. A
// "repo link" (a link from a doc to a repository file outside docs/) is
// only a problem when the file does not exist in repo (the repository's
// tree: the working tree through an os.Root, or a release's tree at its
// tag); the tree's redirects (none when tree is nil) name the links that
// follow one.
func problems(repo fs.FS, reports []linkreport.Report, tree *Tree) []Problem {
	var out []Problem
	seen := map[linkreport.Report]bool{}
	for _, r := range reports {
		if seen[r] {
			continue
		}
		seen[r] = true
		msg := fmt.Sprintf("%s %q: %s", r.Kind, r.Dest, r.Detail)
		warning := r.Kind == "inexact link"
		var redirect *Redirect
		if warning && tree != nil {
			redirect = tree.redirectOf(r.File, r.Dest)
		}
		switch {
		case redirect != nil && redirect.Off:
			msg = fmt.Sprintf("redirected link %q: docs/%s is gone, and %s sends it off this site, to %q: the link opens a page at the old address that says so", r.Dest, redirect.From, redirect.File, redirect.URL)
		case redirect != nil:
			msg = fmt.Sprintf("redirected link %q: docs/%s is gone, and %s sends it to %s: resolved to that page, as the tree's own site would", r.Dest, redirect.From, redirect.File, r.Detail)
		case warning:
			msg = fmt.Sprintf("inexact link %q: the file is %s (its name differs in case or slash direction); resolved to it, as the tree's own site would", r.Dest, r.Detail)
		}
		if r.Kind == "repo link" {
			target := r.Detail
			if _, err := fs.Stat(repo, target); err == nil {
				continue
			}
			msg = fmt.Sprintf("broken link %q: %s does not exist", r.Dest, target)
		}
		for _, n := range findLines(repo, r.File, r.Dest) {
			out = append(out, Problem{File: r.File, Line: n, Msg: msg, Warning: warning, Redirected: redirect != nil})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Msg < out[j].Msg
	})
	return out
}

// findLines returns the lines of file that reference dest as a Markdown link,
// image, link reference definition or HTML attribute; [0] when none does.
func findLines(repo fs.FS, file, dest string) []int {
	b, err := fs.ReadFile(repo, file)
	if err != nil {
		return []int{0}
	}
	return linkreport.Lines(b, dest)
}
