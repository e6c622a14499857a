package httpserver_test

// Tests of the real docs-mcp binary over HTTP: graceful shutdown under
// SIGTERM, and the official TypeScript SDK client.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/tssdk"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

var tmpDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "docs-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpDir = dir
	// The servers the tests start keep their caches here, not in the
	// user's cache folder.
	os.Setenv("DOCS_MCP_CACHE_DIR", filepath.Join(dir, "cache"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// binary builds the docs-mcp command once per test run.
var binary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(tmpDir, "docs-mcp")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/docs-mcp/docs-mcp/mcp-server").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// proc is a running docs-mcp.
type proc struct {
	cmd    *exec.Cmd
	addr   string
	stderr *mcptest.Buffer
	exited chan struct{}
	err    error // of Wait, once exited is closed
}

// start runs docs-mcp on a free loopback port over testdata/root and waits
// until it serves.
func start(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	root, _ := filepath.Abs("testdata/root")
	return startAt(t, root, env, args...)
}

// startAt is start over the data root root.
func startAt(t *testing.T, root string, env []string, args ...string) *proc {
	t.Helper()
	// The binary is built without -race, so the detector would watch only
	// this test's client side; the package's own tests run the server in
	// process under it.
	mcptest.SkipUnderRace(t, "tests the docs-mcp binary, which is not built with -race")
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	args = append([]string{"--data-root", root, "--site-dir", "site", "--listen", "127.0.0.1:0", "--log-format", "json"}, args...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stderr: &mcptest.Buffer{}, exited: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.stderr.Write(append(sc.Bytes(), '\n'))
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "serving http" {
				addr <- line.Addr
			}
		}
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
		if t.Failed() {
			t.Logf("docs-mcp stderr:\n%s", p.stderr)
		}
	})
	select {
	case p.addr = <-addr:
	case <-p.exited:
		t.Fatalf("docs-mcp exited before serving: %v\n%s", p.err, p.stderr)
	case <-time.After(60 * time.Second):
		t.Fatalf("docs-mcp not serving after 60s:\n%s", p.stderr)
	}
	return p
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"shutdown-test","version":"1"}}}`

// TestShutdownDrains sends SIGTERM while slow requests are in flight and a
// GET stream is open: every request gets its whole answer, the stream ends
// cleanly, and the process exits 0. It does so once the docs are loaded
// and indexed, and once while they load (20,000 docs more, which take
// hundreds of milliseconds where the signal comes within a few): the
// requests then wait for the docs, which go on loading while the server
// drains.
func TestShutdownDrains(t *testing.T) {
	mcptest.SkipUnderRace(t, "tests the docs-mcp binary, which is not built with -race") // before 20,000 docs are written for it
	t.Run("loaded", func(t *testing.T) {
		p := start(t, nil, "--shutdown-timeout", "30s")
		mcptest.Eventually(t, "the search index built", func() bool {
			return strings.Contains(p.stderr.String(), `"msg":"search index built"`)
		})
		drain(t, p)
	})
	t.Run("loading", func(t *testing.T) {
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS("testdata/root")); err != nil {
			t.Fatal(err)
		}
		if _, err := corpusgen.Generate(context.Background(), filepath.Join(root, "docs", "zz"), corpusgen.Options{Seed: 1, Files: 20000, Shape: corpusgen.Small}); err != nil {
			t.Fatal(err)
		}
		p := startAt(t, root, nil, "--shutdown-timeout", "30s")
		drain(t, p)
		log := p.stderr.String()
		if loaded, stopping := strings.Index(log, `"msg":"docs loaded"`), strings.Index(log, `"msg":"shutting down"`); loaded != -1 && loaded < stopping {
			t.Errorf("the docs were loaded before the signal (log offsets %d, %d): the load was not under way while the server drained", loaded, stopping)
		}
	})
}

// drain sends SIGTERM to p while slow requests are in flight and a GET
// stream is open, and checks that every request gets its whole answer, the
// stream ends cleanly, and the process exits 0.
func drain(t *testing.T, p *proc) {
	const slow = 4
	url := "http://" + p.addr + "/mcp"

	res, err := http.Post(url, "application/json", strings.NewReader(initialize))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d, session %q", res.StatusCode, sid)
	}

	// An open GET stream: shutdown must end it, not wait for it.
	streamReq, _ := http.NewRequest(http.MethodGet, url, nil)
	streamReq.Header.Set("Mcp-Session-Id", sid)
	streamReq.Header.Set("Accept", "text/event-stream")
	stream, err := http.DefaultClient.Do(streamReq)
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", err, stream)
	}
	streamEnded := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, stream.Body)
		streamEnded <- err
	}()

	// Slow POSTs: each sends its headers, waits until the handler asks for
	// the body (100 Continue), and sends the body only after SIGTERM.
	type answer struct {
		status int
		body   string
		err    error
	}
	answers := make(chan answer, slow)
	reading := make(chan struct{}, slow)
	bodies := make([]*io.PipeWriter, slow)
	for i := range slow {
		pr, pw := io.Pipe()
		bodies[i] = pw
		req, _ := http.NewRequest(http.MethodPost, url, pr)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		req.Header.Set("Expect", "100-continue")
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			Got100Continue: func() { reading <- struct{}{} },
		}))
		client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Minute}}
		go func() {
			res, err := client.Do(req)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			answers <- answer{status: res.StatusCode, body: string(b), err: err}
		}()
	}
	for range slow {
		select {
		case <-reading:
		case <-time.After(30 * time.Second):
			t.Fatal("the server did not start reading the slow requests")
		}
	}

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-streamEnded:
		if err != nil {
			t.Errorf("GET stream ended with %v, want a clean end", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("GET stream still open 30s after SIGTERM")
	}
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"player.joined"}}}`
	for i, w := range bodies {
		msg := fmt.Sprintf(call, i+10)
		// Sent in pieces, so the request is still arriving during shutdown.
		for len(msg) > 0 {
			n := min(len(msg), 32)
			if _, err := io.WriteString(w, msg[:n]); err != nil {
				t.Fatalf("request %d: write body: %v", i, err)
			}
			msg = msg[n:]
			time.Sleep(5 * time.Millisecond)
		}
		w.Close()
	}
	for range slow {
		a := <-answers
		if a.err != nil {
			t.Errorf("request cut off: %v", a.err)
			continue
		}
		if a.status != http.StatusOK || !strings.Contains(a.body, `"path":"guide/hooks.md"`) {
			t.Errorf("answer %d: %.300s", a.status, a.body)
		}
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("docs-mcp still running 30s after SIGTERM")
	}
	if p.err != nil {
		t.Errorf("exit: %v, want status 0", p.err)
	}
	if !strings.Contains(p.stderr.String(), `"msg":"stopped"`) {
		t.Errorf("no stop in the log:\n%s", p.stderr)
	}
}

