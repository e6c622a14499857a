package rank

import (
	"testing"
	"unicode/utf8"
)

// FuzzQuestion ranks any question over a small tree: no question may make
// the ranking panic, return more sections than asked, or name a section
// its doc does not have.
func FuzzQuestion(f *testing.F) {
	for _, q := range []string{
		"how does my mod react when a player joins?",
		"player.joined", "C2065", "std::vector<int>", "--data-root",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bbb cc",
		"the of and", "", "ÜBER Größe straße", "fooꪪed", "a_b_c_d_e_f", "x.y.z:w/v-u",
	} {
		f.Add(q)
	}
	snap := tree(f, map[string]string{
		"a.md":     "---\ntitle: Player hooks\nkeywords: [join, C2065]\n---\n# Players\n\nA player.joined hook fires.\n\n## Joining\n\nWhen a player joins the data-root is read.\n",
		"b/c.md":   "Text above the heading.\n\n# C\n\nstd::vector and mod_read_doc.\n\nSetext\n------\n\nMore text, Größe.\n",
		"b/emp.md": "",
	})
	ix, err := New(snap, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, question string) {
		if !utf8.ValidString(question) {
			return // the tool refuses it before it is parsed
		}
		q := Parse(question)
		hits := ix.Top(q, "", 3)
		if len(hits) > 3 {
			t.Fatalf("%q: %d hits for 3", question, len(hits))
		}
		for _, h := range hits {
			if h.Heading >= len(h.Doc.Headings()) || h.StartLine < 1 || h.EndLine < h.StartLine || h.EndLine > h.Doc.LineCount() {
				t.Fatalf("%q: hit %+v outside %s (%d headings, %d lines)", question, h, h.Doc.Path, len(h.Doc.Headings()), h.Doc.LineCount())
			}
		}
	})
}
