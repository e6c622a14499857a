package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolCalls are, for every tool, arguments it must answer and arguments it
// must refuse with a tool error (nil: the tool takes none it could refuse).
var toolCalls = map[string]struct {
	Valid   map[string]any `json:"valid"`
	Invalid map[string]any `json:"invalid,omitempty"`
}{
	"mod_ask_docs":          {map[string]any{"question": "how do I register hooks?"}, map[string]any{"question": "how does it"}},
	"mod_search_docs":       {map[string]any{"query": "hooks", "limit": 5}, map[string]any{"query": "hooks", "limit": 0}},
	"mod_read_doc":          {map[string]any{"path": "getting-started.md"}, map[string]any{"path": "../go.work"}},
	"mod_list_doc_paths":    {map[string]any{"prefix": "pages/", "limit": 3}, map[string]any{"prefix": "/etc"}},
	"mod_get_hook":          {map[string]any{"name": "lifecycle.mod_loading"}, map[string]any{"name": "no.such.hook"}},
	"mod_hook_registry":     {map[string]any{}, nil},
	"mod_read_contributing": {map[string]any{}, nil},
	"mod_repo_layout":       {map[string]any{}, nil},
	"mod_list_versions":     {map[string]any{}, nil},
	"mod_docs_changes":      {map[string]any{"from": "working tree"}, map[string]any{"from": ""}},
}

// TestGoSDK is the Go SDK's row of the interoperability matrix: over stdio
// and Streamable HTTP, on every revision, the whole of what a client does.
func TestGoSDK(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		for _, rev := range revisions {
			t.Run(cellName("go-sdk", transport, rev), func(t *testing.T) {
				t.Parallel()
				goSDKCell(t, transport, rev)
			})
		}
	}
}

// notes collects the notifications a session gets.
type notes struct {
	mu       sync.Mutex
	updated  []string // URIs of resources/updated
	listed   int      // list_changed count
	arrivals chan struct{}
}

func (n *notes) add(f func()) {
	n.mu.Lock()
	f()
	n.mu.Unlock()
	select {
	case n.arrivals <- struct{}{}:
	default:
	}
}

// await waits until ok holds for what arrived.
func (n *notes) await(ok func() bool) bool {
	giveUp := time.After(patience)
	for {
		n.mu.Lock()
		done := ok()
		n.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-n.arrivals:
		case <-time.After(50 * time.Millisecond): // an arrival between the check and the wait
		case <-giveUp:
			return false
		}
	}
}