// TestTypeScriptClient runs the official MCP TypeScript SDK client against
// the binary over Streamable HTTP, with a bearer token.
func TestTypeScriptClient(t *testing.T) {
	const token = "ts-smoke-token"
	p := start(t, []string{"DOCS_MCP_AUTH_TOKEN=" + token})
	got := tssdk.RunSummary(t, "http", "http://"+p.addr+"/mcp", token)

	if diff := cmp.Diff([]string{"mod_ask_docs", "mod_docs_changes", "mod_get_hook", "mod_hook_registry", "mod_list_doc_paths", "mod_list_versions", "mod_read_contributing", "mod_read_doc", "mod_repo_layout", "mod_search_docs"}, got.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	registry, err := os.Stat("testdata/root/framework/mod_hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case got.Server.Name != "docs-mcp" || !strings.HasPrefix(got.Protocol, "20"):
		t.Errorf("server %q, protocol %q", got.Server.Name, got.Protocol)
	case got.Search.IsError || got.Search.Matches == 0:
		t.Errorf("search: %+v, want matches", got.Search)
	case got.Read.IsError || !got.Read.ContainsQuery:
		t.Errorf("read of the first hit: %+v", got.Read)
	case !got.BadPath.IsError:
		t.Errorf("bad path: %+v", got.BadPath)
	case got.Registry.IsError || int64(got.Registry.Bytes) != registry.Size():
		t.Errorf("registry: %+v, want %d bytes", got.Registry, registry.Size())
	case !got.Completion.Capability || !cmp.Equal(got.Completion.Paths, []string{"guide/", "index.md"}) ||
		!cmp.Equal(got.Completion.Hooks, []string{"player.joined", "chat.message"}) || !cmp.Equal(got.Completion.PromptHooks, []string{"player.joined"}):
		t.Errorf("completion: %+v", got.Completion)
	case got.Resources != 7 || got.ResourceRead.MimeType != "text/markdown":
		t.Errorf("resources: %d listed, read %+v; want 2 docs, the map (docs://map), 3 repo files and the docs reader app", got.Resources, got.ResourceRead)
	case got.PromptBytes == 0:
		t.Error("empty prompt")
	case !got.Session || !got.Terminated:
		t.Errorf("session %v, terminated by DELETE %v", got.Session, got.Terminated)
	}
	t.Logf("TypeScript SDK negotiated %s", got.Protocol)
	if strings.Contains(p.stderr.String(), token) {
		t.Error("the bearer token appears in the log")
	}
}
