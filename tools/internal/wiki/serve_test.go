package wiki

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

func TestServe(t *testing.T) {
	t.Parallel() // waits on Hugo and polls: see TestMain
	root := fixture(t)
	// A broken link does not stop the preview: it is reported, and the
	// page is served.
	vscode := filepath.Join(root, "docs", "clients", "vscode.md")
	mcptest.WriteFile(t, vscode, mcptest.ReadFile(t, vscode)+"\nSee [the old page](old.md).\n")
	// A moved doc's old address serves its redirect page, as in a build.
	mcptest.WriteFile(t, filepath.Join(root, opsRedirectFile), `{"redirections": [
		{"source_path": "docs/server/old-config.md", "redirect_url": "/modkit/server/configuration#flags"}
	]}`)
	opt := options(t, root)
	var log mcptest.Buffer
	opt.Progress = &log

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, opt, addr) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		if _, err := os.Stat(filepath.Join(opt.siteDir(), "public")); err == nil {
			t.Errorf("serve wrote %s", filepath.Join(opt.siteDir(), "public"))
		}
	}()

	url := "http://" + addr + "/wiki/getting-started/"
	var body string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		resp, err := http.Get(url)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			body = string(b)
			break
		}
	}
	if !strings.Contains(body, "<title>Getting started with modkit · modkit wiki</title>") {
		t.Fatalf("GET %s: no wiki page within a minute; log:\n%s", url, log.String())
	}

	if want := `wiki: docs/clients/vscode.md:5: broken link "old.md": docs/clients/old.md does not exist`; !strings.Contains(log.String(), want) {
		t.Errorf("the preview did not report %q; log:\n%s", want, log.String())
	}

	resp, err := http.Get("http://" + addr + "/wiki/server/old-config/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `<meta http-equiv="refresh" content="0; url=http://` + addr + `/wiki/server/configuration/#flags">`; resp.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
		t.Errorf("GET /wiki/server/old-config/: status %d, want 200 and %s:\n%s", resp.StatusCode, want, b)
	}

	// The preview's file server sends files as they are, so it has no
	// compressed copies (which Watch writes beside each file for docs-mcp).
	for _, asset := range []string{"getting-started/index.html", "llms.txt"} {
		for _, ext := range []string{"", ".gz", ".br"} {
			resp, err := http.Get("http://" + addr + "/wiki/" + asset + ext)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			want := http.StatusNotFound
			if ext == "" {
				want = http.StatusOK
			}
			if resp.StatusCode != want {
				t.Errorf("GET /wiki/%s%s: status %d, want %d", asset, ext, resp.StatusCode, want)
			}
		}
	}

	// The fingerprinted stylesheet and script may be kept a year; the page
	// is not.
	assets := regexp.MustCompile(`/wiki/(?:css|js)/wiki\.min\.[0-9a-f]{64}\.(?:css|js)`).FindAllString(body, -1)
	if len(assets) != 2 {
		t.Errorf("the page links %q, want the fingerprinted stylesheet and script", assets)
	}
	for _, asset := range append(assets, "/wiki/getting-started/") {
		resp, err := http.Get("http://" + addr + asset)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		cc := resp.Header.Get("Cache-Control")
		if immutable := cc == "public, max-age=31536000, immutable"; immutable != strings.Contains(asset, ".min.") {
			t.Errorf("GET %s: Cache-Control %q", asset, cc)
		}
	}

	// Images beside the docs are served too.
	for _, asset := range []string{"server/diagram.svg", "server/img/flags.svg"} {
		resp, err := http.Get("http://" + addr + "/wiki/" + asset)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET /wiki/%s: status %d", asset, resp.StatusCode)
		}
	}

	// A broken link written while the preview runs is reported as file:line.
	mcptest.WriteFile(t, filepath.Join(root, "docs", "getting-started.md"),
		mcptest.ReadFile(t, filepath.Join(root, "docs", "getting-started.md"))+"\nA [dead link](gone.md).\n")
	want := `wiki: docs/getting-started.md:39: broken link "gone.md": docs/gone.md does not exist`
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && !strings.Contains(log.String(), want); {
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(log.String(), want) {
		t.Errorf("the preview did not report %q; log:\n%s", want, log.String())
	}
}
