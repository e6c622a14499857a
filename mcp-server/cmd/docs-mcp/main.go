// Command docs-mcp serves the modkit documentation to MCP clients: the
// server of ../../main.go under its own name, so that
//
//	go install ./mcp-server/cmd/docs-mcp
//
// from the repository root installs it as docs-mcp (go install names a
// binary after its package's folder). See docs/clients/index.md, or run it
// with --help.
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
