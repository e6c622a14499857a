package search

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// oracleIndex is a plain statement of a match: strings.Index when case
// matters, else the first rune boundary where the next runes, as many as the
// query has, equal the query under strings.EqualFold. (EqualFold compares
// rune by rune, so only a stretch of that many runes can equal the query;
// this is naiveIndex without its cubic cost.)
func oracleIndex(line, query string, caseSensitive bool) int {
	if caseSensitive {
		return strings.Index(line, query)
	}
	k := utf8.RuneCountInString(query)
	for start := 0; ; {
		end := start
		for range k {
			if end == len(line) {
				return -1
			}
			_, size := utf8.DecodeRuneInString(line[end:])
			end += size
		}
		if strings.EqualFold(line[start:end], query) {
			return start
		}
		if start == len(line) {
			return -1
		}
		_, size := utf8.DecodeRuneInString(line[start:])
		start += size
	}
}

// FuzzMatcher compares Matcher.Index with the oracle on any query and line.
// Docs and queries reach the matcher as valid UTF-8 (the loader skips other
// files, JSON decoding replaces bad bytes), so the oracle is consulted for
// those; any input at all must not panic and must give an offset and length
// inside the line.
func FuzzMatcher(f *testing.F) {
	for _, s := range []struct {
		query, line string
		cs          bool
	}{
		{"hook", "Every Hook fires", false},
		{"Hook", "Every Hook fires", true},
		{"kelvin", "0 \u212Aelvin", false},
		{"\u212A", "ok", false},
		{"ſ", "class", false},
		{"ss", "straße", false},
		{"σ", "ΟΔΟΣ ς", false},
		{"ǅ", "ǆ ǅ Ǆ", false},
		{"İ", "istanbul İ", false},
		{"文档", "这是文档。", false},
		{"", "anything", false},
		{"x", "", false},
		{"\xff", "\xff\xfe", false},
		{"é", "e\u0301 é", false},
	} {
		f.Add(s.query, s.line, s.cs)
	}
	f.Fuzz(func(t *testing.T, query, line string, caseSensitive bool) {
		if len(line) > 1024 || len(query) > 64 {
			t.Skip("the oracle is cubic; long inputs add nothing here")
		}
		off, n := NewMatcher(query, caseSensitive).Index(line)
		if off < -1 || off > len(line) || n < 0 || off+n > len(line) || (off == -1 && n != 0) {
			t.Fatalf("Index(%q in %q) = %d, %d: outside the line", query, line, off, n)
		}
		if !utf8.ValidString(query) || !utf8.ValidString(line) {
			return
		}
		if want := oracleIndex(line, query, caseSensitive); off != want {
			t.Fatalf("Index(%q in %q, case-sensitive %v) = %d, the oracle says %d", query, line, caseSensitive, off, want)
		}
		if want := naiveIndex(line, query); !caseSensitive && off != want {
			t.Fatalf("Index(%q in %q) = %d, naiveIndex says %d", query, line, off, want)
		}
		if off < 0 {
			return
		}
		got := line[off : off+n]
		if caseSensitive && got != query || !caseSensitive && !strings.EqualFold(got, query) {
			t.Fatalf("Index(%q in %q) matched %q", query, line, got)
		}
	})
}

// corpus is a small docs tree for FuzzMatches, written once.
var corpus = map[string]string{
	"index.md":            "# Home\n\nWelcome to the hooks docs.\nKELVIN \u212A and long ſ\n",
	"guide/intro.md":      "# Intro\n\nRegister hooks early.\n\n## Straße\n\nΟΔΟΣ σ ς\n",
	"guide/hooks.md":      "# Hooks\n\nplayer.joined fires first.\nplayer.left fires last.\n",
	"guide-extra.md":      "# Extra\n\nhook hook hook\n",
	"api/文档.md":           "# 文档\n\n这是文档。\n",
	"api/z.md":            "\ufeff# BOM\r\nCRLF line\r\nhooks\r\n",
	"with space/c++.md":   "# C++\n\n" + strings.Repeat("x", 5000) + "hook\n",
	"zz/empty.md":         "",
	"zz/one-line-hook.md": "hook",
}

// FuzzMatches runs a query over a real snapshot and compares every result,
// in order, with a scan of the corpus by the oracle: path order, then line
// order, one result per line, after the given position, within the prefix.
func FuzzMatches(f *testing.F) {
	f.Add("hook", false, "", "", 0)
	f.Add("HOOK", true, "guide", "guide/hooks.md", 3)
	f.Add("k", false, "guide/", "", 0)
	f.Add("σ", false, "", "guide/intro.md", 6)
	f.Add("文档", false, "api/", "api", 1)
	f.Add("x", false, "with space/", "", 0)
	f.Add("", false, "zz", "", 0)

	dir := f.TempDir()
	mcptest.WriteTree(f, dir, corpus)
	snap, err := docs.Load(context.Background(), dir, docs.LoadOptions{})
	if err != nil {
		f.Fatal(err)
	}
	if len(snap.Docs()) != len(corpus) {
		f.Fatalf("loaded %d docs, want %d", len(snap.Docs()), len(corpus))
	}

	type hit struct {
		Path         string
		Line, Offset int
		Text         string // the line
	}
	const most = 200
	f.Fuzz(func(t *testing.T, query string, caseSensitive bool, prefix, afterPath string, afterLine int) {
		if len(query) > 64 || afterLine < 0 {
			t.Skip("callers pass short queries and positions from cursors, whose lines are never negative")
		}
		var want []hit
	scan:
		for _, d := range snap.Docs() {
			if !strings.HasPrefix(d.Path, prefix) || d.Path < afterPath {
				continue
			}
			for i, line := range docs.SplitLines(d.Text()) {
				if d.Path == afterPath && i+1 <= afterLine {
					continue
				}
				if off := oracleIndex(line, query, caseSensitive); off >= 0 {
					want = append(want, hit{d.Path, i + 1, off, line})
					if len(want) == most {
						break scan
					}
				}
			}
		}
		var got []hit
		for m := range Matches(snap, Query{Text: query, CaseSensitive: caseSensitive, PathPrefix: prefix}, Position{afterPath, afterLine}) {
			got = append(got, hit{m.Doc.Path, m.Line, m.Offset, m.Text})
			if len(got) == most {
				break
			}
		}
		if !utf8.ValidString(query) {
			return // no panic is all that is asked of a query no client can send
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Matches(%q, case-sensitive %v, prefix %q, after %s:%d) (-oracle +got):\n%s",
				query, caseSensitive, prefix, afterPath, afterLine, diff)
		}
	})
}
