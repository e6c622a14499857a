//go:build unix

package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestCacheHostile puts at the cache's path what anyone who can write the
// cache folder (a shared one under /tmp) could, to turn the cache against
// the server: a named pipe, which an open waits on for a writer; a link
// to /dev/zero, which never ends; a sparse file of 2 GiB, which costs
// nothing to make and 2 GiB to read. Each start serves the tree's docs,
// says once why it ignored the file, reads none of it, ends when stopped,
// and leaves a cache that the next start uses.
func TestCacheHostile(t *testing.T) {
	mcptest.SkipUnderRace(t, "its subject is the file at the cache's path, refused in one goroutine; the cache's load and save run under the detector in TestCacheRacy and TestCacheShared")
	cfg := cachedTree(t, lightTree)
	snap, _ := start(t, cfg)
	want := answers(t, snap)
	for _, c := range []struct {
		name  string
		plant func(path string) error
		says  string
	}{
		{"a named pipe", func(p string) error { return syscall.Mkfifo(p, 0o600) }, "a named pipe, not a regular file"},
		{"a link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "a device, not a regular file"},
		{"a sparse 2 GiB file", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(2 << 30)
		}, "more than a cache of these docs can hold"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.Remove(cfg.CacheFile); err != nil {
				t.Fatal(err)
			}
			if err := c.plant(cfg.CacheFile); err != nil {
				t.Fatal(err)
			}
			before := bytesRead(t)
			snap, log := startUnhung(t, cfg)
			if read := bytesRead(t) - before; read > 1<<30 {
				t.Errorf("the start read %d bytes: it read the file it should have refused", read)
			}
			if n := strings.Count(log, "ignoring the docs cache"); n != 1 || !strings.Contains(log, c.says) {
				t.Errorf("%d warnings, want one saying %q:\n%s", n, c.says, log)
			}
			if diff := cmp.Diff(want, answers(t, snap)); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			if info, err := os.Lstat(cfg.CacheFile); err != nil || !info.Mode().IsRegular() {
				t.Fatalf("no cache written in its place: %v", err)
			}
			if _, log := startUnhung(t, cfg); !strings.Contains(log, "cache=used") {
				t.Errorf("the cache written in its place was not used:\n%s", log)
			}
		})
	}
	// Writing the cache reads the head of the other caches of the folder
	// (prune): a named pipe among them must not hold the write up, nor
	// the server's end, which writes the cache.
	t.Run("a named pipe beside it", func(t *testing.T) {
		pipe := filepath.Join(filepath.Dir(cfg.CacheFile), "docs-0000000000000000.cache")
		if err := syscall.Mkfifo(pipe, 0o600); err != nil {
			t.Fatal(err)
		}
		mcptest.WriteFile(t, filepath.Join(cfg.DocsPath, "new.md"), "# New\n") // so that the start writes the cache
		if _, log := startUnhung(t, cfg); !strings.Contains(log, "docs cache written") {
			t.Errorf("the cache was not written:\n%s", log)
		}
	})
}

// startUnhung is start, failing the test when the start-up has neither
// ended nor failed after a minute: it hangs (an open or a read that never
// returns). The minute is far past any start of the test's tree; it only
// turns a hang into a failure that says what hung.
func startUnhung(t *testing.T, cfg Config) (*docs.Snapshot, string) {
	t.Helper()
	type result struct {
		snap *docs.Snapshot
		log  string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		snap, log, err := startErr(cfg)
		done <- result{snap, log, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.snap, r.log
	case <-time.After(time.Minute):
		t.Fatal("the corpus neither started nor stopped in a minute: something it opened or read never returned")
		return nil, ""
	}
}

// bytesRead is how many bytes this process has read so far (rchar of
// /proc/self/io), or 0 where the system does not say.
func bytesRead(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("rchar: ")); ok {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	return 0
}
