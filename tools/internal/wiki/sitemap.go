package wiki

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// absoluteBase reports whether base is an absolute http(s) URL: only then
// does a build write absolute URLs (canonical links, OpenGraph, sitemap.xml,
// robots.txt); with a path such as /wiki/ it invents no host.
func absoluteBase(base string) bool {
	u, err := url.Parse(base)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// checkBaseURL refuses a base URL that is neither an absolute http(s) URL
// nor a path from the root.
func checkBaseURL(base string) error {
	u, err := url.Parse(base)
	switch {
	case err != nil:
		return fmt.Errorf("base URL %q: %w", base, err)
	case absoluteBase(base), u.Scheme == "" && u.Host == "" && strings.HasPrefix(base, "/"):
		return nil
	}
	return fmt.Errorf("base URL %q: want an http(s) URL such as https://docs.example.org/modkit/, or a path such as /wiki/", base)
}

// writeSitemap writes sitemap.xml (every page of the site: each folder of
// dir holding an index.html, under base) and robots.txt (everything
// allowed, pointing at the sitemap) into dir. base is absolute and ends in /.
// The folders of older versions (slash paths under dir) are left out: a
// search engine is pointed at the newest docs only, and each older page's
// canonical link names the newest one too. So are the redirect pages at
// redirected docs' old addresses (folders under dir, as slash paths).
func writeSitemap(dir, base string, versions, redirects []string) error {
	skip := map[string]bool{}
	for _, v := range versions {
		skip[filepath.Join(dir, filepath.FromSlash(v))] = true
	}
	moved := map[string]bool{}
	for _, r := range redirects {
		moved[filepath.Join(dir, filepath.FromSlash(r))] = true
	}
	var b bytes.Buffer
	b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && skip[p] {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "index.html" || moved[filepath.Dir(p)] {
			return nil
		}
		rel, err := filepath.Rel(dir, filepath.Dir(p))
		if err != nil {
			return err
		}
		loc := base
		if rel != "." {
			rel = filepath.ToSlash(rel)
			if rel == "search" {
				return nil // the search page has no content of its own
			}
			loc += (&url.URL{Path: rel}).EscapedPath() + "/"
		}
		b.WriteString("  <url><loc>")
		xml.EscapeText(&b, []byte(loc))
		b.WriteString("</loc></url>\n")
		return nil
	})
	if err != nil {
		return fmt.Errorf("write sitemap: %w", err)
	}
	b.WriteString("</urlset>\n")
	if err := os.WriteFile(filepath.Join(dir, "sitemap.xml"), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write sitemap: %w", err)
	}
	robots := fmt.Sprintf("User-agent: *\nAllow: /\n\nSitemap: %s\n", base+"sitemap.xml")
	if err := os.WriteFile(filepath.Join(dir, "robots.txt"), []byte(robots), 0o644); err != nil {
		return fmt.Errorf("write robots.txt: %w", err)
	}
	return nil
}
