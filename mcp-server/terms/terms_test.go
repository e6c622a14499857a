package terms

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWords(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string // identifiers marked with =
	}{
		{"How does my mod react when a player joins?", []string{"mod", "react", "player", "join"}},
		{"the player.joined hook", []string{"=player.joined", "player", "join", "hook"}},
		{"mod_read_doc returns", []string{"=mod_read_doc", "mod", "read", "doc", "return"}},
		{"--data-root /srv/docs", []string{"=data-root", "data", "root", "=srv/docs", "srv", "doc"}},
		{"std::vector<int>", []string{"=std::vector", "std", "vector", "int"}},
		{"ReadDoc and getElementById", []string{"=readdoc", "read", "doc", "=getelementbyid", "get", "element", "by", "id"}},
		{"Compiler Error C2065", []string{"compiler", "error", "c2065"}},
		{"cached caching caches cache", []string{"cach", "cach", "cach", "cach"}},
		{"policies classes stopped", []string{"policy", "class", "stop"}},
		{"a I x 2 the", nil},
		{"Größe ÜBER straße", []string{"größ", "über", "straß"}},
		{"end. Next", []string{"end", "next"}},
		// An identifier too long to be a word gives its parts as words.
		{strings.Repeat("a", 70) + ".bbb cc", []string{strings.Repeat("a", 70)[:64] + "", "bbb", "cc"}[1:]},
		// A letter whose last two bytes are the same is not a doubled
		// consonant: ꪪ (U+AAAA) is EA AA AA, and stays whole.
		{"fooꪪed", []string{"fooꪪ"}},
	} {
		var got []string
		var buf []byte
		Each(tt.text, &buf, func(w Word) {
			if w.Ident {
				got = append(got, "="+w.Text) // a copy, as a caller that keeps a word makes
			} else {
				got = append(got, strings.Clone(w.Text))
			}
		})
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Each(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}

// TestStemForms checks that the forms of one word meet (a question's
// "cancelling" finds the docs' "cancel"), and that different words stay
// apart. tools/internal/wiki's TestSearchWordsMatchTerms runs the wiki's
// search script over the same words: both sides must stem alike.
func TestStemForms(t *testing.T) {
	for _, forms := range [][]string{
		{"cancel", "cancels", "cancelled", "cancelling", "canceled", "canceling"},
		{"install", "installs", "installed", "installing"},
		{"control", "controls", "controlled", "controlling"},
		{"model", "models", "modelled", "modelling", "modeled", "modeling"},
		{"label", "labelled", "labelling", "labels"},
		{"travel", "travelled", "travelling", "traveled"},
		{"stop", "stops", "stopped", "stopping"},
		{"call", "calls", "called", "calling"},
		{"fall", "falls", "falling"},
		{"spell", "spells", "spelling"},
		{"poll", "polls", "polled", "polling"},
		{"pass", "passes", "passed", "passing"},
	} {
		for _, w := range forms[1:] {
			if got, want := stem(w), stem(forms[0]); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q: the forms of one word must meet", w, got, forms[0], want)
			}
		}
	}
	for _, pair := range [][2]string{{"fall", "fail"}, {"call", "cal"}, {"cancel", "cancer"}, {"spell", "spel"}} {
		if stem(pair[0]) == stem(pair[1]) {
			t.Errorf("stem(%q) = stem(%q) = %q: different words must stay apart", pair[0], pair[1], stem(pair[0]))
		}
	}
}

func TestProse(t *testing.T) {
	for in, want := range map[string]string{
		"see [the tools](server/tools.md#mod_read_doc) and [x](y)": "see [the tools] and [x]",
		"no links here":                   "no links here",
		"![logo](img/logo.png) then text": "![logo] then text",
		"[broken](no end":                 "[broken]no end",
	} {
		if got := Prose(in); got != want {
			t.Errorf("Prose(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStopWords: each stop word, alone, is no word; the list (which the
// wiki's search checks its own against) is sorted and holds the question
// words.
func TestStopWords(t *testing.T) {
	stops := StopWords()
	if !slices.IsSorted(stops) || !slices.Contains(stops, "how") || !slices.Contains(stops, "what") {
		t.Fatalf("stop words %v", stops)
	}
	for _, w := range stops {
		Each(w, nil, func(got Word) { t.Errorf("the stop word %q gives the word %q", w, got.Text) })
	}
}

// TestNames: a stop word that names something is kept: in a code span
// (vector's `at`) and as an identifier's part (std::vector::at); out of
// them it is still no word, and a backtick that opens no span is text.
func TestNames(t *testing.T) {
	for text, want := range map[string][]string{
		"## <a name=\"at\"></a> `at`":        {"name", "at"},
		"Does std::vector::at throw at last": {"=std::vector::at", "std", "vector", "at", "throw", "last"},
		"`for` loops for ``if (x) `do` ``":   {"for", "loop", "if", "do"},
		"a ` at b ``at":                      {},
		"``at` at":                           {},
		"`is_open` is":                       {"=is_open", "is", "open"},
	} {
		got := []string{}
		var buf []byte
		Each(text, &buf, func(w Word) {
			if w.Ident {
				got = append(got, "="+w.Text)
			} else {
				got = append(got, strings.Clone(w.Text))
			}
		})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Each(%q) (-want +got):\n%s", text, diff)
		}
	}
}
