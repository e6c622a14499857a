// Package interop runs the official MCP SDK clients against the real
// docs-mcp binary: the Go SDK (github.com/modelcontextprotocol/go-sdk) over
// stdio and Streamable HTTP, on every protocol revision it negotiates, each
// doing what a user's client does, subscriptions and notifications
// included. A failing cell names the client, transport, revision and step.
package interop
