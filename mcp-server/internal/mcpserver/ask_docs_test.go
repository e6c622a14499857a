package mcpserver

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestAskDocsErrors: what a client can get wrong is a tool error that says
// what to do.
func TestAskDocsErrors(t *testing.T) {
	c := newClient(t, fixtureRoot)
	for _, tc := range []struct {
		in   AskDocsInput
		want string
	}{
		{AskDocsInput{}, "question is empty"},
		{AskDocsInput{Question: "  \t "}, "question is empty"},
		{AskDocsInput{Question: strings.Repeat("x", maxQueryBytes+1)}, "the most is 1024"},
		{AskDocsInput{Question: "how does it do that?"}, "carries weight"},
		{AskDocsInput{Question: "hooks", Limit: -1}, "limit -1 is out of range; give 1 to 20"},
		{AskDocsInput{Question: "hooks", Limit: 21}, "limit 21 is out of range"},
		{AskDocsInput{Question: "hooks", PathPrefix: "../x"}, "path_prefix"},
		{AskDocsInput{Question: "hooks", Version: "v9"}, `no version "v9"`},
	} {
		if msg := mcptest.CallErr(t, c, "mod_ask_docs", tc.in); !strings.Contains(msg, tc.want) {
			t.Errorf("%+v: %q, want it to say %q", tc.in, msg, tc.want)
		}
	}
	if msg := mcptest.CallErr(t, c, "mod_ask_docs", map[string]any{"question": "x", "limit": "3"}); !strings.Contains(msg, "limit must be an integer") {
		t.Errorf("a string limit: %q", msg)
	}
}

// TestAskDocs asks this repository's docs: the section, its fields, the
// hooks an identifier names, a prefix, and a question nothing answers.
func TestAskDocs(t *testing.T) {
	c := newClient(t, repoRoot(t))
	out, text := mcptest.CallOK[AskDocsOutput](t, c, "mod_ask_docs", AskDocsInput{Question: "How do I cancel an event in my handler?"})
	if diff := cmp.Diff([]string{"cancel", "event", "handler"}, out.Words); diff != "" {
		t.Errorf("words (-want +got):\n%s", diff)
	}
	if len(out.Sections) != defaultAskLimit {
		t.Fatalf("%d sections, want %d:\n%s", len(out.Sections), defaultAskLimit, text)
	}
	for _, sec := range out.Sections {
		// Each section as the answer describes it is what a read of it
		// by its anchor and list_subsections returns.
		got, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: sec.Path, Section: sec.Anchor, ListSubsections: true})
		if got.StartLine != sec.StartLine || got.EndLine != sec.EndLine {
			t.Errorf("%s#%s: ranked as lines %d-%d, read as %d-%d", sec.Path, sec.Anchor, sec.StartLine, sec.EndLine, got.StartLine, got.EndLine)
		}
		if sec.Bytes == 0 || sec.Title == "" || len(sec.Matched) == 0 || sec.Snippet == "" || sec.SnippetLine < sec.StartLine || sec.SnippetLine > sec.EndLine {
			t.Errorf("%s#%s: %+v", sec.Path, sec.Anchor, sec)
		}
		if !strings.Contains(text, sec.Path+"#"+sec.Anchor+" — ") {
			t.Errorf("the text does not name %s#%s:\n%s", sec.Path, sec.Anchor, text)
		}
	}

	// An identifier that names a hook lists it.
	out, _ = mcptest.CallOK[AskDocsOutput](t, c, "mod_ask_docs", AskDocsInput{Question: "what does player.joined carry?"})
	if len(out.Hooks) == 0 || out.Hooks[0].Name != "player.joined" {
		t.Errorf("hooks %+v, want player.joined first", out.Hooks)
	}

	// A prefix keeps to its folder; a limit is kept.
	out, _ = mcptest.CallOK[AskDocsOutput](t, c, "mod_ask_docs", AskDocsInput{Question: "bearer token", PathPrefix: "clients/", Limit: 5})
	if len(out.Sections) == 0 || len(out.Sections) > 5 {
		t.Fatalf("%d sections for clients/", len(out.Sections))
	}
	for _, sec := range out.Sections {
		if !strings.HasPrefix(sec.Path, "clients/") {
			t.Errorf("%s outside clients/", sec.Path)
		}
	}

	// Words no doc holds: no section, said so, sections [] not null.
	out, text = mcptest.CallOK[AskDocsOutput](t, c, "mod_ask_docs", AskDocsInput{Question: "quixotrandemflux zyzzogeton"})
	if out.Sections == nil || len(out.Sections) != 0 || !strings.HasPrefix(text, "No section holds any of the words") {
		t.Errorf("%+v\n%s", out, text)
	}
}

// TestAskDocsVersions asks releases: each answers from its own docs, and
// says which version and which commit.
func TestAskDocsVersions(t *testing.T) {
	r := threeReleases(t)
	c := versionedClient(t, r, "v*")
	for version, want := range map[string]string{
		"v1.0.0": "old.md", // only v1.0.0 has old.md
		"v1.1.0": "new.md",
	} {
		out, text := mcptest.CallOK[AskDocsOutput](t, c, "mod_ask_docs", AskDocsInput{Question: "a page about go", Version: version})
		if out.Version != version || len(out.Sections) == 0 || out.Sections[0].Path != want {
			t.Errorf("version %s: %+v, want %s first\n%s", version, out, want, text)
			continue
		}
		if sec := out.Sections[0]; sec.Commit != r.Git("rev-parse", "--short=7", version+"^{commit}") {
			t.Errorf("version %s: commit %q", version, sec.Commit)
		}
		if !strings.Contains(text, "[From release "+version+".]") {
			t.Errorf("version %s: the text does not say it:\n%s", version, text)
		}
	}
	// The working tree's guide was edited since the last release.
	out, _ := mcptest.CallOK[AskDocsOutput](t, c, "mod_ask_docs", AskDocsInput{Question: "edited in the working tree"})
	if out.Version != WorkingTree || len(out.Sections) == 0 || out.Sections[0].Path != "guide.md" || !out.Sections[0].Uncommitted {
		t.Errorf("working tree: %+v", out)
	}
}
