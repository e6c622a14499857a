package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestToolSchemas snapshots what clients see of each tool: name,
// description, annotations and both schemas, one golden file per tool
// (testdata/tools/NAME.json), so that a change shows in review as a diff
// of that tool's file (refresh them with -update).
func TestToolSchemas(t *testing.T) {
	c := newClient(t, fixtureRoot, Options{})
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		got, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("tools", tool.Name+".json"), append(got, '\n'))
		a := tool.Annotations
		if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
			a.IdempotentHint == nil || !*a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v; want read-only, not destructive, idempotent, closed world", tool.Name, a)
		}
		if tool.OutputSchema.Type != "object" || len(tool.OutputSchema.Properties) == 0 {
			t.Errorf("%s has no output schema", tool.Name)
		}
	}
	want := []string{"mod_get_hook", "mod_hook_registry", "mod_list_doc_paths", "mod_read_contributing", "mod_read_doc", "mod_repo_layout", "mod_search_docs"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	// No snapshot of a tool the server no longer has.
	files, err := filepath.Glob(filepath.Join("testdata", "tools", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); !slices.Contains(names, name) {
			t.Errorf("%s snapshots %s, which the server does not register: delete it", f, name)
		}
	}
}

func TestInitializeTellsHowToUseTheTools(t *testing.T) {
	c := newClient(t, fixtureRoot, Options{Version: "v9.9.9"})
	caps := c.GetServerCapabilities()
	if caps.Tools == nil || caps.Resources == nil || caps.Prompts == nil {
		t.Errorf("capabilities %+v; want tools, resources and prompts", caps)
	}
}
