// Command docs-mcp serves the modkit documentation to MCP clients.
// See docs/server/configuration.md, or run it with --help.
package main

import (
	"context"
	"os"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/cli"
)

// version is stamped at build time: -ldflags "-X main.version=v1.2.3".
var version string

func main() {
	os.Exit(cli.Main(context.Background(), version, os.Args, os.Stdin, os.Stdout, os.Stderr))
}
