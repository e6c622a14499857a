package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestListDocPaths(t *testing.T) {
	c := newClient(t, fixtureRoot)
	all, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", nil)
	want := []DocEntry{
		{Path: "guide/intro.md", Title: "Introduction", Bytes: 231, Lines: 11},
		{Path: "guide/unicode.md", Title: "Unicode", Bytes: 72, Lines: 5},
		{Path: "index.md", Title: "Fixture home", Bytes: 119, Lines: 6},
		{Path: "server/tools.md", Title: "Tools", Bytes: 86, Lines: 5},
	}
	if diff := cmp.Diff(want, all.Paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if all.NextCursor != "" {
		t.Errorf("next_cursor = %q on the only page", all.NextCursor)
	}

	guide, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": "guide/"})
	if diff := cmp.Diff(want[:2], guide.Paths); diff != "" {
		t.Errorf("prefix guide/ (-want +got):\n%s", diff)
	}
	for _, limit := range []int{5001, 0} {
		if got := mcptest.CallErr(t, c, "mod_list_doc_paths", map[string]any{"limit": limit}); !strings.Contains(got, "out of range") {
			t.Errorf("limit %d: error = %q", limit, got)
		}
	}
}

func TestListDocPathsPaging(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for i := range 30 {
		writeFile(t, dir, fmt.Sprintf("docs/many/page-%02d.md", i), fmt.Sprintf("# Page %d\n", i))
	}
	c := newClient(t, dir)
	all, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": "many/"})
	var paged []DocEntry
	args := map[string]any{"prefix": "many/", "limit": 7}
	for pages := 1; ; pages++ {
		out, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", args)
		paged = append(paged, out.Paths...)
		if out.NextCursor == "" {
			if pages != 5 {
				t.Errorf("30 docs in pages of 7 took %d pages, want 5", pages)
			}
			break
		}
		args["cursor"] = out.NextCursor
	}
	if len(all.Paths) != 30 {
		t.Fatalf("listed %d docs under many/, want 30", len(all.Paths))
	}
	if diff := cmp.Diff(all.Paths, paged); diff != "" {
		t.Errorf("pages differ from the single answer (-want +got):\n%s", diff)
	}
	if got := mcptest.CallErr(t, c, "mod_list_doc_paths", map[string]any{"prefix": "guide/", "cursor": args["cursor"]}); !strings.Contains(got, "other arguments") {
		t.Errorf("cursor with another prefix: %q", got)
	}
}
