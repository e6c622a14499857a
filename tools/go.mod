module github.com/docs-mcp/docs-mcp/tools

go 1.26.0

require (
	github.com/chromedp/cdproto v0.159.2
	github.com/chromedp/chromedp v0.23.0
	github.com/docs-mcp/docs-mcp/framework v0.0.0
	github.com/google/go-cmp v0.7.0
	github.com/mark3labs/mcp-go v1.2.1
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/net v0.30.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/jsonschema-go v0.4.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/text v0.19.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)

replace github.com/docs-mcp/docs-mcp/framework => ../framework
