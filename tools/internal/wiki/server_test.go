package wiki

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// The wiki is tested as it is served: by the docs-mcp server in HTTP mode,
// run as a process. Its handler lives in mcp-server/internal, which the tools
// module cannot import, and a process is the real thing anyway.

var (
	binDir string // where TestMain lets the server binary be built

	docsMCPOnce = sync.OnceValues(func() (string, error) {
		root, err := repo.Root(".")
		if err != nil {
			return "", err
		}
		return mcptest.BuildDocsMCP(root, binDir)
	})
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wiki-test-bin-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// serveSite runs docs-mcp on a free loopback port with site as its wiki and
// root as its data root, and returns its base URL (http://127.0.0.1:PORT).
// The server is stopped with SIGTERM when the test ends and must exit 0.
func serveSite(t *testing.T, site, root string) string {
	t.Helper()
	exe, err := docsMCPOnce()
	if err != nil {
		t.Fatalf("build the docs-mcp server: %v", err)
	}
	cmd := exec.Command(exe,
		"--listen", "127.0.0.1:0",
		"--site-dir", site,
		"--data-root", root,
		"--log-format", "json",
	)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start docs-mcp: %v", err)
	}

	var mu sync.Mutex
	var logged []string
	logs := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(logged, "\n")
	}
	addr := make(chan string, 1)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			logged = append(logged, sc.Text())
			mu.Unlock()
			var rec struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "serving http" && rec.Addr != "" {
				addr <- rec.Addr
			}
		}
	}()
	exited := make(chan struct{}) // closed when the process ended, with waitErr set
	var waitErr error
	go func() {
		<-scanned // Wait closes the pipe: read it all first
		waitErr = cmd.Wait()
		close(exited)
	}()
	started := false // a server that never served is reported below, not on stopping
	t.Cleanup(func() {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("stop docs-mcp: %v", err)
		}
		select {
		case <-exited:
			if waitErr != nil && started {
				t.Errorf("docs-mcp exited with %v on SIGTERM; its log:\n%s", waitErr, logs())
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Errorf("docs-mcp did not stop within 30s of SIGTERM; its log:\n%s", logs())
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case a := <-addr:
		started = true
		t.Logf("docs-mcp serves %s at http://%s/wiki/", site, a)
		return "http://" + a
	case <-exited:
		t.Fatalf("docs-mcp exited before serving (%v); its log:\n%s", waitErr, logs())
	case <-ctx.Done():
		t.Fatalf("docs-mcp did not start serving within a minute; its log:\n%s", logs())
	}
	return ""
}
