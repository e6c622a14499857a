package site_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/site"
)

// serve serves the site in dir on a loopback listener until the test
// ends, as httpserver mounts it: on a mux of its own.
func serve(t *testing.T, dir string) string {
	t.Helper()
	mux := http.NewServeMux()
	site.New(dir, slog.New(slog.DiscardHandler)).Register(mux)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL
}

// page is what a browser sees of a response.
type page struct {
	Status      int
	ContentType string
	Location    string
	ETag        bool
	LastMod     bool
	Body        string // the first line
}

// get fetches base+path and returns what a browser sees of it.
func get(t *testing.T, base, path string, header http.Header) page {
	t.Helper()
	res := fetch(t, base+path, header)
	first, _, _ := strings.Cut(string(res.body), "\n")
	return page{
		Status:      res.status,
		ContentType: res.header.Get("Content-Type"),
		Location:    res.header.Get("Location"),
		ETag:        res.header.Get("ETag") != "",
		LastMod:     res.header.Get("Last-Modified") != "",
		Body:        first,
	}
}

func TestWiki(t *testing.T) {
	base := serve(t, "testdata/site")
	html := "text/html; charset=utf-8"
	tests := []struct {
		path string
		want page
	}{
		{"/", page{Status: 302, ContentType: html, Location: "/wiki/", Body: `<a href="/wiki/">Found</a>.`}},
		{"/wiki", page{Status: 301, ContentType: html, Location: "/wiki/", Body: `<a href="/wiki/">Moved Permanently</a>.`}},
		{"/wiki/", page{Status: 200, ContentType: html, ETag: true, LastMod: true, Body: `<!doctype html><title>Modkit wiki</title><link rel="stylesheet" href="css/site.css"><h1>Modkit wiki</h1>`}},
		{"/wiki/css/site.css", page{Status: 200, ContentType: "text/css; charset=utf-8", ETag: true, LastMod: true, Body: "body { font-family: sans-serif; }"}},
		{"/wiki/guide", page{Status: 301, ContentType: html, Location: "/wiki/guide/", Body: `<a href="/wiki/guide/">Moved Permanently</a>.`}},
		{"/wiki/guide/", page{Status: 200, ContentType: html, ETag: true, LastMod: true, Body: "<!doctype html><title>Hooks guide</title><h1>Hooks guide</h1>"}},
		{"/wiki/nope.html", page{Status: 404, ContentType: html, Body: "<!doctype html><title>Not found</title><h1>This page does not exist</h1>"}},
		{"/wiki/empty/", page{Status: 404, ContentType: html, Body: "<!doctype html><title>Not found</title><h1>This page does not exist</h1>"}},
		{"/wiki/.hidden", page{Status: 404, ContentType: html, Body: "<!doctype html><title>Not found</title><h1>This page does not exist</h1>"}},
		{"/wiki/css/", page{Status: 404, ContentType: html, Body: "<!doctype html><title>Not found</title><h1>This page does not exist</h1>"}},
		{"/nowhere", page{Status: 404, ContentType: "text/plain; charset=utf-8", Body: "404 page not found"}},
		// A release version's site (wiki build -versions) is a folder of
		// the site, with its own 404 page.
		{"/wiki/v1.0.0", page{Status: 301, ContentType: html, Location: "/wiki/v1.0.0/", Body: `<a href="/wiki/v1.0.0/">Moved Permanently</a>.`}},
		{"/wiki/v1.0.0/", page{Status: 200, ContentType: html, ETag: true, LastMod: true, Body: "<!doctype html><title>Modkit wiki v1.0.0</title><h1>Modkit wiki v1.0.0</h1>"}},
		{"/wiki/v1.0.0/guide/", page{Status: 200, ContentType: html, ETag: true, LastMod: true, Body: "<!doctype html><title>Hooks guide v1.0.0</title><h1>Hooks guide v1.0.0</h1>"}},
		{"/wiki/v1.0.0/nope/", page{Status: 404, ContentType: html, Body: "<!doctype html><title>Not found in v1.0.0</title><h1>This page is not in v1.0.0</h1>"}},
		{"/wiki/v1.0.0/guide/deeper/nope.html", page{Status: 404, ContentType: html, Body: "<!doctype html><title>Not found in v1.0.0</title><h1>This page is not in v1.0.0</h1>"}},
		{"/wiki/v1.0.0/.hidden", page{Status: 404, ContentType: html, Body: "<!doctype html><title>Not found in v1.0.0</title><h1>This page is not in v1.0.0</h1>"}},
		{"/wiki/v2/nope/", page{Status: 404, ContentType: html, Body: "<!doctype html><title>Not found</title><h1>This page does not exist</h1>"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, get(t, base, tt.path, nil)); diff != "" {
				t.Errorf("GET %s (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

// TestWikiRevalidation checks that a browser's conditional request gets
// 304 while the file is unchanged.
func TestWikiRevalidation(t *testing.T) {
	base := serve(t, "testdata/site")
	first := fetch(t, base+"/wiki/css/site.css", nil)
	tests := []struct {
		name   string
		header string
		value  string
	}{
		{"If-None-Match", "If-None-Match", first.header.Get("ETag")},
		{"If-Modified-Since", "If-Modified-Since", first.header.Get("Last-Modified")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := get(t, base, "/wiki/css/site.css", http.Header{tt.header: {tt.value}})
			if got.Status != http.StatusNotModified {
				t.Errorf("status %d, want 304", got.Status)
			}
		})
	}
}

// TestWikiPrecompressed serves the .br and .gz files the wiki build writes
// beside a text file, chosen by the request's Accept-Encoding, and says so
// in Content-Encoding and Vary; a file without variants is served as is.
func TestWikiPrecompressed(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/site")); err != nil {
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
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := serve(t, dir)

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
		// Set by hand, the transport does not decode the answer.
		res := fetch(t, base+tt.path, http.Header{"Accept-Encoding": {tt.accept}})
		g := got{res.status, res.header.Get("Content-Type"), res.header.Get("Content-Encoding"), res.header.Get("Vary"), string(res.body)}
		if diff := cmp.Diff(tt.want, g); diff != "" {
			t.Errorf("GET %s, Accept-Encoding %q (-want +got):\n%s", tt.path, tt.accept, diff)
		}
	}
	// A variant asked for by its own name (issue 35) is not found: it is
	// served only as its plain file's encoding.
	for _, path := range []string{"/wiki/app.js.br", "/wiki/app.js.gz", "/wiki/data.json.gz"} {
		if res := fetch(t, base+path, http.Header{"Accept-Encoding": {"br, gzip"}}); res.status != http.StatusNotFound {
			t.Errorf("GET %s: %d %q, want 404", path, res.status, res.header.Get("Content-Type"))
		}
	}
}

// response is what the tests look at in a response.
type response struct {
	status int
	header http.Header
	body   []byte
}

// fetch GETs url with header, following no redirect.
func fetch(t *testing.T, url string, header http.Header) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", url, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: body}
}

// TestWikiCaching checks the caching policy: a fingerprinted stylesheet or
// script (a name carrying the hash of its content, as the wiki build's
// assets are named) is kept a year without revalidation, also when sent
// precompressed; everything else, pages included, is revalidated on use, so
// that a rebuild shows at once.
func TestWikiCaching(t *testing.T) {
	dir := t.TempDir()
	const hash = "0a73897d425254e05f6a52d549fdfd492a18040b3d169a61ade9f35f4c74e2ac"
	files := []string{
		"index.html",
		"css/wiki.min." + hash + ".css",
		"js/wiki.min." + hash + ".js",
		"js/wiki.min." + hash + ".js.br",
		"js/wiki.min." + hash[:32] + ".js", // MD5-sized
		"js/wiki.min.js",
		"js/wiki.min." + hash[:31] + ".js",                          // too short to be a content hash
		"js/wiki.min." + "0A73897D425254E05F6A52D549FDFD49" + ".js", // Hugo writes lower case
		"img/logo." + hash + ".png",                                 // from docs/ as is: not ours to fingerprint
		hash + ".css",                                               // the name itself, not a fingerprint
	}
	for _, name := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := serve(t, dir)
	got := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, ".br") {
			continue
		}
		got[name] = fetch(t, base+"/wiki/"+name, http.Header{"Accept-Encoding": {"br"}}).header.Get("Cache-Control")
	}
	const year = "public, max-age=31536000, immutable"
	want := map[string]string{
		"index.html":                                                "no-cache",
		"css/wiki.min." + hash + ".css":                             year,
		"js/wiki.min." + hash + ".js":                               year, // sent as its .br
		"js/wiki.min." + hash[:32] + ".js":                          year,
		"js/wiki.min.js":                                            "no-cache",
		"js/wiki.min." + hash[:31] + ".js":                          "no-cache",
		"js/wiki.min." + "0A73897D425254E05F6A52D549FDFD49" + ".js": "no-cache",
		"img/logo." + hash + ".png":                                 "no-cache",
		hash + ".css":                                               "no-cache",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Cache-Control by file (-want +got):\n%s", diff)
	}
	if year != "public, max-age=31536000, immutable" {
		t.Errorf("Immutable = %q", year)
	}
}
