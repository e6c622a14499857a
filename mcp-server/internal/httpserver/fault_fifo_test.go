//go:build unix

package httpserver_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFaultNotRegularFiles puts named pipes where the server reads files:
// a page of the wiki folder, a doc under docs/ at start and one that
// appears while it runs, and CONTRIBUTING.md. Opening a pipe waits for a
// writer, so each would hold a request, the live reload or the exit. None
// is opened: the wiki answers 404 (more requests than --max-connections,
// so a held one would lock the next out), the guide is a tool error, the
// docs are skipped with a warning and an edit made after the live pipe
// still shows, and SIGTERM exits 0.
func TestFaultNotRegularFiles(t *testing.T) {
	root := t.TempDir()
	src, _ := filepath.Abs("testdata/root")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "CONTRIBUTING.md"))
	for _, f := range []string{"site/pipe.html", "docs/pipe-start.md", "CONTRIBUTING.md"} {
		if err := syscall.Mkfifo(filepath.Join(root, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := start(t, nil, "--data-root", root, "--max-connections", "8", "--shutdown-timeout", "10s")
	base := "http://" + p.addr

	// Three times --max-connections, each on a connection of its own: a
	// request held by the pipe would keep its connection.
	c := &http.Client{Timeout: liveness, Transport: &http.Transport{DisableKeepAlives: true}}
	for range 24 {
		res, err := c.Get(base + "/wiki/pipe.html")
		if err != nil {
			t.Fatalf("GET /wiki/pipe.html: %v", err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Fatalf("GET /wiki/pipe.html: %d, want 404", res.StatusCode)
		}
	}

	url := base + "/mcp"
	sid := rawSession(t, p)
	call := func(name, args string) string {
		t.Helper()
		_, b, _, err := post(url, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`}}`)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := call("mod_read_contributing", `{}`); !strings.Contains(got, `"isError":true`) {
		t.Errorf("mod_read_contributing with a pipe for CONTRIBUTING.md: %s, want a tool error", got)
	}

	// A pipe appears under docs/, then a doc: the reload goes on.
	if err := syscall.Mkfifo(filepath.Join(root, "docs/pipe-live.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs/fresh.md"), []byte("# Fresh\n\nfreshword\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the doc written after the pipe is searchable", func() bool {
		return strings.Contains(call("mod_search_docs", `{"query":"freshword"}`), "fresh.md")
	})
	mustBeServed(t, p, "the pipes")

	for _, f := range []string{"pipe-start.md", "pipe-live.md"} {
		if !strings.Contains(p.stderr.String(), `"path":"`+f+`","reason":"a named pipe, not a regular file: never opened"`) {
			t.Errorf("no warning in the log for docs/%s", f)
		}
	}
	if !strings.Contains(p.stderr.String(), "wiki file skipped") {
		t.Error("no warning in the log for site/pipe.html")
	}
	if code, _ := stop(t, p); code != 0 {
		t.Errorf("exit %d after SIGTERM, want 0", code)
	}
}
