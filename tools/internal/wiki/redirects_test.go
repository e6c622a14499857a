package wiki

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// writeTree writes files (slash paths to contents) into a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// redirectDocs is a tree's docs for the redirect cases.
var redirectDocs = map[string]string{
	"docs/index.md":          "# Home\n",
	"docs/build/new.md":      "# New\n",
	"docs/build/other.md":    "# Other\n",
	"docs/ref/index.yml":     "title: Reference\n",
	"docs/ref/api/a.md":      "# A\n",
	"docs/guide.md":          "# Guide\n",
	"docs/guide/details.md":  "# Details\n",
	"docs/overview/intro.md": "# Intro\n",
}

func withDocs(extra map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range redirectDocs {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// TestScanRedirectsLearn reads a Learn redirect file as its site does:
// rooted URLs under the docset's base (inferred: /cpp/), case-insensitive,
// to docs, folders and folders' landing docs, relative URLs, chains;
// off-site targets are kept as such; loops, targets that name nothing and
// sources the tree still has are refused with a note each.
func TestScanRedirectsLearn(t *testing.T) {
	root := writeTree(t, withDocs(map[string]string{opsRedirectFile: `{"redirections": [
		{"source_path": "docs/build/old.md", "redirect_url": "/cpp/build/NEW#usage", "redirect_document_id": true},
		{"source_path": "docs/build/older.md", "redirect_url": "/cpp/build/old"},
		{"source_path": "docs/ref/gone.md", "redirect_url": "/cpp/ref/"},
		{"source_path": "docs/ref/old-index.md", "redirect_url": "/cpp/REF/index"},
		{"source_path": "docs/guide/gone.md", "redirect_url": "/cpp/guide"},
		{"source_path": "docs/overview/whats-new.md", "redirect_url": "../../cpp/overview/intro"},
		{"source_path": "docs/amp/a.md", "redirect_url": "/previous-versions/cpp/amp/a", "monikers": ["msvc-160"]},
		{"source_path": "docs/amp/a.md", "redirect_url": "/previous-versions/cpp/amp/a", "monikers": ["msvc-150"]},
		{"source_path": "docs/vcpkg.md", "redirect_url": "https://vcpkg.io/"},
		{"source_path": "docs/loop/a.md", "redirect_url": "/cpp/loop/b"},
		{"source_path": "docs/loop/b.md", "redirect_url": "/cpp/loop/a"},
		{"source_path": "docs/nothing.md", "redirect_url": "/cpp/no/such/page"},
		{"source_path": "docs/build/other.md", "redirect_url": "/cpp/build/new"},
		{"source_path": "other-docset/x.md", "redirect_url": "/other/x"},
		{"source_path": 7, "redirect_url": "/cpp/build/new"}
	]}`}))
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []Redirect{
		{From: "amp/a.md", URL: "/previous-versions/cpp/amp/a", File: opsRedirectFile, Off: true},
		{From: "build/old.md", URL: "/cpp/build/NEW#usage", File: opsRedirectFile, To: "build/new.md", Anchor: "usage"},
		{From: "build/older.md", URL: "/cpp/build/old", File: opsRedirectFile, To: "build/new.md", Anchor: "usage"},
		{From: "guide/gone.md", URL: "/cpp/guide", File: opsRedirectFile, To: "guide.md"},
		{From: "overview/whats-new.md", URL: "../../cpp/overview/intro", File: opsRedirectFile, To: "overview/intro.md"},
		{From: "ref/gone.md", URL: "/cpp/ref/", File: opsRedirectFile, To: "ref", Dir: true},
		{From: "ref/old-index.md", URL: "/cpp/REF/index", File: opsRedirectFile, To: "ref", Dir: true},
		{From: "vcpkg.md", URL: "https://vcpkg.io/", File: opsRedirectFile, Off: true},
	}
	if diff := cmp.Diff(want, tree.Redirects); diff != "" {
		t.Errorf("redirects (-want +got):\n%s", diff)
	}
	notes := strings.Join(tree.RedirectNotes, "\n")
	for _, w := range []string{
		`redirection 15 is not {"source_path": ..., "redirect_url": ...}: left out`,
		"docs/build/other.md is redirected to \"/cpp/build/new\", but the tree has docs/build/other.md: the page is kept",
		"the redirects loop (docs/loop/a.md -> docs/loop/b.md -> docs/loop/a.md): refused",
		"the redirects loop (docs/loop/b.md -> docs/loop/a.md -> docs/loop/b.md): refused",
		`docs/nothing.md is redirected to "/cpp/no/such/page", which names no doc or folder of docs/: refused`,
		`2 redirect(s) lead off this site`,
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("no note saying %q in:\n%s", w, notes)
		}
	}
}

// TestScanRedirectsMkDocs reads the redirects plugin's map from an MkDocs
// config full of tags no YAML library resolves on its own, as urfave/cli's
// and mkdocs-material's are.
func TestScanRedirectsMkDocs(t *testing.T) {
	root := writeTree(t, withDocs(map[string]string{"mkdocs.yml": `site_name: x
theme:
  name: material
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
extra:
  analytics:
    property: !ENV GOOGLE_ANALYTICS_KEY
plugins:
  - search
  - redirects:
      redirect_maps:
        'build/old.md': 'build/new.md#usage'
        'start.md': 'https://example.org/start/'
        'moved/deep.md': 'ref/'
        'x.md': 'nowhere.md'
        '../outside.md': 'index.md'
`}))
	tree, err := ScanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []Redirect{
		{From: "build/old.md", URL: "build/new.md#usage", File: "mkdocs.yml", To: "build/new.md", Anchor: "usage"},
		{From: "moved/deep.md", URL: "ref/", File: "mkdocs.yml", To: "ref", Dir: true},
		{From: "start.md", URL: "https://example.org/start/", File: "mkdocs.yml", Off: true},
	}
	if diff := cmp.Diff(want, tree.Redirects); diff != "" {
		t.Errorf("redirects (-want +got):\n%s", diff)
	}
	notes := strings.Join(tree.RedirectNotes, "\n")
	for _, w := range []string{
		`docs/x.md is redirected to "nowhere.md", which names no doc or folder of docs/: refused`,
		`mkdocs.yml:18: redirect source "../outside.md" is not a Markdown file under the docs folder: left out`,
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("no note saying %q in:\n%s", w, notes)
		}
	}
}

