package mcpserver

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
)

// TestSearchPageBytes: a page of 50 matches for the commonest word of this
// repository's docs is at most 12,000 bytes on the wire (the JSON-RPC
// answer a transport sends), with the provenance a git checkout adds, in
// the revision before the short serverInfo and in 2026-07-28, which
// carries no data-URI icon.
func TestSearchPageBytes(t *testing.T) {
	root := repoRoot(t)
	repo, err := gitdocs.Open(root)
	if err != nil && !errors.Is(err, gitdocs.ErrNotRepository) {
		t.Fatal(err)
	}
	srv := newGitServer(t, root, repo)
	answer := rawAnswer(t, srv)
	const search = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"the","limit":50}`
	answer(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	for rev, req := range map[string]string{"2025-11-25": search + `}}`, "2026-07-28": search + `,` + meta0728 + `}}`} {
		got := answer(req)
		var res struct {
			Result struct {
				StructuredContent SearchDocsOutput `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(got), &res); err != nil {
			t.Fatalf("%s: %v", rev, err)
		}
		out := res.Result.StructuredContent
		if n := out.count(); n != 50 {
			t.Fatalf("%s: %d matches for \"the\", want a full page of 50: %.300s", rev, n, got)
		}
		if d := out.Docs[0]; repo != nil && d.Commit == "" && !d.Uncommitted {
			t.Fatalf("%s: %s has no provenance: %.300s", rev, d.Path, got)
		}
		t.Logf("%s: a page of 50 matches for \"the\", %d bytes", rev, len(got))
		if len(got) > 12_000 || strings.Contains(got, "data:image") {
			t.Errorf("%s: a page of 50 matches is %d bytes (at most 12,000, no data-URI icon): %.600s", rev, len(got), got)
		}
	}
}
