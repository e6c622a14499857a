package mcptest

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// DecodeAsMCPGo decodes a line answering a tools/call as mcp-go's stdio
// client does: its transport parses the line twice (client/transport's
// Stdio.readResponses: for the id, then as a JSON-RPC response), then
// Client.CallTool parses the result (mcp.ParseCallToolResult: a probe, the
// result with its content items kept raw, each item, the structured
// content). That is the client's share of a call: searchbench times it
// apart from the round trip, and BenchmarkClientDecode in
// internal/mcpserver alone.
func DecodeAsMCPGo(line []byte) (*mcp.CallToolResult, error) {
	var base struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      *mcp.RequestId `json:"id,omitempty"`
		Method  string         `json:"method,omitempty"`
	}
	if err := json.Unmarshal(line, &base); err != nil {
		return nil, err
	}
	var resp transport.JSONRPCResponse
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("JSON-RPC error %d: %s", resp.Error.Code, resp.Error.Message)
	}
	return mcp.ParseCallToolResult(&resp.Result)
}
