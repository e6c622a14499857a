package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// tsClient is one official TypeScript SDK client of the matrix: a pinned
// npm package under mcp-server/testdata whose matrix.mjs does each cell's
// steps and reports.
type tsClient struct {
	name      string   // in the cell's name
	dir       string   // under mcp-server/testdata
	pkg       string   // the package npm ci installs there
	revisions []string // the revisions it speaks
}

var tsClients = []tsClient{
	// 1.32.2, the newest 1.x: it knows no 2026-07-28.
	{"ts-sdk", "tsclient", "@modelcontextprotocol/sdk", revisions[:4]},
	// v2 (@modelcontextprotocol/client 2.4.0): 2026-07-28 when pinned, the
	// older revisions in its legacy mode.
	{"ts-sdk-v2", "tsclient2", "@modelcontextprotocol/client", revisions},
}

// TestTypeScriptSDK is the TypeScript SDK's rows of the interoperability
// matrix, v1 and v2: each client's matrix.mjs does each cell's steps and
// reports; this test checks the report.
func TestTypeScriptSDK(t *testing.T) {
	node := testenv.LookPath(t, "node", "the TypeScript SDK client runs on Node.js")
	calls, err := json.Marshal(toolCalls)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tsClients {
		dir := filepath.Join(repoRoot, "mcp-server", "testdata", c.dir)
		if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(c.pkg))); err != nil {
			testenv.Missing(t, "the TypeScript SDK client %s is not installed: run npm ci --prefix mcp-server/testdata/%s", c.pkg, c.dir)
		}
		for _, transport := range []string{"stdio", "http"} {
			for _, rev := range c.revisions {
				t.Run(cellName(c.name, transport, rev), func(t *testing.T) {
					t.Parallel()
					tsCell(t, node, c.name, filepath.Join(dir, "matrix.mjs"), string(calls), transport, rev)
				})
			}
		}
	}
}

// tsReport is what matrix.mjs prints.
type tsReport struct {
	Step, Error string // the step that failed, and why
	Tools       []struct {
		Name         string
		OutputSchema any
	}
	Results []struct {
		Tool              string
		StructuredContent any
	}
	Resources int
	Templates []string
	Prompts   []string
	Exit      *struct {
		Code   *int
		Signal *string
	}
}

func tsCell(t *testing.T, node, client, script, calls, transport, rev string) {
	fail := func(step string, format string, args ...any) {
		t.Helper()
		t.Fatalf("%s, %s, %s, step %q: "+format, append([]any{client, transport, rev, step}, args...)...)
	}
	root := dataRoot(t)
	args := []string{script, rev, root, transport}
	var base string
	switch transport {
	case "stdio":
		args = append(append(args, bin), append(serverArgs(root), "--stdio")...)
	case "http":
		base = httpServer(t, root)
		args = append(args, base+"/mcp")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	uris, err := json.Marshal(readable)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "TOOL_CALLS="+calls, "READ_URIS="+string(uris))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var r tsReport
	if err := json.Unmarshal(out, &r); err != nil {
		fail("run", "%v; report %q; stderr %s", runErr, out, stderr.Bytes())
	}
	if r.Step != "" || runErr != nil {
		fail(r.Step, "%s (%v)", r.Error, runErr)
	}

	if len(r.Tools) != len(toolCalls) {
		fail("list everything", "%d tools, want %d", len(r.Tools), len(toolCalls))
	}
	if want := pagedDocs + 5 + skillCount(t); r.Resources != want { // the docs, the map, the registry, the guide, the layout, the docs reader app, each skill's SKILL.md
		fail("list everything", "%d resources over all pages, want %d", r.Resources, want)
	}
	if !slices.Equal(r.Templates, templates) || len(r.Prompts) != 1 {
		fail("list everything", "templates %q (want %q), prompts %v", r.Templates, templates, r.Prompts)
	}
	schemas := map[string]any{}
	for _, tool := range r.Tools {
		schemas[tool.Name] = tool.OutputSchema
	}
	for _, res := range r.Results {
		if err := validate(schemas[res.Tool], res.StructuredContent); err != nil {
			fail("tools/call "+res.Tool, "structured content against the output schema: %v", err)
		}
	}
	switch transport {
	case "stdio":
		if r.Exit == nil || r.Exit.Code == nil || *r.Exit.Code != 0 || r.Exit.Signal != nil {
			fail("process ends", "after close: %+v, want exit code 0 without a signal", r.Exit)
		}
	case "http":
		if h, err := health(base); err != nil || h.Sessions != 0 {
			fail("session ends", "after close: %d sessions (%v)", h.Sessions, err)
		}
	}
}
