package httpserver

// Fault tests: the real HTTP server over real files on disk, under the
// faults a server on a network meets. Each test names the fault it covers;
// docs/server/security.md lists them all with the test for each.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// served is a docs-mcp HTTP server over a repository in a temp dir, on a
// real listener, run by Serve as the command runs it.
type served struct {
	srv   *Server
	mcp   *server.MCPServer
	url   string // of /mcp
	root  string
	snap  *docs.Snapshot
	stop  context.CancelFunc
	ended chan error // Serve's result
}

// serveRepo loads root/docs and serves root with opts changed by change.
func serveRepo(t *testing.T, root string, maxDocBytes int64, change func(*setup)) *served {
	t.Helper()
	snap, mcpSrv, o := parts(t, root, maxDocBytes)
	if change != nil {
		change(&o)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{srv: New(o.Config, o.Parts), mcp: mcpSrv, url: "http://" + ln.Addr().String() + "/mcp", root: root, snap: snap, stop: cancel, ended: make(chan error, 1)}
	go func() { s.ended <- s.srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		<-s.ended
	})
	return s
}

// shutdown ends Serve as SIGTERM does and returns its result.
func (s *served) shutdown(t *testing.T) error {
	t.Helper()
	s.stop()
	select {
	case err := <-s.ended:
		s.ended <- err // for the cleanup
		return err
	case <-time.After(time.Minute):
		t.Fatal("Serve still running a minute after shutdown began")
		return nil
	}
}

func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	mcptest.WriteTree(t, root, files)
	return root
}

