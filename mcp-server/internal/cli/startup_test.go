package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/watch"
)

// TestStartupDoesNotWaitForDocs holds the docs load back and checks that
// the server answers initialize meanwhile, that a search sent before the
// docs are there waits for them and then answers from them, and that an
// edit made while the docs load is seen once they are.
func TestStartupDoesNotWaitForDocs(t *testing.T) {
	root := repo(t)
	gate := make(chan struct{})
	loading := make(chan struct{})
	cfg := stdioConfig(root, watch.Auto)
	cfg.beforeLoad = func(ctx context.Context) {
		close(loading)
		select {
		case <-gate:
		case <-ctx.Done():
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, inR, outW, io.Discard) }()
	out := bufio.NewReader(outR)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	// next returns the next response, skipping notifications.
	next := func() map[string]any {
		t.Helper()
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			var msg map[string]any
			if err := json.Unmarshal([]byte(line), &msg); err != nil {
				t.Fatalf("not JSON: %q", line)
			}
			if _, ok := msg["method"]; !ok {
				return msg
			}
		}
	}

	<-loading // the watcher is ready and the load is held at the gate
	send(initLine)
	if got := next(); fmt.Sprint(got["id"]) != "1" || got["result"] == nil {
		t.Fatalf("initialize while the docs load: got %v", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"gated"}}}`)
	// An edit made while the docs load (after the watcher is ready).
	if err := os.WriteFile(filepath.Join(root, "docs", "late.md"), []byte("# Late\n\nWritten while gated.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	close(gate)
	type match struct {
		Path string
		Line int
	}
	search := func(msg map[string]any) []match {
		t.Helper()
		raw, _ := json.Marshal(msg["result"])
		var res struct {
			IsError           bool
			StructuredContent struct{ Matches []match }
		}
		if err := json.Unmarshal(raw, &res); err != nil || res.IsError {
			t.Fatalf("search: %s (%v)", raw, err)
		}
		return res.StructuredContent.Matches
	}
	// The file may or may not have been read by the load; either way it
	// is there once the watcher's batch is applied.
	first := search(next())
	if len(first) > 1 {
		t.Fatalf("search sent while the docs loaded: %v", first)
	}
	want := []match{{Path: "late.md", Line: 3}}
	for id := 3; ; id++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"gated"}}}`, id))
		got := search(next())
		if cmp.Equal(want, got) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the edit made during the load never showed (-want +got):\n%s", cmp.Diff(want, got))
		}
		time.Sleep(20 * time.Millisecond) // poll for the watcher's batch; not a timing assertion
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}

// TestStartupLoadFailureStops checks that a docs folder that cannot be
// read stops the server with an error, instead of serving nothing.
func TestStartupLoadFailureStops(t *testing.T) {
	root := repo(t)
	cfg := stdioConfig(root, watch.Off)
	cfg.beforeLoad = func(context.Context) {
		// The folder goes between the configuration check and the load.
		if err := os.RemoveAll(filepath.Join(root, "docs")); err != nil {
			t.Error(err)
		}
	}
	inR, _ := io.Pipe() // stdin stays open: only the failed load can stop the server
	err := run(context.Background(), cfg, inR, io.Discard, io.Discard)
	if err == nil {
		t.Fatal("run served without docs")
	}
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "load docs: ") {
		t.Errorf("run: %v; want a load docs error saying the folder does not exist", err)
	}
}

// stdioConfig is the configuration of a stdio server over the repository
// root, as the flags would give it.
func stdioConfig(root string, mode watch.Mode) config {
	return config{
		Version:          "test",
		Stdio:            true,
		DataRoot:         root,
		DocsPath:         filepath.Join(root, "docs"),
		RegistryPath:     filepath.Join(root, "framework", "mod_hooks.json"),
		ContributingPath: filepath.Join(root, "CONTRIBUTING.md"),
		LogFormat:        "text",
		Watch:            mode,
	}
}
