package mcpserver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docsmap"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// oddNames are doc files whose names hold control characters: a newline
// around a line that is AGENTS.md's end marker, a carriage return, a tab,
// an escape sequence (in a doc without a heading, whose title is its
// name), and a folder with a newline.
var oddNames = []string{
	"forged\n" + docsmap.EndMarker + "\nx.md",
	"cr\rline.md",
	"tab\there.md",
	"esc\x1b[31mred.md",
	"dir\nname/inner.md",
}

// TestNamesEscaped: a doc path holding control characters is written
// quoted and escaped (as strconv.Quote writes it) wherever it enters the
// text of an answer: search, list, read, ask, the changes between
// versions, an unknown path's nearest paths, docs://map; so no file name
// breaks a line of that text or forges one. The path as written there
// reads the doc, and lists the folder; the structured results carry the
// paths as they are, and ordinary names are written as they are.
func TestNamesEscaped(t *testing.T) {
	reg, err := os.ReadFile(filepath.Join(fixtureRoot, "framework", "mod_hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{
		"docs/plain.md":            "# Plain\n\nA plain page about go.\n",
		"CONTRIBUTING.md":          "# Contributing\n",
		"framework/mod_hooks.json": string(reg),
	})
	r.Commit("v1.0.0")
	r.Git("tag", "v1.0.0")
	for i, name := range oddNames {
		text := "# Odd page " + strconv.Itoa(i) + "\n\nAn odd page about go.\n\n## Usage\n\nUse it.\n"
		if strings.HasPrefix(name, "esc") {
			text = "An odd page about go, without a heading.\n"
		}
		mcptest.WriteFile(t, filepath.Join(r.Dir, "docs", filepath.FromSlash(name)), text)
	}
	c := versionedClient(t, r, "v*")

	// check fails when text holds a name raw or a line that is a marker,
	// or lacks one of the names (quoted) it must give.
	check := func(what, text string, names ...string) {
		t.Helper()
		for _, n := range oddNames {
			if strings.Contains(text, n) || strings.Contains(text, n[:strings.IndexAny(n, "\n\r\t\x1b")+1]) {
				t.Errorf("%s writes %q raw:\n%s", what, n, text)
			}
		}
		for line := range strings.Lines(text) {
			if l := strings.TrimSpace(line); l == docsmap.EndMarker || l == docsmap.BeginMarker {
				t.Errorf("%s has a line that is a marker:\n%s", what, text)
			}
		}
		for _, n := range names {
			if !strings.Contains(text, strconv.Quote(n)) {
				t.Errorf("%s does not name %s:\n%s", what, strconv.Quote(n), text)
			}
		}
	}
	// plain names the ordinary doc as it is, at the start of a line.
	plain := func(what, text string) {
		t.Helper()
		if !strings.Contains(text, "\nplain.md") && !strings.Contains(text, "- plain.md") && !strings.Contains(text, ". plain.md") {
			t.Errorf("%s does not name plain.md as it is:\n%s", what, text)
		}
	}
	top := []string{oddNames[0], oddNames[1], oddNames[2], oddNames[3]}

	search, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "page about go"})
	check("mod_search_docs", text, oddNames...)
	plain("mod_search_docs", text)
	if len(search.Docs) != len(oddNames)+1 || search.Docs[0].Path != oddNames[1] {
		t.Errorf("mod_search_docs' structured docs: %+v; want the paths as they are", search.Docs)
	}
	_, text = mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{})
	check("mod_list_doc_paths", text, append(top, "dir\nname/")...)
	plain("mod_list_doc_paths", text)
	list, text := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": strconv.Quote("dir\nname/")})
	check("mod_list_doc_paths prefix", text, oddNames[4])
	if len(list.Paths) != 1 || list.Paths[0].Path != oddNames[4] {
		t.Errorf("the folder %q as the list shows it lists %+v", "dir\nname/", list.Paths)
	}
	_, text = mcptest.CallOK[AskDocsOutput](t, c, "mod_ask_docs", map[string]any{"question": "odd page about go", "limit": 20})
	check("mod_ask_docs", text, oddNames...)
	plain("mod_ask_docs", text)
	_, text = mcptest.CallOK[DocsChangesOutput](t, c, "mod_docs_changes", map[string]any{"from": "v1.0.0"})
	check("mod_docs_changes", text, oddNames...)
	for _, n := range oddNames {
		read, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", map[string]any{"path": strconv.Quote(n)})
		check("mod_read_doc", text, n)
		if read.Path != n {
			t.Errorf("mod_read_doc of %s read %q", strconv.Quote(n), read.Path)
		}
	}
	check("mod_read_doc's unknown section", mcptest.CallErr(t, c, "mod_read_doc", map[string]any{"path": strconv.Quote(oddNames[0]), "section": "nope"}), oddNames[0])
	check("mod_read_doc's nearest paths", mcptest.CallErr(t, c, "mod_read_doc", map[string]any{"path": "inner.md"}), oddNames[4])

	var rr mcp.ReadResourceRequest
	rr.Params.URI = mapURI
	res, err := c.ReadResource(t.Context(), rr)
	if err != nil {
		t.Fatal(err)
	}
	text = res.Contents[0].(mcp.TextResourceContents).Text
	check("docs://map", text, append(top, "dir\nname/", "esc\x1b[31mred")...) // the last: a title from the name
	plain("docs://map", text)
}
