package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// rawIDs numbers Raw's requests apart from the client's own.
var rawIDs atomic.Int64

// Raw sends one request of a method mcp-go's client has no call for (an
// extension's, such as skills/list) through c's own transport, stdio or
// HTTP, as c would send it on revision rev: on 2026-07-28 with the _meta
// every request of that revision carries (its version, the client, its
// capabilities) and the standard headers. It returns the result, or the
// JSON-RPC error the server answered.
func Raw(t testing.TB, c *client.Client, rev, method string, params map[string]any) (json.RawMessage, *mcp.JSONRPCErrorDetails) {
	t.Helper()
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	var header http.Header
	if rev >= mcp.ProtocolVersion20260728 {
		p["_meta"] = map[string]any{
			mcp.MetaKeyProtocolVersion:    rev,
			mcp.MetaKeyClientInfo:         map[string]any{"name": "mcptest", "version": "1"},
			mcp.MetaKeyClientCapabilities: map[string]any{},
		}
		encoded, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		header = http.Header{}
		for k, v := range mcp.StandardHeaders(rev, mcp.MCPMethod(method), encoded) {
			header.Set(k, v)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	resp, err := c.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(fmt.Sprintf("raw-%d", rawIDs.Add(1))),
		Method:  method,
		Params:  p,
		Header:  header,
	})
	if err != nil {
		t.Fatalf("%s: %s: %v", rev, method, err)
	}
	return resp.Result, resp.Error
}
