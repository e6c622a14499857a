package crawl

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestCrawl(t *testing.T) {
	site := fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><link rel="stylesheet" href="css/site.css">
<h1 id="top">Home</h1>
<a href="a/">A</a> <a href="a/#part">A, part</a> <a href="a/#nope">A, no such part</a>
<a href="#top">top</a> <a href="missing.html">missing</a> <a href="/elsewhere/">outside</a>
<a href="https://example.org/">external</a> <a href="mailto:x@example.org">mail</a>
<img src="img/logo.svg" srcset="img/logo.svg 1x, img/logo@2x.svg 2x">
<div data-index="index.json"></div>`)},
		"a/index.html":  {Data: []byte(`<!doctype html><h2 id="part">Part</h2><a href="../">home</a><a href="../notes.txt">notes</a>`)},
		"css/site.css":  {Data: []byte(`body { background: url("../img/bg.png") } .x { background: url(data:image/png;base64,AAAA) }`)},
		"img/logo.svg":  {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
		"img/bg.png":    {Data: []byte("png")},
		"index.json":    {Data: []byte(`{}`)},
		"notes.txt":     {Data: []byte("See [the page](a/) and [a ghost](ghost.md).")},
		"raw.md":        {Data: []byte("A [raw link](nowhere.md) is not followed.")},
		"llms-like.txt": {Data: []byte("- [raw](raw.md)")},
	}
	mux := http.NewServeMux()
	mux.Handle("/site/", http.StripPrefix("/site/", http.FileServerFS(site)))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, c := range []struct {
		name    string
		crawler Crawler
		host    string
	}{
		{"handler", Crawler{Handler: mux, Base: "http://test.local/"}, "http://test.local"},
		{"server", Crawler{Client: srv.Client(), Base: srv.URL + "/"}, srv.URL},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.crawler.Base += "site/"
			res, err := c.crawler.Crawl(context.Background(), "llms-like.txt")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range res.Broken {
				got = append(got, strings.TrimPrefix(b.String(), c.host))
			}
			want := []string{
				`/elsewhere/ (linked from /site/): outside the site's base path /site/`,
				`/site/a/#nope (linked from /site/): no element with id "nope"`,
				`/site/ghost.md (linked from /site/notes.txt): status 404`,
				`/site/img/logo@2x.svg (linked from /site/): status 404`,
				`/site/missing.html (linked from /site/): status 404`,
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("broken (-want +got):\n%s", diff)
			}
			for _, p := range []string{"/site/", "/site/a/", "/site/css/site.css", "/site/img/bg.png", "/site/index.json", "/site/raw.md"} {
				if res.Pages[p] == nil || res.Pages[p].Status != http.StatusOK {
					t.Errorf("%s was not fetched with status 200", p)
				}
			}
			if res.Pages["/site/nowhere.md"] != nil {
				t.Error("a link inside a Markdown file was followed")
			}
		})
	}
}

func TestCrawlFollowsRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/wiki", http.RedirectHandler("/wiki/", http.StatusMovedPermanently))
	mux.HandleFunc("/wiki/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<a href="page">page</a>`)
	})
	mux.HandleFunc("/wiki/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<a href="/wiki/">home</a>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := Crawler{Client: srv.Client(), Base: srv.URL + "/wiki/"}
	res, err := c.Crawl(context.Background(), "/wiki")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Broken) > 0 {
		t.Errorf("broken: %v", res.Broken)
	}
	// /wiki redirects to /wiki/: relative links resolve against where the page was served.
	if p := res.Pages["/wiki/page"]; p == nil || p.Status != http.StatusOK {
		t.Errorf("/wiki/page was not reached: %+v", p)
	}
}

func TestCrawlServerDown(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL + "/wiki/"
	srv.Close()
	c := Crawler{Base: base}
	res, err := c.Crawl(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Broken) != 1 || !strings.Contains(res.Broken[0].Reason, "request failed") {
		t.Errorf("broken = %v, want one failed request", res.Broken)
	}
}

func TestCrawlNeedsAbsoluteBase(t *testing.T) {
	c := Crawler{Handler: http.NotFoundHandler(), Base: "/wiki/"}
	if _, err := c.Crawl(context.Background()); err == nil {
		t.Error("Crawl with a relative base: no error")
	}
}
