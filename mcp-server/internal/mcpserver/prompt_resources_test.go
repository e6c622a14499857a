package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
)

func TestModdingContextPrompt(t *testing.T) {
	c := newClient(t, fixtureRoot)
	req := mcp.GetPromptRequest{}
	req.Params.Name = "mod_modding_context"
	req.Params.Arguments = map[string]string{"task": "add a crafting hook"}
	res, err := c.GetPrompt(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 1 {
		t.Fatalf("got %d messages, want 1", len(res.Messages))
	}
	text := res.Messages[0].Content.(mcp.TextContent).Text
	for _, want := range []string{
		"## Task\n\nadd a crafting hook",
		"## Layout",
		"- Hooks are named category.snake_case.\n- Wrap errors with context.", // CONTRIBUTING.md's Conventions section
		"- guide/intro.md: Introduction",                                      // doc titles
		"mod_search_docs {query, match?}",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Contains(text, "Send small commits") {
		t.Error("prompt quotes a CONTRIBUTING.md section other than Conventions")
	}
	if len(text) > 8<<10 {
		t.Errorf("prompt is %d bytes; keep it under 8 KiB", len(text))
	}
}

// TestModdingContextBounded fills the map of the docs and the task past
// their bounds: the prompt stays small and says what it left out.
func TestModdingContextBounded(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for i := range 500 {
		writeFile(t, dir, fmt.Sprintf("docs/bulk/page-%03d.md", i), fmt.Sprintf("# A rather long page title number %d\n", i))
	}
	c := newClient(t, dir)
	req := mcp.GetPromptRequest{}
	req.Params.Name = "mod_modding_context"
	req.Params.Arguments = map[string]string{"task": strings.Repeat("long task ", 1000)}
	res, err := c.GetPrompt(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Messages[0].Content.(mcp.TextContent).Text
	// The map within its 8 KiB, the rest (layout, conventions, task,
	// tools) within 8 KiB more.
	if len(text) > 16<<10 {
		t.Errorf("prompt is %d bytes with 500 docs and a 10 KB task; want under 16 KiB", len(text))
	}
	if !strings.Contains(text, "\n## bulk/ (500 docs)\n") || !strings.Contains(text, "mod_list_doc_paths with a folder as prefix") || !strings.Contains(text, "…[cut]") {
		t.Error("prompt does not say what it cut")
	}
}

func TestResources(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	writeFile(t, dir, "docs/odd names/100% c++ #1.md", "# Odd\n")
	for i := range 600 {
		writeFile(t, dir, fmt.Sprintf("docs/bulk/p%03d.md", i), "# Bulk\n")
	}
	c := newClient(t, dir)
	ctx := context.Background()

	// Listing pages through every resource.
	var uris []string
	var req mcp.ListResourcesRequest
	for pages := 0; ; pages++ {
		res, err := c.ListResourcesByPage(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Resources) > resourcePageSize {
			t.Fatalf("a page holds %d resources, more than %d", len(res.Resources), resourcePageSize)
		}
		for _, r := range res.Resources {
			uris = append(uris, r.URI)
		}
		if res.NextCursor == "" {
			break
		}
		req.Params.Cursor = res.NextCursor
	}
	if want := 605 + 5; len(uris) != want {
		t.Errorf("listed %d resources, want %d (605 docs, the map, 3 repo files and the docs reader app)", len(uris), want)
	}
	// The map, the repository files and the app first, then every doc once, in path order.
	if len(uris) > 5 && !slices.Equal(uris[:5], []string{mapURI, contributingURI, registryURI, layoutURI, AppURI}) {
		t.Errorf("first resources %v, want the map, the repository files and the app", uris[:5])
	}
	if docs := uris[min(5, len(uris)):]; !slices.IsSortedFunc(docs, func(a, b string) int {
		pa, _ := docPathOf(a)
		pb, _ := docPathOf(b)
		return strings.Compare(pa, pb)
	}) || len(slices.Compact(slices.Clone(docs))) != len(docs) {
		t.Errorf("docs not listed once each in path order: %v", docs)
	}
	bad := mcp.ListResourcesRequest{}
	bad.Params.Cursor = "not base64!"
	if res, err := c.ListResourcesByPage(ctx, bad); err == nil {
		t.Errorf("a cursor that is not base64 listed %d resources, want an error", len(res.Resources))
	}
	for _, want := range []string{"docs://guide/intro.md", "docs://odd%20names/100%25%20c++%20%231.md", registryURI, contributingURI, layoutURI} {
		if !slices.Contains(uris, want) {
			t.Errorf("resource %s is not listed", want)
		}
	}

	// Reading: listed docs, docs by template, and the repo files.
	for uri, want := range map[string]string{
		"docs://server/tools.md":                    "# Tools\n",
		"docs://server%2Ftools.md":                  "# Tools\n", // spelled unlike the listing
		"docs://odd%20names/100%25%20c++%20%231.md": "# Odd\n",
		registryURI:     `"player.joined"`,
		contributingURI: "## Conventions",
		layoutURI:       "# Repository layout",
	} {
		got := readResource(t, c, uri)
		if !strings.Contains(got, want) {
			t.Errorf("%s does not contain %q: %q", uri, want, got)
		}
	}

	// Unknown and hostile URIs are errors, never content.
	for _, uri := range []string{"docs://nope.md", "docs://../secret.md", "docs://%2e%2e/secret.md", "docs:///etc/passwd"} {
		var rr mcp.ReadResourceRequest
		rr.Params.URI = uri
		if res, err := c.ReadResource(ctx, rr); err == nil {
			t.Errorf("reading %s succeeded: %v", uri, res.Contents)
		} else if !strings.Contains(err.Error(), "resource not found") {
			t.Errorf("reading %s: %v, want resource not found", uri, err)
		}
	}

	templates, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tmpl := range templates.ResourceTemplates {
		b, _ := json.Marshal(tmpl.URITemplate)
		got = append(got, string(b))
	}
	if diff := cmp.Diff([]string{`"docs://{+path}"`, `"hook://{name}"`}, got); diff != "" {
		t.Errorf("templates (-want +got):\n%s", diff)
	}
}

func readResource(t *testing.T, c interface {
	ReadResource(context.Context, mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error)
}, uri string) string {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = uri
	res, err := c.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	return res.Contents[0].(mcp.TextResourceContents).Text
}
