package proxy

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// publicName is the proxy's name in the page; the test keeps it and
// resolves it to 127.0.0.1 itself.
const publicName = "docs.example.com"

// setup is the running pair: docs-mcp behind nginx.
type setup struct {
	base    string // https://docs.example.com:PORT, the proxy
	backend string // docs-mcp's host:port
	anon    *http.Client
	authed  *http.Client // sends the user's Basic credentials, as a configured MCP client does
	token   string       // docs-mcp's bearer token, known to nginx only
	basic   func(user, password string) *http.Client
}

// TestNginx runs the page's nginx server block in front of the page's
// docs-mcp command and uses the pair the way clients and browsers do.
func TestNginx(t *testing.T) {
	s := startPair(t)
	t.Run("public", s.checkPublic)
	t.Run("auth", s.checkAuth)
	t.Run("host", s.checkHost)
	t.Run("origin", s.checkOrigin)
	t.Run("session", s.checkSession)
}

func startPair(t *testing.T) *setup {
	nginx := need(t, "nginx", "/usr/sbin/nginx")
	openssl := need(t, "openssl")
	root := repoRoot(t)
	pg := readPage(t, filepath.Join(root, "docs", "server", "reverse-proxy.md"))
	dir := t.TempDir()

	port := testenv.FreePort(t)
	public := fmt.Sprintf("%s:%d", publicName, port)
	local := fmt.Sprintf("127.0.0.1:%d", port)
	s := &setup{base: "https://" + public, token: randomHex(t, 32)}
	tokenFile := filepath.Join(dir, "token")
	writeFile(t, tokenFile, []byte(s.token+"\n"))

	bin := buildDocsMCP(t, root, dir)
	command := fill(t, "docs-mcp command", strings.Join(pg.command, " "), []replacement{
		{"--listen 127.0.0.1:3000", "--listen 127.0.0.1:0", 1},
		{"/etc/docs-mcp/token", tokenFile, 1},
		{"https://docs.example.com", s.base, 1},
	})
	args := append(strings.Fields(command),
		"--data-root", root,
		"--site-dir", writeSite(t, filepath.Join(dir, "site")),
		// A heartbeat every 2 s on the GET stream (a third of this).
		"--session-idle-timeout", "6s",
		"--log-format", "json")
	s.backend = startDocsMCP(t, bin, args)

	cert, key, pool := writeCert(t, dir, publicName)
	passwords := filepath.Join(dir, "htpasswd")
	const user = "alice"
	password := randomHex(t, 12)
	htpasswd(t, openssl, passwords, user, password)
	server := fill(t, "nginx block", pg.server, []replacement{
		{"listen 443 ssl;", "listen " + local + " ssl;", 1},
		{"/etc/ssl/docs.example.com/fullchain.pem", cert, 1},
		{"/etc/ssl/docs.example.com/privkey.pem", key, 1},
		{"/etc/nginx/docs-mcp.htpasswd", passwords, 1},
		{"REPLACE-WITH-THE-TOKEN", s.token, 1},
		{"127.0.0.1:3000", s.backend, 2},
	})

	s.basic = func(user, password string) *http.Client {
		return proxyClient(public, local, pool, "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+password)))
	}
	s.anon = proxyClient(public, local, pool, "")
	s.authed = s.basic(user, password)
	startNginx(t, nginx, dir, nginxConf(dir, server), func() bool {
		resp, err := s.anon.Get(s.base + "/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return s
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// writeSite writes a tiny built wiki: a home page, one page and a 404
// page.
func writeSite(t *testing.T, dir string) string {
	t.Helper()
	for name, body := range map[string]string{
		"index.html":       "<html><title>home</title>wiki home</html>\n",
		"guide/index.html": "<html><title>guide</title>the guide</html>\n",
		"404.html":         "<html><title>404</title>no such wiki page</html>\n",
	} {
		writeFile(t, filepath.Join(dir, name), []byte(body))
	}
	return dir
}

// answer is what a test looks at in a response.
type answer struct {
	Status    int
	Challenge string // WWW-Authenticate
	Body      string // a part of the body, when the test names one
}

func do(t *testing.T, c *http.Client, req *http.Request, bodyPart string) answer {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	a := answer{Status: resp.StatusCode, Challenge: resp.Header.Get("WWW-Authenticate")}
	if bodyPart != "" && strings.Contains(string(body), bodyPart) {
		a.Body = bodyPart
	}
	return a
}

func newRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	return req
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"proxy-test","version":"1"}}}`

// checkPublic: /health, the redirect from / and the wiki answer without a
// password, through the proxy.
func (s *setup) checkPublic(t *testing.T) {
	resp, err := s.anon.Get(s.base + "/health")
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Status string
		Docs   int
		Wiki   bool
	}
	err = json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || h.Status != "ok" || h.Docs == 0 || !h.Wiki {
		t.Errorf("GET /health: %s %+v (%v); want 200, ok, docs, the wiki", resp.Status, h, err)
	}

	resp, err = s.anon.Get(s.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got, want := resp.Request.URL.String(), s.base+"/wiki/"; resp.StatusCode != http.StatusOK || got != want {
		t.Errorf("GET / ended at %s with %s; want %s, 200", got, resp.Status, want)
	}

	tests := []struct {
		path string
		want answer
	}{
		{"/wiki/", answer{Status: 200, Body: "wiki home"}},
		{"/wiki/guide/", answer{Status: 200, Body: "the guide"}},
		{"/wiki/no-such-page/", answer{Status: 404, Body: "no such wiki page"}},
	}
	for _, tt := range tests {
		got := do(t, s.anon, newRequest(t, http.MethodGet, s.base+tt.path, ""), tt.want.Body)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("GET %s (-want +got):\n%s", tt.path, diff)
		}
	}
}

// checkAuth: /mcp needs the user's password at the proxy, and docs-mcp's
// own port needs the token the proxy adds.
func (s *setup) checkAuth(t *testing.T) {
	proxyRefuses := answer{Status: 401, Challenge: `Basic realm="docs-mcp"`}
	tests := []struct {
		name   string
		client *http.Client
		url    string
		want   answer
	}{
		{"proxy without a password", s.anon, s.base + "/mcp", proxyRefuses},
		{"proxy with a wrong password", s.basic("alice", "wrong"), s.base + "/mcp", proxyRefuses},
		{"proxy with an unknown user", s.basic("mallory", "x"), s.base + "/mcp", proxyRefuses},
		{"proxy with docs-mcp's token instead of a password", proxyClientWith(s.anon, "Bearer "+s.token), s.base + "/mcp", proxyRefuses},
		{"docs-mcp directly without the token", http.DefaultClient, "http://" + s.backend + "/mcp", answer{Status: 401, Challenge: `Bearer realm="docs-mcp"`}},
		{"proxy with the password", s.authed, s.base + "/mcp", answer{Status: 200, Body: `"protocolVersion":"2025-11-25"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := do(t, tt.client, newRequest(t, http.MethodPost, tt.url, initialize), tt.want.Body)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("POST initialize (-want +got):\n%s", diff)
			}
		})
	}
}

