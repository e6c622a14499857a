// Command hooks checks the modkit hook registry.
//
// Usage:
//
//	go run ./tools/cmd/hooks check [FILE]
//
// check validates FILE (default: framework/mod_hooks.json of the repository
// holding the current directory) for JSON syntax, the JSON Schema
// framework/mod_hooks.schema.json, and the registry's rules: naming, unique
// names, category equal to the name's prefix, the type vocabulary, and
// deprecations that point at a live hook. It prints one line per problem,
// FILE:LINE:COL: message, then a summary, and exits 1 when there are
// problems, 2 on a usage error, 0 with "ok: N hooks" when the registry is
// valid.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
