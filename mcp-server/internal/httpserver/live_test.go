package httpserver

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// newLiveFixture serves a copy of testRoot that follows edits on disk. It
// returns the fixture and the copy's docs folder.
func newLiveFixture(t *testing.T) (*fixture, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(testRoot)); err != nil {
		t.Fatal(err)
	}
	docsDir := filepath.Join(root, "docs")
	content, followed := contentConfig(root), corpus.DefaultConfig()
	followed.DataRoot, followed.DocsPath, followed.Watch = root, docsDir, watch.Auto
	followed.Files = []string{content.RegistryPath, content.ContributingPath}
	served := corpus.New(followed)
	live := mcpserver.New(content, served)
	mcptest.Background(t, "Run", func(ctx context.Context) error { return served.Run(ctx, live.Publish) })
	cfg := DefaultConfig()
	cfg.Version, cfg.SiteDir = "test", filepath.Join(root, "site")
	srv := New(cfg, Parts{MCP: live.MCP(), Status: live.Status})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { // before the corpus stops (cleanups run last first)
		srv.Shutdown(context.Background())
		ts.Close()
	})
	f := &fixture{srv: srv, mcp: live.MCP(), http: ts, url: ts.URL + "/mcp"}
	mcptest.Eventually(t, "the docs and the watcher", func() bool {
		h := f.health(t)
		return h.Status == "ok" && h.Watch == "fsnotify"
	})
	// An edit before the start-up is over might be told twice.
	mcptest.Closed(t, served.Settled(), "the end of the corpus's start-up")
	return f, docsDir
}

// An edit on disk reaches the subscribed session over its GET stream, and
// only that session; /health shows the new generation.
func TestLiveNotificationsOverHTTP(t *testing.T) {
	f, docsDir := newLiveFixture(t)
	type inbox struct {
		mu  sync.Mutex
		got []string
	}
	listen := func() (*inbox, func(mcp.SubscribeRequest) error) {
		in := &inbox{}
		c := f.connect(t, mcp.ProtocolVersion20250618, transport.WithContinuousListening(), transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
		c.OnNotification(func(n mcp.JSONRPCNotification) {
			in.mu.Lock()
			defer in.mu.Unlock()
			name := n.Method
			if uri, ok := n.Params.AdditionalFields["uri"]; ok {
				name += " " + uri.(string)
			}
			in.got = append(in.got, name)
		})
		mcptest.Eventually(t, "GET stream open", func() bool { return f.srv.sessions.streamOpen(c.GetSessionId()) })
		return in, func(req mcp.SubscribeRequest) error { return c.Subscribe(context.Background(), req) }
	}
	has := func(in *inbox, want string) func() bool {
		return func() bool {
			in.mu.Lock()
			defer in.mu.Unlock()
			return slices.Contains(in.got, want)
		}
	}
	subscribed, subscribe := listen()
	other, _ := listen()
	req := mcp.SubscribeRequest{}
	req.Params.URI = "docs://index.md"
	if err := subscribe(req); err != nil {
		t.Fatal(err)
	}
	before := f.health(t).Generation

	if err := os.WriteFile(filepath.Join(docsDir, "index.md"), []byte("# Modkit\n\nEdited over HTTP.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mcptest.Eventually(t, "resources/updated on the subscriber's stream", has(subscribed, "notifications/resources/updated docs://index.md"))

	if err := os.WriteFile(filepath.Join(docsDir, "added.md"), []byte("# Added\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mcptest.Eventually(t, "the new doc in /health", func() bool { return f.health(t).Docs == 3 })
	const listChanged = "notifications/resources/list_changed"
	mcptest.Eventually(t, "list_changed on the subscriber's stream", has(subscribed, listChanged))
	mcptest.Eventually(t, "list_changed on the other stream", has(other, listChanged))
	other.mu.Lock()
	if slices.Contains(other.got, "notifications/resources/updated docs://index.md") {
		t.Errorf("a session that did not subscribe got the update: %v", other.got)
	}
	other.mu.Unlock()
	if h := f.health(t); h.Generation < before+2 {
		t.Errorf("health after two changes: generation %d, before %d", h.Generation, before)
	}
}

// A 2026-07-28 client's subscriptions/listen over HTTP gets
// resources/updated for the doc it named when it is edited, and
// list_changed when a doc is added, each tagged with the listen's id; once
// the listen ends, nothing more.
func TestListenOverHTTP(t *testing.T) {
	f, docsDir := newLiveFixture(t)
	type note struct {
		method, uri string
		id          any // io.modelcontextprotocol/subscriptionId
	}
	type inbox struct {
		mu  sync.Mutex
		got []note
	}
	listen := func(filter mcp.SubscriptionFilter) (*inbox, func()) {
		in := &inbox{}
		c := f.connect(t, "")
		c.OnNotification(func(n mcp.JSONRPCNotification) {
			in.mu.Lock()
			defer in.mu.Unlock()
			uri, _ := n.Params.AdditionalFields["uri"].(string)
			in.got = append(in.got, note{n.Method, uri, n.Params.Meta[mcp.MetaKeySubscriptionID]})
		})
		stop, err := c.ListenAsync(context.Background(), filter, func(err error) { t.Errorf("listen: %v", err) })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		mcptest.Eventually(t, "the acknowledgement", func() bool {
			in.mu.Lock()
			defer in.mu.Unlock()
			return len(in.got) > 0 && in.got[0].method == "notifications/subscriptions/acknowledged"
		})
		return in, stop
	}
	has := func(in *inbox, method, uri string) func() bool {
		return func() bool {
			in.mu.Lock()
			defer in.mu.Unlock()
			return slices.ContainsFunc(in.got, func(n note) bool { return n.method == method && n.uri == uri })
		}
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(docsDir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	in, stop := listen(mcp.SubscriptionFilter{ResourcesListChanged: true, ResourceSubscriptions: []string{"docs://index.md"}})
	edited := time.Now()
	write("index.md", "# Modkit\n\nEdited for a listen.\n")
	mcptest.Eventually(t, "resources/updated on the listen stream", has(in, "notifications/resources/updated", "docs://index.md"))
	t.Logf("resources/updated seen within %s of the edit (a figure, not a check; polled every 10 ms)", time.Since(edited))
	write("added.md", "# Added\n")
	mcptest.Eventually(t, "list_changed on the listen stream", has(in, "notifications/resources/list_changed", ""))
	stop()

	barrier, _ := listen(mcp.SubscriptionFilter{ResourcesListChanged: true})
	write("index.md", "# Modkit\n\nEdited after the listen ended.\n")
	write("barrier.md", "# Barrier\n")
	mcptest.Eventually(t, "list_changed on the second listen", has(barrier, "notifications/resources/list_changed", ""))

	in.mu.Lock()
	defer in.mu.Unlock()
	ackID := in.got[0].id
	want := []note{
		{"notifications/subscriptions/acknowledged", "", ackID},
		{"notifications/resources/updated", "docs://index.md", ackID},
		{"notifications/resources/list_changed", "", ackID},
	}
	// An edit may come as two changes (the file emptied, then written).
	if got := slices.Compact(slices.Clone(in.got)); ackID == nil || !slices.Equal(want, got) {
		t.Errorf("the listen got %v, want %v", got, want)
	}
}
