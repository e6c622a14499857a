module github.com/docs-mcp/docs-mcp/tools

go 1.26.0

require (
	github.com/chromedp/cdproto v0.159.2
	github.com/chromedp/chromedp v0.23.0
	github.com/google/go-cmp v0.7.0
	golang.org/x/net v0.62.0
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
