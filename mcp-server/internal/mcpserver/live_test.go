package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docsmap"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// live is a server following a copy of the fixture on disk.
type live struct {
	srv    *Server
	corpus *corpus.Corpus
	root   string // the data root
	docs   string // its docs folder
}

// startLive copies the fixture and serves it, followed in mode.
func startLive(t *testing.T, mode watch.Mode) *live {
	t.Helper()
	l := &live{root: copyTree(t, fixtureRoot)}
	var cfg Config
	cfg, l.docs = withFixture(t, l.root)
	l.srv, l.corpus = runCorpus(t, cfg, l.docs, mode)
	return l
}

// runCorpus serves the docs folder docsDir with cfg, from a corpus that
// follows it (and cfg's repository files) in mode, as the command line
// runs them; it returns once the docs are loaded and followed and the
// start-up is over (corpus.Settled: an edit before might be told twice).
func runCorpus(t testing.TB, cfg Config, docsDir string, mode watch.Mode) (*Server, *corpus.Corpus) {
	t.Helper()
	cc := corpus.DefaultConfig()
	cc.DataRoot, cc.DocsPath = cfg.DataRoot, docsDir
	cc.Files = []string{cfg.RegistryPath, cfg.ContributingPath}
	cc.Watch, cc.PollInterval = mode, 20*time.Millisecond
	cc.Derive = []func(prev, next *docs.Snapshot){DeriveFolders, docsmap.Derive} // as the CLI wires it
	c := corpus.New(cc)
	srv := New(cfg, c)
	mcptest.Background(t, "Run", func(ctx context.Context) error { return c.Run(ctx, srv.Publish) })
	mcptest.Eventually(t, "the docs and the watcher", func() bool {
		return c.Snapshot() != nil && c.Watching() != string(watch.MethodNone)
	})
	mcptest.Closed(t, c.Settled(), "the end of the corpus's start-up")
	return srv, c
}

// watcher is a client session with the notifications it received.
type watcher struct {
	c *client.Client

	mu    sync.Mutex
	got   []mcp.JSONRPCNotification
	moved chan struct{} // closed and replaced on each notification
}

// connect opens a session on the live server, with a protocol version that
// has sessions (and so resources/subscribe).
func (l *live) connect(t *testing.T) *watcher {
	t.Helper()
	c, err := client.NewInProcessClient(l.srv.MCP())
	if err != nil {
		t.Fatal(err)
	}
	w := &watcher{c: c, moved: make(chan struct{})}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.got = append(w.got, n)
		close(w.moved)
		w.moved = make(chan struct{})
	})
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	res := mcptest.Initialize(t, c, "2025-06-18", "live-test")
	if r := res.Capabilities.Resources; r == nil || !r.Subscribe || !r.ListChanged {
		t.Fatalf("resources capability = %+v, want subscribe and listChanged", r)
	}
	return w
}

// note names a notification: its method, and the URI for an update.
func note(n mcp.JSONRPCNotification) string {
	if uri, ok := n.Params.AdditionalFields["uri"]; ok {
		return fmt.Sprintf("%s %v", n.Method, uri)
	}
	return n.Method
}

const (
	listChanged = mcp.MethodNotificationResourcesListChanged
	updated     = mcp.MethodNotificationResourceUpdated + " "
)

// await waits for a notification named want and returns the names of all
// received since the last await (or connect), the awaited one included.
func (w *watcher) await(t *testing.T, want string) []string {
	t.Helper()
	timeout := time.After(mcptest.Deadline)
	for {
		w.mu.Lock()
		var names []string
		for _, n := range w.got {
			names = append(names, note(n))
		}
		moved := w.moved
		if i := slices.Index(names, want); i >= 0 {
			w.got = w.got[i+1:]
			w.mu.Unlock()
			return names[:i+1]
		}
		w.mu.Unlock()
		select {
		case <-moved:
		case <-timeout:
			t.Fatalf("no %s notification; got %v", want, names)
		}
	}
}

// paths lists every doc path under prefix, following cursors.
func paths(t *testing.T, c *client.Client, prefix string) ([]string, uint64) {
	t.Helper()
	var (
		all    []string
		gen    uint64
		cursor string
	)
	for {
		out, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": prefix, "limit": 5000, "cursor": cursor})
		for _, e := range out.Paths {
			all = append(all, e.Path)
		}
		gen = out.Generation
		if cursor = out.NextCursor; cursor == "" {
			return all, gen
		}
	}
}

func (w *watcher) subscribe(t *testing.T, uri string) {
	t.Helper()
	req := mcp.SubscribeRequest{}
	req.Params.URI = uri
	if err := w.c.Subscribe(context.Background(), req); err != nil {
		t.Fatalf("subscribe %s: %v", uri, err)
	}
}

