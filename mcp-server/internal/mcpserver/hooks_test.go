package mcpserver

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestSearchDocsFindsHooks(t *testing.T) {
	c := newClient(t, fixtureRoot)
	out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "PLAYER.JOINED"})
	var names []string
	for _, h := range out.Hooks {
		names = append(names, h.Name+"/"+h.Field)
	}
	if diff := cmp.Diff([]string{"player.joined/name"}, names); diff != "" {
		t.Errorf("hook matches (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "hook player.joined (event)") {
		t.Errorf("text does not list the hook:\n%s", text)
	}
	if len(matchesOf(out)) != 1 || matchesOf(out)[0].Path != "guide/intro.md" {
		t.Errorf("doc matches = %+v, want the intro's mention", matchesOf(out))
	}
}

// TestSearchDocsHooksBounded: a common word is in most hooks' text; a
// search lists those matched by name first, at most maxHookMatches, and
// says how many more match.
func TestSearchDocsHooksBounded(t *testing.T) {
	c := newClient(t, filepath.Join("..", "..", ".."))
	out, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": "player", "limit": 1})
	if len(out.Hooks) != maxHookMatches || out.HooksMore == 0 {
		t.Fatalf("%d hooks listed and %d more, want %d listed and more: %+v", len(out.Hooks), out.HooksMore, maxHookMatches, out.Hooks)
	}
	rank := map[string]int{"name": 0, "summary": 1, "description": 2}
	for i := 1; i < len(out.Hooks); i++ {
		if rank[out.Hooks[i-1].Field] > rank[out.Hooks[i].Field] {
			t.Errorf("hook %s (by %s) listed before %s (by %s)", out.Hooks[i-1].Name, out.Hooks[i-1].Field, out.Hooks[i].Name, out.Hooks[i].Field)
		}
	}
	if out.Hooks[0].Field != "name" {
		t.Errorf("the first hook matched by %s, want a hook named for the query first", out.Hooks[0].Field)
	}
	if want := fmt.Sprintf("%d more hooks match: mod_hook_registry", out.HooksMore); !strings.Contains(text, want) {
		t.Errorf("the text does not say %q:\n%s", want, text)
	}
}
