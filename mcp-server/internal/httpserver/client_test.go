package httpserver

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// surface is what a client sees of the server, boiled down to what a user
// would notice.
type surface struct {
	Protocol    string
	HasSession  bool
	Tools       []string
	SearchHits  []string // path:line
	ReadLines   []int    // start, end, total
	Registry    bool     // mod_hook_registry returned the file as on disk
	Contrib     bool
	Layout      bool
	DocPaths    []string
	Resources   int
	ResourceTxt string // first line of docs://index.md
	Prompt      bool
}

// The parts of the tools' structured results the tests look at.
type (
	textResult struct {
		Content    string `json:"content"`
		Layout     string `json:"layout"`
		StartLine  int    `json:"start_line"`
		EndLine    int    `json:"end_line"`
		TotalLines int    `json:"total_lines"`
	}
)

// TestClientSurface drives the whole MCP surface with mcp-go's Streamable
// HTTP client, on every protocol version mcp-go offers.
func TestClientSurface(t *testing.T) {
	f := newFixture(t, nil)
	want := surface{
		Tools:       []string{"mod_ask_docs", "mod_docs_changes", "mod_get_hook", "mod_hook_registry", "mod_list_doc_paths", "mod_list_versions", "mod_read_contributing", "mod_read_doc", "mod_repo_layout", "mod_search_docs"},
		SearchHits:  []string{"guide/hooks.md:8"},
		ReadLines:   []int{1, 4, 4},
		Registry:    true,
		Contrib:     true,
		Layout:      true,
		DocPaths:    []string{"guide/hooks.md", "index.md"},
		Resources:   7, // two docs, the registry, the guide, the layout, the map, the docs reader app
		ResourceTxt: "# Modkit",
		Prompt:      true,
	}
	for _, version := range mcp.ValidProtocolVersions {
		t.Run(version, func(t *testing.T) {
			c := f.connect(t, version)
			got := exercise(t, c)
			w := want
			w.Protocol = version
			w.HasSession = !mcp.IsModernProtocol(version)
			if diff := cmp.Diff(w, got); diff != "" {
				t.Errorf("surface (-want +got):\n%s", diff)
			}
		})
	}
}

func exercise(t *testing.T, c *client.Client) surface {
	t.Helper()
	ctx := context.Background()
	s := surface{Protocol: c.ProtocolVersion(), HasSession: c.GetSessionId() != ""}

	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	for _, tool := range tools.Tools {
		s.Tools = append(s.Tools, tool.Name)
	}
	slices.Sort(s.Tools)

	found := mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "player.joined"})
	for _, m := range mcptest.SearchHits(t, found) {
		s.SearchHits = append(s.SearchHits, fmt.Sprintf("%s:%d", m.Path, m.Line))
	}
	read, _ := mcptest.CallOK[textResult](t, c, "mod_read_doc", map[string]any{"path": "index.md"})
	s.ReadLines = []int{read.StartLine, read.EndLine, read.TotalLines}

	reg, _ := mcptest.CallOK[textResult](t, c, "mod_hook_registry", nil)
	s.Registry = strings.Contains(reg.Content, `"name": "chat.message"`)
	contrib, _ := mcptest.CallOK[textResult](t, c, "mod_read_contributing", nil)
	s.Contrib = strings.HasPrefix(contrib.Content, "# Contributing")
	layout, _ := mcptest.CallOK[textResult](t, c, "mod_repo_layout", nil)
	s.Layout = layout.Layout != ""
	list, _ := mcptest.CallOK[struct {
		Paths []struct{ Path string } `json:"paths"`
	}](t, c, "mod_list_doc_paths", nil)
	for _, d := range list.Paths {
		s.DocPaths = append(s.DocPaths, d.Path)
	}

	res, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatalf("list resources: %v", err)
	}
	s.Resources = len(res.Resources)
	rr := mcp.ReadResourceRequest{}
	rr.Params.URI = "docs://index.md"
	contents, err := c.ReadResource(ctx, rr)
	if err != nil {
		t.Fatalf("read resource: %v", err)
	}
	if len(contents.Contents) == 1 {
		if txt, ok := contents.Contents[0].(mcp.TextResourceContents); ok {
			s.ResourceTxt, _, _ = strings.Cut(txt.Text, "\n")
		}
	}
	pr := mcp.GetPromptRequest{}
	pr.Params.Name = "mod_modding_context"
	prompt, err := c.GetPrompt(ctx, pr)
	if err != nil {
		t.Fatalf("get prompt: %v", err)
	}
	s.Prompt = len(prompt.Messages) > 0
	return s
}

