package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// The ranked measure: does one call, then one read, reach the answer? For
// each question with the section of the docs that answers it, two ways an
// assistant takes its first step, each one call and one read of the first
// result's section:
//
//   - search: mod_search_docs with the question's query (the words a user
//     types into a search box), then the first hit's section;
//   - ranked: mod_ask_docs with the question as asked, then the first
//     section it ranks, read with list_subsections (its own text).
//
// A way reaches the answer when the section it reads is the answering one
// or lies inside it. For the ranked way, the table also says where in the
// sections returned (three by default) the answering one was.
//
// Every set of questions in testdata/answers: questions.json (the weights
// of the ranking were set on them), heldout.json to heldout4.json (each
// written from the docs alone by someone who saw neither the ranking nor
// the other questions; heldout.json not looked at until the weights were
// set, the others written after), and the sets named cpp-docs*.json
// (held out likewise), about a real tree of 9,753 docs nobody here wrote
// (MicrosoftDocs/cpp-docs, CC BY 4.0), measured when DOCS_MCP_REAL_TREE
// names a checkout of it (a folder holding docs/):
//
//	go test -count=1 -run TestRankedAnswers -v ./mcp-server/internal/mcpserver
//	DOCS_MCP_REAL_TREE=/path/to/cpp-docs go test -count=1 -run TestRankedAnswers/cpp-docs -v ./mcp-server/internal/mcpserver
func TestRankedAnswers(t *testing.T) {
	mcptest.SkipUnderRace(t, "one client measuring which section each question's first answer names")
	type floor struct {
		first, bytes int // ranked: least first-result successes (percent), most text bytes a question on average
		beat         int // how many more questions the ranked way must answer first than the search way (negative: how many fewer it may)
	}
	root := repoRoot(t)
	// The floors hold what was measured when the ranking was last changed
	// (questions.json 75% and 2,851 bytes; heldout.json 61% and about
	// 3,070 bytes), less a margin: a change that loses answers fails here.
	// The goal is higher (90% at 3,000 bytes):
	// docs/server/tools.md#what-a-ranked-answer-saves has the gap. The
	// held-out search way types words its writer chose knowing the answer,
	// where the ranked way takes the question as asked: the ranked way may
	// fall at most three behind. A set without a floor is measured and
	// reported. heldout2.json's first run (on 91b148d's ranking): 68% (41
	// of 60, the search way 31) at 3,532 bytes. heldout3.json's first run
	// (on 433b468's ranking, written blind after it): 70% (53 of 75, the
	// search way 22) at 3,408 bytes. heldout4.json's first run (on
	// e174d60's ranking, written blind after it): 72% (36 of 50, the
	// search way 19) at 3,284 bytes.
	floors := map[string]floor{"questions.json": {70, 3000, 10}, "heldout.json": {55, 3300, -3}, "heldout2.json": {63, 3750, 5},
		"heldout3.json": {65, 3600, 25}, "heldout4.json": {66, 3450, 12}}
	// Every set in testdata/answers is measured: a set named cpp-docs*.json
	// asks about the real tree (see above), any other about this
	// repository's docs. A new set is a new file.
	sets, err := filepath.Glob(filepath.Join("testdata", "answers", "*.json"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("no question sets in testdata/answers: %v", err)
	}
	tree := os.Getenv("DOCS_MCP_REAL_TREE")
	for _, set := range sets {
		name := filepath.Base(set)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			if strings.HasPrefix(name, "cpp-docs") {
				if tree == "" {
					t.Skip("DOCS_MCP_REAL_TREE is not set: the real tree is measured by hand, with a checkout of MicrosoftDocs/cpp-docs: " +
						"DOCS_MCP_REAL_TREE=/path/to/cpp-docs go test -count=1 -run TestRankedAnswers/cpp-docs -v ./mcp-server/internal/mcpserver")
				}
				measureRanked(t, tree, set)
				return
			}
			m := measureRanked(t, root, set)
			if m.n < 40 {
				t.Errorf("%d questions; the measure wants at least 40", m.n)
			}
			f, ok := floors[name]
			if !ok {
				return
			}
			if got := m.percent(m.ranked.first); got < f.first {
				t.Errorf("the first ranked section answers %d%% of the questions, under %d%%", got, f.first)
			}
			if m.ranked.first < m.search.first+f.beat {
				t.Errorf("the first ranked section answers %d questions, the first search hit's %d: want %+d or more", m.ranked.first, m.search.first, f.beat)
			}
			if got := m.ranked.text / m.n; got > f.bytes {
				t.Errorf("one ranked call and one read take %d bytes of text a question, over %d", got, f.bytes)
			}
		})
	}
}

// way is what one way of taking the first step achieved over a set.
type way struct {
	first, doc, within int // the first read reached the answer; the first result was the answering doc; the answering section was among those returned
	text, calls        int // of the first call and the first read
}