// proxyClientWith is c sending another Authorization header.
func proxyClientWith(c *http.Client, auth string) *http.Client {
	h := *c.Transport.(*header)
	h.value = auth
	return &http.Client{Transport: &h}
}

// checkHost: the proxy serves its own name only; the server's loopback
// Host check is satisfied by the Host nginx sends and still guards its
// port.
func (s *setup) checkHost(t *testing.T) {
	req := newRequest(t, http.MethodGet, s.base+"/health", "")
	req.Host = "attacker.example"
	if got := do(t, s.anon, req, ""); got.Status != http.StatusMisdirectedRequest {
		t.Errorf("proxy, Host attacker.example: %d; want 421", got.Status)
	}
	req = newRequest(t, http.MethodGet, "http://"+s.backend+"/health", "")
	req.Host = "attacker.example"
	if got := do(t, http.DefaultClient, req, ""); got.Status != http.StatusForbidden {
		t.Errorf("docs-mcp directly, Host attacker.example: %d; want 403", got.Status)
	}
}

// checkOrigin: Origin passes the proxy unchanged, so docs-mcp still
// refuses foreign pages and lets the allowed origin in.
func (s *setup) checkOrigin(t *testing.T) {
	tests := []struct {
		origin string
		want   int
	}{
		{"https://attacker.example", http.StatusForbidden},
		{s.base, http.StatusOK},
	}
	for _, tt := range tests {
		req := newRequest(t, http.MethodPost, s.base+"/mcp", initialize)
		req.Header.Set("Origin", tt.origin)
		if got := do(t, s.authed, req, ""); got.Status != tt.want {
			t.Errorf("POST initialize with Origin %s: %d; want %d", tt.origin, got.Status, tt.want)
		}
	}
}