// TestNotificationReachesSessionStream sends a resource-updated
// notification to one session and checks that it arrives on that
// session's GET stream, and not on another session's.
func TestNotificationReachesSessionStream(t *testing.T) {
	f := newFixture(t, nil)
	type received struct {
		mu  sync.Mutex
		got []string
		new chan struct{}
	}
	listen := func() (*client.Client, *received) {
		r := &received{new: make(chan struct{}, 10)}
		c := f.connect(t, mcp.ProtocolVersion20251125, transport.WithContinuousListening(), transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
		c.OnNotification(func(n mcp.JSONRPCNotification) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.got = append(r.got, fmt.Sprintf("%s %v", n.Method, n.Params.AdditionalFields["uri"]))
			r.new <- struct{}{}
		})
		mcptest.Eventually(t, "GET stream open", func() bool { return f.srv.sessions.streamOpen(c.GetSessionId()) })
		return c, r
	}
	target, got := listen()
	other, otherGot := listen()

	err := f.mcp.SendNotificationToSpecificClient(target.GetSessionId(), string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": "docs://index.md"})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	select {
	case <-got.new:
	case <-time.After(10 * time.Second):
		t.Fatal("no notification on the GET stream within 10s")
	}
	got.mu.Lock()
	defer got.mu.Unlock()
	if diff := cmp.Diff([]string{"notifications/resources/updated docs://index.md"}, got.got); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}
	// The other session is still served, and heard nothing.
	mcptest.CallOK[struct{}](t, other, "mod_search_docs", map[string]any{"query": "hooks"})
	otherGot.mu.Lock()
	defer otherGot.mu.Unlock()
	if len(otherGot.got) != 0 {
		t.Errorf("other session got %v", otherGot.got)
	}
}

// TestConcurrentSessions runs 200 sessions at once, each initialize,
// search, read, DELETE; none may fail and none may stay behind.
func TestConcurrentSessions(t *testing.T) {
	const n = 200
	f := newFixture(t, nil)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			if err := oneSession(f.url, i); err != nil {
				errs <- fmt.Errorf("session %d: %w", i, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := f.health(t).Sessions; got != 0 {
		t.Errorf("live sessions after every DELETE: %d, want 0", got)
	}
}

func oneSession(url string, i int) error {
	ctx := context.Background()
	c, err := client.NewStreamableHttpClient(url)
	if err != nil {
		return err
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20250618
	init.Params.ClientInfo = mcp.Implementation{Name: fmt.Sprintf("c%d", i), Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if c.GetSessionId() == "" {
		return fmt.Errorf("no session id")
	}
	search := mcp.CallToolRequest{}
	search.Params.Name = "mod_search_docs"
	search.Params.Arguments = map[string]any{"query": "hook"}
	res, err := c.CallTool(ctx, search)
	if err != nil || res.IsError {
		return fmt.Errorf("search: %v %v", err, res)
	}
	read := mcp.CallToolRequest{}
	read.Params.Name = "mod_read_doc"
	read.Params.Arguments = map[string]any{"path": "guide/hooks.md"}
	res, err = c.CallTool(ctx, read)
	if err != nil || res.IsError {
		return fmt.Errorf("read: %v %v", err, res)
	}
	return c.Close() // DELETE
}
