package search

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMatcherIndex(t *testing.T) {
	tests := []struct {
		name          string
		query, line   string
		caseSensitive bool
		wantOff       int
		wantText      string // the matched text in line
	}{
		{"ascii", "hook", "Every Hook fires", false, 6, "Hook"},
		{"ascii case-sensitive miss", "hook", "Every Hook fires", true, -1, ""},
		{"case-sensitive hit", "Hook", "Every Hook fires", true, 6, "Hook"},
		{"first occurrence", "a", "banana", false, 1, "a"},
		{"absent", "zebra", "banana", false, -1, ""},
		{"one char non-ascii", "é", "Café", false, 3, "é"},
		{"upper non-ascii", "CAFÉ", "le café", false, 3, "café"},
		{"kelvin sign in line", "kelvin", "0 \u212Aelvin", false, 2, "\u212Aelvin"},
		{"kelvin sign in query", "\u212A", "ok", false, 1, "k"},
		{"long s", "ſ", "class", false, 3, "s"},
		{"sharp s is not ss", "ss", "straße", false, -1, ""},
		{"greek sigma forms", "σ", "ΟΔΟΣ", false, 3 * 2, "Σ"},
		{"match at end", "end", "the END", false, 4, "END"},
		{"query longer than line", "longer", "long", false, -1, ""},
		{"cjk", "文档", "这是文档。", false, 6, "文档"},
		{"phrase with space", "mod hooks", "Use Mod Hooks here", false, 4, "Mod Hooks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off, n := NewMatcher(tt.query, tt.caseSensitive).Index(tt.line)
			if off != tt.wantOff {
				t.Fatalf("Index(%q in %q) offset = %d, want %d", tt.query, tt.line, off, tt.wantOff)
			}
			if off >= 0 && tt.line[off:off+n] != tt.wantText {
				t.Errorf("matched %q, want %q", tt.line[off:off+n], tt.wantText)
			}
		})
	}
}

// naiveIndex is the definition: the first rune boundary at which some
// prefix of the rest of the line equals the query under strings.EqualFold.
func naiveIndex(line, query string) int {
	for start := 0; start <= len(line); {
		for end := start; end <= len(line); {
			if strings.EqualFold(line[start:end], query) {
				return start
			}
			if end == len(line) {
				break
			}
			_, size := utf8.DecodeRuneInString(line[end:])
			end += size
		}
		if start == len(line) {
			break
		}
		_, size := utf8.DecodeRuneInString(line[start:])
		start += size
	}
	return -1
}

// TestMatcherAgainstEqualFold checks the matcher against the definition on
// random lines drawn from an alphabet rich in folding corner cases.
func TestMatcherAgainstEqualFold(t *testing.T) {
	alphabet := []rune("aAkKsSbB \u212A\u017Fß\u1E9EσςΣéÉ文-")
	rng := rand.New(rand.NewPCG(1, 2))
	randText := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for i := range 20000 {
		line, query := randText(rng.IntN(12)), randText(1+rng.IntN(3))
		want := naiveIndex(line, query)
		got, n := NewMatcher(query, false).Index(line)
		if got != want {
			t.Fatalf("case %d: Index(%q in %q) = %d, want %d", i, query, line, got, want)
		}
		if got >= 0 && !strings.EqualFold(line[got:got+n], query) {
			t.Fatalf("case %d: matched text %q does not fold to %q", i, line[got:got+n], query)
		}
	}
}