func (w *watcher) unsubscribe(t *testing.T, uri string) {
	t.Helper()
	req := mcp.UnsubscribeRequest{}
	req.Params.URI = uri
	if err := w.c.Unsubscribe(context.Background(), req); err != nil {
		t.Fatalf("unsubscribe %s: %v", uri, err)
	}
}

func (w *watcher) read(t *testing.T, uri string) (string, error) {
	t.Helper()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := w.c.ReadResource(context.Background(), req)
	if err != nil {
		return "", err
	}
	return res.Contents[0].(mcp.TextResourceContents).Text, nil
}

func (w *watcher) listed(t *testing.T) []string {
	t.Helper()
	var uris []string
	req := mcp.ListResourcesRequest{}
	for {
		res, err := w.c.ListResources(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Resources {
			if strings.HasPrefix(r.URI, docScheme) {
				uris = append(uris, r.URI)
			}
		}
		if res.NextCursor == "" {
			return uris
		}
		req.Params.Cursor = res.NextCursor
	}
}

// find returns the paths of the matches for query and the generation.
func find(t *testing.T, c *client.Client, query string) ([]string, uint64) {
	t.Helper()
	out, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", map[string]any{"query": query, "limit": 200})
	var paths []string
	for _, m := range matchesOf(out) {
		paths = append(paths, m.Path)
	}
	return paths, out.Generation
}

// The life of a doc on disk, seen by two sessions: one subscribed to it,
// one not. Every step is a real file operation on a temp dir.
func TestLiveDocs(t *testing.T) {
	l := startLive(t, watch.Auto)
	sub, other := l.connect(t), l.connect(t)
	const intro = "docs://guide/intro.md"
	sub.subscribe(t, intro)

	t.Run("edit in place", func(t *testing.T) {
		writeFile(t, l.docs, "guide/intro.md", "# Introduction\n\nNow with a zebra-crossing.\n")
		if diff := cmp.Diff([]string{updated + intro}, sub.await(t, updated+intro)); diff != "" {
			t.Errorf("subscriber's notifications (-want +got):\n%s", diff)
		}
		paths, gen := find(t, sub.c, "zebra-crossing")
		if diff := cmp.Diff([]string{"guide/intro.md"}, paths); diff != "" || gen < 2 {
			t.Errorf("search after the edit: generation %d, paths (-want +got):\n%s", gen, diff)
		}
		if text, err := sub.read(t, intro); err != nil || !strings.Contains(text, "zebra-crossing") {
			t.Errorf("resources/read after the edit = %q, %v", text, err)
		}
	})

	t.Run("atomic rename save", func(t *testing.T) {
		writeFile(t, l.docs, "guide/.intro.md.swp", "# Introduction\n\nSaved the way editors do: okapi.\n")
		if err := os.Rename(filepath.Join(l.docs, "guide/.intro.md.swp"), filepath.Join(l.docs, "guide/intro.md")); err != nil {
			t.Fatal(err)
		}
		got := sub.await(t, updated+intro)
		if slices.Contains(got, listChanged) {
			t.Errorf("a save by rename changed the resource list: %v", got)
		}
		if paths, _ := find(t, sub.c, "okapi"); !slices.Equal(paths, []string{"guide/intro.md"}) {
			t.Errorf("search after the save = %v", paths)
		}
	})

	t.Run("new nested folder", func(t *testing.T) {
		writeFile(t, l.docs, "modding/advanced/deep/hooks.md", "# Deep hooks\n\nQuokka.\n")
		other.await(t, listChanged)
		mcptest.Eventually(t, "the new doc in resources/list", func() bool {
			return slices.Contains(other.listed(t), "docs://modding/advanced/deep/hooks.md")
		})
		if paths, _ := find(t, other.c, "Quokka"); !slices.Equal(paths, []string{"modding/advanced/deep/hooks.md"}) {
			t.Errorf("search = %v, want the new doc", paths)
		}
		// The new folders are watched: a later file in them shows too.
		writeFile(t, l.docs, "modding/advanced/deep/more.md", "# More\n")
		other.await(t, listChanged)
		mcptest.Eventually(t, "the second new doc", func() bool {
			_, err := other.read(t, "docs://modding/advanced/deep/more.md")
			return err == nil
		})
	})

	t.Run("the unsubscribed session got no updates", func(t *testing.T) {
		// Notifications reach a session in order: the list changes above
		// came after the edits, so any update for it would be here by now.
		other.mu.Lock()
		defer other.mu.Unlock()
		for _, n := range other.got {
			if n.Method == mcp.MethodNotificationResourceUpdated {
				t.Errorf("the session that did not subscribe got %s", note(n))
			}
		}
	})

	t.Run("rename", func(t *testing.T) {
		if err := os.Rename(filepath.Join(l.docs, "server/tools.md"), filepath.Join(l.docs, "server/tool-reference.md")); err != nil {
			t.Fatal(err)
		}
		want := "docs://server/tool-reference.md"
		mcptest.Eventually(t, "resources/list to show the new name and not the old one", func() bool {
			uris := other.listed(t)
			return slices.Contains(uris, want) && !slices.Contains(uris, "docs://server/tools.md")
		})
		if msg := mcptest.CallErr(t, other.c, "mod_read_doc", map[string]any{"path": "server/tools.md"}); !strings.Contains(msg, "server/tool-reference.md") {
			t.Errorf("reading the old name: %q, want the new name among the nearest paths", msg)
		}
	})

	t.Run("delete", func(t *testing.T) {
		if err := os.Remove(filepath.Join(l.docs, "guide/intro.md")); err != nil {
			t.Fatal(err)
		}
		sub.await(t, updated+intro) // the subscriber hears that its doc went
		if _, err := sub.read(t, intro); err == nil {
			t.Error("resources/read of a deleted doc succeeded")
		}
		mcptest.CallErr(t, sub.c, "mod_read_doc", map[string]any{"path": "guide/intro.md"})
	})

	t.Run("the contribution guide", func(t *testing.T) {
		sub.subscribe(t, contributingURI)
		if err := os.WriteFile(filepath.Join(l.root, "CONTRIBUTING.md"), []byte("# Contributing\n\nPangolin rules.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		sub.await(t, updated+contributingURI)
		if text, err := sub.read(t, contributingURI); err != nil || !strings.Contains(text, "Pangolin") {
			t.Errorf("resources/read = %q, %v", text, err)
		}
	})

	t.Run("the hook registry", func(t *testing.T) {
		const hook = "hook://player.joined"
		sub.subscribe(t, hook)
		path := filepath.Join(l.root, "framework", "mod_hooks.json")
		reg, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(string(reg), "A player finished joining", "A player finished joining (armadillo)", 1)
		if changed == string(reg) {
			t.Fatal("the fixture's registry has no player.joined summary to change")
		}
		if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
			t.Fatal(err)
		}
		sub.await(t, updated+hook)
		if text, err := sub.read(t, hook); err != nil || !strings.Contains(text, "armadillo") {
			t.Errorf("resources/read = %q, %v", text, err)
		}
	})

	t.Run("unsubscribe", func(t *testing.T) {
		const tools = "docs://server/tool-reference.md"
		sub.subscribe(t, tools)
		writeFile(t, l.docs, "server/tool-reference.md", "# Tools\n\nfirst\n")
		sub.await(t, updated+tools)
		sub.unsubscribe(t, tools)
		writeFile(t, l.docs, "server/tool-reference.md", "# Tools\n\nsecond\n")
		writeFile(t, l.docs, "barrier.md", "# Barrier\n") // a list change after the edit
		got := sub.await(t, listChanged)
		if slices.Contains(got, updated+tools) {
			t.Errorf("an update came after unsubscribing: %v", got)
		}
	})

	t.Run("subscriptions end with their session", func(t *testing.T) {
		if n := l.srv.subs.count(); n != 1 {
			t.Fatalf("%d sessions hold subscriptions, want 1", n)
		}
		sub.c.Close()
		if n := l.srv.subs.count(); n != 0 {
			t.Errorf("%d sessions hold subscriptions after the subscriber left, want 0", n)
		}
	})
}

// A checkout of a thousand files at once is coalesced into few snapshots,
// and the server answers tool calls all through it.
func TestLiveBurst(t *testing.T) {
	l := startLive(t, watch.Auto)
	c := l.connect(t)
	_, before := find(t, c.c, "Tools")

	stop := make(chan struct{})
	calls := make(chan error, 1)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				if n == 0 {
					calls <- fmt.Errorf("no tool call finished during the burst")
					return
				}
				calls <- nil
				return
			default:
			}
			req := mcp.CallToolRequest{}
			req.Params.Name = "mod_search_docs"
			req.Params.Arguments = map[string]any{"query": "burst"}
			res, err := c.c.CallTool(context.Background(), req)
			if err != nil || res.IsError {
				calls <- fmt.Errorf("tool call during the burst: %v %v", err, res)
				return
			}
			n++
		}
	}()

	const n = 1000
	for i := range n {
		writeFile(t, l.docs, fmt.Sprintf("burst/part-%d/page-%04d.md", i%10, i), fmt.Sprintf("# Page %d\n\nburst line %d\n", i, i))
	}
	var (
		listed []string
		after  uint64
	)
	mcptest.Eventually(t, "the burst to be listed", func() bool {
		listed, after = paths(t, c.c, "burst/")
		return len(listed) == n
	})
	close(stop)
	if err := <-calls; err != nil {
		t.Error(err)
	}
	snapshots := after - before
	t.Logf("%d files written: %d new snapshots", n, snapshots)
	if snapshots >= n/10 {
		t.Errorf("%d files made %d snapshots: the events were not coalesced", n, snapshots)
	}
}

