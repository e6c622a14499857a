package rank

import (
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// metaValues calls f with the text of each front matter value that says
// what a doc is about: its title, description, summary, keywords, tags
// and aliases (any key ending in one of those: f1_keywords,
// helpviewer_keywords), scalars and list items alike, with the key (lower
// case). Dates, authors, ids and layout keys are left out: nobody asks for
// them. It returns the line the doc's body starts on (see docs.BodyLine).
func metaValues(text string, f func(key, value string)) (body int) {
	body = docs.BodyLine(text)
	if body == 1 {
		return body
	}
	sep := ":"
	if strings.HasPrefix(strings.TrimSpace(text), "+++") {
		sep = "="
	}
	keep := false // the last key is one whose values are kept
	key := ""
	rest := text
	_, rest = docs.CutLine(rest) // the opening fence
	for i := 2; i < body-1 && rest != ""; i++ {
		var line string
		line, rest = docs.CutLine(rest)
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case strings.HasPrefix(trimmed, "- "):
			if keep {
				f(key, trimmed[2:])
			}
		case line[0] == ' ' || line[0] == '\t':
			if keep { // a folded scalar's continuation, or a nested map
				f(key, trimmed)
			}
		default:
			k, value, ok := strings.Cut(line, sep)
			if !ok {
				keep = false
				continue
			}
			key = strings.ToLower(strings.TrimSpace(k))
			keep = isMetaKey(key)
			if keep {
				f(key, value)
			}
		}
	}
	return body
}

// isMetaKey reports whether a front matter key names what a doc is about.
func isMetaKey(key string) bool {
	for _, k := range []string{"title", "description", "summary", "keywords", "tags", "aliases", "subtitle"} {
		if key == k || strings.HasSuffix(key, "_"+k) || strings.HasSuffix(key, "."+k) {
			return true
		}
	}
	return false
}

// isKeywordKey reports whether a front matter key lists keywords, each
// the name of something the doc is the page for (f1_keywords: an
// editor's F1 help looks a name up there).
func isKeywordKey(key string) bool {
	return key == "keywords" || strings.HasSuffix(key, "_keywords") || strings.HasSuffix(key, ".keywords")
}

// keywordItems calls f with each item of a keyword list's value: a list
// item's text, or each item of an inline list (["C2065", "C2066"]),
// without quotes.
func keywordItems(value string, f func(string)) {
	value = strings.TrimSpace(value)
	value = strings.TrimSuffix(strings.TrimPrefix(value, "["), "]")
	for item := range strings.SplitSeq(value, ",") {
		if item = strings.Trim(strings.TrimSpace(item), `"'`); item != "" {
			f(item)
		}
	}
}
