// Package crawl follows every internal link and asset of a site served by an
// http.Handler, the way a reader's browser would, and reports what does not
// resolve: a status other than 200, a link leaving the site's base path, or a
// #fragment that names no element on its page.
//
// Requests go straight to a handler when one is given (no network), else
// over HTTP to a running server. The wiki's tests use it on the built site
// served by the docs-mcp server, where the wiki lives at /wiki/.
package crawl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

// Broken is one reference that does not resolve.
type Broken struct {
	URL    string // the reference, resolved
	From   string // the page it was found on ("" for a start URL)
	Reason string
}

func (b Broken) String() string {
	if b.From == "" {
		return fmt.Sprintf("%s: %s", b.URL, b.Reason)
	}
	return fmt.Sprintf("%s (linked from %s): %s", b.URL, b.From, b.Reason)
}

// Page is a fetched resource.
type Page struct {
	Status      int
	ContentType string
	Body        []byte
	IDs         map[string]bool // element ids, for HTML
}

// Result is everything a crawl saw.
type Result struct {
	Pages  map[string]*Page // by path (query kept, fragment dropped)
	Broken []Broken
}

// Crawler fetches from Handler, or over HTTP with Client when Handler is nil.
// Base is the URL the site is served under, e.g. "http://wiki.test/wiki/":
// only URLs below it are followed.
type Crawler struct {
	Handler http.Handler
	Client  *http.Client // nil means http.DefaultClient; its redirect policy is not used
	Base    string
	// MaxPages stops a runaway crawl; zero means 10000.
	MaxPages int
}

type ref struct {
	u    *url.URL
	from string
}

// Crawl starts at Base and at each of the extra start paths (relative to
// Base, e.g. "llms.txt"), and follows every reference it finds.
func (c *Crawler) Crawl(ctx context.Context, starts ...string) (*Result, error) {
	base, err := url.Parse(c.Base)
	if err != nil || base.Host == "" {
		return nil, fmt.Errorf("crawl: base %q must be an absolute URL", c.Base)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	max := c.MaxPages
	if max == 0 {
		max = 10000
	}
	res := &Result{Pages: map[string]*Page{}}
	queue := []ref{{u: base}}
	for _, s := range starts {
		u, err := base.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("crawl: start %q: %w", s, err)
		}
		queue = append(queue, ref{u: u})
	}
	var fragments []ref
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := queue[0]
		queue = queue[1:]
		if r.u.Host != base.Host || r.u.Scheme != base.Scheme {
			continue // another site: not ours to check
		}
		if !strings.HasPrefix(r.u.Path, base.Path) && r.u.Path+"/" != base.Path {
			res.Broken = append(res.Broken, Broken{URL: r.u.String(), From: r.from, Reason: "outside the site's base path " + base.Path})
			continue
		}
		if r.u.Fragment != "" {
			fragments = append(fragments, r)
		}
		key := pageKey(r.u)
		if _, seen := res.Pages[key]; seen {
			continue
		}
		if len(res.Pages) >= max {
			return nil, fmt.Errorf("crawl: more than %d pages; stopping", max)
		}
		p, final := c.fetch(ctx, r.u)
		res.Pages[key] = p
		if p.Status == 0 {
			res.Broken = append(res.Broken, Broken{URL: r.u.String(), From: r.from, Reason: "request failed: " + string(p.Body)})
			continue
		}
		if p.Status != http.StatusOK {
			res.Broken = append(res.Broken, Broken{URL: r.u.String(), From: r.from, Reason: fmt.Sprintf("status %d", p.Status)})
			continue
		}
		for _, link := range links(p) {
			u, err := final.Parse(link)
			if err != nil {
				res.Broken = append(res.Broken, Broken{URL: link, From: key, Reason: "unparsable URL: " + err.Error()})
				continue
			}
			queue = append(queue, ref{u: u, from: key})
		}
	}
	for _, r := range fragments {
		p := res.Pages[pageKey(r.u)]
		if p == nil || p.Status != http.StatusOK || p.IDs == nil {
			continue
		}
		frag, err := url.PathUnescape(r.u.Fragment)
		if err != nil {
			frag = r.u.Fragment
		}
		if !p.IDs[frag] {
			res.Broken = append(res.Broken, Broken{URL: r.u.String(), From: r.from, Reason: fmt.Sprintf("no element with id %q", frag)})
		}
	}
	sort.Slice(res.Broken, func(i, j int) bool { return res.Broken[i].String() < res.Broken[j].String() })
	return res, nil
}

