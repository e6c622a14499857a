package wiki

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// Hugo reads a content file as its own format, not as plain Markdown: front
// matter at the start, and shortcodes ({{< name >}}, {{% name %}})
// anywhere, code blocks included. A doc written for GitHub or another
// generator can hold either by accident, and Hugo then fails the whole
// build: a doc that opens with a list item ("- "), a snippet include
// ("--8<-- …", "{% include … %}") or a thematic break reads as broken
// front matter; a doc about Hugo sites, or one brought from one, names
// shortcodes this wiki does not have. The build makes such docs from a copy
// that Hugo reads as the doc's plain text (hugoSafe); raw.html undoes the
// escapes where a layout shows a page's Markdown.

var byteOrderMark = []byte("\uFEFF")

// The shortcode delimiters, and Hugo's escaped form of each: {{</* x */>}}
// is shown as {{< x >}}.
var shortcodeDelims = []struct{ left, right []byte }{
	{[]byte("{{<"), []byte(">}}")},
	{[]byte("{{%"), []byte("%}}")},
}

// misread reports whether Hugo would read text otherwise than as a doc's
// plain Markdown: a bareOpening, a date it cannot read (foreignDates) or
// a shortcode delimiter; or whether it holds MkDocs tabs or admonitions (hasAuthorSyntax), which the copy
// writes as the wiki draws them.
func misread(text []byte) bool {
	return bareOpening(text) || len(foreignDates(text)) > 0 || bytes.Contains(text, shortcodeDelims[0].left) || bytes.Contains(text, shortcodeDelims[1].left) ||
		hasAuthorSyntax(text)
}

// hugoDates are the front matter keys Hugo reads as a page's dates (in any
// case), failing the build on a value that is not one.
var hugoDates = map[string]bool{"date": true, "lastmod": true, "publishdate": true, "pubdate": true, "published": true, "expirydate": true, "unpublishdate": true}

// dateNotScalar finds a date key whose value is not on its line (a map or a
// list follows) or starts a flow map or list.
var dateNotScalar = regexp.MustCompile(`(?mi)^(date|lastmod|publishdate|pubdate|published|expirydate|unpublishdate)\s*:\s*([\[{].*)?(#.*)?\r?$`)

// foreignDates are the top-level keys of text's YAML front matter that Hugo
// reads as dates but that hold something else: MkDocs Material's blog
// writes "date:" as a map (created, updated), which fails Hugo's build.
func foreignDates(text []byte) []string {
	n, ok := frontMatterLen(text)
	t := bytes.TrimLeft(bytes.TrimPrefix(text[:n], byteOrderMark), " \t\r\n")
	if !ok || !bytes.HasPrefix(t, []byte("---")) {
		return nil
	}
	body := t[3:]
	if !dateNotScalar.Match(body) {
		return nil // the common case, without parsing the YAML
	}
	if end := bytes.LastIndex(body, []byte("\n---")); end >= 0 {
		body = body[:end]
	}
	var fm map[string]any
	if yaml.Unmarshal(body, &fm) != nil {
		return nil // Hugo's error for bad YAML is the writer's to fix
	}
	var out []string
	for k, v := range fm {
		if !hugoDates[strings.ToLower(k)] {
			continue
		}
		switch v.(type) {
		case map[string]any, []any:
			out = append(out, k)
		}
	}
	return out
}

// renameDates renames the keys of text's front matter that foreignDates
// names, prefixing them with "wiki-": the page keeps its other front
// matter, and its last-updated day comes from git as every page's does.
func renameDates(text []byte) []byte {
	keys := foreignDates(text)
	if len(keys) == 0 {
		return text
	}
	n, _ := frontMatterLen(text)
	fm := text[:n]
	for _, k := range keys {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(k) + `(\s*):`)
		fm = re.ReplaceAll(fm, []byte("wiki-"+k+"$1:"))
	}
	return append(fm, text[n:]...)
}

