package wiki

import (
	"bytes"
	"regexp"
	"strings"
)

// Docs written for MkDocs Material use two block forms that are not
// Markdown, and that Goldmark (so Hugo) shows as text: content tabs
//
//	=== "Linux"
//	    indented content
//	=== "Windows"
//	    indented content
//
// and admonitions, "!!! note "Title"" (a box) or "??? note" ("???+"
// open) (a box that folds), each over an indented body. rewriteAuthorSyntax
// writes them as the wiki draws them: a set of tabs as the site's tab
// shortcodes, which a doc may also use itself (the Hugo-native form, each on
// a line of its own: {{< tabs >}}, {{< tab "Linux" >}}, {{< /tab >}},
// {{< /tabs >}}), and an admonition as a GitHub alert ("> [!NOTE] Title",
// "> [!NOTE]- Title" folded), the note boxes render-blockquote.html draws.
// Nothing inside a fenced code block changes, and a marker counts only at
// the start of a line of its block (a doc's top level, or the body of a tab
// or admonition, read the same way).

var (
	tabMarker        = regexp.MustCompile(`^===([!+]?) +"([^"]*)" *$`)
	admonitionMarker = regexp.MustCompile(`^(!!!|\?\?\?\+?) +([A-Za-z][A-Za-z0-9_-]*)(?: [^"]*?)?(?: +"([^"]*)")? *$`)
	fenceOpening     = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	// A doc's own tab shortcodes as hugoSafe escaped them, each alone on its line.
	escapedTabCode = regexp.MustCompile(`^\{\{</\* *(/?tabs?)( +"[^"\n]*")? *\*/>\}\} *$`)
)

// admonitionKinds are the types of admonition MkDocs Material draws (a
// marker of another type is left as text, as "!!! wow" in a sentence is),
// each with the GitHub alert whose colours the wiki gives it.
var admonitionKinds = map[string]string{
	"note": "note", "abstract": "note", "summary": "note", "tldr": "note", "info": "note", "todo": "note",
	"question": "note", "help": "note", "faq": "note", "example": "note", "quote": "note", "cite": "note",
	"tip": "tip", "hint": "tip", "success": "tip", "check": "tip", "done": "tip",
	"important": "important",
	"warning":   "warning", "caution": "warning", "attention": "warning",
	"failure": "caution", "fail": "caution", "missing": "caution", "danger": "caution", "error": "caution", "bug": "caution",
}

// authorMarkers is a quick test: whether text may hold a tab, an admonition
// or a doc's own tab shortcode (escaped: a doc with a shortcode is copied
// anyway); most docs have none and are not read further.
func authorMarkers(text []byte) bool {
	return bytes.Contains(text, []byte("===")) || bytes.Contains(text, []byte("!!!")) ||
		bytes.Contains(text, []byte("???")) || bytes.Contains(text, []byte("{{</*"))
}

// hasAuthorSyntax reports whether rewriteAuthorSyntax would change text.
func hasAuthorSyntax(text []byte) bool {
	if !authorMarkers(text) {
		return false
	}
	s := string(text)
	return rewriteAuthorSyntax(s) != s
}

// rewriteAuthorSyntax returns text with its tabs and admonitions written as
// the wiki draws them, and a doc's own escaped tab shortcodes restored where
// they nest properly (elsewhere they stay text, as Hugo would fail on them).
func rewriteAuthorSyntax(text string) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(rewriteBlock(restoreTabCodes(lines)), "")
}

// rewriteBlock rewrites the markers at the start of lines (each line ending
// in its "\n", but perhaps the last).
func rewriteBlock(lines []string) []string {
	var out []string
	fence := ""
	for i := 0; i < len(lines); {
		line := lines[i]
		bare := strings.TrimRight(line, "\r\n")
		if fence != "" {
			if closesFence(bare, fence) {
				fence = ""
			}
			out = append(out, line)
			i++
			continue
		}
		if m := fenceOpening.FindStringSubmatch(bare); m != nil {
			fence = m[1]
			out = append(out, line)
			i++
			continue
		}
		if tabMarker.MatchString(bare) {
			var n int
			out, n = appendTabs(out, lines[i:])
			i += n
			continue
		}
		if m := admonitionMarker.FindStringSubmatch(bare); m != nil && admonitionKinds[strings.ToLower(m[2])] != "" {
			body, n := indented(lines[i+1:])
			out = appendAdmonition(out, m[1], m[2], m[3], rewriteBlock(body))
			i += 1 + n
			continue
		}
		out = append(out, line)
		i++
	}
	return out
}

// closesFence reports whether line closes a code block opened by fence.
func closesFence(line, fence string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || !strings.HasPrefix(t, fence) {
		return false
	}
	return strings.Trim(t, fence[:1]+" \t") == ""
}

// indented returns the body that follows a marker, dedented: the lines
// indented by four spaces (or a tab), with the blank lines between them, and
// how many lines it took.
func indented(lines []string) ([]string, int) {
	var body []string
	n := 0
	for i, line := range lines {
		bare := strings.TrimRight(line, "\r\n")
		switch {
		case strings.TrimSpace(bare) == "":
			body = append(body, line[len(bare)-len(strings.TrimLeft(bare, " \t")):])
			continue
		case strings.HasPrefix(bare, "    "):
			body = append(body, line[4:])
		case strings.HasPrefix(bare, "\t"):
			body = append(body, line[1:])
		default:
			return body[:n], n
		}
		n = i + 1
	}
	// Blank lines after the body's last line belong to what follows it.
	return body[:n], n
}

