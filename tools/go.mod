module github.com/docs-mcp/docs-mcp/tools

go 1.26.0
