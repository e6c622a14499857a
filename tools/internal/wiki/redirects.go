package wiki

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	goyaml "sigs.k8s.io/yaml/goyaml.v3"

	"github.com/docs-mcp/docs-mcp/mcp-server/wikipage"
)

// A tree's site may redirect the pages of docs it no longer has: Microsoft
// Learn trees list them in .openpublishing.redirection.json at the
// repository's root (source_path -> redirect_url), MkDocs sites in the
// redirects plugin's redirect_maps in mkdocs.yml. The wiki reads either as
// the site's redirect map: a link to a redirected doc resolves to the page
// it leads to (reported as a warning naming both), and the old address
// serves a redirect page. A redirect that leads off the site (another
// host, or a path outside the site's base) is not followed: its old
// address serves a page naming the new one, without sending the reader
// there. A redirect that loops or leads to nothing is refused, with a
// warning; so is an unreadable, malformed or oversized redirect file,
// which the build goes on without.

const (
	opsRedirectFile = ".openpublishing.redirection.json"
	// maxRedirectFile is the largest redirect file read: cpp-docs', of
	// 3,138 redirects, is 624 KB.
	maxRedirectFile = 32 << 20
	// maxRedirectHops is the longest chain of redirects followed.
	maxRedirectHops = 32
)

var mkdocsConfigs = []string{"mkdocs.yml", "mkdocs.yaml"}

// Redirect is a doc the tree no longer has, which its site sends elsewhere.
type Redirect struct {
	From string // the doc's path under docs/, e.g. "parallel/amp/overview.md"
	URL  string // where its site sends it, as the redirect file writes it
	File string // the redirect file, a repository path
	// To is where it leads in this tree, chains followed: a doc's path
	// under docs/, or a folder's ("" for docs/ itself) when Dir is set.
	// Off is set instead when it leads off the site.
	To     string
	Dir    bool
	Anchor string // the fragment of the final target, without "#"
	Off    bool
}

// page is the logical path of the page the redirect leads to.
func (r Redirect) page() string {
	if r.Dir {
		return wikipage.OfDir(r.To)
	}
	return wikipage.Of(r.To)
}

// rawRedirect is one entry of a redirect file before it is resolved.
type rawRedirect struct {
	from, url, file string
	// learn says the target is a Learn URL (rooted, /cpp/x, or relative
	// to the source's own URL); else it is a path relative to the docs
	// folder, or a URL (MkDocs).
	learn bool
}

// redirectTarget is a raw target resolved one step: a doc or folder of
// the tree, another redirect's source, or nothing on this site.
type redirectTarget struct {
	doc, dir string // one of them, or chain
	isDir    bool
	chain    string // another redirect's From
	anchor   string
	off      bool   // leaves the site
	none     string // why it leads nowhere, when it does
}

// scanRedirects reads the tree's redirect files into t.Redirects, and
// what it refused into t.RedirectNotes.
func (t *Tree) scanRedirects() {
	var raw []rawRedirect
	if b, ok := t.readRedirectFile(opsRedirectFile); ok {
		raw = append(raw, t.parseOPS(b)...)
	}
	for _, name := range mkdocsConfigs {
		if b, ok := t.readRedirectFile(name); ok {
			raw = append(raw, t.parseMkDocs(name, b)...)
			break
		}
	}
	if len(raw) == 0 {
		return
	}
	idx := newDocIndex(t)
	sources := map[string]rawRedirect{} // by lower-case From
	var order []string
	for _, r := range raw {
		l := strings.ToLower(r.from)
		if doc, ok := idx.docs[l]; ok {
			t.note("%s: docs/%s is redirected to %q, but the tree has docs/%s: the page is kept, the redirect ignored", r.file, r.from, r.url, doc)
			continue
		}
		if prev, ok := sources[l]; ok {
			if prev.url != r.url {
				t.note("%s: docs/%s is redirected twice, to %q and to %q: the first is kept", r.file, r.from, prev.url, r.url)
			}
			continue
		}
		sources[l] = r
		order = append(order, l)
	}
	idx.sources = sources
	idx.setBase()
	var off []string
	for _, l := range order {
		r, ok := idx.follow(sources[l], t.note)
		if !ok {
			continue
		}
		if r.Off {
			off = append(off, fmt.Sprintf("docs/%s to %q", r.From, r.URL))
		}
		t.Redirects = append(t.Redirects, r)
	}
	if len(off) > 0 {
		t.note("%d redirect(s) lead off this site, e.g. %s: not followed; each old address serves a page naming the new one", len(off), off[0])
	}
	sort.Slice(t.Redirects, func(i, j int) bool { return t.Redirects[i].From < t.Redirects[j].From })
	t.redirectIndex = map[string]int{}
	for i, r := range t.Redirects {
		t.redirectIndex[strings.ToLower("docs/"+r.From)] = i
	}
}

