package mcpserver

import (
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestGetHook(t *testing.T) {
	c := newClient(t, fixtureRoot)
	out, text := mcptest.CallOK[GetHookOutput](t, c, "mod_get_hook", map[string]any{"name": "chat.message_sending"})
	h := out.Hook
	if h.Name != "chat.message_sending" || h.Kind != "filter" || h.Returns == nil || len(h.Params) == 0 || h.Example == "" {
		t.Errorf("hook = %+v; want the full filter entry", h)
	}
	for _, want := range []string{"chat.message_sending (filter", "Parameters:", "Returns ", "Example:"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	dep, text := mcptest.CallOK[GetHookOutput](t, c, "mod_get_hook", map[string]any{"name": "player.quit"})
	if dep.Hook.Deprecated == nil || !strings.Contains(text, "Deprecated since") || !strings.Contains(text, "use player.left") {
		t.Errorf("deprecated hook: %+v\n%s", dep.Hook.Deprecated, text)
	}

	tests := []struct{ name, want string }{
		{"player.joind", `no hook is named "player.joind"; did you mean player.joined`},
		{"PlayerJoined", "did you mean player.joined"},
		{"completely.unrelated_thing", "mod_hook_registry lists every hook"},
		{"", "name is empty"},
	}
	for _, tt := range tests {
		if got := mcptest.CallErr(t, c, "mod_get_hook", map[string]any{"name": tt.name}); !strings.Contains(got, tt.want) {
			t.Errorf("mod_get_hook(%q) error %q does not say %q", tt.name, got, tt.want)
		}
	}
}

func TestGetHookInvalidRegistry(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	broken := `{"registry_version": "1.0.0", "framework": "modkit", "hooks": [{"name": "Player.Joined", "kind": "event"}]}` + "\n"
	writeFile(t, dir, "framework/mod_hooks.json", broken)
	c := newClient(t, dir)
	got := mcptest.CallErr(t, c, "mod_get_hook", map[string]any{"name": "player.joined"})
	for _, want := range []string{"the hook registry framework/mod_hooks.json is invalid", "framework/mod_hooks.json:1:", "mod_hook_registry still returns it"} {
		if !strings.Contains(got, want) {
			t.Errorf("error %q does not say %q", got, want)
		}
	}
	raw, _ := mcptest.CallOK[HookRegistryOutput](t, c, "mod_hook_registry", nil)
	if raw.Content != broken {
		t.Errorf("raw registry = %q, want the broken file as is", raw.Content)
	}
	// A doc search still works, without hook matches.
	out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "player"})
	if len(out.Hooks) != 0 {
		t.Errorf("hooks from an invalid registry: %v", out.Hooks)
	}
}

func TestGetHookFollowsEdits(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	c := newClient(t, dir)
	mcptest.CallOK[GetHookOutput](t, c, "mod_get_hook", map[string]any{"name": "player.joined"})

	reg := mcptest.ReadFile(t, dir+"/framework/mod_hooks.json")
	writeFile(t, dir, "framework/mod_hooks.json", strings.ReplaceAll(reg, `"player.joined"`, `"player.arrived"`))
	if got := mcptest.CallErr(t, c, "mod_get_hook", map[string]any{"name": "player.joined"}); !strings.Contains(got, `no hook is named "player.joined"`) {
		t.Errorf("after renaming the hook on disk: %q", got)
	}
	mcptest.CallOK[GetHookOutput](t, c, "mod_get_hook", map[string]any{"name": "player.arrived"})
}
