package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// repo writes a small repository and returns its root.
func repo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range map[string]string{
		"go.work":                  "go 1.26.0\n",
		"docs/index.md":            "# Home\n\nWelcome to the hooks docs.\n",
		"docs/guide/intro.md":      "# Intro\n\nRegister hooks early.\n",
		"framework/mod_hooks.json": `{"hooks": []}` + "\n",
		"CONTRIBUTING.md":          "# Contributing\n\n## Conventions\n\n- Small commits.\n",
	} {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestStdioClient runs docs-mcp as a subprocess and talks to it with
// mcp-go's stdio client, as an IDE would.
func TestStdioClient(t *testing.T) {
	c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", repo(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	res := mcptest.Initialize(t, c, "2025-06-18", "stdio-test")
	if res.ServerInfo.Name != "docs-mcp" || res.ServerInfo.Version != "v0.0.0-test" || !strings.Contains(res.Instructions, "mod_search_docs") {
		t.Errorf("initialize = %+v; want docs-mcp v0.0.0-test with instructions", res.ServerInfo)
	}

	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 10 {
		t.Errorf("listed %d tools, want 10", len(tools.Tools))
	}

	call := mcp.CallToolRequest{}
	call.Params.Name = "mod_search_docs"
	call.Params.Arguments = map[string]any{"query": "HOOKS"}
	out, err := c.CallTool(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	text := out.Content[0].(mcp.TextContent).Text
	for _, want := range []string{"guide/intro.md\n  Intro  #intro\n  3: ", "index.md\n  Home  #home\n  3: "} {
		if !strings.Contains(text, want) {
			t.Errorf("search result lacks %s:\n%s", want, text)
		}
	}
}

// TestStdioAsk asks a question over stdio, twice: from a process that
// loads the docs, and from one that starts from the cache the first wrote
// with nothing changed since (the snapshot served then follows itself,
// which once hung every ranked question).
func TestStdioAsk(t *testing.T) {
	root, cache := repo(t), t.TempDir()
	// Docs written a moment ago are read again at every start (racily
	// clean, as git says): an hour old, the cache serves them as they are.
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"docs/index.md", "docs/guide/intro.md"} {
		if err := os.Chtimes(filepath.Join(root, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	for _, start := range []string{"without a cache", "from the cache"} {
		// The tests' processes keep no cache (TestMain); this one does.
		c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", root, "--cache-dir", cache, "--no-cache=false")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		mcptest.Initialize(t, c, "2025-06-18", "stdio-test")
		call := mcp.CallToolRequest{}
		call.Params.Name = "mod_ask_docs"
		call.Params.Arguments = map[string]any{"question": "when should I register my hooks?"}
		out, err := c.CallTool(ctx, call)
		cancel()
		// The first process writes its cache once its index is built.
		mcptest.Eventually(t, "the docs cache written", func() bool {
			entries, _ := os.ReadDir(cache)
			return len(entries) > 0
		})
		c.Close()
		if err != nil {
			t.Fatalf("%s: %v", start, err)
		}
		text := out.Content[0].(mcp.TextContent).Text
		if !strings.Contains(text, "1. guide/intro.md#intro — Intro (") {
			t.Errorf("%s: the first section is not guide/intro.md#intro:\n%s", start, text)
		}
	}
}

// TestStdioReadAndList: mod_read_doc's list_subsections and the folders
// mod_list_doc_paths names, over stdio.
func TestStdioReadAndList(t *testing.T) {
	root := repo(t)
	if err := os.WriteFile(filepath.Join(root, "docs", "guide", "intro.md"), []byte("# Intro\n\nRegister hooks early.\n\n## When\n\nAt start.\n\n### Early\n\nFirst.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", root)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mcptest.Initialize(t, c, "2025-06-18", "stdio-test")
	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = name, args
		out, err := c.CallTool(ctx, req)
		if err != nil || out.IsError {
			t.Fatalf("%s %v: %v %v", name, args, err, out)
		}
		return out.StructuredContent.(map[string]any)
	}
	read := call("mod_read_doc", map[string]any{"path": "guide/intro.md", "section": "when", "list_subsections": true})
	subs, _ := read["subsections"].([]any)
	if read["end_line"] != float64(8) || len(subs) != 1 || subs[0].(map[string]any)["anchor"] != "early" {
		t.Errorf("section when, its own text: lines to %v, subsections %v; want to 8, and #early listed", read["end_line"], subs)
	}
	list := call("mod_list_doc_paths", map[string]any{"prefix": "Guide/"})
	if dym, _ := list["did_you_mean"].([]any); len(dym) == 0 || dym[0].(map[string]any)["path"] != "guide/" {
		t.Errorf("prefix Guide/: did_you_mean %v, want guide/ first", list["did_you_mean"])
	}
	list = call("mod_list_doc_paths", map[string]any{})
	if folders, _ := list["folders"].([]any); len(folders) != 1 || folders[0].(map[string]any)["path"] != "guide/" {
		t.Errorf("folders %v, want guide/", list["folders"])
	}
}

// session is a docs-mcp subprocess with raw pipes.
type session struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr mcptest.Buffer // written by the process while the test reads it
}

func start(t *testing.T, args ...string) *session {
	t.Helper()
	s := &session{cmd: exec.Command("docs-mcp", args...)}
	var err error
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.stdout = bufio.NewReaderSize(out, 1<<20)
	s.cmd.Stderr = &s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Kill() })
	return s
}

func (s *session) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// finish ends the input, reads n responses (see responses) and checks
// that the server then exits 0, as it must on end of input.
func (s *session) finish(t *testing.T, n int) map[string]map[string]any {
	t.Helper()
	s.stdin.Close()
	got := s.responses(t, n)
	if code := s.wait(t); code != 0 {
		t.Errorf("exit code %d on end of input, want 0; stderr: %s", code, s.stderr.String())
	}
	return got
}

// responses reads n responses from stdout, checks that every line is a
// JSON-RPC 2.0 message, and returns the responses by id. Notifications
// from the server are skipped, as a client would.
func (s *session) responses(t *testing.T, n int) map[string]map[string]any {
	t.Helper()
	got := map[string]map[string]any{}
	for len(got) < n {
		line, err := s.stdout.ReadString('\n')
		if err != nil {
			t.Fatalf("read stdout: %v (stderr: %s)", err, s.stderr.String())
		}
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg["jsonrpc"] != "2.0" {
			t.Fatalf("stdout carried a line that is not JSON-RPC: %q", line)
		}
		if _, ok := msg["method"]; ok {
			continue
		}
		got[fmt.Sprint(msg["id"])] = msg
	}
	return got
}

func (s *session) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		t.Fatalf("docs-mcp did not exit; stderr: %s", s.stderr.String())
		return -1
	}
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// TestStdioHygiene checks the stdio contract byte by byte: only JSON-RPC on
// stdout, a parse error for a malformed line without stopping, a 1 MiB
// request line, every answer delivered before exit 0 on end of input.
func TestStdioHygiene(t *testing.T) {
	s := start(t, "--stdio", "--data-root", repo(t), "--log-level", "debug")
	s.send(t, initLine)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(t, `this is not json {`)
	big := strings.Repeat("x", 1<<20)
	s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mod_read_doc","arguments":{"path":"`+big+`"}}}`)
	s.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"welcome"}}}`)
	got := s.finish(t, 4) // end of input right after the requests: all must still be answered
	if rest, _ := io.ReadAll(s.stdout); len(rest) != 0 {
		t.Errorf("unexpected output after the answers: %q", rest)
	}
	if e, _ := got["<nil>"]["error"].(map[string]any); e == nil || e["code"] != float64(-32700) {
		t.Errorf("malformed line: got %v, want a -32700 parse error", got["<nil>"])
	}
	if r, _ := got["2"]["result"].(map[string]any); r == nil || r["isError"] != true {
		t.Errorf("1 MiB request: got %.200v, want a tool error answer", got["2"])
	}
	r3, _ := json.Marshal(got["3"]["result"])
	var search struct {
		StructuredContent struct {
			Docs []struct {
				Path     string
				Sections []struct{ Lines []struct{ Line int } }
			}
		}
	}
	err := json.Unmarshal(r3, &search)
	if docs := search.StructuredContent.Docs; err != nil || len(docs) != 1 || docs[0].Path != "index.md" ||
		len(docs[0].Sections) != 1 || len(docs[0].Sections[0].Lines) != 1 || docs[0].Sections[0].Lines[0].Line != 3 {
		t.Errorf("search after a bad line: %s", r3)
	}
	if !strings.Contains(s.stderr.String(), "docs loaded") {
		t.Errorf("logs did not go to stderr: %q", s.stderr.String())
	}
}

func TestStdioSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			s := start(t, "--stdio", "--data-root", repo(t))
			s.send(t, initLine)
			// A search waits for the docs: once it is answered, nothing
			// else is due.
			s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"welcome"}}}`)
			got := s.responses(t, 2)
			if got["1"]["result"] == nil || got["2"]["result"] == nil {
				t.Fatalf("initialize or search failed: %v", got)
			}
			if err := s.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := s.wait(t); code != 0 {
				t.Errorf("exit code %d on %v, want 0; stderr: %s", code, sig, s.stderr.String())
			}
			if diff := cmp.Diff("", strings.TrimSpace(readAll(s.stdout))); diff != "" {
				t.Errorf("stdout after the signal (-want +got):\n%s", diff)
			}
		})
	}
}

