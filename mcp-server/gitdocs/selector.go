package gitdocs

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Selector chooses release tags by name: the tags matching any of its
// patterns, and of those, when Newest is set, only the newest Newest.
//
// Its text form, as the --versions flag takes it, is a comma-separated
// list of glob patterns (path.Match syntax: "*" stops at "/"), optionally
// followed by ":N" to keep the newest N:
//
//	v*          every tag starting with "v"
//	v*:5        the newest five of them
//	v1.*,v2.*   the tags of two major versions
type Selector struct {
	Patterns []string
	Newest   int // 0 keeps all
}

// ParseSelector reads a selector's text form (see Selector).
func ParseSelector(text string) (Selector, error) {
	var sel Selector
	pats := text
	if i := strings.LastIndexByte(text, ':'); i >= 0 {
		n, err := strconv.Atoi(text[i+1:])
		if err != nil || n < 1 {
			return Selector{}, fmt.Errorf("tag selector %q: after ':' give how many of the newest tags to keep (a whole number >= 1), like v*:5", text)
		}
		sel.Newest, pats = n, text[:i]
	}
	for p := range strings.SplitSeq(pats, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return Selector{}, fmt.Errorf("tag selector %q: empty pattern; give globs separated by commas, like v* or v1.*,v2.*", text)
		}
		if _, err := path.Match(p, ""); err != nil {
			return Selector{}, fmt.Errorf("tag selector %q: pattern %q: %w", text, p, err)
		}
		sel.Patterns = append(sel.Patterns, p)
	}
	return sel, nil
}

// Match reports whether the tag named name matches one of the patterns.
func (s Selector) Match(name string) bool {
	for _, p := range s.Patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// String is the selector's text form, which ParseSelector reads back.
func (s Selector) String() string {
	t := strings.Join(s.Patterns, ",")
	if s.Newest > 0 {
		t += ":" + strconv.Itoa(s.Newest)
	}
	return t
}