// A cursor from an older generation keeps working: it names the last item
// returned, so the next page starts after it in the new snapshot.
func TestLiveCursorAcrossGenerations(t *testing.T) {
	l := startLive(t, watch.Auto)
	c := l.connect(t)
	first, _ := mcptest.CallOK[SearchDocsOutput](t, c.c, "mod_search_docs", map[string]any{"query": "#", "limit": 1})
	if first.NextCursor == "" {
		t.Fatalf("no cursor from the first page: %+v", first)
	}
	writeFile(t, l.docs, "aaa-first.md", "# Before everything\n") // sorts before the cursor
	writeFile(t, l.docs, "zzz-last.md", "# After everything\n")   // sorts after it
	mcptest.Eventually(t, "the two new docs", func() bool {
		all, _ := paths(t, c.c, "")
		return slices.Contains(all, "aaa-first.md") && slices.Contains(all, "zzz-last.md")
	})
	var all []string
	cursor := first.NextCursor
	gen := first.Generation
	for cursor != "" {
		page, _ := mcptest.CallOK[SearchDocsOutput](t, c.c, "mod_search_docs", map[string]any{"query": "#", "limit": 1, "cursor": cursor})
		for _, m := range matchesOf(page) {
			all = append(all, m.Path)
		}
		cursor, gen = page.NextCursor, page.Generation
	}
	if gen <= first.Generation {
		t.Errorf("generation %d after the change, want more than %d", gen, first.Generation)
	}
	if slices.Contains(all, "aaa-first.md") {
		t.Errorf("the pages after the cursor went back before it: %v", all)
	}
	if len(all) == 0 || all[len(all)-1] != "zzz-last.md" {
		t.Errorf("the pages after the cursor = %v, want them to end with the new zzz-last.md", all)
	}
}

