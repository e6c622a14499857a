package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestStdioSkills: over stdio, a real client uses the Skills extension on
// each revision mcp-go speaks (mcptest.Skills): on 2026-07-28 it lists,
// gets, verifies and reads the data root's skills and reads a skill's
// folder, and gets and reads the skill of the release v1
// (skill-version://); on the earlier revisions it is told the methods are
// not offered there.
func TestStdioSkills(t *testing.T) {
	r := mcptest.Released(t, filepath.Join("..", "mcpserver", "testdata", "repo"), filepath.Join("..", "mcpserver", "testdata", "skills"))
	for _, rev := range mcp.ValidProtocolVersions {
		t.Run(rev, func(t *testing.T) {
			c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", r.Dir, "--versions", "v*")
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			mcptest.Initialize(t, c, rev, "stdio-test")
			entries := mcptest.Skills(t, c, rev, filepath.Join(r.Dir, "skills"))
			if rev < mcp.ProtocolVersion20260728 {
				return
			}
			if len(entries) != 1 {
				t.Fatalf("%d skills listed, want the fixture's one", len(entries))
			}
			// The release v1 has the same skill: skills/get gives it with
			// the release's URIs and the same digests.
			// A release still loading is said to be, at once; the
			// client asks again.
			var raw json.RawMessage
			var rpcErr *mcp.JSONRPCErrorDetails
			mcptest.Eventually(t, "v1 loaded", func() bool {
				raw, rpcErr = mcptest.Raw(t, c, rev, "skills/get", map[string]any{"uri": "skill-version://v1/greet-players/SKILL.md"})
				return rpcErr == nil || !strings.Contains(rpcErr.Message, "still loading")
			})
			var got struct{ Skill mcptest.Skill }
			if rpcErr != nil || json.Unmarshal(raw, &got) != nil {
				t.Fatalf("skills/get of v1's skill: %+v %s", rpcErr, raw)
			}
			want := entries[0]
			want.URI = strings.Replace(want.URI, "skill://", "skill-version://v1/", 1)
			want.Resources = slices.Clone(want.Resources)
			for i := range want.Resources {
				want.Resources[i].URI = strings.Replace(want.Resources[i].URI, "skill://", "skill-version://v1/", 1)
			}
			if d := cmp.Diff(want, got.Skill); d != "" {
				t.Errorf("skills/get of v1's skill (-want +got):\n%s", d)
			}
			read := mcp.ReadResourceRequest{}
			read.Params.URI = "skill-version://v1/greet-players/references/hooks.md"
			res, err := c.ReadResource(t.Context(), read)
			disk, _ := os.ReadFile(filepath.Join(r.Dir, "skills", "greet-players", "references", "hooks.md"))
			if err != nil || res.Contents[0].(mcp.TextResourceContents).Text != string(disk) {
				t.Errorf("read v1's skill file: %v", err)
			}
			if _, rpcErr := mcptest.Raw(t, c, rev, "skills/get", map[string]any{"uri": "skill-version://v9/greet-players/SKILL.md"}); rpcErr == nil || rpcErr.Code != mcp.INVALID_PARAMS || !strings.Contains(rpcErr.Message, "v9") {
				t.Errorf("skills/get in a release not served: %+v; want -32602 naming it", rpcErr)
			}
		})
	}
}
