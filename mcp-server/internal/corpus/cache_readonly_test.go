package corpus

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestCacheShipped writes a cache as an image does at build time
// (WriteCache), then starts from it read-only, as the image's server does
// on its read-only file system: the start uses it, checks every doc
// against the disk, reads again a doc edited since, and never writes the
// file, nor warns that it cannot.
func TestCacheShipped(t *testing.T) {
	cfg := cachedTree(t, lightTree)
	size, held, err := WriteCache(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile(cfg.CacheFile)
	if err != nil || len(shipped) != size || held != lightTree {
		t.Fatalf("WriteCache said %d bytes, %d docs; the file has %d bytes (%v)", size, held, len(shipped), err)
	}
	if runtime.GOOS != "windows" {
		// Written as root at build time, read by the server's own user.
		for path, want := range map[string]os.FileMode{cfg.CacheFile: 0o644, filepath.Dir(cfg.CacheFile): 0o755} {
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != want {
				t.Errorf("%s: %v, %v; want mode %v", path, info.Mode(), err, want)
			}
		}
	}

	cfg.CacheReadOnly = true
	for _, c := range []struct {
		name, edit, log string
		served          bool // edited.md
	}{
		{"unchanged docs", "", "cache=used read_again=0 removed=0", false},
		{"a doc added since", "# Edited\n\nshipped words\n", "cache=used read_again=1 removed=0", true},
		{"again, read again", "", "cache=used read_again=1 removed=0", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.edit != "" {
				mcptest.WriteFile(t, filepath.Join(cfg.DocsPath, "edited.md"), c.edit)
				backdate(t, cfg.DocsPath)
			}
			snap, log := start(t, cfg)
			if !strings.Contains(log, c.log) || strings.Contains(log, "level=WARN") || strings.Contains(log, "docs cache written") {
				t.Errorf("want %q, no warning and no write:\n%s", c.log, log)
			}
			if now, err := os.ReadFile(cfg.CacheFile); err != nil || !bytes.Equal(now, shipped) {
				t.Errorf("the read-only cache changed (%v)", err)
			}
			if _, ok := snap.Lookup("edited.md"); ok != c.served {
				t.Errorf("edited.md served: %v, want %v", ok, c.served)
			}
		})
	}
	t.Run("writable, the same start writes", func(t *testing.T) {
		cfg := cfg
		cfg.CacheReadOnly = false
		if _, log := start(t, cfg); !strings.Contains(log, "docs cache written") {
			t.Errorf("a writable cache of docs that changed was not written:\n%s", log)
		}
	})
}
