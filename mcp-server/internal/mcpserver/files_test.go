package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHookRegistryIsRaw(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for _, content := range []string{
		mustRead(t, filepath.Join(fixtureRoot, "framework/mod_hooks.json")),
		"{ \"hooks\": [ not json at all\r\n", // invalid JSON is still returned as is
	} {
		writeFile(t, dir, "framework/mod_hooks.json", content)
		c := newClient(t, dir, Options{})
		out, text := callOK[HookRegistryOutput](t, c, "mod_hook_registry", nil)
		want := HookRegistryOutput{Path: "framework/mod_hooks.json", Bytes: len(content), Content: content}
		if diff := cmp.Diff(want, out); diff != "" {
			t.Errorf("result (-want +got):\n%s", diff)
		}
		if text != content {
			t.Errorf("text copy = %q, want the file's bytes", text)
		}
	}
}

func TestHookRegistryOverCap(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	content := "{\n" + strings.Repeat("  \"padding\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\",\n", 100) + "}\n"
	writeFile(t, dir, "framework/mod_hooks.json", content)
	c := newClient(t, dir, Options{MaxResultBytes: 1024})
	out, text := callOK[HookRegistryOutput](t, c, "mod_hook_registry", nil)
	if !out.Truncated || len(out.Content) > 1024 || !strings.HasPrefix(content, out.Content) || out.Bytes != len(content) {
		t.Errorf("truncated=%v content=%d bytes bytes=%d; want a cut prefix within the cap and the full size", out.Truncated, len(out.Content), out.Bytes)
	}
	if !strings.Contains(text, "read the resource repo://framework/mod_hooks.json") {
		t.Errorf("text does not say where the whole file is: %q", text[len(text)-200:])
	}
}

func TestMissingFilesAreToolErrors(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for _, f := range []string{"framework/mod_hooks.json", "CONTRIBUTING.md"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, dir, Options{})
	if got := callErr(t, c, "mod_hook_registry", nil); !strings.Contains(got, "expected at framework/mod_hooks.json") {
		t.Errorf("registry error %q does not name the expected path", got)
	}
	if got := callErr(t, c, "mod_read_contributing", nil); !strings.Contains(got, "expected at CONTRIBUTING.md") {
		t.Errorf("contributing error %q does not name the expected path", got)
	}
	// The docs still work.
	callOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "hook"})
}

func TestReadContributing(t *testing.T) {
	c := newClient(t, fixtureRoot, Options{})
	want := mustRead(t, filepath.Join(fixtureRoot, "CONTRIBUTING.md"))
	out, _ := callOK[ReadContributingOutput](t, c, "mod_read_contributing", nil)
	if out.Path != "CONTRIBUTING.md" || out.Content+"\n" != want || out.Truncated {
		t.Errorf("got path %q, truncated %v, content %q; want the whole guide", out.Path, out.Truncated, out.Content)
	}
	part, _ := callOK[ReadContributingOutput](t, c, "mod_read_contributing", map[string]any{"start_line": 7, "end_line": 7})
	if part.Content != "## Conventions" {
		t.Errorf("line 7 = %q, want the Conventions heading", part.Content)
	}
}

func TestRepoLayout(t *testing.T) {
	c := newClient(t, fixtureRoot, Options{})
	out, text := callOK[RepoLayoutOutput](t, c, "mod_repo_layout", nil)
	for _, want := range []string{"go.work", "docs/", "framework/", "mod_hooks.json", "mcp-server/", "tools/", "CONTRIBUTING.md"} {
		if !strings.Contains(out.Layout, want) {
			t.Errorf("layout does not mention %s", want)
		}
	}
	if text != out.Layout {
		t.Error("text copy differs from the structured layout")
	}
	if len(out.Layout) > 4096 {
		t.Errorf("layout is %d bytes; it should stay short", len(out.Layout))
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