// Poll mode sees the same edits, without file events.
func TestLivePoll(t *testing.T) {
	l := startLive(t, watch.Poll)
	c := l.connect(t)
	c.subscribe(t, "docs://index.md")
	writeFile(t, l.docs, "index.md", "# Home\n\nPolled: narwhal.\n")
	c.await(t, updated+"docs://index.md")
	if paths, _ := find(t, c.c, "narwhal"); !slices.Equal(paths, []string{"index.md"}) {
		t.Errorf("search = %v", paths)
	}
}

// A symlink pointing out of the docs folder is never followed, and the
// docs folder replaced as a whole is picked up.
func TestLiveMess(t *testing.T) {
	l := startLive(t, watch.Auto)
	c := l.connect(t)
	writeFile(t, l.root, "secret.md", "# Secret\n\nplatypus\n")
	if err := os.Symlink("../secret.md", filepath.Join(l.docs, "leak.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(l.root, filepath.Join(l.docs, "up")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, l.docs, "barrier.md", "# Barrier\n")
	mcptest.Eventually(t, "barrier.md", func() bool {
		found, _ := find(t, c.c, "Barrier")
		return len(found) > 0
	})
	if found, _ := find(t, c.c, "platypus"); len(found) != 0 {
		t.Errorf("a symlink out of docs/ was followed: %v", found)
	}

	// Replace the docs folder: a new one is moved into place.
	next := filepath.Join(l.root, "docs.next")
	writeFile(t, next, "fresh.md", "# Fresh\n\naxolotl\n")
	if err := os.RemoveAll(l.docs); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, l.docs); err != nil {
		t.Fatal(err)
	}
	mcptest.Eventually(t, "only fresh.md after the folder was replaced", func() bool {
		all, _ := paths(t, c.c, "")
		return slices.Equal(all, []string{"fresh.md"})
	})
	// The new folder is watched.
	writeFile(t, l.docs, "later.md", "# Later\n\ncapybara\n")
	mcptest.Eventually(t, "a doc written in the new folder to be found", func() bool {
		found, _ := find(t, c.c, "capybara")
		return slices.Equal(found, []string{"later.md"})
	})
}
