package wiki

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
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

// The layouts report references with errorf/warnf in this form (see
// layouts/_markup/render-link.html), destination and file quoted with %q, so
// that any destination and any file name (spaces, quotes) come back intact;
// Hugo cannot tell a render hook the line.
var reportRe = regexp.MustCompile(`wiki: (broken link|broken image|repo link|inexact link) ("(?:[^"\\]|\\.)*") in ("(?:[^"\\]|\\.)*"): (.*)$`)

type report struct {
	kind, dest, file, detail string
}

func parseReport(line string) (report, bool) {
	m := reportRe.FindStringSubmatch(line)
	if m == nil {
		return report{}, false
	}
	dest, err := strconv.Unquote(m[2])
	if err != nil {
		return report{}, false
	}
	file, err := strconv.Unquote(m[3])
	if err != nil {
		return report{}, false
	}
	return report{kind: m[1], dest: dest, file: file, detail: m[4]}, true
}

// problems turns the reports of a build of tree into located problems. A
// "repo link" (a link from a doc to a repository file outside docs/) is
// only a problem when the file does not exist in repo (the repository's
// tree: the working tree through an os.Root, or a release's tree at its
// tag); the tree's redirects (none when tree is nil) name the links that
// follow one.
func problems(repo fs.FS, reports []report, tree *Tree) []Problem {
	var out []Problem
	seen := map[report]bool{}
	for _, r := range reports {
		if seen[r] {
			continue
		}
		seen[r] = true
		msg := fmt.Sprintf("%s %q: %s", r.kind, r.dest, r.detail)
		warning := r.kind == "inexact link"
		var redirect *Redirect
		if warning && tree != nil {
			redirect = tree.redirectOf(r.file, r.dest)
		}
		switch {
		case redirect != nil && redirect.Off:
			msg = fmt.Sprintf("redirected link %q: docs/%s is gone, and %s sends it off this site, to %q: the link opens a page at the old address that says so", r.dest, redirect.From, redirect.File, redirect.URL)
		case redirect != nil:
			msg = fmt.Sprintf("redirected link %q: docs/%s is gone, and %s sends it to %s: resolved to that page, as the tree's own site would", r.dest, redirect.From, redirect.File, r.detail)
		case warning:
			msg = fmt.Sprintf("inexact link %q: the file is %s (its name differs in case or slash direction); resolved to it, as the tree's own site would", r.dest, r.detail)
		}
		if r.kind == "repo link" {
			target := r.detail
			if _, err := fs.Stat(repo, target); err == nil {
				continue
			}
			msg = fmt.Sprintf("broken link %q: %s does not exist", r.dest, target)
		}
		for _, n := range findLines(repo, r.file, r.dest) {
			out = append(out, Problem{File: r.file, Line: n, Msg: msg, Warning: warning, Redirected: redirect != nil})
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
	return linesOf(b, dest)
}

// linesOf is findLines on a file's text.
func linesOf(text []byte, dest string) []int {
	needles := []string{"](" + dest, "](<" + dest, "]: " + dest, "]: <" + dest, `="` + dest + `"`}
	var lines []int
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 64*1024), len(text)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		for _, s := range needles {
			if strings.Contains(line, s) {
				lines = append(lines, n)
				break
			}
		}
	}
	if len(lines) == 0 {
		return []int{0}
	}
	return lines
}
