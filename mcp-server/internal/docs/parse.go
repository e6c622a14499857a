package docs

import (
	"iter"
	"path"
	"strings"
)

// Heading is a Markdown heading: ATX (# Title) or setext (Title / ===).
type Heading struct {
	Line  int // 1-based line of the heading text
	Level int // 1 to 6
	Text  string
}

// parse builds a Doc from a file's text, held plain (see codec.pack). The
// text must be valid UTF-8.
func parse(docPath string, size int64, text string) *Doc {
	text = strings.TrimPrefix(text, "\ufeff")
	d := &Doc{Path: docPath, Size: size, body: text, lines: CountLines(text)}
	d.keepOutline(text)
	return d
}

// Title returns the doc's title (see the function Title), found in its
// text when asked for, as headings are.
func (d *Doc) Title() string { return Title(d.Path, d.Text()) }

// TitleIn is Title for a caller that lists many docs: the text is decoded
// into *buf (see TextIn), and only the title is copied out of it.
func (d *Doc) TitleIn(buf *[]byte) string {
	text, shared := d.TextIn(buf)
	title := Title(d.Path, text)
	if shared {
		title = strings.Clone(title)
	}
	return title
}

// Title returns the title of the doc at docPath whose text is given: its
// front matter title, else its first level-1 heading, else its file name
// without the extension (as ShowPath writes it: the title is text).
func Title(docPath, text string) string {
	if title := frontMatterTitle(text); title != "" {
		return title
	}
	for h := range headingsOf(text) {
		if h.Level == 1 {
			return h.Text
		}
	}
	return ShowPath(strings.TrimSuffix(path.Base(docPath), path.Ext(docPath)))
}

// CutLine cuts the first line off text: the line without its terminator
// ("\n", "\r\n", or a final "\r"), and the text after it.
func CutLine(text string) (line, rest string) {
	i := strings.IndexByte(text, '\n')
	if i < 0 {
		line, rest = text, ""
	} else {
		line, rest = text[:i], text[i+1:]
	}
	return strings.TrimSuffix(line, "\r"), rest
}

// CountLines returns the number of lines SplitLines would give.
func CountLines(text string) int {
	if text == "" {
		return 0
	}
	n := strings.Count(text, "\n")
	if text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// SplitLines splits text into lines without their terminators. "\r\n" and a
// lone "\n" end a line; a final newline does not start an empty last line.
// The lines share the text's memory.
func SplitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := make([]string, 0, CountLines(text))
	for rest := text; rest != ""; {
		var line string
		line, rest = CutLine(rest)
		lines = append(lines, line)
	}
	return lines
}

// frontMatterFence returns the fence of a YAML (---) or TOML (+++) block
// opening the text, or "".
func frontMatterFence(text string) string {
	first, _ := CutLine(text)
	if f := strings.TrimSpace(first); f == "---" || f == "+++" {
		return f
	}
	return ""
}

// frontMatter finds a YAML (---) or TOML (+++) block at the top of a doc. It
// returns the number of lines it spans (0 when there is none) and its
// top-level title, if any.
func frontMatter(text string) (end int, title string) {
	return frontMatterField(text, "title")
}

// Description returns the description given in a doc's front matter (a
// top-level description key, one line), or "".
func Description(text string) string {
	_, d := frontMatterField(text, "description")
	return d
}

// BodyLine returns the 1-based line where a doc's text starts after its
// front matter (1 when there is none).
func BodyLine(text string) int {
	end, _ := frontMatter(text)
	return end + 1
}

// frontMatterField is frontMatter for any top-level key.
func frontMatterField(text, field string) (end int, value string) {
	fence := frontMatterFence(text)
	if fence == "" {
		return 0, ""
	}
	sep := ":"
	if fence == "+++" {
		sep = "="
	}
	_, rest := CutLine(text)
	for i := 1; rest != ""; i++ {
		var line string
		line, rest = CutLine(rest)
		if strings.TrimSpace(line) == fence {
			return i + 1, value
		}
		if value != "" || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
			continue
		}
		key, v, ok := strings.Cut(line, sep)
		if ok && strings.TrimSpace(key) == field {
			value = unquote(strings.TrimSpace(v))
		}
	}
	return 0, "" // an unclosed fence is not front matter
}

// frontMatterTitle is the title given in the front matter, if any.
func frontMatterTitle(text string) string {
	_, title := frontMatter(text)
	return title
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		inner := s[1 : len(s)-1]
		if s[0] == '"' {
			inner = strings.ReplaceAll(inner, `\"`, `"`)
		} else {
			inner = strings.ReplaceAll(inner, "''", "'")
		}
		return strings.TrimSpace(inner)
	}
	return s
}

// headingsOf yields the ATX and setext headings after the front matter,
// skipping fenced code blocks.
func headingsOf(text string) iter.Seq[Heading] {
	return func(yield func(Heading) bool) {
		start, _ := frontMatter(text)
		var (
			fence string // the opening fence of the code block we are in
			prev  string // the previous line, when it can be a setext heading's text
			rest  = text
		)
		for i := 0; rest != ""; i++ {
			var line string
			line, rest = CutLine(rest)
			if i < start {
				continue
			}
			trimmed := strings.TrimLeft(line, " ")
			indent := len(line) - len(trimmed)
			if fence != "" {
				if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
					fence = ""
				}
				continue
			}
			if indent < 4 {
				if f := codeFence(trimmed); f != "" {
					fence, prev = f, ""
					continue
				}
				if level, text, ok := atxHeading(trimmed); ok {
					if !yield(Heading{Line: i + 1, Level: level, Text: text}) {
						return
					}
					prev = ""
					continue
				}
				if level := setextUnderline(trimmed); level > 0 && prev != "" {
					if !yield(Heading{Line: i, Level: level, Text: prev}) {
						return
					}
					prev = ""
					continue
				}
			}
			prev = ""
			if t := strings.TrimSpace(line); t != "" && indent < 4 && !startsBlock(t) {
				prev = t
			}
		}
	}
}

func codeFence(s string) string {
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(s, c) {
			n := len(s) - len(strings.TrimLeft(s, c[:1]))
			if c[0] == '`' && strings.Contains(s[n:], "`") {
				return "" // a backtick fence's info string has none (CommonMark): inline code
			}
			return s[:n]
		}
	}
	return ""
}

func atxHeading(s string) (level int, text string, ok bool) {
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	text = strings.TrimSpace(s[level:])
	// A closing sequence of #s preceded by a space is not part of the text.
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ")) {
		text = strings.TrimSpace(t)
	}
	return level, text, true
}

func setextUnderline(s string) int {
	s = strings.TrimRight(s, " \t")
	switch {
	case s == "":
		return 0
	case strings.Trim(s, "=") == "":
		return 1
	case len(s) >= 2 && strings.Trim(s, "-") == "":
		return 2
	}
	return 0
}

// startsBlock reports whether a line opens a block that cannot be the text of
// a setext heading (so "- item" followed by "---" is a list and a rule).
func startsBlock(s string) bool {
	switch s[0] {
	case '-', '*', '+', '>', '|', '<':
		return true
	}
	return false
}
