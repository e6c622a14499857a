package httpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// outcome is what a raw request gets, as far as the rules decide it.
type outcome struct {
	Status  int
	Code    int               // JSON-RPC error code of the body, 0 for none
	Headers map[string]string // only the headers a case names
	Session bool              // an Mcp-Session-Id came back
}

// TestRules checks every rule of /mcp with raw HTTP requests.
func TestRules(t *testing.T) {
	const token = "s3cret-token"
	twentyMiB := 20 << 20
	discover := `{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}}}`

	tests := []struct {
		name    string
		opts    func(*setup)
		session string // "live": initialize first; "deleted": initialize and DELETE; else sent as is
		req     func(f *fixture, sid string) *http.Request
		headers []string // response headers to compare
		want    outcome
	}{
		{
			name: "initialize mints a session",
			req:  func(f *fixture, _ string) *http.Request { return f.rpc(t, "", initializeBody) },
			want: outcome{Status: 200, Session: true},
		},
		{
			name:    "live session is served",
			session: "live",
			req:     func(f *fixture, sid string) *http.Request { return f.rpc(t, sid, toolsListBody) },
			want:    outcome{Status: 200},
		},
		{
			name: "no session id",
			req:  func(f *fixture, _ string) *http.Request { return f.rpc(t, "", toolsListBody) },
			want: outcome{Status: 400, Code: codeInvalidRequest},
		},
		{
			name:    "unknown session id",
			session: "mcp-session-00000000-0000-4000-8000-000000000000",
			req:     func(f *fixture, sid string) *http.Request { return f.rpc(t, sid, toolsListBody) },
			want:    outcome{Status: 404, Code: codeNoSession},
		},
		{
			name:    "forged session id in our format",
			session: rand.Text(),
			req:     func(f *fixture, sid string) *http.Request { return f.rpc(t, sid, toolsListBody) },
			want:    outcome{Status: 404, Code: codeNoSession},
		},
		{
			name:    "deleted session: POST",
			session: "deleted",
			req:     func(f *fixture, sid string) *http.Request { return f.rpc(t, sid, toolsListBody) },
			want:    outcome{Status: 404, Code: codeNoSession},
		},
		{
			name:    "deleted session: GET",
			session: "deleted",
			req:     func(f *fixture, sid string) *http.Request { return f.stream(t, sid) },
			want:    outcome{Status: 404, Code: codeNoSession},
		},
		{
			name:    "deleted session: DELETE again",
			session: "deleted",
			req:     func(f *fixture, sid string) *http.Request { return f.end(t, sid) },
			want:    outcome{Status: 404, Code: codeNoSession},
		},
		{
			name:    "DELETE ends a live session",
			session: "live",
			req:     func(f *fixture, sid string) *http.Request { return f.end(t, sid) },
			want:    outcome{Status: 200},
		},
		{
			name:    "resources/read of an unknown doc: resource not found",
			session: "live",
			req: func(f *fixture, sid string) *http.Request {
				return f.rpc(t, sid, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"docs://nope.md"}}`)
			},
			want: outcome{Status: 200, Code: -32002},
		},
		{
			name:    "resources/read of a path out of docs/: resource not found",
			session: "live",
			req: func(f *fixture, sid string) *http.Request {
				return f.rpc(t, sid, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"docs://../go.work"}}`)
			},
			want: outcome{Status: 200, Code: -32002},
		},
		{
			name: "GET without a session",
			req:  func(f *fixture, _ string) *http.Request { return f.stream(t, "") },
			want: outcome{Status: 400, Code: codeInvalidRequest},
		},
		{
			name:    "GET with an unknown session",
			session: rand.Text(),
			req:     func(f *fixture, sid string) *http.Request { return f.stream(t, sid) },
			want:    outcome{Status: 404, Code: codeNoSession},
		},
		{
			name: "foreign Origin",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Origin", "https://evil.example")
			},
			headers: []string{"Content-Type"},
			want:    outcome{Status: 403, Code: codeServer, Headers: map[string]string{"Content-Type": "application/json"}},
		},
		{
			name: "Origin null",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Origin", "null")
			},
			want: outcome{Status: 403, Code: codeServer},
		},
		{
			name: "same Origin",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Origin", f.http.URL)
			},
			want: outcome{Status: 200, Session: true},
		},
		{
			name: "listed Origin",
			opts: func(o *setup) { o.AllowedOrigins = []string{"https://app.example.com"} },
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Origin", "https://app.example.com")
			},
			headers: []string{"Access-Control-Allow-Origin"},
			want:    outcome{Status: 200, Session: true, Headers: map[string]string{"Access-Control-Allow-Origin": "https://app.example.com"}},
		},
		{
			name: "CORS preflight from a listed Origin",
			opts: func(o *setup) { o.AllowedOrigins = []string{"https://app.example.com"}; o.AuthToken = token },
			req: func(f *fixture, _ string) *http.Request {
				req, _ := http.NewRequest(http.MethodOptions, f.url, nil)
				req.Header.Set("Origin", "https://app.example.com")
				req.Header.Set("Access-Control-Request-Method", "POST")
				return req
			},
			headers: []string{"Access-Control-Allow-Origin"},
			want:    outcome{Status: 204, Headers: map[string]string{"Access-Control-Allow-Origin": "https://app.example.com"}},
		},
		{
			name: "CORS preflight allows every header an MCP client sends",
			opts: func(o *setup) { o.AllowedOrigins = []string{"https://app.example.com"} },
			req: func(f *fixture, _ string) *http.Request {
				req, _ := http.NewRequest(http.MethodOptions, f.url, nil)
				req.Header.Set("Origin", "https://app.example.com")
				req.Header.Set("Access-Control-Request-Method", "POST")
				req.Header.Set("Access-Control-Request-Headers", "content-type, mcp-protocol-version, mcp-session-id")
				return req
			},
			headers: []string{"Access-Control-Allow-Headers"},
			want:    outcome{Status: 204, Headers: map[string]string{"Access-Control-Allow-Headers": "Content-Type, Accept, Authorization, Last-Event-ID, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name"}},
		},
		{
			name: "Origin localhost, the server addressed as 127.0.0.1",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Origin", "http://localhost:"+f.port())
			},
			want: outcome{Status: 200, Session: true},
		},
		{
			name: "Origin localhost on another port",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Origin", "http://localhost:1")
			},
			want: outcome{Status: 403, Code: codeServer},
		},
		{
			name: "Origin of this host and port with another scheme",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Origin", "ftp://127.0.0.1:"+f.port())
			},
			want: outcome{Status: 403, Code: codeServer},
		},
		{
			name:    "GET accepting only JSON",
			session: "live",
			req: func(f *fixture, sid string) *http.Request {
				return withHeader(f.stream(t, sid), "Accept", "application/json")
			},
			want: outcome{Status: 406, Code: codeInvalidRequest},
		},
		{
			name: "rebinding Host on /mcp",
			req: func(f *fixture, _ string) *http.Request {
				return withHost(f.rpc(t, "", initializeBody), "evil.example:3000")
			},
			want: outcome{Status: 403, Code: codeServer},
		},
		{
			name: "rebinding Host with matching Origin",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(withHost(f.rpc(t, "", initializeBody), "evil.example:3000"), "Origin", "http://evil.example:3000")
			},
			want: outcome{Status: 403, Code: codeServer},
		},
		{
			name: "rebinding Host on /health",
			req: func(f *fixture, _ string) *http.Request {
				req, _ := http.NewRequest(http.MethodGet, f.http.URL+"/health", nil)
				return withHost(req, "evil.example")
			},
			want: outcome{Status: 403, Code: codeServer},
		},
		{
			name: "localhost Host",
			req: func(f *fixture, _ string) *http.Request {
				return withHost(f.rpc(t, "", initializeBody), "localhost:3000")
			},
			want: outcome{Status: 200, Session: true},
		},
		{
			name: "20 MiB body with Content-Length",
			req: func(f *fixture, _ string) *http.Request {
				return f.rpc(t, "", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`+strings.Repeat("x", twentyMiB)+`"}}`)
			},
			want: outcome{Status: 413, Code: codeInvalidRequest},
		},
		{
			name: "20 MiB body, chunked",
			req: func(f *fixture, _ string) *http.Request {
				req := f.rpc(t, "", "")
				req.Body = io.NopCloser(io.MultiReader(strings.NewReader(`{"pad":"`), bytes.NewReader(bytes.Repeat([]byte("x"), twentyMiB))))
				req.ContentLength = -1
				return req
			},
			want: outcome{Status: 413, Code: codeInvalidRequest},
		},
		{
			name: "body just under the limit reaches mcp-go",
			opts: func(o *setup) { o.MaxBodyBytes = 4096 },
			req: func(f *fixture, _ string) *http.Request {
				body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
				return f.rpc(t, "", body+strings.Repeat(" ", 4096-len(body)))
			},
			want: outcome{Status: 200, Session: true},
		},
		{
			name: "malformed JSON",
			req:  func(f *fixture, _ string) *http.Request { return f.rpc(t, "", `{"jsonrpc":"2.0","id":1,"method":`) },
			want: outcome{Status: 400, Code: codeParse},
		},
		{
			name:    "batch",
			session: "live",
			req: func(f *fixture, sid string) *http.Request {
				return f.rpc(t, sid, `[`+toolsListBody+`,{"jsonrpc":"2.0","id":3,"method":"ping"}]`)
			},
			want: outcome{Status: 400, Code: codeInvalidRequest},
		},
		{
			name: "wrong content type",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Content-Type", "text/plain")
			},
			want: outcome{Status: 400},
		},
		{
			name: "PUT",
			req: func(f *fixture, _ string) *http.Request {
				req, _ := http.NewRequest(http.MethodPut, f.url, strings.NewReader(initializeBody))
				return req
			},
			headers: []string{"Allow"},
			want:    outcome{Status: 405, Code: codeServer, Headers: map[string]string{"Allow": "POST, GET, DELETE"}},
		},
		{
			name:    "missing token",
			opts:    func(o *setup) { o.AuthToken = token },
			req:     func(f *fixture, _ string) *http.Request { return f.rpc(t, "", initializeBody) },
			headers: []string{"WWW-Authenticate"},
			want:    outcome{Status: 401, Code: codeServer, Headers: map[string]string{"WWW-Authenticate": `Bearer realm="docs-mcp"`}},
		},
		{
			name: "wrong token",
			opts: func(o *setup) { o.AuthToken = token },
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Authorization", "Bearer s3cret-tokeN")
			},
			headers: []string{"WWW-Authenticate"},
			want:    outcome{Status: 401, Code: codeServer, Headers: map[string]string{"WWW-Authenticate": `Bearer realm="docs-mcp"`}},
		},
		{
			name: "token in another scheme",
			opts: func(o *setup) { o.AuthToken = token },
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Authorization", "Basic "+token)
			},
			want: outcome{Status: 401, Code: codeServer},
		},
		{
			name: "right token",
			opts: func(o *setup) { o.AuthToken = token },
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", initializeBody), "Authorization", "Bearer "+token)
			},
			want: outcome{Status: 200, Session: true},
		},
		{
			name: "health needs no token",
			opts: func(o *setup) { o.AuthToken = token },
			req: func(f *fixture, _ string) *http.Request {
				req, _ := http.NewRequest(http.MethodGet, f.http.URL+"/health", nil)
				return req
			},
			want: outcome{Status: 200},
		},
		{
			name:    "stateless: initialize mints no session",
			opts:    func(o *setup) { o.Stateless = true },
			req:     func(f *fixture, _ string) *http.Request { return f.rpc(t, "", initializeBody) },
			headers: []string{"Content-Type"},
			want:    outcome{Status: 200, Headers: map[string]string{"Content-Type": "application/json"}},
		},
		{
			name: "stateless: a request needs no session",
			opts: func(o *setup) { o.Stateless = true },
			req:  func(f *fixture, _ string) *http.Request { return f.rpc(t, "", toolsListBody) },
			want: outcome{Status: 200},
		},
		{
			name:    "stateless: GET",
			opts:    func(o *setup) { o.Stateless = true },
			req:     func(f *fixture, _ string) *http.Request { return f.stream(t, "") },
			headers: []string{"Allow"},
			want:    outcome{Status: 405, Code: codeServer, Headers: map[string]string{"Allow": "POST"}},
		},
		{
			name: "stateless: DELETE",
			opts: func(o *setup) { o.Stateless = true },
			req:  func(f *fixture, _ string) *http.Request { return f.end(t, rand.Text()) },
			want: outcome{Status: 405, Code: codeServer},
		},
		{
			name: "2026-07-28: server/discover without a session",
			req: func(f *fixture, _ string) *http.Request {
				req := withHeader(f.rpc(t, "", discover), mcp.HeaderProtocolVersion, mcp.ProtocolVersion20260728)
				return withHeader(req, mcp.HeaderMethod, "server/discover")
			},
			want: outcome{Status: 200},
		},
		{
			name: "2026-07-28: header and _meta disagree",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.rpc(t, "", discover), mcp.HeaderProtocolVersion, mcp.ProtocolVersion20251125)
			},
			want: outcome{Status: 400, Code: mcp.HEADER_MISMATCH},
		},
		{
			name: "2026-07-28: no GET stream",
			req: func(f *fixture, _ string) *http.Request {
				return withHeader(f.stream(t, ""), mcp.HeaderProtocolVersion, mcp.ProtocolVersion20260728)
			},
			want: outcome{Status: 405},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.opts)
			sid := tt.session
			switch sid {
			case "live":
				sid = f.initialize(t, nil)
			case "deleted":
				sid = f.initialize(t, nil)
				if res := do(t, f.end(t, sid)); res.status != http.StatusOK {
					t.Fatalf("DELETE: %d %s", res.status, res.body)
				}
			}
			res := do(t, tt.req(f, sid))
			got := outcome{Status: res.status, Code: errorCode(res.body), Session: res.session != ""}
			if len(tt.headers) > 0 {
				got.Headers = map[string]string{}
				for _, h := range tt.headers {
					got.Headers[h] = res.header.Get(h)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nbody: %.300s", diff, res.body)
			}
		})
	}
}

