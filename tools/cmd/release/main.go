// Command release cross-builds the docs-mcp server for the platforms its
// users run, with checksums and a software bill of materials:
//
//	go run ./tools/cmd/release [-version v0.1.0] [-out dist] [-targets linux/amd64,...]
//
// It writes to the output folder one static binary per target,
// docs-mcp_VERSION_OS_ARCH (.exe on Windows), each stamped with VERSION
// (docs-mcp --version prints it); beside each, docs-mcp_VERSION_OS_ARCH.mcpb,
// a Claude Desktop bundle holding it (see mcpb.go); SHA256SUMS of both, in
// the format sha256sum -c reads; and docs-mcp_VERSION.spdx.json, an SPDX 2.3 document listing each
// binary and the Go modules built into it, read from the binaries' own
// build information (what go version -m prints). Then it runs the binary
// built for this machine, if there is one, with --version and checks that
// it prints VERSION.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// targets are the platforms built by default.
var targets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

func main() {
	version := flag.String("version", "", "the version stamped into the binaries (default: git describe --tags --always --dirty, else dev)")
	out := flag.String("out", "dist", "the folder the release is written to (emptied first)")
	only := flag.String("targets", strings.Join(targets, ","), "comma-separated GOOS/GOARCH pairs to build")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "release: unexpected argument %q (see -help)\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := run(*version, *out, strings.Split(*only, ","), os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		os.Exit(1)
	}
}