var baseRepo = map[string]string{
	"docs/index.md":            "# Home\n\nWelcome to the hooks docs.\n",
	"docs/guide/hooks.md":      "# Hooks\n\nplayer.joined fires first.\n",
	"framework/mod_hooks.json": `{"hooks": []}` + "\n",
	"CONTRIBUTING.md":          "# Contributing\n\nSmall commits.\n",
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// Fault: a client opens a GET stream and never reads it, while the server
// has far more to send on it than any buffer holds. Memory stays bounded
// (mcp-go's per-session queue drops what does not fit), other sessions are
// served, and shutdown still ends the stream instead of waiting on it.
func TestFaultStreamNeverRead(t *testing.T) {
	s := serveRepo(t, writeRepo(t, baseRepo), 0, func(o *setup) { o.ShutdownTimeout = 5 * time.Second })
	addr := strings.TrimPrefix(strings.TrimSuffix(s.url, "/mcp"), "http://")
	f := &fixture{url: s.url}
	sid := f.initialize(t, nil)

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(conn, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-06-18\r\n\r\n", addr, sid)
	for !s.srv.sessions.streamOpen(sid) {
		time.Sleep(10 * time.Millisecond)
	}

	const (
		sends = 2000
		size  = 64 << 10 // 2000 × 64 KiB = 125 MiB offered to one stream
	)
	before := heapInUse()
	payload := strings.Repeat("x", size)
	dropped := 0
	for i := range sends {
		err := s.mcp.SendNotificationToSpecificClient(sid, "notifications/message", map[string]any{"level": "info", "data": fmt.Sprintf("%d %s", i, payload)})
		if err != nil {
			dropped++
		}
	}
	after := heapInUse()
	grew := int64(after) - int64(before)
	t.Logf("offered %d MiB to a stream nobody reads: %d notifications dropped, heap in use grew by %.1f MiB",
		sends*size>>20, dropped, float64(grew)/(1<<20))
	if dropped == 0 {
		t.Errorf("no notification was dropped: the stream took %d MiB without a reader", sends*size>>20)
	}
	if grew > 32<<20 {
		t.Errorf("heap in use grew by %d MiB for one stuck stream, want less than 32 MiB", grew>>20)
	}

	other := connect(t, s.url, mcp.ProtocolVersion20250618)
	if res := mcptest.Call(t, other, "mod_search_docs", map[string]any{"query": "hook"}); res.IsError {
		t.Errorf("another session's search failed beside the stuck stream: %s", mcptest.Text(res))
	}
	other.Close()
	if err := s.shutdown(t); err != nil {
		t.Errorf("shutdown with a stream nobody reads: %v", err)
	}
}

// Fault: the registry and CONTRIBUTING.md, read from disk on every call,
// are deleted, replaced by a folder (a read error: the tests run as root,
// for whom chmod 000 blocks nothing), made invalid UTF-8 or invalid JSON,
// and restored, while clients keep calling the tools that read them. Each
// answer is the file's content or a tool error naming the file; never a
// protocol error, and the server serves on. A doc deleted from disk is
// answered from the snapshot in memory (this server does not watch the
// files; with a watcher, the next snapshot leaves it out).
func TestFaultRepoFilesChangeUnderLoad(t *testing.T) {
	root := writeRepo(t, baseRepo)
	s := serveRepo(t, root, 0, nil)
	registry := filepath.Join(root, "framework", "mod_hooks.json")
	contributing := filepath.Join(root, "CONTRIBUTING.md")
	valid := map[string]string{registry: baseRepo["framework/mod_hooks.json"], contributing: baseRepo["CONTRIBUTING.md"]}

	if err := os.Remove(filepath.Join(root, "docs", "guide", "hooks.md")); err != nil {
		t.Fatal(err)
	}

	faults := []func(path string) error{
		func(string) error { return nil }, // deleted
		func(p string) error { return os.Mkdir(p, 0o755) },
		func(p string) error { return os.WriteFile(p, []byte("caf\xe9 \x00\n"), 0o644) },
		func(p string) error { return os.WriteFile(p, []byte(`{"hooks": [`), 0o644) },
	}
	done := make(chan struct{})
	changer := make(chan struct{})
	go func() {
		defer close(changer)
		for i := 0; ; i++ {
			select {
			case <-done:
				for p, content := range valid {
					os.RemoveAll(p)
					os.WriteFile(p, []byte(content), 0o644)
				}
				return
			default:
			}
			for p, content := range valid {
				os.RemoveAll(p)
				if err := faults[i%len(faults)](p); err != nil {
					t.Errorf("fault %d on %s: %v", i%len(faults), p, err)
				}
				time.Sleep(time.Millisecond)
				os.RemoveAll(p)
				os.WriteFile(p, []byte(content), 0o644)
			}
		}
	}()

	const workers, calls = 8, 60
	var (
		mu            sync.Mutex
		ok, toolError int
	)
	var wg sync.WaitGroup
	for w := range workers {
		c := connect(t, s.url, mcp.ProtocolVersion20250618)
		wg.Go(func() {
			for i := range calls {
				var name string
				var args map[string]any
				switch (w + i) % 4 {
				case 0:
					name = "mod_hook_registry"
				case 1:
					name, args = "mod_get_hook", map[string]any{"name": "player.joined"}
				case 2:
					name = "mod_read_contributing"
				case 3:
					name, args = "mod_read_doc", map[string]any{"path": "guide/hooks.md"}
				}
				req := mcp.CallToolRequest{}
				req.Params.Name, req.Params.Arguments = name, args
				res, err := c.CallTool(context.Background(), req)
				if err != nil {
					t.Errorf("%s: protocol error: %v", name, err)
					return
				}
				text := mcptest.Text(res)
				mu.Lock()
				switch {
				case name == "mod_read_doc" && (res.IsError || !strings.Contains(text, "player.joined fires first")):
					t.Errorf("a doc deleted after loading is not served from the snapshot: %s", text)
				case res.IsError && !strings.Contains(text, "mod_hooks.json") && !strings.Contains(text, "CONTRIBUTING.md") &&
					text != name+" failed on the server; the server log has the details": // a read error, not a user's mistake
					t.Errorf("%s: tool error that neither names the file nor says the server failed: %s", name, text)
				case res.IsError:
					toolError++
				case name == "mod_get_hook":
					t.Errorf("mod_get_hook found a hook in a registry that has none: %s", text)
				default:
					ok++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(done)
	<-changer
	t.Logf("%d calls answered with content, %d with a tool error naming the file", ok, toolError)

	c := connect(t, s.url, mcp.ProtocolVersion20250618)
	if res := mcptest.Call(t, c, "mod_hook_registry", nil); res.IsError || !strings.Contains(mcptest.Text(res), `"hooks"`) {
		t.Errorf("registry restored, but: %s", mcptest.Text(res))
	}
	if res := mcptest.Call(t, c, "mod_read_contributing", nil); res.IsError || !strings.Contains(mcptest.Text(res), "Small commits") {
		t.Errorf("guide restored, but: %s", mcptest.Text(res))
	}
}

// Fault: a messy docs tree. A 50 MB doc (skipped past --max-doc-bytes,
// otherwise read in capped pages and searched to its last line), a doc
// with NUL bytes (served as it is), one that is not UTF-8 (skipped), and
// symlink loops: a folder linked to its parent, two files linked to each
// other, a file linked to itself. Loading ends, and nothing loops.
func TestFaultMessyTree(t *testing.T) {
	root := writeRepo(t, baseRepo)
	docsDir := filepath.Join(root, "docs")
	big, err := os.Create(filepath.Join(docsDir, "big.md"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(big, 1<<20)
	line := strings.Repeat("filler text for a very large page ", 3) + "\n" // 103 bytes
	// Over the default cap (16 MiB), under the raised one; under -race
	// the smallest size that still is.
	bigLines := mcptest.UnderRace(50_000_000, 20_000_000) / 103
	w.WriteString("# Big\n")
	for range bigLines {
		w.WriteString(line)
	}
	w.WriteString("needle-at-the-end\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	big.Close()
	for p, content := range map[string]string{"nul.md": "# NUL\n\nbefore\x00after hook\n", "latin1.md": "caf\xe9 hook\n"} {
		if err := os.WriteFile(filepath.Join(docsDir, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"loop": ".", "guide/up": "..", "a.md": "b.md", "b.md": "a.md", "self.md": "self.md"} {
		if err := os.Symlink(target, filepath.Join(docsDir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}

	for _, tt := range []struct {
		name        string
		maxDocBytes int64
		bigServed   bool
	}{
		{"default cap", 0, false},
		{"cap raised to 64 MiB", 64 << 20, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := serveRepo(t, root, tt.maxDocBytes, nil)
			var paths []string
			for _, d := range s.snap.Docs() {
				paths = append(paths, d.Path)
			}
			want := []string{"guide/hooks.md", "index.md", "nul.md"}
			if tt.bigServed {
				want = []string{"big.md", "guide/hooks.md", "index.md", "nul.md"}
			}
			if diff := cmp.Diff(want, paths); diff != "" {
				t.Errorf("docs loaded (-want +got):\n%s", diff)
			}

			c := connect(t, s.url, mcp.ProtocolVersion20250618)
			res := mcptest.Call(t, c, "mod_read_doc", map[string]any{"path": "nul.md"})
			if res.IsError || !strings.Contains(mcptest.Text(res), "before\x00after") {
				t.Errorf("doc with a NUL byte: %q", mcptest.Text(res))
			}
			// A call reads at most 4 MiB of text: past the big doc, the
			// search goes on from its cursor.
			args := map[string]any{"query": "e\x00a"}
			for page := 0; ; page++ {
				res = mcptest.CallBuilt(t, c, "mod_search_docs", args)
				var out struct {
					HasMore    bool   `json:"has_more"`
					NextCursor string `json:"next_cursor"`
				}
				mcptest.Decode(t, res, &out)
				if res.IsError || strings.Contains(mcptest.Text(res), "nul.md\n  NUL  #nul\n  3: ") || !out.HasMore || page == 3 {
					if !strings.Contains(mcptest.Text(res), "nul.md\n  NUL  #nul\n  3: ") {
						t.Errorf("search for a NUL byte, page %d: %q", page, mcptest.Text(res))
					}
					break
				}
				args["cursor"] = out.NextCursor
			}
			if res := mcptest.Call(t, c, "mod_read_doc", map[string]any{"path": "latin1.md"}); !res.IsError {
				t.Errorf("a doc that is not UTF-8 was served: %s", mcptest.Text(res))
			}

			res = mcptest.Call(t, c, "mod_read_doc", map[string]any{"path": "big.md", "start_line": 1000})
			if !tt.bigServed {
				if !res.IsError {
					t.Errorf("a 50 MB doc past the cap was served")
				}
				return
			}
			var read mcpserver.ReadDocOutput
			mcptest.Decode(t, res, &read)
			if res.IsError || read.StartLine != 1000 || read.TotalLines != bigLines+2 || read.NextStartLine != read.EndLine+1 || len(read.Content) > mcpserver.DefaultMaxResultBytes {
				t.Errorf("read of the 50 MB doc: lines %d-%d of %d, next %d, %d bytes",
					read.StartLine, read.EndLine, read.TotalLines, read.NextStartLine, len(read.Content))
			}
			res = mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "NEEDLE-AT-THE-END"})
			if want := fmt.Sprintf("big.md\n  Big  #big\n  %d: ", bigLines+2); res.IsError || !strings.Contains(mcptest.Text(res), want) {
				t.Errorf("search for the last line of the 50 MB doc: want %s in %.300s", want, mcptest.Text(res))
			}
		})
	}
}

// Fault: 100,000 tiny docs. They load, /health counts them, listing pages
// through them with cursors, and a search finds the one that differs.
func TestFaultManyDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100,000 files; skipped with -short")
	}
	n := mcptest.UnderRace(100_000, 10_000) // under -race, the same paths through fewer docs
	root := writeRepo(t, baseRepo)
	start := time.Now()
	for i := range n {
		dir := filepath.Join(root, "docs", "many", fmt.Sprintf("%03d", i/1000))
		if i%1000 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		body := fmt.Sprintf("# Page %d\n\nA tiny page.\n", i)
		if i == n*7/9 {
			body += "the odd one out\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%05d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d docs in %s", n, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	s := serveRepo(t, root, 0, nil)
	t.Logf("loaded them in %s", time.Since(start).Round(time.Millisecond))
	if got := len(s.snap.Docs()); got != n+2 {
		t.Fatalf("loaded %d docs, want %d", got, n+2)
	}
	f := &fixture{url: s.url, http: &httptest.Server{URL: strings.TrimSuffix(s.url, "/mcp")}}
	if h := f.health(t); h.Docs != n+2 {
		t.Errorf("/health counts %d docs, want %d", h.Docs, n+2)
	}

	start = time.Now()
	c := connect(t, s.url, mcp.ProtocolVersion20250618)
	res := mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "odd one out"})
	odd := n * 7 / 9
	if want := fmt.Sprintf("many/%03d/p%05d.md\n  Page %d  #page-%d\n  4: ", odd/1000, odd, odd, odd); res.IsError || !strings.Contains(mcptest.Text(res), want) {
		t.Errorf("search among %d docs: %.300s", n, mcptest.Text(res))
	}
	listed, pages := 0, 0
	args := map[string]any{"prefix": "many/", "limit": 1000}
	for {
		var page struct {
			Paths      []struct{ Path string }
			NextCursor string `json:"next_cursor"`
		}
		mcptest.Decode(t, mcptest.Call(t, c, "mod_list_doc_paths", args), &page)
		listed += len(page.Paths)
		pages++
		if page.NextCursor == "" || pages > n {
			break
		}
		args["cursor"] = page.NextCursor
	}
	t.Logf("searched and listed in %d pages in %s", pages, time.Since(start).Round(time.Millisecond))
	if listed != n {
		t.Errorf("listing with cursors gave %d paths in %d pages, want %d", listed, pages, n)
	}
}

// Fault: clients that go away mid-request: one sends its headers and half
// its body, one sends a whole request and leaves before the answer, one
// leaves while its GET stream is open. The server's goroutines come back to
// where they were, and the session they used still works.
func TestFaultClientDisconnects(t *testing.T) {
	s := serveRepo(t, writeRepo(t, baseRepo), 0, nil)
	addr := strings.TrimPrefix(strings.TrimSuffix(s.url, "/mcp"), "http://")
	f := &fixture{url: s.url}
	sid := f.initialize(t, nil)
	search := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"hook"}}}`
	head := func(method string, length int) string {
		return fmt.Sprintf("%s /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
			"Mcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n", method, addr, sid, length)
	}
	leave := map[string]func(net.Conn){
		"half a body":       func(c net.Conn) { io.WriteString(c, head("POST", len(search))+search[:len(search)/2]) },
		"before the answer": func(c net.Conn) { io.WriteString(c, head("POST", len(search))+search) },
		"open GET stream": func(c net.Conn) {
			id := f.initialize(t, nil) // a session of its own: one stream per session
			fmt.Fprintf(c, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-06-18\r\n\r\n", addr, id)
			status, err := bufio.NewReader(c).ReadString('\n')
			if err != nil || !strings.Contains(status, " 200 ") {
				t.Fatalf("GET stream: %q, %v", status, err)
			}
		},
	}

	// Warm up, so that pooled goroutines and connections exist before the
	// baseline.
	c := connect(t, s.url, mcp.ProtocolVersion20250618)
	mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "hook"})
	baseline := runtime.NumGoroutine()

	const rounds = 50
	for name, act := range leave {
		for range rounds {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			act(conn)
			conn.Close()
		}
		t.Logf("%d clients left with %s", rounds, name)
	}
	// The server notices each departure on its own schedule: wait for the
	// goroutines to wind down, up to a generous bound.
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > baseline+5 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := runtime.NumGoroutine(); got > baseline+5 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after %d departures, %d before: a leak\n%s", got, 3*rounds, baseline, buf[:runtime.Stack(buf, true)])
	}
	// A request whose client left keeps its id (5, the search's) reserved
	// until its handler returns (mcp-go, so that a late answer cannot be
	// taken for another call's). Under -race that can outlast the count of
	// goroutines above ("Request ID is already in use", CI 2026-12-07), so
	// the same request is sent until the id is free again.
	var res result
	mcptest.Eventually(t, "the abandoned requests to release their id", func() bool {
		res = do(t, f.rpc(t, sid, search))
		return !strings.Contains(string(res.body), "Request ID is already in use")
	})
	if res.status != http.StatusOK || !strings.Contains(string(res.body), "guide/hooks.md") {
		t.Errorf("the session after its clients left: %d %s", res.status, res.body)
	}
	if res := mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "hook"}); res.IsError {
		t.Errorf("another session: %s", mcptest.Text(res))
	}
}

// Fault: many sessions come and go. After 1000 sessions (initialize,
// search, read, DELETE; 50 at a time) the server holds none of them: the
// session table is empty and the live heap is back near where it started.
// Under the race detector, 200 sessions, still 50 at a time: the
// detector watches the same concurrent paths, and the plain run's 1000
// are what makes a small leak show in the heap.
func TestFaultSessionsLeaveNothing(t *testing.T) {
	s := serveRepo(t, writeRepo(t, baseRepo), 0, nil)
	if err := oneSession(s.url, 0); err != nil { // warm up pools and caches
		t.Fatal(err)
	}
	before := heapInUse()
	total, concurrent := mcptest.UnderRace(1000, 200), 50
	var wg sync.WaitGroup
	next := make(chan int)
	for range concurrent {
		wg.Go(func() {
			for i := range next {
				if err := oneSession(s.url, i); err != nil {
					t.Errorf("session %d: %v", i, err)
				}
			}
		})
	}
	for i := range total {
		next <- i
	}
	close(next)
	wg.Wait()
	http.DefaultClient.CloseIdleConnections()
	// Connections close on their own schedule: let them.
	var after uint64
	for range 50 {
		after = heapInUse()
		if after < before+4<<20 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("heap in use: %.1f MiB before, %.1f MiB after %d sessions", float64(before)/(1<<20), float64(after)/(1<<20), total)
	if n := s.srv.sessions.count(); n != 0 {
		t.Errorf("%d sessions live after every one was deleted", n)
	}
	if after > before+4<<20 {
		t.Errorf("heap grew by %.1f MiB over %d ended sessions", float64(after-before)/(1<<20), total)
	}
}
