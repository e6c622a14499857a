package wiki

import (
	"bytes"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// changesSide is one of the two versions a "What changed" page compares:
// where its pages are and which docs it has.
type changesSide struct {
	label string          // the version's name, or NewestLabel
	date  string          // its day; "" for the working tree
	url   string          // the path of its home, e.g. /wiki/v1.1.0/
	docs  map[string]bool // its docs, relative to docs/, as the wiki builds them
}

func sideOf(e versionEntry, t *Tree) changesSide {
	s := changesSide{label: e.Label, date: e.Date, url: e.URL, docs: map[string]bool{}}
	for _, d := range t.Docs {
		s.docs[d] = true
	}
	return s
}

// link is the Markdown link to doc's page (anchor: a heading's, "" for the
// top) in this version, or doc as code when the wiki has no page for it (a
// doc in a hidden folder, which the server reads and the wiki skips).
func (s changesSide) link(doc, anchor, text string) string {
	if !s.docs[doc] {
		return text
	}
	href := s.url + pageURL(wikipage.Of(doc))
	if anchor != "" {
		href += "#" + anchor
	}
	return "[" + text + "](<" + href + ">)"
}

func (s changesSide) named() string {
	if s.date == "" {
		return "the " + s.label
	}
	return s.label + " (" + s.date + ")"
}

// changesFor compares the tree older (at fsOlder) with newer (at fsNewer),
// as gitdocs does for docs-mcp's tools, and writes the newer version's
// "What changed" page: the docs added, removed and changed, and for each
// changed doc the sections whose text differs, each linked to its page
// (a removed doc or section to the older version's).
func changesFor(older, newer changesSide, fsOlder, fsNewer fs.FS) ([]byte, error) {
	d, err := gitdocs.Changes(fsOlder, fsNewer)
	if err != nil {
		return nil, err
	}
	return changesMarkdown(d, older, newer), nil
}

// changesTitle is the title of the "What changed" page of version newer
// (working: the working tree) next to older.
func changesTitle(newer string, working bool, older string) string {
	if working {
		return "What changed since " + older
	}
	return "What changed in " + newer
}

// changesMarkdown is the page changesFor writes.
func changesMarkdown(d *gitdocs.Diff, older, newer changesSide) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "---\ntitle: %s\nwikiExtra: true\n---\n\n", strconv.Quote(changesTitle(newer.label, newer.date == "", older.label)))
	fmt.Fprintf(&b, "The docs of %s next to those of [%s](<%s>): %s added, %s removed, %s changed",
		newer.named(), older.named(), older.url, count(len(d.Added), "doc"), count(len(d.Removed), "doc"), count(len(d.Changed), "doc"))
	if d.Hooks.Changed {
		b.WriteString("; the hook registry changed")
	}
	b.WriteString(".\n")
	code := func(doc string) string { return "`docs/" + doc + "`" }
	if len(d.Added) > 0 {
		b.WriteString("\n## Added\n\n")
		for _, doc := range d.Added {
			fmt.Fprintf(&b, "- %s\n", newer.link(doc, "", code(doc)))
		}
	}
	if len(d.Removed) > 0 {
		fmt.Fprintf(&b, "\n## Removed\n\nThese docs are gone; the links lead to them in %s.\n\n", older.label)
		for _, doc := range d.Removed {
			fmt.Fprintf(&b, "- %s\n", older.link(doc, "", code(doc)))
		}
	}
	if len(d.Changed) > 0 {
		b.WriteString("\n## Changed\n\nThe sections whose text differs, by heading; a removed section links to it in " + older.label + ".\n")
		for _, c := range d.Changed {
			fmt.Fprintf(&b, "\n### %s\n\n", newer.link(c.Path, "", code(c.Path)))
			for _, s := range c.Sections {
				side := newer
				if s.Change == gitdocs.Removed {
					side = older
				}
				text := escapeMarkdown(s.Heading)
				if s.Anchor == "" {
					text = "the text before the first heading"
				}
				fmt.Fprintf(&b, "- %s: %s\n", s.Change, side.link(c.Path, s.Anchor, text))
			}
		}
	}
	if h := d.Hooks; h.Changed {
		b.WriteString("\n## Hooks\n\n")
		hooks := func(what string, names []string, url string) {
			if len(names) == 0 {
				return
			}
			parts := make([]string, len(names))
			for i, n := range names {
				parts[i] = "[`" + n + "`](<" + url + "hook-reference/#" + n + ">)"
			}
			fmt.Fprintf(&b, "- %s: %s\n", what, strings.Join(parts, ", "))
		}
		hooks("added", h.Added, newer.url)
		hooks("removed", h.Removed, older.url)
		hooks("changed", h.Edited, newer.url)
		if len(h.Added)+len(h.Removed)+len(h.Edited) == 0 {
			b.WriteString("- `framework/mod_hooks.json` changed, but not in its hooks.\n")
		}
	}
	return b.Bytes()
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// escapeMarkdown makes a heading's text plain text in a link's text: its
// Markdown (a link in a heading would nest links) is shown as written.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()<>#+-.!|~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
