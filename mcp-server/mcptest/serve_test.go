package mcptest

import (
	"net/http"
	"path/filepath"
	"testing"
)

// TestServeHTTP builds docs-mcp from the checkout, serves the repository
// with it, and waits for /health to say ok; the cleanup then stops it and
// requires exit 0. The tools module's end-to-end tests rely on both.
func TestServeHTTP(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := BuildDocsMCP(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd, addr := ServeHTTP(t, bin, "--data-root", root, "--watch", "off")
	if cmd.Process == nil {
		t.Fatal("ServeHTTP returned a process that did not start")
	}
	Eventually(t, "/health to say ok", func() bool {
		resp, err := http.Get("http://" + addr + "/health")
		if err != nil {
			t.Fatalf("GET /health: %v", err)
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}
