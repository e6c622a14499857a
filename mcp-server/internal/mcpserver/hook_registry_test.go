package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestHookRegistryIsRaw(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for _, content := range []string{
		mcptest.ReadFile(t, filepath.Join(fixtureRoot, "framework/mod_hooks.json")),
		"{ \"hooks\": [ not json at all\r\n", // invalid JSON is still returned as is
	} {
		writeFile(t, dir, "framework/mod_hooks.json", content)
		c := newClient(t, dir)
		out, text := mcptest.CallOK[HookRegistryOutput](t, c, "mod_hook_registry", nil)
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
	c := newClient(t, dir, func(c *Config) { c.MaxResultBytes = 1024 })
	out, text := mcptest.CallOK[HookRegistryOutput](t, c, "mod_hook_registry", nil)
	if !out.Truncated || len(out.Content) > 1024 || !strings.HasPrefix(content, out.Content) || out.Bytes != len(content) {
		t.Errorf("truncated=%v content=%d bytes bytes=%d; want a cut prefix within the cap and the full size", out.Truncated, len(out.Content), out.Bytes)
	}
	if !strings.Contains(text, "read the resource repo://framework/mod_hooks.json") {
		t.Errorf("text does not say where the whole file is: %q", text[len(text)-200:])
	}
}
