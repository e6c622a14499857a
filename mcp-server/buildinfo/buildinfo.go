// Package buildinfo says which version of docs-mcp a binary is, from its
// build information. The server (--version, the initialize result) and the
// wiki's footer (tools/internal/wiki) both use it, so that the two show the
// same version for the same checkout; it lives outside internal/ so that
// the tools module can import it.
package buildinfo

import (
	"runtime/debug"
)

// Version is the module version of an installed binary (go install
// ...@v1.2.3), else the commit of a checkout built with go build ("dev-"
// and 12 hex digits), else "dev" (go run, or a build without version
// control).
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return version(info)
}

func version(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "dev-" + s.Value[:12]
		}
	}
	return "dev"
}