// TestScanRedirectsHostile: a redirect file that is not JSON or YAML, or
// too large, is not read, with a note saying why, and the tree is scanned
// whole all the same.
func TestScanRedirectsHostile(t *testing.T) {
	for name, tc := range map[string]struct {
		file, text, note string
	}{
		"truncated JSON":       {opsRedirectFile, "{\"redirections\": [\n{\"source_path\": \"docs/a.md\",", "not a redirect file (line 2: unexpected end of JSON input"},
		"JSON of a string":     {opsRedirectFile, `"redirections"`, "not a redirect file"},
		"bad YAML":             {"mkdocs.yml", "plugins: [\n  - redirects: {", "mkdocs.yml: not YAML"},
		"redirect_maps a list": {"mkdocs.yml", "plugins:\n  - redirects:\n      redirect_maps:\n        - a.md\n", "redirect_maps (line 4) is not a map"},
		"huge":                 {opsRedirectFile, `{"redirections": [` + strings.Repeat(" ", maxRedirectFile) + `]}`, "larger than 32 MiB: its redirects are not read"},
	} {
		t.Run(name, func(t *testing.T) {
			root := writeTree(t, withDocs(map[string]string{tc.file: tc.text}))
			tree, err := ScanTree(root)
			if err != nil {
				t.Fatal(err)
			}
			if len(tree.Docs) != len(redirectDocs)-1 { // all but index.yml
				t.Errorf("%d docs scanned, want %d", len(tree.Docs), len(redirectDocs)-1)
			}
			if len(tree.Redirects) != 0 {
				t.Errorf("redirects read: %v", tree.Redirects)
			}
			if notes := strings.Join(tree.RedirectNotes, "\n"); !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q do not say %q", notes, tc.note)
			}
		})
	}
}

