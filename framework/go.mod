module github.com/docs-mcp/docs-mcp/framework

go 1.26.0

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	golang.org/x/text v0.14.0
)

require github.com/google/go-cmp v0.7.0