// checkSession runs a real MCP session through the proxy with mcp-go's
// client, watches its GET event stream, and ends it with DELETE.
func (s *setup) checkSession(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := client.NewStreamableHttpClient(s.base+"/mcp", transport.WithHTTPBasicClient(s.authed))
	if err != nil {
		t.Fatal(err)
	}
	res := mcptest.Initialize(t, c, mcp.LATEST_LEGACY_PROTOCOL_VERSION, "proxy-test") // the last version with sessions
	session := c.GetSessionId()
	if session == "" {
		t.Fatal("no Mcp-Session-Id came back through the proxy")
	}
	stream := openStream(t, s.authed, s.base+"/mcp", session, res.ProtocolVersion)

	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
	}
	if !names["mod_search_docs"] || !names["mod_read_doc"] {
		t.Fatalf("tools/list: %v; want mod_search_docs and mod_read_doc among them", names)
	}

	// This page is in the docs the server serves: find it and read the line.
	found := mcptest.SearchHits(t, mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "proxy_buffering      off", "path_prefix": "server/"}))
	if len(found) != 1 || found[0].Path != "server/reverse-proxy.md" {
		t.Fatalf("mod_search_docs: %+v; want the one line in server/reverse-proxy.md", found)
	}
	m := found[0]
	doc, _ := mcptest.CallOK[struct{ Content string }](t, c, "mod_read_doc", map[string]any{"path": m.Path, "start_line": m.Line, "end_line": m.Line})
	if strings.TrimSpace(doc.Content) != "proxy_buffering      off;" {
		t.Errorf("mod_read_doc %s:%d = %q; want the proxy_buffering line", m.Path, m.Line, doc.Content)
	}

	// The server's heartbeat arrives while the stream is open: nginx passes
	// each event on as it comes instead of holding it in a buffer. (A
	// notification could come first; any event must be JSON-RPC.)
	timeout := time.After(patience)
	for pinged := false; !pinged; {
		select {
		case data := <-stream.events:
			var msg struct{ JSONRPC, Method string }
			if err := json.Unmarshal([]byte(data), &msg); err != nil || msg.JSONRPC != "2.0" {
				t.Fatalf("event on the GET stream: %q; want a JSON-RPC message", data)
			}
			pinged = msg.Method == "ping"
		case <-stream.done:
			t.Fatalf("the GET stream ended before the server's heartbeat: %v", stream.err)
		case <-timeout:
			t.Fatalf("no heartbeat on the GET stream within %s: the proxy holds it back", patience)
		}
	}

	// Bodies up to docs-mcp's --max-body-bytes (64 KiB) pass the proxy;
	// larger ones are refused, by docs-mcp, or past the page's
	// client_max_body_size (4 MiB) by nginx.
	pad := func(n int) string {
		return `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("x", n) + `"}}}`
	}
	for _, tt := range []struct {
		size int
		want int
	}{{48 << 10, http.StatusOK}, {100 << 10, http.StatusRequestEntityTooLarge}, {5 << 20, http.StatusRequestEntityTooLarge}} {
		req := newRequest(t, http.MethodPost, s.base+"/mcp", pad(tt.size))
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", res.ProtocolVersion)
		if got := do(t, s.authed, req, ""); got.Status != tt.want {
			t.Errorf("a %d KiB ping: %d; want %d", tt.size>>10, got.Status, tt.want)
		}
	}

	if err := c.Close(); err != nil { // DELETE /mcp
		t.Fatalf("close: %v", err)
	}
	select {
	case <-stream.done:
	case <-time.After(patience):
		t.Errorf("the GET stream stayed open %s after DELETE", patience)
	}
	req := newRequest(t, http.MethodPost, s.base+"/mcp", `{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", res.ProtocolVersion)
	if got := do(t, s.authed, req, ""); got.Status != http.StatusNotFound {
		t.Errorf("a request in the deleted session: %d; want 404", got.Status)
	}
}

// stream is an open GET /mcp event stream: the data of each event, and
// done once it ends.
type stream struct {
	events chan string
	done   chan struct{}
	err    error // why it ended, once done is closed
}

func openStream(t *testing.T, c *http.Client, url, session, version string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", version)
	// The response head arrives in its own time; a proxy that buffers the
	// stream holds it back, and the test says so instead of hanging.
	type result struct {
		resp *http.Response
		err  error
	}
	answered := make(chan result, 1)
	go func() {
		resp, err := c.Do(req)
		answered <- result{resp, err}
	}()
	var r result
	select {
	case r = <-answered:
	case <-time.After(patience):
		cancel()
		<-answered
		t.Fatalf("GET /mcp: no response head within %s: the proxy holds the event stream back", patience)
	}
	resp, err := r.resp, r.err
	if err != nil {
		cancel()
		t.Fatalf("GET /mcp: %v", err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		resp.Body.Close()
		cancel()
		t.Fatalf("GET /mcp: %s, Content-Type %q; want 200, text/event-stream", resp.Status, ct)
	}
	s := &stream{events: make(chan string, 100), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
				select {
				case s.events <- strings.TrimSpace(data):
				default: // nobody is reading any more
				}
			}
		}
		s.err = sc.Err()
	}()
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
		<-s.done
	})
	return s
}
