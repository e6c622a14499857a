// Package wikistyle holds the wiki's stylesheet, wiki.css: one file that
// both of its readers use. The wiki's Hugo build mounts it as
// assets/css/wiki.css (tools/internal/wiki), and the server embeds it in
// its MCP App, the docs reader a host shows in its own window
// (mcpserver's apps.go), so a page looks the same in either.
//
// It lives in the mcp-server module because the server's binary must carry
// it and go:embed reads only files of its own module; the tools module
// reads it from the checkout.
package wikistyle

import _ "embed"

// CSS is wiki.css: light and dark (the system's setting, or data-theme on
// the root element), and phones.
//
//go:embed wiki.css
var CSS string

// Path is wiki.css's path in the repository, for the wiki's build to mount.
const Path = "mcp-server/wikistyle/wiki.css"