// TestSecondStream refuses a second GET stream on one session: a
// notification must go to exactly one stream.
func TestSecondStream(t *testing.T) {
	f := newFixture(t, nil)
	sid := f.initialize(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first, err := http.DefaultClient.Do(f.stream(t, sid).WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	if first.StatusCode != http.StatusOK {
		t.Fatalf("first GET: %d", first.StatusCode)
	}
	res := do(t, f.stream(t, sid))
	got := outcome{Status: res.status, Code: errorCode(res.body)}
	if diff := cmp.Diff(outcome{Status: http.StatusConflict, Code: codeServer}, got); diff != "" {
		t.Errorf("second GET (-want +got):\n%s", diff)
	}
}

// TestDeleteEndsStream checks that DELETE closes the session's open GET
// stream, rather than leaving it hanging.
func TestDeleteEndsStream(t *testing.T) {
	f := newFixture(t, nil)
	sid := f.initialize(t, nil)
	stream, err := http.DefaultClient.Do(f.stream(t, sid))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, stream.Body)
		ended <- err
	}()
	if res := do(t, f.end(t, sid)); res.status != http.StatusOK {
		t.Fatalf("DELETE: %d %s", res.status, res.body)
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("stream ended with %v, want a clean end", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("GET stream still open 10s after DELETE")
	}
}

// TestIdleExpiry lets a session sit idle past the timeout, over HTTP: it
// is then unknown (404) and no longer counted, while a session used within
// the timeout stays. The sessions run on the test's clock, so a stalled
// machine cannot make the busy session expire; the timeout is long enough
// that mcp-go's own sweeper, on the real clock, never runs meanwhile.
func TestIdleExpiry(t *testing.T) {
	const idle = time.Hour
	// Unused sessions get the same timeout here, so that the test is about
	// idle expiry alone (TestSessionsMakeRoom checks the shorter one for sessions never used).
	f := newFixture(t, func(o *setup) { o.SessionIdleTimeout, o.SessionInitTimeout = idle, idle })
	var elapsed atomic.Int64 // the test clock's advance, in nanoseconds
	start := time.Now()
	f.srv.sessions.now = func() time.Time { return start.Add(time.Duration(elapsed.Load())) }
	sid := f.initialize(t, nil)
	busy := f.initialize(t, nil)
	// A session used within the timeout stays; the other sits idle.
	for range 3 {
		elapsed.Add(int64(idle / 2))
		if res := do(t, f.rpc(t, busy, toolsListBody)); res.status != http.StatusOK {
			t.Fatalf("busy session: %d %s", res.status, res.body)
		}
	}
	res := do(t, f.rpc(t, sid, toolsListBody))
	got := outcome{Status: res.status, Code: errorCode(res.body)}
	if diff := cmp.Diff(outcome{Status: 404, Code: codeNoSession}, got); diff != "" {
		t.Errorf("idle session (-want +got):\n%s", diff)
	}
	if n := f.health(t).Sessions; n != 1 {
		t.Errorf("health counts %d sessions, want the busy one only", n)
	}
	elapsed.Add(int64(idle + time.Second))
	if n := f.health(t).Sessions; n != 0 {
		t.Errorf("health counts %d sessions once the busy one has been idle past the timeout, want 0", n)
	}
}

// TestSessionCapMakesRoom fills the session cap: the next initialize is
// admitted all the same, and the session that makes room for it is the one
// never used since initialize, then the one unused longest. (When every
// session is busy, initialize gets 503: TestSessionsMakeRoom.)
func TestSessionCapMakesRoom(t *testing.T) {
	f := newFixture(t, func(o *setup) { o.MaxSessions = 2 })
	used := f.initialize(t, nil)
	idle := f.initialize(t, nil)
	call := func(sid string) int { return do(t, f.rpc(t, sid, toolsListBody)).status }
	if got := call(used); got != http.StatusOK {
		t.Fatalf("tools/list: %d", got)
	}

	third := f.initialize(t, nil) // idle, never used, makes room
	got := []int{call(idle), call(used), call(third)}
	fourth := f.initialize(t, nil) // used is now the one unused longest
	got = append(got, call(used), call(third), call(fourth))
	if diff := cmp.Diff([]int{404, 200, 200, 404, 200, 200}, got); diff != "" {
		t.Errorf("idle, used, third after the third initialize; used, third, fourth after the fourth (-want +got):\n%s", diff)
	}
	if got := f.health(t).Sessions; got != 2 {
		t.Errorf("live sessions %d, want 2", got)
	}
}

func (f *fixture) stream(t testing.TB, session string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if session != "" {
		req.Header.Set(server.HeaderKeySessionID, session)
	}
	return req
}

func (f *fixture) end(t testing.TB, session string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodDelete, f.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(server.HeaderKeySessionID, session)
	return req
}

func withHeader(req *http.Request, key, value string) *http.Request {
	req.Header.Set(key, value)
	return req
}

func withHost(req *http.Request, host string) *http.Request {
	req.Host = host
	return req
}

// TestSessionCapConcurrent fills the cap with initializes sent all at once:
// every one of them fits, and the next makes room for itself.
func TestSessionCapConcurrent(t *testing.T) {
	const max = 50
	f := newFixture(t, func(o *setup) { o.MaxSessions = max })
	statuses := make(chan int, max)
	for range max {
		go func() {
			res, err := http.DefaultClient.Do(f.rpc(t, "", initializeBody))
			if err != nil {
				statuses <- 0
				return
			}
			res.Body.Close()
			statuses <- res.StatusCode
		}()
	}
	got := map[int]int{}
	for range max {
		got[<-statuses]++
	}
	if diff := cmp.Diff(map[int]int{200: max}, got); diff != "" {
		t.Errorf("statuses of %d concurrent initializes (-want +got):\n%s", max, diff)
	}
	if res := do(t, f.rpc(t, "", initializeBody)); res.status != http.StatusOK {
		t.Errorf("initialize past the cap: %d, want 200 (an idle session makes room)", res.status)
	}
	if got := f.health(t).Sessions; got != max {
		t.Errorf("live sessions %d, want %d", got, max)
	}
}

// A second initialize on a live session is refused (400, -32600): a
// session is initialized once. The session goes on serving.
func TestInitializeTwice(t *testing.T) {
	f := newFixture(t, nil)
	id := f.initialize(t, nil)
	again := do(t, f.rpc(t, id, initializeBody))
	if again.status != http.StatusBadRequest || errorCode(again.body) != codeInvalidRequest || again.session != "" {
		t.Errorf("initialize again on session %s: %d %q, session %q; want 400, -32600 and no new session", id, again.status, again.body, again.session)
	}
	if res := do(t, f.rpc(t, id, toolsListBody)); res.status != http.StatusOK || errorCode(res.body) != 0 {
		t.Errorf("tools/list after: %d %s", res.status, res.body)
	}
}

// A 2026-07-28 client notification without _meta (the Go SDK's
// notifications/cancelled when it ends a listen) is accepted (202), not
// refused: the Go SDK takes a 400 there for a broken connection.
func TestModernNotificationWithoutMeta(t *testing.T) {
	f := newFixture(t, nil)
	req := f.rpc(t, "", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`)
	req.Header.Set(mcp.HeaderProtocolVersion, "2026-07-28")
	if res := do(t, req); res.status != http.StatusAccepted || len(res.body) != 0 {
		t.Errorf("notifications/cancelled without _meta: %d %q, want 202 and no body", res.status, res.body)
	}
}