// TestBuildRedirects builds a tree whose site redirects docs it no longer
// has, in error mode: each link to a redirected doc opens the page the
// redirect leads to (a chain followed, any case) and is listed as a
// warning naming both; the old addresses serve redirect pages (a redirect
// off the site: a page naming the new address, sending no one there),
// which the sitemap leaves out.
func TestBuildRedirects(t *testing.T) {
	root := fixture(t)
	mcptest.WriteFile(t, filepath.Join(root, opsRedirectFile), `{"redirections": [
		{"source_path": "docs/server/old-config.md", "redirect_url": "/modkit/server/configuration#flags"},
		{"source_path": "docs/server/older.md", "redirect_url": "/modkit/server/old-config"},
		{"source_path": "docs/framework/gone.md", "redirect_url": "/modkit/framework/"},
		{"source_path": "docs/amp/overview.md", "redirect_url": "/previous-versions/amp/overview"},
		{"source_path": "docs/loop/a.md", "redirect_url": "/modkit/loop/b"},
		{"source_path": "docs/loop/b.md", "redirect_url": "/modkit/loop/a"}
	]}`)
	doc := filepath.Join(root, "docs", "getting-started.md")
	mcptest.WriteFile(t, doc, mcptest.ReadFile(t, doc)+`
Moved: [old config](server/old-config.md), [older](server/older.md#top), [gone](FRAMEWORK/Gone.md)
and [AMP](amp/overview.md).
`)
	line := strings.Count(mcptest.ReadFile(t, doc), "\n") - 1
	opt := options(t, root)
	opt.BaseURL = "https://docs.example.org/modkit/"
	var progress strings.Builder
	opt.Progress = &progress
	out, res := build(t, opt)

	var got []Problem
	for _, p := range res.Inexact {
		if p.Redirected {
			got = append(got, p)
		}
	}
	f := "docs/getting-started.md"
	want := []Problem{
		{File: f, Line: line, Msg: `redirected link "FRAMEWORK/Gone.md": docs/framework/gone.md is gone, and .openpublishing.redirection.json sends it to docs/framework/: resolved to that page, as the tree's own site would`, Warning: true, Redirected: true},
		{File: f, Line: line, Msg: `redirected link "server/old-config.md": docs/server/old-config.md is gone, and .openpublishing.redirection.json sends it to docs/server/configuration.md: resolved to that page, as the tree's own site would`, Warning: true, Redirected: true},
		{File: f, Line: line, Msg: `redirected link "server/older.md#top": docs/server/older.md is gone, and .openpublishing.redirection.json sends it to docs/server/configuration.md: resolved to that page, as the tree's own site would`, Warning: true, Redirected: true},
		{File: f, Line: line + 1, Msg: `redirected link "amp/overview.md": docs/amp/overview.md is gone, and .openpublishing.redirection.json sends it off this site, to "/previous-versions/amp/overview": the link opens a page at the old address that says so`, Warning: true, Redirected: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("redirected links listed (-want +got):\n%s", diff)
	}
	for _, w := range []string{
		"wiki: warning: .openpublishing.redirection.json: docs/loop/a.md: the redirects loop (docs/loop/a.md -> docs/loop/b.md -> docs/loop/a.md): refused",
		"wiki: 4 redirected doc(s) read from the site's redirect map",
		"wiki: 4 redirect page(s) at the old addresses of redirected docs",
		"wiki: 4 reference(s) to redirected docs listed above",
	} {
		if !strings.Contains(progress.String(), w+"") {
			t.Errorf("the build did not say %q:\n%s", w, progress.String())
		}
	}

	page := mcptest.ReadFile(t, filepath.Join(out, "getting-started", "index.html"))
	for _, w := range []string{
		`<a href="/modkit/server/configuration/">old config</a>`,
		`<a href="/modkit/server/configuration/#top">older</a>`,
		`<a href="/modkit/framework/">gone</a>`,
		`<a href="/modkit/amp/overview/">AMP</a>`,
	} {
		if !strings.Contains(page, w) {
			t.Errorf("getting-started: no %s", w)
		}
	}
	for dir, w := range map[string][]string{
		"server/old-config": {`<link rel="canonical" href="https://docs.example.org/modkit/server/configuration/#flags">`, `<meta http-equiv="refresh" content="0; url=https://docs.example.org/modkit/server/configuration/#flags">`},
		"server/older":      {`<meta http-equiv="refresh" content="0; url=https://docs.example.org/modkit/server/configuration/#flags">`},
		"framework/gone":    {`<meta http-equiv="refresh" content="0; url=https://docs.example.org/modkit/framework/">`},
		"amp/overview":      {"has moved off this site, to <code>/previous-versions/amp/overview</code>"},
	} {
		html := mcptest.ReadFile(t, filepath.Join(out, filepath.FromSlash(dir), "index.html"))
		for _, s := range w {
			if !strings.Contains(html, s) {
				t.Errorf("%s/index.html: no %s:\n%s", dir, s, html)
			}
		}
		if dir == "amp/overview" && strings.Contains(html, "refresh") {
			t.Errorf("%s/index.html sends the reader off the site:\n%s", dir, html)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "loop", "a", "index.html")); err == nil {
		t.Error("a looping redirect has a page")
	}
	sitemap := mcptest.ReadFile(t, filepath.Join(out, "sitemap.xml"))
	if strings.Contains(sitemap, "old-config") || strings.Contains(sitemap, "amp/") || !strings.Contains(sitemap, "/modkit/server/configuration/") {
		t.Errorf("sitemap.xml lists a redirect page, or misses a page:\n%s", sitemap)
	}
}

// FuzzScanRedirects feeds any bytes to the wiki as either redirect file:
// the scan never panics over them, and every redirect it keeps
// comes from a doc path under docs/ whose page lands inside the site, and
// leads to a doc or folder the tree has, or off the site.
func FuzzScanRedirects(f *testing.F) {
	f.Add(true, `{"redirections": [{"source_path": "docs/build/old.md", "redirect_url": "/cpp/build/new#x"}, {"source_path": "docs/a.md", "redirect_url": "../../cpp/a"}]}`)
	f.Add(true, `{"redirections": [{"source_path": "docs/../../etc/x.md", "redirect_url": "/cpp/"}, {"source_path": "docs//a.md", "redirect_url": "//evil.example/x"}]}`)
	f.Add(false, "plugins:\n  - redirects:\n      redirect_maps:\n        'a.md': 'build/new.md'\n        'b/../../c.md': 'ref/'\n")
	f.Add(false, "plugins: {redirects: {redirect_maps: {a.md: b.md, b.md: a.md}}}\n")
	root := f.TempDir()
	for name, text := range redirectDocs {
		mcptest.WriteFile(f, filepath.Join(root, filepath.FromSlash(name)), text)
	}
	base, err := ScanTree(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, learn bool, text string) {
		name, other := "mkdocs.yml", opsRedirectFile
		if learn {
			name, other = other, name
		}
		os.Remove(filepath.Join(root, other))
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		tree := &Tree{Root: root, Docs: base.Docs, Dirs: base.Dirs, folderOf: base.folderOf}
		tree.scanRedirects()
		docs := map[string]bool{}
		for _, d := range tree.Docs {
			docs[d] = true
		}
		dirs := map[string]bool{}
		for _, d := range tree.Dirs {
			dirs[d] = true
		}
		for _, r := range tree.Redirects {
			if !strings.HasSuffix(r.From, ".md") || !filepath.IsLocal(r.From) || docs[r.From] {
				t.Errorf("redirect from %q: not a missing doc's path under docs/", r.From)
			}
			if p := pageURL(wikipage.Of(r.From)); p != "" && !filepath.IsLocal(filepath.FromSlash(p)) {
				t.Errorf("redirect from %q: its page %q is outside the site", r.From, p)
			}
			switch {
			case r.Off:
			case r.Dir && !dirs[r.To]:
				t.Errorf("redirect from %q: to folder %q, which the tree does not have", r.From, r.To)
			case !r.Dir && !docs[r.To]:
				t.Errorf("redirect from %q: to doc %q, which the tree does not have", r.From, r.To)
			}
		}
	})
}
