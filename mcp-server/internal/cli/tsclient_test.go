package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tsClientDir holds a smoke script for the official MCP TypeScript SDK
// client, pinned by its package-lock.json.
const tsClientDir = "../../testdata/tsclient"

// tsClient returns the path of the smoke script after installing its
// dependencies if needed. Without node and npm the test is skipped, except
// in CI (CI=true), where that is a failure.
func tsClient(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; CI must install it (.ci/run)", tool)
			}
			t.Skipf("%s is not installed: skipping the TypeScript SDK client test", tool)
		}
	}
	dir, err := filepath.Abs(tsClientDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	return filepath.Join(dir, "smoke.mjs")
}

// TestTypeScriptSDKClient runs the stdio command the way a third-party
// client does: the official TypeScript SDK starts docs-mcp and talks to it.
func TestTypeScriptSDKClient(t *testing.T) {
	script := tsClient(t)
	bin, err := exec.LookPath("docs-mcp")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", script, "stdio", bin, "--stdio", "--data-root", repo(t)).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("smoke.mjs: %v\n%s", err, stderr)
	}
	var got struct {
		Server struct{ Name string }
		Tools  []string
		Search struct {
			IsError bool
			Matches int
		}
		Read struct {
			IsError       bool
			Path          string
			Line          int
			ContainsQuery bool
		}
		BadPath struct {
			IsError bool
			Text    string
		}
		Registry struct {
			IsError bool
			Bytes   int
		}
		Resources    int
		ResourceRead struct{ URI, MimeType string }
		PromptBytes  int
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	if diff := cmp.Diff([]string{"mod_get_hook", "mod_hook_registry", "mod_list_doc_paths", "mod_read_contributing", "mod_read_doc", "mod_repo_layout", "mod_search_docs"}, got.Tools); diff != "" {
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
	case got.Resources != 5 || got.ResourceRead.MimeType != "text/markdown":
		t.Errorf("resources: %d listed, read %+v; want 2 docs + 3 repo files", got.Resources, got.ResourceRead)
	case got.PromptBytes < 500 || got.PromptBytes > 8<<10:
		t.Errorf("prompt is %d bytes", got.PromptBytes)
	}
}
