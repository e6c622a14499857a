// Command release cross-builds the docs-mcp server for the platforms its
// users run, with checksums and a software bill of materials:
//
//	go run ./tools/cmd/release [-version v0.1.0] [-out dist] [-replace] [-targets linux/amd64,...]
//
// It writes to the output folder, which must be empty or new (-replace
// empties it first: a folder holding another release is never emptied
// without being asked), one static binary per target,
// docs-mcp_VERSION_OS_ARCH (.exe on Windows), each stamped with VERSION
// (docs-mcp --version prints it); for the platforms Claude Desktop runs on
// (macOS and Windows), docs-mcp_VERSION_OS_ARCH.mcpb, a Claude Desktop
// bundle holding the binary (see mcpb.go); docs-mcp_VERSION.spdx.json, an
// SPDX 2.3 document listing each binary and the Go modules built into it,
// read from the binaries' own build information (what go version -m
// prints); and SHA256SUMS of all of them, in the format sha256sum -c
// reads. Then it runs the binary built for this machine, if there is one,
// with --version and checks that it prints VERSION.
//
// VERSION is a release tag, v and a semantic version (v0.1.0), and must be
// the version server.json gives without its v (0.1.0, the form the MCP
// Registry and the bundle format use). Without -version the build is a
// development one, named by git describe, and neither is checked.
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
	var opt options
	flag.StringVar(&opt.Version, "version", "", "the release tag stamped into the binaries, e.g. v0.1.0: server.json's version with a v (default: a development build named by git describe --tags --always --dirty, else dev)")
	flag.StringVar(&opt.Out, "out", "dist", "the folder the release is written to; it must be empty or new, unless -replace")
	flag.BoolVar(&opt.Replace, "replace", false, "empty -out first, whatever release it holds")
	only := flag.String("targets", strings.Join(targets, ","), "comma-separated GOOS/GOARCH pairs to build")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "release: unexpected argument %q (see -help)\n", flag.Arg(0))
		os.Exit(2)
	}
	opt.Targets = strings.Split(*only, ",")
	if err := run(opt, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		os.Exit(1)
	}
}