func pageKey(u *url.URL) string {
	k := u.EscapedPath()
	if u.RawQuery != "" {
		k += "?" + u.RawQuery
	}
	return k
}

// fetch GETs u, following up to five redirects, and returns the page and
// the URL it was finally served at. A request that fails outright is a page
// with status 0 and the error as its body.
func (c *Crawler) fetch(ctx context.Context, u *url.URL) (*Page, *url.URL) {
	cur := *u
	cur.Fragment = ""
	for range 5 {
		resp, err := c.get(ctx, &cur)
		if err != nil {
			return &Page{Body: []byte(err.Error())}, &cur
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return &Page{Body: []byte(err.Error())}, &cur
		}
		if resp.StatusCode >= 300 && resp.StatusCode < 400 {
			next, err := cur.Parse(resp.Header.Get("Location"))
			if err != nil {
				return &Page{Status: resp.StatusCode}, &cur
			}
			cur = *next
			continue
		}
		p := &Page{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: body}
		if mediaType(p.ContentType) == "text/html" {
			p.IDs = ids(body)
		}
		return p, &cur
	}
	return &Page{Status: http.StatusLoopDetected}, &cur
}

// get sends one GET to the handler or the server, without following a redirect.
func (c *Crawler) get(ctx context.Context, u *url.URL) (*http.Response, error) {
	if c.Handler != nil {
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		rec := httptest.NewRecorder()
		c.Handler.ServeHTTP(rec, req)
		return rec.Result(), nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	client := http.DefaultClient
	if c.Client != nil {
		client = c.Client
	}
	noRedirect := *client
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return noRedirect.Do(req)
}

func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return mt
}

var (
	cssURL = regexp.MustCompile(`url\(\s*['"]?([^'")]+)['"]?\s*\)`)
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// links returns the references in a page: for HTML every href, src, srcset
// and data-index attribute; for CSS its url()s; for plain text (llms.txt) its
// [text](url) links. Markdown files are fetched but not followed: the wiki
// serves them raw, and their relative links are relative to the repository.
func links(p *Page) []string {
	switch mt := mediaType(p.ContentType); {
	case mt == "text/html":
		return htmlLinks(p.Body)
	case mt == "text/css":
		var out []string
		for _, m := range cssURL.FindAllSubmatch(p.Body, -1) {
			if s := string(m[1]); !strings.HasPrefix(s, "data:") {
				out = append(out, s)
			}
		}
		return out
	case mt == "text/plain":
		var out []string
		for _, m := range mdLink.FindAllSubmatch(p.Body, -1) {
			out = append(out, string(m[1]))
		}
		return out
	}
	return nil
}

func htmlLinks(body []byte) []string {
	var out []string
	for a := range attrs(body) {
		switch a.Key {
		case "href", "src", "data-index":
			if a.Val != "" && !strings.HasPrefix(a.Val, "data:") && !strings.HasPrefix(a.Val, "javascript:") && !strings.HasPrefix(a.Val, "mailto:") {
				out = append(out, a.Val)
			}
		case "srcset":
			for _, part := range strings.Split(a.Val, ",") {
				if f := strings.Fields(part); len(f) > 0 {
					out = append(out, f[0])
				}
			}
		}
	}
	return out
}

func ids(body []byte) map[string]bool {
	out := map[string]bool{}
	for a := range attrs(body) {
		if a.Key == "id" || (a.Key == "name" && a.Val != "") {
			out[a.Val] = true
		}
	}
	return out
}

// attrs yields the attributes of every start tag in an HTML document.
func attrs(body []byte) iter.Seq[html.Attribute] {
	return func(yield func(html.Attribute) bool) {
		z := html.NewTokenizer(bytes.NewReader(body))
		for {
			switch z.Next() {
			case html.ErrorToken:
				return
			case html.StartTagToken, html.SelfClosingTagToken:
				for _, a := range z.Token().Attr {
					if !yield(a) {
						return
					}
				}
			}
		}
	}
}
