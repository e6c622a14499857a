// Package mcptest holds what the tools module's end-to-end tests do with a
// real MCP client once a session is open: call a tool, decode its result.
package mcptest

import (
	"context"
	"encoding/json"
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
