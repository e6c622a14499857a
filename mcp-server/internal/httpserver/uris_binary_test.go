package httpserver_test

import (
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestEveryURIOverHTTP: over Streamable HTTP, on each revision mcp-go
// speaks, every resource and resource template that docs-mcp advertises
// with --versions is read and subscribed to by a real client, through the
// endpoint's own checks (mcptest.EveryAdvertisedURI), each scheme among
// them.
func TestEveryURIOverHTTP(t *testing.T) {
	r := mcptest.Released(t, filepath.Join("..", "mcpserver", "testdata", "repo"), filepath.Join("..", "mcpserver", "testdata", "skills"))
	p := startAt(t, r.Dir, nil, "--versions", "v*")
	for _, rev := range mcp.ValidProtocolVersions {
		t.Run(rev, func(t *testing.T) {
			var opts []transport.StreamableHTTPCOption
			if rev < mcp.ProtocolVersion20260728 {
				// The GET stream, which 2026-07-28 does without.
				opts = append(opts, transport.WithContinuousListening())
			}
			tr, err := transport.NewStreamableHTTP("http://"+p.addr+"/mcp", opts...)
			if err != nil {
				t.Fatal(err)
			}
			c := client.NewClient(tr, client.WithProtocolVersion(rev))
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			mcptest.Initialize(t, c, rev, "httpserver-test")
			mcptest.EveryAdvertisedURI(t, c, rev, "docs://", "repo://", "hook://", "docs-version://", "skill://", "ui://")
		})
	}
}
