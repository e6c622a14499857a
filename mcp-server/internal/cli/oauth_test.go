package cli

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestOAuthStartLine: with OAuth on, the line that says the server is
// serving says auth=true (the issuer here cannot be reached: the server
// starts anyway and says so).
func TestOAuthStartLine(t *testing.T) {
	down := httptest.NewServer(nil)
	issuer := down.URL
	down.Close()
	root := t.TempDir()
	mcptest.WriteFile(t, filepath.Join(root, "docs", "index.md"), "# Index\n")
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	var stderr mcptest.Buffer
	exited := make(chan int, 1)
	go func() {
		exited <- Main(ctx, "v0.0.0-test", []string{"docs-mcp", "--data-root", root, "--listen", "127.0.0.1:0",
			"--oauth-issuer", issuer, "--oauth-audience", "https://docs.example.com/mcp"}, strings.NewReader(""), &mcptest.Buffer{}, &stderr)
	}()
	var line string
	mcptest.Eventually(t, "the line saying the server is serving http", func() bool {
		for l := range strings.SplitSeq(stderr.String(), "\n") {
			if strings.Contains(l, "serving http") {
				line = l
				return true
			}
		}
		return false
	})
	if !strings.Contains(line, "auth=true") || !strings.Contains(line, "oauth_issuer="+issuer) {
		t.Errorf("start line with OAuth on: %s; want auth=true and the issuer", line)
	}
	stop()
	if code := <-exited; code != 0 {
		t.Errorf("exit %d after the context ended:\n%s", code, stderr.String())
	}
}
