module github.com/docs-mcp/docs-mcp/tools

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/net v0.62.0
)
