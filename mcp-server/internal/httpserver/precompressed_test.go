package httpserver

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWikiPrecompressed serves the .br and .gz files the wiki build writes
// beside a text file, chosen by the request's Accept-Encoding, and says so
// in Content-Encoding and Vary; a file without variants is served as is.
func TestWikiPrecompressed(t *testing.T) {
	site := t.TempDir()
	if err := os.CopyFS(site, os.DirFS(filepath.Join(testRoot, "site"))); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"app.js":       "plain javascript",
		"app.js.br":    "brotli bytes",
		"app.js.gz":    "gzip bytes",
		"data.json":    "plain json",
		"data.json.gz": "gzip json",
		"favicon.ico":  "icon bytes",
		"robots.txt":   "User-agent: *",
		"archive.br":   "<html>standalone brotli",
		"archive.gz":   "<html>standalone gzip",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(site, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t, func(o *Config) { o.SiteDir = site })

	type got struct {
		Status         int
		Type, Encoding string
		Vary           string
		Body           string
	}
	for _, tt := range []struct {
		path, accept string
		want         got
	}{
		{"/wiki/app.js", "gzip, deflate, br, zstd", got{200, "text/javascript; charset=utf-8", "br", "Accept-Encoding", "brotli bytes"}},
		{"/wiki/app.js", "gzip", got{200, "text/javascript; charset=utf-8", "gzip", "Accept-Encoding", "gzip bytes"}},
		{"/wiki/app.js", "br;q=0, gzip;q=0.5", got{200, "text/javascript; charset=utf-8", "gzip", "Accept-Encoding", "gzip bytes"}},
		{"/wiki/app.js", "*", got{200, "text/javascript; charset=utf-8", "br", "Accept-Encoding", "brotli bytes"}},
		{"/wiki/app.js", "BR;Q=1", got{200, "text/javascript; charset=utf-8", "br", "Accept-Encoding", "brotli bytes"}},
		{"/wiki/app.js", "br;q=0, *", got{200, "text/javascript; charset=utf-8", "gzip", "Accept-Encoding", "gzip bytes"}},
		{"/wiki/app.js", "identity", got{200, "text/javascript; charset=utf-8", "", "Accept-Encoding", "plain javascript"}},
		{"/wiki/app.js", "", got{200, "text/javascript; charset=utf-8", "", "Accept-Encoding", "plain javascript"}},
		{"/wiki/data.json", "br, gzip", got{200, "application/json", "gzip", "Accept-Encoding", "gzip json"}},
		{"/wiki/data.json", "br", got{200, "application/json", "", "Accept-Encoding", "plain json"}},
		{"/wiki/favicon.ico", "br, gzip", got{200, "image/x-icon", "", "", "icon bytes"}},
		{"/favicon.ico", "br, gzip", got{200, "image/x-icon", "", "", "icon bytes"}},
		{"/robots.txt", "", got{200, "text/plain; charset=utf-8", "", "", "User-agent: *"}},
		// A file without a plain twin is served with its own type, never
		// sniffed (its bytes look like HTML).
		{"/wiki/archive.br", "br", got{200, "application/octet-stream", "", "", "<html>standalone brotli"}},
		{"/wiki/archive.gz", "gzip", got{200, "application/gzip", "", "", "<html>standalone gzip"}},
	} {
		req, err := http.NewRequest(http.MethodGet, f.http.URL+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", tt.accept) // set by hand: the transport does not decode then
		res := do(t, req)
		g := got{res.status, res.header.Get("Content-Type"), res.header.Get("Content-Encoding"), res.header.Get("Vary"), string(res.body)}
		if diff := cmp.Diff(tt.want, g); diff != "" {
			t.Errorf("GET %s, Accept-Encoding %q (-want +got):\n%s", tt.path, tt.accept, diff)
		}
	}
	// A variant asked for by its own name (issue 35) is not found: it is
	// served only as its plain file's encoding.
	for _, path := range []string{"/wiki/app.js.br", "/wiki/app.js.gz", "/wiki/data.json.gz"} {
		req, err := http.NewRequest(http.MethodGet, f.http.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", "br, gzip")
		if res := do(t, req); res.status != http.StatusNotFound {
			t.Errorf("GET %s: %d %q, want 404", path, res.status, res.header.Get("Content-Type"))
		}
	}
}