func readAll(r io.Reader) string {
	b, _ := io.ReadAll(r)
	return string(b)
}

// TestStdioInvalidRequests sends what JSON-RPC calls an Invalid Request: a
// batch (MCP has none) and a request whose id is null. Each gets a -32600
// error with a null id, and the server goes on.
func TestStdioInvalidRequests(t *testing.T) {
	for _, line := range []string{
		`[{"jsonrpc":"2.0","id":7,"method":"tools/list"},{"jsonrpc":"2.0","id":8,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`,
	} {
		s := start(t, "--stdio", "--data-root", repo(t))
		s.send(t, initLine)
		s.send(t, line)
		s.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
		got := s.finish(t, 3)
		e, _ := got["<nil>"]["error"].(map[string]any)
		if e == nil || e["code"] != float64(-32600) {
			t.Errorf("%s: got %v, want a -32600 error", line, got["<nil>"])
		}
		if got["5"]["result"] == nil {
			t.Errorf("%s: the next request got %v", line, got["5"])
		}
	}
}

// TestStdioLineCap sends a line past --max-line-bytes: it is answered with
// an Invalid Request naming the limit, not read, and the next request is
// served; one line just under the cap is served as usual.
func TestStdioLineCap(t *testing.T) {
	s := start(t, "--stdio", "--data-root", repo(t), "--max-line-bytes", "65536")
	s.send(t, initLine)
	s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mod_read_doc","arguments":{"path":"`+strings.Repeat("x", 1<<20)+`"}}}`)
	s.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mod_read_doc","arguments":{"path":"`+strings.Repeat("y", 60_000)+`"}}}`)
	s.send(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	got := s.finish(t, 4)
	e, _ := got["<nil>"]["error"].(map[string]any)
	if msg, _ := e["message"].(string); e == nil || e["code"] != float64(-32600) || !strings.Contains(msg, "65536-byte limit") || !strings.Contains(msg, "--max-line-bytes") {
		t.Errorf("a 1 MiB line: got %v, want -32600 naming the 65536-byte limit and its flag", got["<nil>"])
	}
	if _, ok := got["2"]; ok {
		t.Errorf("the line past the cap was answered as a request: %.200v", got["2"])
	}
	if r, _ := got["3"]["result"].(map[string]any); r == nil || r["isError"] != true {
		t.Errorf("a line under the cap: got %.200v, want the tool's answer", got["3"])
	}
	if got["4"]["result"] == nil {
		t.Errorf("the request after the long line got %v", got["4"])
	}
}

// TestStdioVersions runs docs-mcp with --versions on a repository whose
// working tree holds an edit not committed: the releases, stacked on the
// working tree's docs and index, answer each from its own text.
func TestStdioVersions(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{
		"docs/index.md":       "# Home\n\nWelcome to the hooks docs.\n",
		"docs/guide/intro.md": "# Intro\n\nRegister hooks early.\n",
		"docs/guide/later.md": "# Later\n\nHooks of release one.\n",
	})
	r.Commit("v1")
	r.Git("tag", "v1")
	r.Write(map[string]string{"docs/guide/later.md": "# Later\n\nHooks of release two.\n"})
	r.Commit("v2")
	r.Git("tag", "v2")
	r.Write(map[string]string{"docs/guide/intro.md": "# Intro\n\nRegister hooks late, not committed.\n"})

	c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", r.Dir, "--versions", "v*")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mcptest.Initialize(t, c, "2025-06-18", "stdio-test")
	for _, tc := range []struct {
		version   string
		want, not []string
	}{
		{"", []string{"late, not committed", "release two", "Welcome to the hooks"}, []string{"early", "release one"}},
		{"v2", []string{"early", "release two", "Welcome to the hooks"}, []string{"not committed", "release one"}},
		{"v1", []string{"early", "release one", "Welcome to the hooks"}, []string{"not committed", "release two"}},
	} {
		call := mcp.CallToolRequest{}
		call.Params.Name = "mod_search_docs"
		call.Params.Arguments = map[string]any{"query": "hooks"}
		if tc.version != "" {
			call.Params.Arguments = map[string]any{"query": "hooks", "version": tc.version}
		}
		out, err := c.CallTool(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		text := out.Content[0].(mcp.TextContent).Text
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("version %q: the search lacks %q:\n%s", tc.version, w, text)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(text, n) {
				t.Errorf("version %q: the search has %q:\n%s", tc.version, n, text)
			}
		}
	}

	// The links a versioned answer hands out are readable and can be
	// subscribed to, through the transport's own checks.
	ask := mcp.CallToolRequest{}
	ask.Params.Name = "mod_ask_docs"
	ask.Params.Arguments = map[string]any{"question": "hooks of release one", "version": "v1"}
	out, err := c.CallTool(ctx, ask)
	if err != nil || out.IsError {
		t.Fatalf("mod_ask_docs v1: %v %v", err, out)
	}
	var link *mcp.ResourceLink
	for _, item := range out.Content {
		if l, ok := item.(mcp.ResourceLink); ok && strings.HasSuffix(l.URI, "/guide/later.md") {
			link = &l
		}
	}
	if link == nil || link.URI != "docs-version://v1/guide/later.md" {
		t.Fatalf("mod_ask_docs v1 links no docs-version://v1/guide/later.md: %+v", out.Content)
	}
	read := mcp.ReadResourceRequest{}
	read.Params.URI = link.URI
	res, err := c.ReadResource(ctx, read)
	if err != nil {
		t.Fatalf("read %s: %v", link.URI, err)
	}
	if text := res.Contents[0].(mcp.TextResourceContents).Text; !strings.Contains(text, "release one") {
		t.Errorf("read %s: %q", link.URI, text)
	}
	read.Params.URI = "docs-version://v1/guide/later.md#later"
	if _, err := c.ReadResource(ctx, read); err != nil {
		t.Errorf("read %s: %v", read.Params.URI, err)
	}
	sub := mcp.SubscribeRequest{}
	sub.Params.URI = link.URI
	if err := c.Subscribe(ctx, sub); err != nil {
		t.Errorf("subscribe %s: %v", link.URI, err)
	}
	for _, uri := range []string{"docs-version://v9/guide/later.md", "docs-version://v1/no/such.md", "docs-version://v1"} {
		read.Params.URI = uri
		if _, err := c.ReadResource(ctx, read); err == nil || !strings.Contains(err.Error(), uri) {
			t.Errorf("read %s: %v, want an error naming it", uri, err)
		}
	}
}
