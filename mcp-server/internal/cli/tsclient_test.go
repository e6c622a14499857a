package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/tssdk"
)

// TestTypeScriptSDKClient runs the stdio command the way a third-party
// client does: the official TypeScript SDK starts docs-mcp and talks to it.
func TestTypeScriptSDKClient(t *testing.T) {
	bin, err := exec.LookPath("docs-mcp")
	if err != nil {
		t.Fatal(err)
	}
	got := tssdk.RunSummary(t, "stdio", bin, "--stdio", "--data-root", repo(t))
	if diff := cmp.Diff([]string{"mod_ask_docs", "mod_docs_changes", "mod_get_hook", "mod_hook_registry", "mod_list_doc_paths", "mod_list_versions", "mod_read_contributing", "mod_read_doc", "mod_repo_layout", "mod_search_docs"}, got.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	switch {
	case got.Server.Name != "docs-mcp":
		t.Errorf("server name %q", got.Server.Name)
	case got.Search.IsError || got.Search.Matches != 2:
		t.Errorf("search: %+v, want 2 matches", got.Search)
	case got.Read.IsError || got.Read.Path != "guide/intro.md" || got.Read.Line != 3 || !got.Read.ContainsQuery:
		t.Errorf("read of the first hit: %+v", got.Read)
	case !got.BadPath.IsError || !strings.Contains(got.BadPath.Text, `".." segment`):
		t.Errorf("bad path: %+v", got.BadPath)
	case got.Registry.IsError || got.Registry.Bytes != len(`{"hooks": []}`+"\n"):
		t.Errorf("registry: %+v", got.Registry)
	case got.Resources != 7 || got.ResourceRead.MimeType != "text/markdown":
		t.Errorf("resources: %d listed, read %+v; want 2 docs, the map (docs://map), 3 repo files and the docs reader app", got.Resources, got.ResourceRead)
	case !got.Completion.Capability || !cmp.Equal(got.Completion.Paths, []string{"guide/", "index.md"}) || len(got.Completion.Hooks) != 0:
		t.Errorf("completion: %+v, want the capability, the top level's folder and doc, no hooks (the registry is empty)", got.Completion)
	case got.PromptBytes < 500 || got.PromptBytes > 8<<10:
		t.Errorf("prompt is %d bytes", got.PromptBytes)
	}
}
