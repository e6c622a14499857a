package mcpserver

import (
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
	if len(out.Matches) != 1 || out.Matches[0].Path != "guide/intro.md" {
		t.Errorf("doc matches = %+v, want the intro's mention", out.Matches)
	}
}
