package mcpserver

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// LineRange is a window of a text, as the read tools return it.
type LineRange struct {
	Content       string `json:"content" jsonschema:"The text of the lines returned, joined with newlines."`
	StartLine     int    `json:"start_line" jsonschema:"First line returned (1-based)."`
	EndLine       int    `json:"end_line" jsonschema:"Last line returned (1-based); start_line-1 when nothing was returned."`
	TotalLines    int    `json:"total_lines" jsonschema:"Number of lines in the whole file."`
	Truncated     bool   `json:"truncated" jsonschema:"True when the result stops before the requested end_line because of the size cap."`
	NextStartLine int    `json:"next_start_line,omitempty" jsonschema:"When truncated: pass this as start_line to continue."`
	Note          string `json:"note,omitempty" jsonschema:"Said when a single line was longer than the size cap and was cut."`
}

// window cuts lines start to end of text (split as docs.SplitLines does) to
// at most maxBytes, on a line boundary. start and end are 1-based and
// inclusive; 0 means the first and the last line. A single line longer
// than maxBytes is cut at a rune boundary rather than returned whole, and
// the cut is noted.
func window(text string, start, end, maxBytes int) (LineRange, error) {
	total := docs.CountLines(text)
	switch {
	case start < 0:
		return LineRange{}, inputErrorf("start_line %d is not a line number; lines start at 1", start)
	case end < 0:
		return LineRange{}, inputErrorf("end_line %d is not a line number; lines start at 1", end)
	}
	if start == 0 {
		start = 1
	}
	if end == 0 || end > total {
		end = total
	}
	switch {
	case start > total && !(start == 1 && total == 0):
		return LineRange{}, inputErrorf("start_line %d is past the end: the file has %d lines", start, total)
	case end < start && total > 0:
		return LineRange{}, inputErrorf("end_line %d is before start_line %d", end, start)
	}

	r := LineRange{StartLine: start, EndLine: start - 1, TotalLines: total}
	rest := text
	for range start - 1 {
		_, rest = docs.CutLine(rest)
	}
	var b strings.Builder
	for i := start; i <= end; i++ {
		var line string
		line, rest = docs.CutLine(rest)
		need := len(line)
		if i > start {
			need++ // the newline before it
		}
		if b.Len()+need > maxBytes {
			if i == start { // one line alone is over the cap: cut it
				cut := line[:runeStart(line, maxBytes)]
				b.WriteString(cut)
				r.EndLine = i
				r.Note = fmt.Sprintf("line %d is %d bytes long, more than the %d-byte cap; only its first %d bytes are shown", i, len(line), maxBytes, len(cut))
				if i < end {
					r.Truncated, r.NextStartLine = true, i+1
				}
				break
			}
			r.Truncated, r.NextStartLine = true, i
			break
		}
		if i > start {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		r.EndLine = i
	}
	r.Content = b.String()
	return r, nil
}

// runeStart returns the largest n <= max such that s[:n] ends on a rune
// boundary.
func runeStart(s string, max int) int {
	if max >= len(s) {
		return len(s)
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return max
}

// text renders a range for the text copy of a result: the content, then a
// line that says where it came from and how to go on.
func (r LineRange) text(name string) string {
	var b strings.Builder
	b.WriteString(r.Content)
	if r.Content != "" && !strings.HasSuffix(r.Content, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\n[%s: lines %d-%d of %d", name, r.StartLine, r.EndLine, r.TotalLines)
	if r.Truncated {
		fmt.Fprintf(&b, "; cut at the size cap, continue with start_line=%d", r.NextStartLine)
	}
	b.WriteString("]")
	if r.Note != "" {
		b.WriteString("\n[" + r.Note + "]")
	}
	return b.String()
}

// plural says "1 match" or "2 matches".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
