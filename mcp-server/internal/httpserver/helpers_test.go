package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// testRoot is a small repository: docs, a registry of two hooks, a
// contribution guide and a built site.
const testRoot = "testdata/root"

// fixture is a running server over testRoot.
type fixture struct {
	srv  *Server
	mcp  *server.MCPServer
	http *httptest.Server
	url  string // of /mcp
}

// newFixture starts a server over testRoot on a loopback httptest
// listener; opts may change the options first.
func newFixture(t testing.TB, opts func(*setup)) *fixture {
	t.Helper()
	root, err := filepath.Abs(testRoot)
	if err != nil {
		t.Fatal(err)
	}
	return newFixtureIn(t, root, opts)
}

// newFixtureIn is newFixture over the repository root.
func newFixtureIn(t testing.TB, root string, opts func(*setup)) *fixture {
	t.Helper()
	_, mcpSrv, o := parts(t, root, 0)
	if opts != nil {
		opts(&o)
	}
	return serve(t, New(o.Config, o.Parts), mcpSrv)
}

// serve runs srv on a loopback httptest listener until the test ends.
func serve(t testing.TB, srv *Server, mcpSrv *server.MCPServer) *fixture {
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Shutdown(context.Background())
		ts.Close()
	})
	return &fixture{srv: srv, mcp: mcpSrv, http: ts, url: ts.URL + "/mcp"}
}

// setup is what New takes, in one value for tests to change.
type setup struct {
	Config
	Parts
}

// parts builds what a test server over root is made of: root's docs
// loaded (docs over maxDocBytes skipped; 0 for the default), the MCP
// server over them, and the HTTP setup for root, whose Status is the MCP
// server's. With -v the server's log goes to the test log.
func parts(t testing.TB, root string, maxDocBytes int64) (*docs.Snapshot, *server.MCPServer, setup) {
	t.Helper()
	snap, err := docs.Load(context.Background(), filepath.Join(root, "docs"), docs.LoadOptions{MaxDocBytes: maxDocBytes, Generation: 1})
	if err != nil {
		t.Fatalf("load docs: %v", err)
	}
	log := slog.New(slog.DiscardHandler)
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	content := mcpserver.New(contentConfig(root), opened(snap, corpus.DefaultConfig()))
	o := setup{Config: DefaultConfig(), Parts: Parts{MCP: content.MCP(), Status: content.Status, Logger: log}}
	o.Version, o.SiteDir = "test", filepath.Join(root, "site")
	// Tests open sessions from one address faster than any client does;
	// the rate's own tests set it.
	o.SessionRate = 0
	return snap, content.MCP(), o
}

// contentConfig is the MCP server's configuration for the repository root.
func contentConfig(root string) mcpserver.Config {
	cfg := mcpserver.DefaultConfig()
	cfg.Version, cfg.DataRoot = "test", root
	cfg.RegistryPath = filepath.Join(root, "framework", "mod_hooks.json")
	cfg.ContributingPath = filepath.Join(root, "CONTRIBUTING.md")
	return cfg
}

// opened is a corpus configured by cfg that serves snap, as if it had
// loaded it.
func opened(snap *docs.Snapshot, cfg corpus.Config) *corpus.Corpus {
	c := corpus.New(cfg)
	c.Open(snap)
	return c
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// connect starts an mcp-go Streamable HTTP client on protocol version
// (empty: the client's default, 2026-07-28) and initializes it.
func (f *fixture) connect(t testing.TB, version string, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	return connect(t, f.url, version, opts...)
}

// connect starts an mcp-go Streamable HTTP client on the /mcp endpoint url
// and protocol version (empty: the client's default) and initializes it.
func connect(t testing.TB, url, version string, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var copts []client.ClientOption
	if version != "" {
		copts = append(copts, client.WithProtocolVersion(version))
	}
	c := client.NewClient(tr, copts...)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start client: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	mcptest.Initialize(t, c, version, "httpserver-test")
	return c
}

// rpc builds a raw JSON-RPC POST to /mcp.
func (f *fixture) rpc(t testing.TB, session, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set(server.HeaderKeySessionID, session)
		req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion20250618)
	}
	return req
}

const (
	initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	toolsListBody  = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

// initialize opens a session over raw HTTP and returns its id.
func (f *fixture) initialize(t testing.TB, header http.Header) string {
	t.Helper()
	req := f.rpc(t, "", initializeBody)
	for k, v := range header {
		req.Header[k] = v
	}
	res := do(t, req)
	if res.status != http.StatusOK || res.session == "" {
		t.Fatalf("initialize: status %d, session %q, body %s", res.status, res.session, res.body)
	}
	return res.session
}

// result is what the raw tests look at in a response.
type result struct {
	status  int
	session string // Mcp-Session-Id
	header  http.Header
	body    []byte
}

func do(t testing.TB, req *http.Request) result {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", req.Method, req.URL.Path, err)
	}
	return result{status: res.StatusCode, session: res.Header.Get(server.HeaderKeySessionID), header: res.Header, body: body}
}

// errorCode is the JSON-RPC error code of a body, 0 when it has none.
func errorCode(body []byte) int {
	var e struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(bytes.TrimSpace(body), &e) != nil || e.Error == nil {
		return 0
	}
	return e.Error.Code
}

// health fetches /health.
func (f *fixture) health(t testing.TB) Health {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.http.URL+"/health", nil)
	res := do(t, req)
	var h Health
	if err := json.Unmarshal(res.body, &h); err != nil {
		t.Fatalf("health: %v: %s", err, res.body)
	}
	return h
}

// streamOpen reports whether a session has an open GET stream.
func (s *sessions) streamOpen(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.live[id]
	return ok && ss.stream != nil
}

// port is the port the fixture's server listens on.
func (f *fixture) port() string {
	u, err := url.Parse(f.http.URL)
	if err != nil {
		panic(err)
	}
	return u.Port()
}

// ids are the live sessions' ids.
func (s *sessions) ids() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id := range s.live {
		ids = append(ids, id)
	}
	return ids
}