func goSDKCell(t *testing.T, transport, rev string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*patience)
	defer cancel()
	fail := func(step string, format string, args ...any) {
		t.Helper()
		t.Fatalf("go-sdk, %s, %s, step %q: %s", transport, rev, step, fmt.Sprintf(format, args...))
	}
	root := dataRoot(t)
	got := &notes{arrivals: make(chan struct{}, 1)}
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-go-sdk", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			got.add(func() { got.updated = append(got.updated, req.Params.URI) })
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			got.add(func() { got.listed++ })
		},
	})
	var (
		tr   mcp.Transport
		cmd  *exec.Cmd
		base string
	)
	switch transport {
	case "stdio":
		cmd = exec.Command(bin, append(serverArgs(root), "--stdio")...)
		tr = &mcp.CommandTransport{Command: cmd}
	case "http":
		base = httpServer(t, root)
		tr = &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}
	}
	session, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		fail("connect", "%v", err)
	}
	defer session.Close()
	if v := session.InitializeResult().ProtocolVersion; v != rev {
		fail("connect", "negotiated %q", v)
	}

	// A liveness check: the Go SDK's Ping sends ping without _meta on
	// every revision, 2026-07-28 included, and gets an empty result.
	if err := session.Ping(ctx, nil); err != nil {
		fail("ping", "%v", err)
	}

	// List everything, following cursors.
	tools := map[string]*mcp.Tool{}
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			fail("tools/list", "%v", err)
		}
		tools[tool.Name] = tool
	}
	if len(tools) != len(toolCalls) {
		fail("tools/list", "%d tools, want %d", len(tools), len(toolCalls))
	}
	resources := 0
	for _, err := range session.Resources(ctx, nil) {
		if err != nil {
			fail("resources/list", "%v", err)
		}
		resources++
	}
	if want := pagedDocs + 5 + skillCount(t); resources != want { // the docs, the map, the registry, the guide, the layout, the docs reader app, each skill's SKILL.md
		fail("resources/list", "%d resources over all pages, want %d", resources, want)
	}
	var listedTemplates []string
	for tmpl, err := range session.ResourceTemplates(ctx, nil) {
		if err != nil {
			fail("resources/templates/list", "%v", err)
		}
		listedTemplates = append(listedTemplates, tmpl.URITemplate)
	}
	if !slices.Equal(listedTemplates, templates) {
		fail("resources/templates/list", "templates %q, want %q", listedTemplates, templates)
	}
	var prompts []string
	for p, err := range session.Prompts(ctx, nil) {
		if err != nil {
			fail("prompts/list", "%v", err)
		}
		prompts = append(prompts, p.Name)
	}
	if !slices.Equal(prompts, []string{"mod_modding_context"}) {
		fail("prompts/list", "prompts %v", prompts)
	}

	// Every tool, valid and invalid; structured results against the
	// tool's output schema.
	for name, args := range toolCalls {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args.Valid})
		if err != nil || res.IsError {
			fail("tools/call "+name, "%v, isError %v", err, res != nil && res.IsError)
		}
		if err := validate(tools[name].OutputSchema, res.StructuredContent); err != nil {
			fail("tools/call "+name, "structured content against the output schema: %v", err)
		}
		if args.Invalid == nil {
			continue
		}
		res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args.Invalid})
		if err != nil || !res.IsError {
			fail("tools/call "+name+" (invalid)", "%v, want a tool error", err)
		}
	}

	// Resources, one read through the template's spelling, and the prompt.
	for _, uri := range readable {
		res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].Text == "" {
			fail("resources/read "+uri, "%v %+v", err, res)
		}
	}
	if _, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "docs://no/such.md"}); err == nil {
		fail("resources/read docs://no/such.md", "no error")
	}
	if p, err := session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "mod_modding_context"}); err != nil || len(p.Messages) == 0 {
		fail("prompts/get", "%v %+v", err, p)
	}

	// Subscribe, edit, add, unsubscribe.
	const uri = "docs://getting-started.md"
	if err := session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		fail("subscribe", "%v", err)
	}
	writeDoc(t, root, "getting-started.md", "# Getting started\n\nEdited.\n")
	if !got.await(func() bool { return slices.Contains(got.updated, uri) }) {
		fail("resources/updated after an edit", "none for %s; got %v", uri, got.updated)
	}
	writeDoc(t, root, "added.md", "# Added\n")
	if !got.await(func() bool { return got.listed > 0 }) {
		fail("list_changed after a new doc", "none")
	}
	if err := session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
		fail("unsubscribe", "%v", err)
	}
	got.mu.Lock()
	updates, listed := len(got.updated), got.listed
	got.mu.Unlock()
	writeDoc(t, root, "getting-started.md", "# Getting started\n\nEdited after unsubscribing.\n")
	writeDoc(t, root, "barrier.md", "# Barrier\n") // list_changed after the edit's moment
	if !got.await(func() bool { return got.listed > listed }) {
		fail("list_changed after unsubscribing", "none")
	}
	got.mu.Lock()
	late := got.updated[updates:]
	got.mu.Unlock()
	if len(late) > 0 {
		fail("nothing after unsubscribing", "resources/updated %v", late)
	}

	// Close: the process exits by itself; the HTTP session ends.
	if err := session.Close(); err != nil && transport == "http" {
		fail("close", "%v", err)
	}
	switch transport {
	case "stdio":
		if st := cmd.ProcessState; st == nil || !st.Success() {
			fail("process ends", "after close: %v", st)
		}
	case "http":
		if h, err := health(base); err != nil || h.Sessions != 0 {
			fail("session ends", "after close: %d sessions (%v)", h.Sessions, err)
		}
	}
}

// validate checks a structured result against an output schema.
func validate(schema, value any) error {
	b, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("the output schema: %w", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return fmt.Errorf("the output schema: %w", err)
	}
	// Validate wants JSON values as encoding/json decodes them.
	b, err = json.Marshal(value)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return rs.Validate(v)
}
