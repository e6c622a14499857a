module github.com/docs-mcp/docs-mcp/examples/welcome

go 1.26.0

require (
	github.com/docs-mcp/docs-mcp/framework v0.0.0
	github.com/google/go-cmp v0.7.0
)

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace github.com/docs-mcp/docs-mcp/framework => ../../framework