// follow resolves r, following chains of redirects; false when it loops or
// leads to nothing on the site, which note is told.
func (idx *docIndex) follow(r rawRedirect, note func(string, ...any)) (Redirect, bool) {
	res := Redirect{From: r.from, URL: r.url, File: r.file}
	seen := []string{"docs/" + r.from}
	for cur := r; ; {
		tg := idx.target(cur)
		switch {
		case tg.chain != "":
			if len(seen) > maxRedirectHops || containsFold(seen, "docs/"+tg.chain) {
				note("%s: docs/%s: the redirects loop (%s -> docs/%s): refused", r.file, r.from, strings.Join(seen, " -> "), tg.chain)
				return res, false
			}
			seen = append(seen, "docs/"+tg.chain)
			cur = idx.sources[strings.ToLower(tg.chain)]
			continue
		case tg.none != "":
			note("%s: docs/%s is redirected to %q, which %s: refused", r.file, r.from, cur.url, tg.none)
			return res, false
		case tg.off:
			res.Off = true
			res.URL = cur.url
		case tg.isDir:
			res.To, res.Dir, res.Anchor = tg.dir, true, tg.anchor
		default:
			res.To, res.Anchor = tg.doc, tg.anchor
		}
		return res, true
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// note records a warning about the tree's redirects (RedirectNotes).
func (t *Tree) note(format string, args ...any) {
	t.RedirectNotes = append(t.RedirectNotes, fmt.Sprintf(format, args...))
}

// readRedirectFile reads name at the tree's root: false when there is
// none, or when it cannot be read or is larger than maxRedirectFile (a
// note says so).
func (t *Tree) readRedirectFile(name string) ([]byte, bool) {
	f, err := os.Open(filepath.Join(t.Root, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		t.note("%s: %v: its redirects are not read", name, err)
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRedirectFile+1))
	if err != nil {
		t.note("%s: %v: its redirects are not read", name, err)
		return nil, false
	}
	if len(b) > maxRedirectFile {
		t.note("%s: larger than %d MiB: its redirects are not read", name, maxRedirectFile>>20)
		return nil, false
	}
	return b, true
}

// parseOPS reads a Learn redirect file: {"redirections": [{"source_path":
// "docs/x.md", "redirect_url": "/cpp/y"}, ...]}. An entry that is not such
// an object is left out with a note, the others kept; so are entries
// outside docs/ (another docset's) and not Markdown, silently.
func (t *Tree) parseOPS(b []byte) []rawRedirect {
	var file struct {
		Redirections []json.RawMessage `json:"redirections"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.note("%s: not a redirect file (%s): its redirects are not read", opsRedirectFile, jsonError(b, err))
		return nil
	}
	var out []rawRedirect
	bad := 0
	for i, e := range file.Redirections {
		var r struct {
			Source string `json:"source_path"`
			URL    string `json:"redirect_url"`
		}
		if err := json.Unmarshal(e, &r); err != nil || r.Source == "" || r.URL == "" {
			if bad == 0 {
				t.note("%s: redirection %d is not {\"source_path\": ..., \"redirect_url\": ...}: left out (and any other such)", opsRedirectFile, i+1)
			}
			bad++
			continue
		}
		if from, ok := docsSource(r.Source, "docs/"); ok {
			out = append(out, rawRedirect{from: from, url: r.URL, file: opsRedirectFile, learn: true})
		}
	}
	return out
}

// jsonError says where in b a JSON error is.
func jsonError(b []byte, err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line := 1 + bytes.Count(b[:min(int(syn.Offset), len(b))], []byte("\n"))
		return fmt.Sprintf("line %d: %v", line, err)
	}
	return err.Error()
}

// docsSource is a redirect's source as a doc's path under docs/: prefix
// ("docs/" or "") taken off a slash path that stays under it.
func docsSource(p, prefix string) (string, bool) {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if !strings.HasPrefix(p, prefix) || path.Ext(p) != ".md" || strings.HasPrefix(p, "../") {
		return "", false
	}
	p = strings.TrimPrefix(p, prefix)
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// parseMkDocs reads the redirects plugin's redirect_maps from an MkDocs
// config: plugins: [- redirects: {redirect_maps: {old.md: new.md}}], paths
// relative to the docs folder. The config's other tags (!ENV,
// !!python/name:...) are not interpreted.
func (t *Tree) parseMkDocs(name string, b []byte) []rawRedirect {
	var doc goyaml.Node
	if err := goyaml.Unmarshal(b, &doc); err != nil {
		t.note("%s: not YAML (%v): its redirects are not read", name, err)
		return nil
	}
	root := &doc
	if root.Kind == goyaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if dir := mapValue(root, "docs_dir"); dir != nil && strings.TrimSuffix(dir.Value, "/") != "docs" {
		return nil // its redirects are for another folder than docs/
	}
	var maps *goyaml.Node
	plugins := mapValue(root, "plugins")
	if plugins != nil {
		switch plugins.Kind {
		case goyaml.SequenceNode:
			for _, p := range plugins.Content {
				if m := mapValue(p, "redirects"); m != nil {
					maps = mapValue(m, "redirect_maps")
				}
			}
		case goyaml.MappingNode:
			maps = mapValue(mapValue(plugins, "redirects"), "redirect_maps")
		}
	}
	if maps == nil {
		return nil
	}
	if maps.Kind != goyaml.MappingNode {
		t.note("%s: redirect_maps (line %d) is not a map of old.md: new.md: its redirects are not read", name, maps.Line)
		return nil
	}
	var out []rawRedirect
	for i := 0; i+1 < len(maps.Content); i += 2 {
		k, v := maps.Content[i], maps.Content[i+1]
		if k.Kind != goyaml.ScalarNode || v.Kind != goyaml.ScalarNode || v.Value == "" {
			t.note("%s:%d: a redirect is not old.md: new.md: left out", name, k.Line)
			continue
		}
		from, ok := docsSource(k.Value, "")
		if !ok {
			t.note("%s:%d: redirect source %q is not a Markdown file under the docs folder: left out", name, k.Line, k.Value)
			continue
		}
		out = append(out, rawRedirect{from: from, url: v.Value, file: name})
	}
	return out
}

// mapValue is the value of key in mapping node m; nil when there is none.
func mapValue(m *goyaml.Node, key string) *goyaml.Node {
	if m == nil || m.Kind != goyaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// docIndex finds the tree's docs and folders by lower-case path, as a
// site's URLs name them (Learn's are not case-sensitive).
type docIndex struct {
	docs    map[string]string // lower-case path -> doc
	dirs    map[string]string // lower-case path -> folder
	sources map[string]rawRedirect
	base    string // the URL path Learn serves docs/ at, e.g. /cpp/
}

func newDocIndex(t *Tree) *docIndex {
	idx := &docIndex{docs: map[string]string{}, dirs: map[string]string{}}
	for _, d := range t.Docs {
		idx.docs[strings.ToLower(d)] = d
	}
	for _, d := range t.Dirs {
		idx.dirs[strings.ToLower(d)] = d
	}
	return idx
}

// setBase takes the sources and, for Learn's rooted URLs (/cpp/x), the
// URL docs/ is served at: the first segment of those URLs under which
// most of them name a doc or folder of the tree. A URL outside it leaves
// the site.
func (idx *docIndex) setBase() {
	count := map[string]int{}
	for _, r := range idx.sources {
		if !r.learn || !strings.HasPrefix(r.url, "/") {
			continue
		}
		u, err := url.Parse(r.url)
		if err != nil {
			continue
		}
		seg, rest, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
		if _, ok := idx.locate(rest, false); ok {
			count["/"+seg+"/"]++
		}
	}
	for b, n := range count {
		if n > count[idx.base] || (n == count[idx.base] && b < idx.base) {
			idx.base = b
		}
	}
}

// target resolves r's URL one step.
func (idx *docIndex) target(r rawRedirect) redirectTarget {
	u, err := url.Parse(r.url)
	if err != nil {
		return redirectTarget{none: "is not a URL"}
	}
	if u.Scheme != "" || u.Host != "" {
		return redirectTarget{off: true}
	}
	p := u.Path
	if r.learn { // a Learn URL: rooted, or relative to the source's own URL
		if idx.base == "" {
			return redirectTarget{off: true}
		}
		if !strings.HasPrefix(p, "/") {
			from := &url.URL{Path: idx.base + strings.TrimSuffix(r.from, ".md")}
			p = from.ResolveReference(&url.URL{Path: p}).Path
		}
		if !strings.HasPrefix(p+"/", idx.base) {
			return redirectTarget{off: true}
		}
		p = strings.TrimPrefix(p+"/", idx.base)
	} else if strings.HasPrefix(p, "/") {
		return redirectTarget{off: true} // MkDocs: a path from the host's root
	} else {
		// MkDocs reads the target relative to the docs folder, not the source.
		p = path.Clean(p)
		if p == "." {
			p = ""
		}
		if strings.HasPrefix(p, "../") || p == ".." {
			return redirectTarget{off: true}
		}
	}
	p = strings.Trim(p, "/")
	tg, ok := idx.locate(p, true)
	if !ok {
		return redirectTarget{none: "names no doc or folder of docs/"}
	}
	tg.anchor = u.Fragment
	return tg
}

// locate finds the doc, folder or redirect source p (a path under docs/,
// with or without .md) names; redirects says whether a source counts.
func (idx *docIndex) locate(p string, redirects bool) (redirectTarget, bool) {
	l := strings.ToLower(strings.Trim(p, "/"))
	cands := []string{l}
	if !strings.HasSuffix(l, ".md") {
		cands = []string{l + ".md", path.Join(l, "index.md"), path.Join(l, "readme.md")}
	}
	if l == "" {
		cands = []string{"index.md", "readme.md"}
	}
	for _, c := range cands {
		if d, ok := idx.docs[c]; ok {
			return redirectTarget{doc: d}, true
		}
	}
	dir := l
	if path.Base(dir) == "index" { // Learn serves a folder's landing page (index.yml) at DIR/ and DIR/index
		dir = strings.TrimSuffix(path.Dir(dir), ".")
	}
	if d, ok := idx.dirs[dir]; ok || dir == "" {
		return redirectTarget{dir: d, isDir: true}, true
	}
	if redirects {
		for _, c := range cands {
			if r, ok := idx.sources[c]; ok {
				return redirectTarget{chain: r.from}, true
			}
		}
	}
	return redirectTarget{}, false
}

// redirectData adds the redirects to data/wiki.json, so that a link to a
// redirected doc resolves (resolve.html looks a name it does not find in
// pages or files up in folded): Folded maps the source's path, in lower
// case, to the doc it leads to; to a folder's page, entered in Pages as
// the folder's path followed by "/"; or, for a redirect off the site, to
// the page at its old address, entered in Files as the source's path
// followed by "/" (a link's path never ends in "/": resolve.html cleans it).
// A name a file of the tree already answers to is left to that file.
func (t *Tree) redirectData(d *siteData) {
	if len(t.Redirects) == 0 {
		return
	}
	taken := map[string]bool{}
	for _, m := range []map[string]string{d.Pages, d.Files} {
		for k := range m {
			taken[strings.ToLower(k)] = true
		}
	}
	landing := map[string]string{} // folder -> its landing doc
	for doc, dir := range t.folderOf {
		landing[dir] = doc
	}
	for _, r := range t.Redirects {
		key := strings.ToLower("docs/" + r.From)
		if taken[key] {
			continue
		}
		switch {
		case r.Off:
			d.Files["docs/"+r.From+"/"] = urlPath(pageURL(wikipage.Of(r.From)))
			d.Folded[key] = "docs/" + r.From + "/"
		case r.Dir && landing[r.To] != "":
			d.Folded[key] = "docs/" + landing[r.To]
		case r.Dir:
			name := "docs/" + r.To + "/"
			d.Pages[name] = pagePath(path.Join(wikipage.Dir(r.To), "_index.md"))
			d.URLs[d.Pages[name]] = pageHref(wikipage.OfDir(r.To))
			d.Folded[key] = name
		default:
			d.Folded[key] = "docs/" + r.To
		}
	}
}

// redirectOf is the redirect a link from file (a repository path) to dest
// follows, as resolve.html resolves it; nil when none.
func (t *Tree) redirectOf(file, dest string) *Redirect {
	if len(t.Redirects) == 0 {
		return nil
	}
	u, err := url.Parse(dest)
	if err != nil || u.Path == "" {
		return nil
	}
	target := strings.ToLower(path.Clean(path.Join(path.Dir(file), strings.ReplaceAll(u.Path, `\`, "/"))))
	if i, ok := t.redirectIndex[target]; ok {
		return &t.Redirects[i]
	}
	return nil
}

// redirectPage is the page served at a redirected doc's old address.
var redirectPage = template.Must(template.New("redirect").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Moved: {{.Old}}</title>
<meta name="robots" content="noindex">
{{- if .Href}}
<link rel="canonical" href="{{.Canonical}}">
<meta http-equiv="refresh" content="0; url={{.Href}}">
{{- end}}
<meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body>
<main>
<h1>This page has moved</h1>
{{- if .Href}}
<p>docs/{{.Old}} is now <a href="{{.Href}}">{{.Href}}</a>.</p>
{{- else}}
<p>docs/{{.Old}} has moved off this site, to <code>{{.URL}}</code>{{if .External}} (<a href="{{.URL}}" rel="nofollow">{{.URL}}</a>){{end}}: {{.File}} says so.</p>
{{- end}}
<p><a href="{{.Home}}">The wiki's home page</a></p>
</main>
</body>
</html>
`))

// writeRedirectPages writes, into the site dest built from t under base,
// a page at each redirected doc's old address: one that sends the reader
// on to the page it leads to (a meta refresh, with a canonical link to
// it, as Hugo's aliases do), or, for a redirect off the site, one that
// names the new address without sending anyone there. An address a page
// of the site already has keeps that page. It returns the folders written,
// relative to dest.
func (t *Tree) writeRedirectPages(dest, base string) ([]string, error) {
	var out []string
	for _, r := range t.Redirects {
		rel := pageURL(wikipage.Of(r.From))
		if rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) {
			continue
		}
		file := filepath.Join(dest, filepath.FromSlash(rel), "index.html")
		if _, err := os.Lstat(file); err == nil {
			continue
		}
		v := struct {
			Old, URL, File, Home string
			Href, Canonical      template.URL
			External             bool
		}{Old: r.From, URL: r.URL, File: r.File, Home: base}
		if r.Off {
			u, err := url.Parse(r.URL)
			v.External = err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
		} else {
			href := base + urlPath(pageURL(r.page()))
			if r.Anchor != "" {
				href += "#" + (&url.URL{Fragment: r.Anchor}).EscapedFragment()
			}
			v.Href, v.Canonical = template.URL(href), template.URL(href)
		}
		var b bytes.Buffer
		if err := redirectPage.Execute(&b, v); err != nil {
			return out, fmt.Errorf("redirect page for docs/%s: %w", r.From, err)
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return out, fmt.Errorf("redirect page for docs/%s: %w", r.From, err)
		}
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			return out, fmt.Errorf("redirect page for docs/%s: %w", r.From, err)
		}
		out = append(out, strings.TrimSuffix(rel, "/"))
	}
	return out, nil
}
