// Package mcptest holds what the tools module's tests share: building the
// docs-mcp server to run it as a process, a buffer that process may write
// while the test reads it, and what a test does with a real MCP client
// once a session is open: call a tool, decode its result.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Call calls the tool name with args and fails the test on a protocol error
// or a tool error.
func Call(ctx context.Context, t testing.TB, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %v", name, res.Content)
	}
	return res
}

// Decode decodes the result's structured content into v.
func Decode(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		t.Fatalf("structured content: %v", err)
	}
}

// Text is the text content of a result, its text items joined.
func Text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// BuildDocsMCP builds the docs-mcp server of the repository at root into
// dir, as the docs tell readers to, and returns the binary's path.
func BuildDocsMCP(root, dir string) (string, error) {
	bin := filepath.Join(dir, "docs-mcp")
	cmd := exec.Command("go", "build", "-o", bin, "./mcp-server")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./mcp-server: %w\n%s", err, out)
	}
	return bin, nil
}

// Buffer is a bytes.Buffer that one goroutine (a process's stderr, a
// progress log) may write while another reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
