package wiki

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestReadLogo reads the size of each kind of logo, and refuses with a
// message what a browser would not show or the top bar could not size.
func TestReadLogo(t *testing.T) {
	dir := t.TempDir()
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, image.NewRGBA(image.Rect(0, 0, 120, 40))); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"box.svg":       `<?xml version="1.0"?><!-- a logo --><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"><rect width="64" height="32"/></svg>`,
		"sized.svg":     `<svg xmlns="http://www.w3.org/2000/svg" width="90px" height="30" viewBox="0 0 9 3"/>`,
		"em.svg":        `<svg xmlns="http://www.w3.org/2000/svg" width="2em" height="1em" viewBox="0,0,48,24"/>`,
		"logo.png":      pngBytes.String(),
		"nosize.svg":    `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`,
		"html.svg":      `<html><body>not an image</body></html>`,
		"broken.png":    "not a png",
		"logo.webp":     "RIFF",
		"truncated.svg": `<svg`,
	}
	for name, body := range files {
		mcptest.WriteFile(t, filepath.Join(dir, name), body)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		file    string
		w, h    int
		wantErr string
	}{
		{"box.svg", 64, 32, ""},
		{"sized.svg", 90, 30, ""},
		{"em.svg", 48, 24, ""},
		{"logo.png", 120, 40, ""},
		{"nosize.svg", 0, 0, "neither width and height in px nor a viewBox"},
		{"html.svg", 0, 0, "the root element is <html>"},
		{"broken.png", 0, 0, "broken.png"},
		{"logo.webp", 0, 0, "want an .svg, .png, .jpg or .gif file"},
		{"truncated.svg", 0, 0, "not an SVG image"},
		{"folder.svg", 0, 0, "not a regular file"},
		{"missing.svg", 0, 0, "no such file"},
	} {
		l, err := readLogo(filepath.Join(dir, tt.file))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tt.file, err, tt.wantErr)
			}
			continue
		}
		if err != nil || l.Width != tt.w || l.Height != tt.h || l.Name != "wiki-logo"+filepath.Ext(tt.file) || !filepath.IsAbs(l.File) {
			t.Errorf("%s: %+v, %v; want %dx%d, named wiki-logo%s, an absolute path", tt.file, l, err, tt.w, tt.h, filepath.Ext(tt.file))
		}
	}
}

// TestBuildTitleAndLogo builds the fixture named and with a logo: the name
// is in the top bar, the titles, OpenGraph and llms.txt, where "modkit
// wiki" was; the logo is published and shown at its size. A title of two
// lines is refused before Hugo runs.
func TestBuildTitleAndLogo(t *testing.T) {
	opt := options(t, fixture(t))
	opt.Title = "Acme docs"
	opt.Logo = filepath.Join(t.TempDir(), "acme.svg")
	mcptest.WriteFile(t, opt.Logo, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"><rect width="64" height="32"/></svg>`)
	out, _ := build(t, opt)
	home := mcptest.ReadFile(t, filepath.Join(out, "index.html"))
	page := mcptest.ReadFile(t, filepath.Join(out, "getting-started", "index.html"))
	for _, want := range []string{
		`<a class="brand" href="/wiki/"><img src="/wiki/wiki-logo.svg" alt="" width="64" height="32"><span class="brand-name">Acme docs</span></a>`,
		`<meta property="og:site_name" content="Acme docs">`,
		` · Acme docs</title>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("getting-started page: no %q", want)
		}
	}
	if !strings.Contains(home, "<title>Acme docs</title>") || strings.Contains(home+page, "modkit wiki") {
		t.Errorf("home page: the title is not Acme docs, or modkit wiki is still named")
	}
	if llms := mcptest.ReadFile(t, filepath.Join(out, "llms.txt")); !strings.HasPrefix(strings.TrimSpace(llms), "# Acme docs") {
		t.Errorf("llms.txt does not start with the name:\n%.200s", llms)
	}
	if got := mcptest.ReadFile(t, filepath.Join(out, "wiki-logo.svg")); got != mcptest.ReadFile(t, opt.Logo) {
		t.Errorf("wiki-logo.svg is not the logo: %q", got)
	}

	opt.Title = "Acme\ndocs"
	if _, err := Build(t.Context(), opt, filepath.Join(t.TempDir(), "wiki")); err == nil || !strings.Contains(err.Error(), "want one line of text") {
		t.Errorf("a two-line title: %v, want it refused", err)
	}
}
