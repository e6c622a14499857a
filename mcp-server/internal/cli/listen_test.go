package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/stdio"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// modernMeta is the _meta of a 2026-07-28 request.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

// modern is a 2026-07-28 request line.
func modern(id any, method, params string) string {
	if params != "" {
		params = "," + params
	}
	idJSON, _ := json.Marshal(id)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{%s%s}}`, idJSON, method, modernMeta, params)
}

// message is a JSON-RPC message as read from stdout.
type message struct {
	ID     any            `json:"id"`
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
	Result map[string]any `json:"result"`
	Error  *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	} `json:"error"`
}

// subscriptionID is the io.modelcontextprotocol/subscriptionId of a
// notification, or nil.
func (m message) subscriptionID() any {
	meta, _ := m.Params["_meta"].(map[string]any)
	return meta["io.modelcontextprotocol/subscriptionId"]
}

// messages reads stdout line by line into a channel, closed at its end.
func (s *session) messages(t *testing.T) <-chan message {
	t.Helper()
	out := make(chan message, 100)
	go func() {
		defer close(out)
		for {
			line, err := s.stdout.ReadBytes('\n')
			if err != nil {
				return
			}
			var m message
			if json.Unmarshal(line, &m) != nil {
				m.Method = "not JSON: " + string(line)
			}
			out <- m
		}
	}()
	return out
}

// next returns the next message, failing the test if none comes.
func next(t *testing.T, in <-chan message, what string) message {
	t.Helper()
	select {
	case m, ok := <-in:
		if !ok {
			t.Fatalf("stdout ended, waiting for %s", what)
		}
		return m
	case <-time.After(mcptest.Deadline):
		t.Fatalf("no %s", what)
	}
	return message{}
}

// startModern starts docs-mcp over stdio with a 2026-07-28 client that
// has sent server/discover and a search, and checks that nothing came
// unasked meanwhile (a search waits for the docs: once it is answered,
// anything their arrival sends is out too).
func startModern(t *testing.T) (*session, <-chan message, string) {
	t.Helper()
	root := repo(t)
	s := start(t, "--stdio", "--data-root", root, "--log-level", "warn")
	in := s.messages(t)
	s.send(t, modern(1, "server/discover", ""))
	s.send(t, modern(2, "tools/call", `"name":"mod_search_docs","arguments":{"query":"hooks"}`))
	for answered := 0; answered < 2; {
		m := next(t, in, "the server/discover and search answers")
		if m.ID == nil {
			t.Errorf("a notification nobody asked for: %+v", m)
			continue
		}
		answered++
	}
	return s, in, root
}

// listen sends a subscriptions/listen with id and notifications, and
// returns its acknowledgement.
func (s *session) listen(t *testing.T, in <-chan message, id, notifications string) message {
	t.Helper()
	s.send(t, modern(id, "subscriptions/listen", `"notifications":`+notifications))
	ack := next(t, in, "the acknowledgement of listen "+id)
	if ack.Method != "notifications/subscriptions/acknowledged" || ack.subscriptionID() != id {
		t.Fatalf("after listen %s: %+v, want its acknowledgement", id, ack)
	}
	return ack
}

// A 2026-07-28 client over stdio gets what its subscriptions/listen asked
// for, each notification tagged with the listen's id: list_changed for a
// new doc, resources/updated for an edited doc it named; and nothing it
// did not ask for.
func TestStdioListen(t *testing.T) {
	s, in, root := startModern(t)
	s.listen(t, in, "L", `{"resourcesListChanged":true,"resourceSubscriptions":["docs://guide/intro.md"]}`)
	write := func(rel, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, "docs", rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("added.md", "# Added\n")
	if m := next(t, in, "list_changed"); m.Method != "notifications/resources/list_changed" || m.subscriptionID() != "L" {
		t.Errorf("after a new doc: %+v, want list_changed tagged L", m)
	}
	edited := time.Now()
	write("guide/intro.md", "# Intro\n\nEdited.\n")
	if m := next(t, in, "resources/updated"); m.Method != "notifications/resources/updated" ||
		m.Params["uri"] != "docs://guide/intro.md" || m.subscriptionID() != "L" {
		t.Errorf("after an edit: %+v, want resources/updated for docs://guide/intro.md tagged L", m)
	}
	t.Logf("resources/updated read %s after the edit (a figure, not a check)", time.Since(edited))
}

// A listen naming URIs the server does not list: with some it does, the
// acknowledgement names only those; with none, invalid params saying which.
func TestStdioListenUnknownURIs(t *testing.T) {
	s, in, _ := startModern(t)
	s.send(t, modern("all-unknown", "subscriptions/listen", `"notifications":{"resourceSubscriptions":["docs://no/such.md"]}`))
	m := next(t, in, "the answer to a listen naming only unknown URIs")
	if m.ID != "all-unknown" || m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("listen naming only docs://no/such.md: %+v, want a -32602 error", m)
	} else if diff := cmp.Diff(map[string]any{"unknownUris": []any{"docs://no/such.md"}}, m.Error.Data); diff != "" {
		t.Errorf("the error's data (-want +got):\n%s", diff)
	}
	ack := s.listen(t, in, "L", `{"resourceSubscriptions":["docs://guide/intro.md","docs://no/such.md"]}`)
	want := map[string]any{"resourceSubscriptions": []any{"docs://guide/intro.md"}}
	if diff := cmp.Diff(want, ack.Params["notifications"]); diff != "" {
		t.Errorf("acknowledged (-want +got):\n%s", diff)
	}
}

// A cancelled listen gets no result, and when stdin closes with a listen
// open, the process ends without waiting out the drain of answers owed (a
// listen is owed one only when the session ends).
func TestStdioListenEnds(t *testing.T) {
	s, in, _ := startModern(t)
	s.listen(t, in, "L", `{"resourceSubscriptions":["docs://guide/intro.md"]}`)
	s.listen(t, in, "C", `{"resourceSubscriptions":["docs://index.md"]}`)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"C","reason":"test"}}`)
	s.send(t, modern(3, "ping", ""))
	if m := next(t, in, "the ping answer"); m.ID != float64(3) {
		t.Errorf("after cancelling C: %+v, want the ping answer", m)
	}

	s.stdin.Close()
	// Not a speed test: a process waiting out stdio.DrainTimeout for the
	// listen's answer fails it, one that does not wait passes in any
	// weather. Its stdout ends when it exits.
	var rest []message
	giveUp := time.After(stdio.DrainTimeout / 3)
	for open := true; open; {
		select {
		case m, ok := <-in:
			if open = ok; ok {
				rest = append(rest, m)
			}
		case <-giveUp:
			t.Fatalf("still running %s after end of input, with a listen open (the drain timeout is %s)", stdio.DrainTimeout/3, stdio.DrainTimeout)
		}
	}
	if code := s.wait(t); code != 0 {
		t.Errorf("exit code %d, want 0; stderr: %s", code, s.stderr.String())
	}
	if len(rest) != 1 || rest[0].ID != "L" || rest[0].Result == nil {
		t.Errorf("after the ping and end of input: %+v, want only the result of listen L (none for the cancelled C)", rest)
	}
}

