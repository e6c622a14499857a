// Package apps tests the docs reader, docs-mcp's MCP App (SEP-1865), in
// headless Chromium: a page that plays the host with the extension's own
// AppBridge (npm @modelcontextprotocol/ext-apps, in testdata/host) shows the
// app the real server serves, and hands the app's tool calls to that server
// through a real MCP client.
package apps
