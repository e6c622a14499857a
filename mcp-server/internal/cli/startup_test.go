package cli

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// TestStartupLoadFailureStops checks that a docs folder that cannot be
// read stops the server with an error, instead of serving nothing.
func TestStartupLoadFailureStops(t *testing.T) {
	root := repo(t)
	cfg := stdioConfig(root, watch.Off) // checked, as configFrom would have
	// The folder goes between the configuration check and the load.
	if err := os.RemoveAll(filepath.Join(root, "docs")); err != nil {
		t.Fatal(err)
	}
	inR, _ := io.Pipe() // stdin stays open: only the failed load can stop the server
	var log strings.Builder
	err := run(context.Background(), cfg, inR, io.Discard, &log)
	if err == nil {
		t.Fatal("run served without docs")
	}
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "load docs: ") {
		t.Errorf("run: %v; want a load docs error saying the folder does not exist", err)
	}
	// No signal came: the last line says why serving stopped.
	if !strings.Contains(log.String(), `msg=stopped reason="the docs could not be loaded"`) || strings.Contains(log.String(), "reason=signal") {
		t.Errorf("log:\n%s\nwant stopped with the reason: the docs could not be loaded", log.String())
	}
}

// TestStartupLoadFailureStdinClosed checks the exit status of a server
// whose stdin is closed at once, as in "docs-mcp --stdio </dev/null": the
// load may fail after stdin has ended, and run still reports it. Which
// comes first is up to the scheduler, so the scenario runs several times
// (before the fix, a third of the runs returned no error).
func TestStartupLoadFailureStdinClosed(t *testing.T) {
	for range 20 {
		root := repo(t)
		cfg := stdioConfig(root, watch.Off)
		if err := os.RemoveAll(filepath.Join(root, "docs")); err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		err := run(context.Background(), cfg, strings.NewReader(""), io.Discard, &log)
		if err == nil || !strings.HasPrefix(err.Error(), "load docs: ") {
			t.Fatalf("run with stdin closed and no docs: %v; want the load docs error\nlog:\n%s", err, log.String())
		}
	}
	// With docs it ends without error once they are loaded.
	root := repo(t)
	if err := run(context.Background(), stdioConfig(root, watch.Off), strings.NewReader(""), io.Discard, io.Discard); err != nil {
		t.Errorf("run with stdin closed: %v", err)
	}
}

// stdioConfig is the configuration of a stdio server over the repository
// root, as the flags would give it.
func stdioConfig(root string, mode watch.Mode) config {
	registry, contributing := filepath.Join(root, "framework", "mod_hooks.json"), filepath.Join(root, "CONTRIBUTING.md")
	cfg := config{Version: "test", Stdio: true, DataRoot: root, LogFormat: "text", MaxLineBytes: 16 << 20,
		Corpus: corpus.DefaultConfig(), MCP: mcpserver.DefaultConfig()}
	cfg.Corpus.DataRoot, cfg.Corpus.DocsPath, cfg.Corpus.Files = root, filepath.Join(root, "docs"), []string{registry, contributing}
	cfg.Corpus.Watch = mode
	cfg.MCP.DataRoot, cfg.MCP.RegistryPath, cfg.MCP.ContributingPath = root, registry, contributing
	return cfg
}
