module github.com/docs-mcp/docs-mcp/framework

go 1.26.0
