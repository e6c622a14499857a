// Package tssdk runs the official MCP TypeScript SDK client against docs-mcp
// in tests: the script mcp-server/testdata/tsclient/smoke.mjs, with the SDK
// version pinned by its package-lock.json.
//
// Without node and npm the calling test is skipped, except in CI (CI=true),
// where that is a failure: .ci/run installs both and runs npm ci first.
package tssdk

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// Run installs the SDK if needed, runs "node smoke.mjs args..." and returns
// its standard output: one JSON summary of what the client saw. The
// arguments are "stdio COMMAND [ARGS...]" or "http URL [TOKEN]".
func Run(t testing.TB, args ...string) []byte {
	t.Helper()
	return RunScript(t, "smoke.mjs", args...)
}

// RunScript is Run for another script of testdata/tsclient.
func RunScript(t testing.TB, script string, args ...string) []byte {
	t.Helper()
	dir := scriptDir(t)
	mcptest.NodePackages(t, dir, "@modelcontextprotocol/sdk", "the TypeScript SDK client test")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(dir, script)}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s %v: %v\n%s", script, args, err, stderr.Bytes())
	}
	return out
}

// scriptDir is mcp-server/testdata/tsclient, for tests in any package.
func scriptDir(t testing.TB) string {
	return filepath.Join(mcptest.RepoDir(t), "mcp-server", "testdata", "tsclient")
}

// Summary is what smoke.mjs prints.
type Summary struct {
	Server   struct{ Name string }
	Protocol string
	Tools    []string
	Search   struct {
		IsError bool
		Matches int
	}
	// Read is of the first search match's line.
	Read struct {
		IsError       bool
		Path          string
		Line          int
		ContainsQuery bool
	}
	// BadPath is mod_read_doc of "../etc/passwd".
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
	// Completion: completion/complete of doc paths from the top, of
	// hook://{name} from "", and of the prompt's hook argument from "p".
	Completion struct {
		Capability                bool
		Paths, Hooks, PromptHooks []string
	}
	// Over HTTP only: the session had an id, and DELETE ended it.
	Session, Terminated bool
}

// RunSummary is Run with the output decoded.
func RunSummary(t testing.TB, args ...string) Summary {
	t.Helper()
	out := Run(t, args...)
	var s Summary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("smoke.mjs summary %q: %v", out, err)
	}
	return s
}
