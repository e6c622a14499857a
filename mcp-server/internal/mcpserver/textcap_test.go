package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestTextWithinCap checks that the whole text of a result, closing lines
// included (where it was cut, how to continue), stays within
// --max-result-bytes, for every tool that can reach the cap.
func TestTextWithinCap(t *testing.T) {
	root := copyTree(t, fixtureRoot)
	long := strings.Repeat("a line of the doc that mentions a hook, long enough to add up quickly\n", 3000)
	writeFile(t, root, "docs/big.md", "# Big\n\n"+long)
	for i := range 300 {
		writeFile(t, root, fmt.Sprintf("docs/many/%03d-%s.md", i, strings.Repeat("p", 100)), "# Many\n\nhook\n")
	}
	writeFile(t, root, "CONTRIBUTING.md", "# Contributing\n\n"+long)
	writeFile(t, root, "framework/mod_hooks.json", `{"hooks": [], "pad": "`+strings.Repeat("x\\n", 1)+`"}`+"\n"+long)
	for _, limit := range []int{1 << 10, 4 << 10, DefaultMaxResultBytes} {
		c := newClient(t, root, func(c *Config) { c.MaxResultBytes = limit })
		for _, tc := range []struct {
			tool string
			args map[string]any
		}{
			{"mod_read_doc", map[string]any{"path": "big.md"}},
			{"mod_read_contributing", map[string]any{}},
			{"mod_hook_registry", map[string]any{}},
			{"mod_search_docs", map[string]any{"query": "hook", "limit": 200}},
			{"mod_ask_docs", map[string]any{"question": "hook", "limit": 20}},
			{"mod_list_doc_paths", map[string]any{"limit": 5000}},
			{"mod_list_versions", map[string]any{}},
			{"mod_docs_changes", map[string]any{"from": "working tree"}},
		} {
			got := mcptest.Text(mcptest.Call(t, c, tc.tool, tc.args))
			if len(got) > limit {
				t.Errorf("%s at --max-result-bytes %d: %d bytes of text, ending %q", tc.tool, limit, len(got), got[len(got)-200:])
			}
		}
	}
}