// hugoSafe is text as Hugo reads a doc's plain Markdown: behind an empty
// front matter if its opening is bare, with every shortcode delimiter after
// the front matter escaped (escapeShortcodes) but the doc's own tabs, and
// its MkDocs tabs and admonitions rewritten (rewriteAuthorSyntax).
func hugoSafe(text []byte) []byte {
	if bareOpening(text) {
		return append([]byte("---\n---\n"), authorSafe(text)...)
	}
	text = renameDates(text)
	n, _ := frontMatterLen(text)
	return append(text[:n:n], authorSafe(text[n:])...)
}

// authorSafe is a doc's text after its front matter as the copy holds it.
func authorSafe(text []byte) []byte {
	esc := escapeShortcodes(text)
	if !authorMarkers(esc) {
		return esc
	}
	return []byte(rewriteAuthorSyntax(string(esc)))
}

// bareOpening reports whether Hugo would take the opening of a doc's text
// for front matter that it is not. After spaces and a byte order mark,
// Hugo reads "-" as the start of YAML front matter, "+" of TOML and "{" of
// JSON, and fails the build when what follows is not: a list item ("- "),
// a snippet include ("--8<-- …", "{% include … %}"), a thematic break with
// no closing "---". Front matter that is there but wrong (bad YAML) is not
// bare: Hugo's error for it is the writer's to fix.
func bareOpening(text []byte) bool {
	_, ok := frontMatterLen(text)
	return !ok
}

// frontMatterLen returns the length of the front matter Hugo reads at the
// start of text, 0 for none, and false when the opening is bare.
func frontMatterLen(text []byte) (int, bool) {
	t := bytes.TrimLeft(bytes.TrimPrefix(text, byteOrderMark), " \t\r\n")
	start := len(text) - len(t)
	if len(t) == 0 {
		return 0, true
	}
	switch t[0] {
	case '-', '+':
		delim := bytes.Repeat(t[:1], 3)
		if !bytes.HasPrefix(t, delim) {
			return 0, false
		}
		// Hugo ends the front matter at the next line that starts with the
		// delimiter (and the rest of that line); with none, it fails.
		end := bytes.Index(t[3:], append([]byte("\n"), delim...))
		if end < 0 {
			return 0, false
		}
		end += 3 + 1 + 3
		if nl := bytes.IndexByte(t[end:], '\n'); nl >= 0 {
			end += nl + 1
		} else {
			end = len(t)
		}
		return start + end, true
	case '{':
		dec := json.NewDecoder(bytes.NewReader(t))
		var v map[string]any
		if dec.Decode(&v) != nil {
			return 0, false
		}
		return start + int(dec.InputOffset()), true
	}
	return 0, true
}

// escapeShortcodes writes every shortcode in text in Hugo's escaped form,
// which Hugo shows as written: "{{< x >}}" becomes "{{</* x */>}}", the
// same for "{{% x %}}". A delimiter that is never closed (Hugo would fail
// on it too) gets a zero-width space after its braces instead.
func escapeShortcodes(text []byte) []byte {
	var out []byte
	for {
		at, d := -1, shortcodeDelims[0]
		for _, sd := range shortcodeDelims {
			if i := bytes.Index(text, sd.left); i >= 0 && (at < 0 || i < at) {
				at, d = i, sd
			}
		}
		if at < 0 {
			return append(out, text...)
		}
		inner := text[at+len(d.left):]
		end := bytes.Index(inner, d.right)
		if end < 0 {
			out = append(out, text[:at+2]...)
			out = append(out, "\u200b"...)
			text = text[at+2:]
			continue
		}
		out = append(out, text[:at+len(d.left)]...)
		out = append(out, "/*"...)
		out = append(out, inner[:end]...)
		out = append(out, "*/"...)
		out = append(out, d.right...)
		text = inner[end+len(d.right):]
	}
}
