// Package proxy holds the test of the nginx example in
// docs/server/reverse-proxy.md. It has no code of its own: the test reads
// the nginx server block and the docs-mcp command from that page, runs both
// for real (a built docs-mcp and its own nginx process, nothing of the
// system's nginx service), and talks MCP through the proxy:
//
//	go test ./tools/e2e/proxy
//
// Without nginx or openssl the test says so and skips; with CI=true it
// fails instead (.ci/run installs both).
package proxy