// appendTabs writes the set of tabs that starts lines as tab shortcodes,
// returning how many lines it took: the markers that follow one another,
// blank lines between them, until a marker opens a new set ("===!").
func appendTabs(out []string, lines []string) ([]string, int) {
	out = append(out, "{{< tabs >}}\n")
	i := 0
	for i < len(lines) {
		m := tabMarker.FindStringSubmatch(strings.TrimRight(lines[i], "\r\n"))
		if m == nil || (i > 0 && m[1] == "!") {
			break
		}
		body, n := indented(lines[i+1:])
		out = append(out, "{{< tab "+quoteLabel(m[2])+" >}}\n")
		out = append(out, rewriteBlock(body)...)
		if len(out) > 0 && !strings.HasSuffix(out[len(out)-1], "\n") {
			out[len(out)-1] += "\n"
		}
		out = append(out, "{{< /tab >}}\n")
		i += 1 + n
		// Blank lines between two tabs of a set.
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && tabMarker.MatchString(strings.TrimRight(lines[j], "\r\n")) && !strings.HasPrefix(lines[j], "===!") {
			i = j
		}
	}
	return append(out, "{{< /tabs >}}\n"), i
}

// quoteLabel is a tab's label as a shortcode's argument: quoted, without
// the characters that would end the quotes or the shortcode.
func quoteLabel(label string) string {
	label = strings.NewReplacer(`"`, "", `\`, "", ">}}", "", "%}}", "").Replace(label)
	return `"` + label + `"`
}

// appendAdmonition writes an admonition as a GitHub alert: the type in
// capitals, folded ("-") or folded open ("+") for "???" and "???+", the
// title after it, the body quoted line by line.
func appendAdmonition(out []string, marker, kind, title string, body []string) []string {
	sign := ""
	switch marker {
	case "???":
		sign = "-"
	case "???+":
		sign = "+"
	}
	// The alert of the kind's colours, titled with the kind when it is
	// another ("!!! danger": a caution box titled Danger).
	alert := admonitionKinds[strings.ToLower(kind)]
	if title = strings.TrimSpace(title); title == "" && alert != strings.ToLower(kind) {
		title = strings.ToUpper(kind[:1]) + strings.ToLower(kind[1:])
	}
	head := "> [!" + strings.ToUpper(alert) + "]" + sign
	if title != "" {
		head += " " + title
	}
	out = append(out, head+"\n")
	// A set of tabs in the body is one shortcode, which Hugo reads before
	// the Markdown: its opening line is quoted, its lines are not (they are
	// the tabs' own Markdown), and it stands as a paragraph of its own.
	depth := 0
	for i, line := range body {
		bare := strings.TrimRight(line, "\r\n")
		switch {
		case bare == "{{< tabs >}}":
			if depth == 0 && i > 0 && strings.TrimSpace(body[i-1]) != "" {
				out = append(out, ">\n")
			}
			if depth++; depth == 1 {
				out = append(out, "> "+bare+"\n")
				continue
			}
		case bare == "{{< /tabs >}}":
			if depth--; depth == 0 {
				out = append(out, bare+"\n", ">\n")
				continue
			}
		}
		switch {
		case depth > 0:
			out = append(out, line)
		case strings.TrimSpace(line) == "":
			out = append(out, ">\n")
		default:
			out = append(out, "> "+bare+"\n")
		}
	}
	return out
}

// restoreTabCodes undoes hugoSafe's escape of a doc's own tab shortcodes
// (each alone on its line, outside fenced code) when they nest properly: a
// set holds tabs, a tab sits in a set, every one is closed.
func restoreTabCodes(lines []string) []string {
	type at struct {
		line int
		name string
	}
	var found []at
	fence := ""
	for i, line := range lines {
		bare := strings.TrimRight(line, "\r\n")
		if fence != "" {
			if closesFence(bare, fence) {
				fence = ""
			}
			continue
		}
		if m := fenceOpening.FindStringSubmatch(bare); m != nil {
			fence = m[1]
			continue
		}
		if m := escapedTabCode.FindStringSubmatch(bare); m != nil {
			if (m[1] == "tab") != (m[2] != "") {
				return lines // a tab without a label, or a label elsewhere
			}
			found = append(found, at{i, m[1]})
		}
	}
	if len(found) == 0 {
		return lines
	}
	var stack []string
	for _, f := range found {
		switch f.name {
		case "tabs":
			if len(stack) > 0 && stack[len(stack)-1] != "tab" {
				return lines
			}
			stack = append(stack, "tabs")
		case "tab":
			if len(stack) == 0 || stack[len(stack)-1] != "tabs" {
				return lines
			}
			stack = append(stack, "tab")
		default:
			if len(stack) == 0 || "/"+stack[len(stack)-1] != f.name {
				return lines
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return lines
	}
	out := append([]string(nil), lines...)
	for _, f := range found {
		m := escapedTabCode.FindStringSubmatch(strings.TrimRight(out[f.line], "\r\n"))
		label := ""
		if m[2] != "" {
			label = " " + strings.TrimLeft(m[2], " ")
		}
		out[f.line] = "{{< " + m[1] + label + " >}}\n"
	}
	return out
}
