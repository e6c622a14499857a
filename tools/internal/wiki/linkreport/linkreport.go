// Package linkreport is the wiki's record of a reference the layouts could
// not resolve: the line a layout prints to Hugo's log for a broken link or
// image, a link to a repository file outside docs/, or an inexact link
// (layouts/_markup/render-link.html), read back by the build, and the
// lines of a doc that hold the reference, which Hugo cannot tell a render
// hook. It is a package of its own so that its fuzz target builds and runs
// without the wiki's tests (a browser's and Hugo's worth of code).
package linkreport

import (
	"bufio"
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// A Report is one reference a layout reported.
type Report struct {
	Kind   string // "broken link", "broken image", "repo link" or "inexact link"
	Dest   string // the destination as written in the doc
	File   string // the doc's repository path, e.g. docs/server/index.md
	Detail string // what the layout found, e.g. the file an inexact link resolved to
}

// The layouts report references with errorf/warnf in this form,
// destination and file quoted with %q, so that any destination and any
// file name (spaces, quotes) come back intact.
var reportRe = regexp.MustCompile(`wiki: (broken link|broken image|repo link|inexact link) ("(?:[^"\\]|\\.)*") in ("(?:[^"\\]|\\.)*"): (.*)$`)

// Parse reads the report on one line of Hugo's log; false when the line
// holds none.
func Parse(line string) (Report, bool) {
	m := reportRe.FindStringSubmatch(line)
	if m == nil {
		return Report{}, false
	}
	dest, err := strconv.Unquote(m[2])
	if err != nil {
		return Report{}, false
	}
	file, err := strconv.Unquote(m[3])
	if err != nil {
		return Report{}, false
	}
	return Report{Kind: m[1], Dest: dest, File: file, Detail: m[4]}, true
}

// Lines returns the 1-based lines of a doc's text that reference dest as a
// Markdown link, image, link reference definition or HTML attribute; [0]
// when none does.
func Lines(text []byte, dest string) []int {
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
