package cli

import (
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestStdioEveryURI: over stdio, on each revision mcp-go speaks, every
// resource and resource template that docs-mcp advertises with --versions
// is read and subscribed to by a real client, through the transport's own
// checks (mcptest.EveryAdvertisedURI), with a URI of each scheme.
func TestStdioEveryURI(t *testing.T) {
	r := mcptest.Released(t, filepath.Join("..", "mcpserver", "testdata", "repo"), filepath.Join("..", "mcpserver", "testdata", "skills"))
	for _, rev := range mcp.ValidProtocolVersions {
		t.Run(rev, func(t *testing.T) {
			c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", r.Dir, "--versions", "v*")
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			// mcp-go's stdio constructor starts the transport, not the
			// client: without Start no notification reaches a handler.
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			mcptest.Initialize(t, c, rev, "stdio-test")
			mcptest.EveryAdvertisedURI(t, c, rev, "docs://", "repo://", "hook://", "docs-version://", "skill://", "ui://")
		})
	}
}