type rankedMeasure struct {
	n              int
	search, ranked way
}

func (m rankedMeasure) percent(k int) int { return k * 100 / max(m.n, 1) }

func measureRanked(t *testing.T, root, set string) rankedMeasure {
	t.Helper()
	questions, snap := answerSet(t, root, set)
	c := newClient(t, root)
	awaitRanking(t, c)
	m := rankedMeasure{n: len(questions)}
	var report strings.Builder
	fmt.Fprintf(&report, "%-60s %-58s %-7s %-7s %s\n", "question", "answering section", "search", "ranked", "ranked first")
	for _, q := range questions {
		_, answer := answering(t, snap, q)
		inside := func(path string, line int) bool {
			return path == q.Path && answer.Line <= line && line <= answer.EndLine
		}

		// search: the first hit's section.
		s := &reading{name: "search"}
		var found SearchDocsOutput
		mcptest.Decode(t, s.call(t, c, "mod_search_docs", map[string]any{"query": q.Query}), &found)
		searchOK := "-"
		if hits := matchesOf(found); len(hits) > 0 {
			h := hits[0]
			args := map[string]any{"path": h.Path}
			if h.Anchor != "" {
				args["section"] = h.Anchor
			}
			var out ReadDocOutput
			mcptest.Decode(t, s.call(t, c, "mod_read_doc", args), &out)
			if h.Path == q.Path {
				m.search.doc++
			}
			if inside(h.Path, out.StartLine) || h.Anchor == "" && inside(h.Path, h.Line) {
				m.search.first++
				searchOK = "yes"
			}
		}
		m.search.text, m.search.calls = m.search.text+s.text, m.search.calls+s.calls

		// ranked: the first section, then the next ones.
		r := &reading{name: "ranked"}
		var asked AskDocsOutput
		mcptest.Decode(t, r.call(t, c, "mod_ask_docs", map[string]any{"question": q.Question}), &asked)
		rankedOK, firstName := "-", "none"
		for i, sec := range asked.Sections {
			if i == 0 {
				firstName = sec.Path + "#" + sec.Anchor
				if sec.Path == q.Path {
					m.ranked.doc++
				}
				readRanked(t, c, r, sec)
				m.ranked.text, m.ranked.calls = m.ranked.text+r.text, m.ranked.calls+r.calls
			}
			if inside(sec.Path, sec.StartLine) {
				if i == 0 {
					m.ranked.first++
				}
				m.ranked.within++
				rankedOK = fmt.Sprint(i + 1)
				break
			}
		}
		fmt.Fprintf(&report, "%-60s %-58s %-7s %-7s %s\n", clip(q.Question, 60), clip(q.Path+"#"+q.Section, 58), searchOK, rankedOK, firstName)
	}
	n := m.n
	fmt.Fprintf(&report, "\n%-8s %18s %18s %18s %14s %8s\n", "way", "first read answers", "first is the doc", "answer returned", "text/question", "calls")
	for _, w := range []struct {
		name string
		way
	}{{"search", m.search}, {"ranked", m.ranked}} {
		within := "-"
		if w.name == "ranked" {
			within = fmt.Sprintf("%d (%d%%)", w.within, m.percent(w.within))
		}
		fmt.Fprintf(&report, "%-8s %18s %18s %18s %14d %8.1f\n", w.name,
			fmt.Sprintf("%d (%d%%)", w.first, m.percent(w.first)), fmt.Sprintf("%d (%d%%)", w.doc, m.percent(w.doc)),
			within, w.text/max(n, 1), float64(w.calls)/float64(max(n, 1)))
	}
	t.Logf("%s: one call and one read, %d questions:\n%s", filepath.Base(set), n, report.String())
	return m
}

// readRanked reads a ranked section as the answer advises: by its anchor,
// its own text only, or by its lines when it has no heading.
func readRanked(t *testing.T, c *client.Client, r *reading, sec RankedSection) {
	t.Helper()
	args := map[string]any{"path": sec.Path}
	if sec.Anchor != "" {
		args["section"], args["list_subsections"] = sec.Anchor, true
	} else {
		args["start_line"], args["end_line"] = sec.StartLine, sec.EndLine
	}
	var out ReadDocOutput
	mcptest.Decode(t, r.call(t, c, "mod_read_doc", args), &out)
}

// awaitRanking returns once c's server answers both ways: on the real tree
// the index and the ranking take longer to build than one call waits on a
// loaded machine, and the measure is of answers, not of the wait.
func awaitRanking(t *testing.T, c *client.Client) {
	t.Helper()
	for tool, args := range map[string]map[string]any{"mod_search_docs": {"query": "the"}, "mod_ask_docs": {"question": "docs"}} {
		if res := mcptest.CallBuilt(t, c, tool, args); res.IsError {
			t.Fatalf("%s before measuring: %s", tool, mcptest.Text(res))
		}
	}
}