// A listen cancelled hears nothing more, from the moment the cancellation
// is read: the edit of a doc it named, made once a ping sent after the
// cancellation is answered, reaches only the listen still open. (The
// cancelled listen leaves the server's list in a goroutine of its own, a
// moment later; under load the official TypeScript SDK's matrix saw a
// resources/updated in that moment.)
func TestStdioListenCancelledHearsNothing(t *testing.T) {
	s, in, root := startModern(t)
	s.listen(t, in, "C", `{"resourcesListChanged":true,"resourceSubscriptions":["docs://guide/intro.md"]}`)
	s.listen(t, in, "B", `{"resourcesListChanged":true}`)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"C","reason":"test"}}`)
	s.send(t, modern(3, "ping", ""))
	if m := next(t, in, "the ping answer"); m.ID != float64(3) {
		t.Fatalf("after cancelling C: %+v, want the ping answer", m)
	}
	for rel, content := range map[string]string{"guide/intro.md": "# Intro\n\nEdited.\n", "barrier.md": "# Barrier\n"} {
		if err := os.WriteFile(filepath.Join(root, "docs", rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for {
		m := next(t, in, "list_changed tagged B")
		if m.subscriptionID() == "C" {
			t.Errorf("the cancelled listen C was sent %+v", m)
		}
		if m.Method == "notifications/resources/list_changed" && m.subscriptionID() == "B" {
			return
		}
	}
}

// A read or subscription of a doc that does not exist: the error says
// which URI in quotes, and why beside it (no doc at that path, and the
// nearest valid ones); a subscription to it is invalid params.
func TestStdioUnknownURIs(t *testing.T) {
	s := start(t, "--stdio", "--data-root", repo(t))
	s.send(t, initLine)
	s.send(t, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"docs://guide/intro2.md"}}`)
	s.send(t, `{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"docs://guide/intro2.md"}}`)
	s.stdin.Close()
	got := s.responses(t, 3)
	type answer struct {
		Code    float64
		Message string
	}
	errorOf := func(id string) answer {
		e, _ := got[id]["error"].(map[string]any)
		code, _ := e["code"].(float64)
		msg, _ := e["message"].(string)
		return answer{code, msg}
	}
	want := map[string]answer{
		"2": {-32002, `resource not found: "docs://guide/intro2.md": no doc at "guide/intro2.md"; nearest valid paths: guide/intro.md`},
		"3": {-32602, `no such resource: "docs://guide/intro2.md"; subscribe to a URI from resources/list`},
	}
	if diff := cmp.Diff(want, map[string]answer{"2": errorOf("2"), "3": errorOf("3")}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A client that made the initialize handshake keeps its revision on the
// connection (issue 38, item 5): one request carrying 2026-07-28 _meta
// does not turn the session into a 2026-07-28 one, which would get nothing
// unasked: the next new doc is still told with list_changed.
func TestStdioMixedRevisions(t *testing.T) {
	root := repo(t)
	s := start(t, "--stdio", "--data-root", root, "--log-level", "warn")
	in := s.messages(t)
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(t, modern(2, "tools/call", `"name":"mod_search_docs","arguments":{"query":"hooks"}`))
	for answered := 0; answered < 2; {
		if m := next(t, in, "the initialize and search answers"); m.ID != nil {
			answered++
		}
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "added.md"), []byte("# Added\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := next(t, in, "list_changed"); m.Method != "notifications/resources/list_changed" {
		t.Errorf("after a new doc: %+v, want notifications/resources/list_changed", m)
	}
}
