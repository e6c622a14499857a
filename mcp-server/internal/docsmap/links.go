package docsmap

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// linksOf returns the docs that a doc links to with relative Markdown
// links, [text](guide/intro.md#anchor) or a reference definition
// [id]: guide/intro.md, resolved against the doc's folder, sorted, each
// once and not the doc itself. Links in fenced code, images, absolute
// URLs and rooted paths (/x.md, whose root is a site's, not docs/) do not
// count, nor docfx's [!INCLUDE[name](x.md)], which pastes a fragment in
// rather than leading a reader to it. Whether a target exists is not
// checked here: a link to no doc counts for nothing (see countLinks).
func linksOf(docPath, text string) []string {
	var (
		out   []string
		fence string
	)
	dir := path.Dir(docPath)
	add := func(target string) {
		if p, ok := resolve(dir, target); ok && p != docPath {
			out = append(out, p)
		}
	}
	for _, line := range docs.Lines(text) {
		t := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
			fence = t[:3]
			continue
		}
		if target, ok := definition(t); ok {
			add(target)
			continue
		}
		for off := 0; ; {
			i := strings.Index(line[off:], "](")
			if i < 0 {
				break
			}
			i += off // the link text's closing bracket
			off = i + 2
			open := strings.LastIndexByte(line[:i], '[')
			switch {
			case open < 0:
			case open > 0 && line[open-1] == '!': // an image
			case hasSuffixFold(line[:open], "[!INCLUDE"):
			default:
				add(destination(line[off:]))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// destination is a link's destination at the start of s, the text after
// "](": up to the closing parenthesis or a space (before a title), or
// between < and >.
func destination(s string) string {
	s = strings.TrimLeft(s, " ")
	if rest, ok := strings.CutPrefix(s, "<"); ok {
		d, _, _ := strings.Cut(rest, ">")
		return d
	}
	if end := strings.IndexAny(s, " )"); end >= 0 {
		return s[:end]
	}
	return s
}

// definition reads a link reference definition, [id]: destination, from
// a trimmed line.
func definition(t string) (string, bool) {
	if !strings.HasPrefix(t, "[") {
		return "", false
	}
	end := strings.Index(t, "]:")
	if end < 2 || strings.ContainsAny(t[1:end], "[]") {
		return "", false
	}
	return destination(t[end+2:]), true
}

// resolve turns a link's destination into the path of the doc it names,
// relative to docs/, from the folder dir of the doc it is in ("." for
// docs/); ok is false when it names no doc under docs/.
func resolve(dir, target string) (string, bool) {
	target, _, _ = strings.Cut(target, "#")
	target, _, _ = strings.Cut(target, "?")
	if colon := strings.IndexByte(target, ':'); target == "" || strings.HasPrefix(target, "/") ||
		colon >= 0 && !strings.Contains(target[:colon], "/") { // a scheme: https:, mailto:
		return "", false
	}
	if strings.Contains(target, "%") {
		if t, err := url.PathUnescape(target); err == nil {
			target = t
		}
	}
	if len(target) < 4 || !strings.EqualFold(target[len(target)-3:], ".md") {
		return "", false
	}
	p := path.Join(dir, target)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// countLinks sets each entry's LinkedFrom: the number of other docs of es
// (in path order) that link to it.
func countLinks(es []Entry) {
	for i := range es {
		es[i].LinkedFrom = 0
	}
	for _, e := range es {
		for _, target := range e.links {
			if i, ok := slices.BinarySearchFunc(es, target, func(e Entry, p string) int { return strings.Compare(e.Path, p) }); ok {
				es[i].LinkedFrom++
			}
		}
	}
}
