// Package wiki builds the modkit wiki: the repository's docs/ rendered by the
// Hugo pinned in tools/hugo, with the site sources in tools/internal/wiki/site.
//
// A build scans the tree (docs/, CONTRIBUTING.md, framework/mod_hooks.json),
// writes the parts that depend on it (the Hugo mounts, a page for each folder
// without an index.md, and data/wiki.json mapping repository paths to pages)
// into a temporary folder, runs Hugo, and turns the broken references the
// layouts report into file:line problems. The site is written next to the
// output folder and swapped in only when the build succeeded, in one step
// on Linux. Watch rebuilds the site on every change of the tree.
package wiki

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/buildinfo"
	"github.com/docs-mcp/docs-mcp/tools/internal/wiki/linkreport"
)

// DefaultBaseURL is where the wiki lives: the server mounts it at /wiki/.
const DefaultBaseURL = "/wiki/"

// What a build or preview does about a broken link or image in the docs.
const (
	BrokenLinksError = "error" // fail the build, listing them (Build's default)
	BrokenLinksWarn  = "warn"  // list them and build the site anyway (Serve's default)
)

// Options says what to build.
type Options struct {
	// Repo is the docs-mcp checkout, holding tools/internal/wiki/site and
	// tools/hugo; empty means none: the site's sources built into the
	// command, and Hugo from Hugo or the PATH (see IsCheckout).
	Repo     string
	Hugo     string    // a Hugo executable built from tools/hugo; empty means running it with go tool
	Root     string    // the tree to build: a folder holding docs/; empty means Repo
	BaseURL  string    // empty means DefaultBaseURL
	Progress io.Writer // progress for the user; nil discards it
	// BrokenLinks is BrokenLinksError or BrokenLinksWarn; empty means
	// BrokenLinksError for Build and BrokenLinksWarn for Serve.
	BrokenLinks string
	// Version is the docs-mcp version the footer shows; empty means
	// buildinfo.Version: what docs-mcp reports when built the same way.
	Version string
	// EditURL, when set, gives every page from a file an "Edit this page"
	// link: EditURL followed by the file's repository path, e.g.
	// https://github.com/ORG/REPO/edit/main/ + docs/server/tools.md.
	EditURL string
	// Title names the site: the top bar, every page's <title>, llms.txt;
	// empty means the site's own, "modkit wiki".
	Title string
	// Logo, when set, is an image file (SVG, PNG, JPEG or GIF) shown before
	// the title in the top bar.
	Logo string
	// Versions are the releases built beside the working tree, newest
	// first, each at BaseURL followed by its name (see Version). None
	// builds the working tree alone. Build (and Watch, on every change)
	// builds them; Serve previews the working tree only.
	Versions []Version
}

func (o Options) siteDir() string { return filepath.Join(o.Repo, "tools", "internal", "wiki", "site") }

func (o Options) progress() io.Writer {
	if o.Progress == nil {
		return io.Discard
	}
	return o.Progress
}

// brokenLinks is o.BrokenLinks checked, def when empty.
func (o Options) brokenLinks(def string) (string, error) {
	switch o.BrokenLinks {
	case "":
		return def, nil
	case BrokenLinksError, BrokenLinksWarn:
		return o.BrokenLinks, nil
	}
	return "", fmt.Errorf("broken links: %q is neither %q nor %q", o.BrokenLinks, BrokenLinksError, BrokenLinksWarn)
}

// params is what the layouts are told for a build (preview false) or a
// preview; broken is the checked BrokenLinks.
func (o Options) params(preview bool, broken string) (siteParams, error) {
	p := siteParams{Preview: preview, BrokenLinks: broken, Version: o.Version, EditURL: o.EditURL}
	if o.Title != "" {
		p.Title = strings.TrimSpace(o.Title)
		if p.Title == "" || strings.ContainsAny(p.Title, "\r\n") {
			return siteParams{}, fmt.Errorf("title %q: want one line of text", o.Title)
		}
	}
	if o.Logo != "" {
		l, err := readLogo(o.Logo)
		if err != nil {
			return siteParams{}, err
		}
		p.Logo = &l
	}
	// The docs-mcp icon, where the checkout has it (the live image copies it).
	if icon := filepath.Join(o.Repo, "mcp-server", "internal", "mcpserver", "icon.svg"); o.Repo != "" && fileExists(icon) {
		p.Icon = icon
	}
	if p.Version == "" {
		p.Version = buildinfo.Version()
	}
	if p.EditURL != "" {
		u, err := url.Parse(p.EditURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return siteParams{}, fmt.Errorf("edit URL %q: want an http(s) URL such as https://github.com/ORG/REPO/edit/main/", o.EditURL)
		}
		if !strings.HasSuffix(p.EditURL, "/") {
			p.EditURL += "/"
		}
	}
	return p, nil
}

func (o Options) root() string {
	if o.Root == "" {
		return o.Repo
	}
	return o.Root
}

func (o Options) baseURL() string {
	if o.BaseURL == "" {
		return DefaultBaseURL
	}
	if !strings.HasSuffix(o.BaseURL, "/") {
		return o.BaseURL + "/"
	}
	return o.BaseURL
}

// Result describes a finished build.
type Result struct {
	Out      string        // the site folder
	Pages    int           // HTML pages written
	Files    int           // all files written
	Bytes    int64         // the room the files take: the size of each file, once for identical files stored once (see linkIdentical)
	Hugo     string        // Hugo's version line
	Duration time.Duration // Hugo's runs (one per version), not counting its compile
	Usage    Usage         // what Hugo's runs used: CPU time and peak memory
	Broken   []Problem     // the broken references a BrokenLinksWarn build (or an old version) listed
	Inexact  []Problem     // the references resolved though their names differ from the file's in case or slash direction, or that follow a redirect of the tree's site (Problem.Redirected)
	Versions int           // the release versions built beside the working tree
	// Redirects are the redirect pages written, one at each redirected
	// doc's old address (redirects.go), in the working tree's site.
	Redirects int
}

// BuildError is a build that failed on broken references in the docs.
type BuildError struct {
	Problems []Problem
}

func (e *BuildError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d broken reference(s) in the docs:", len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// Build writes the site for opt into out, replacing an earlier build there.
func Build(ctx context.Context, opt Options, out string) (*Result, error) {
	b, err := newBuilder(opt, out, BrokenLinksError)
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	res, err := b.build(ctx)
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	return res, nil
}

// A builder builds one tree into one folder, as often as asked: once for
// Build, on every change for Watch. It asks Hugo for its version once.
type builder struct {
	opt     Options
	out     string     // absolute
	params  siteParams // for the layouts, BrokenLinks checked
	site    string     // the site's sources (Options.siteSources)
	hugo    *Hugo
	version string // Hugo's version line, once known
	// redirects are the working tree's redirect pages, folders relative
	// to the site (writeRedirectPages), which the sitemap leaves out.
	redirects []string
	// plain leaves out the compressed copies of the site's files: Serve's
	// file server sends files as they are.
	plain bool
}

// compress writes the compressed copies of the files under dir
// (compressSite), unless the site is plain.
func (b *builder) compress(dir string, leave func(name string) bool) error {
	if b.plain {
		return nil
	}
	return compressSite(dir, leave)
}

// redirectPages writes the working tree's redirect pages into the site at
// dir (writeRedirectPages), for the sitemap to leave out and res to count.
func (b *builder) redirectPages(tree *Tree, dir string, res *Result) error {
	var err error
	if b.redirects, err = tree.writeRedirectPages(dir, b.opt.baseURL()); err != nil {
		return err
	}
	res.Redirects = len(b.redirects)
	if len(b.redirects) > 0 {
		fmt.Fprintf(b.opt.progress(), "wiki: %d redirect page(s) at the old addresses of redirected docs\n", len(b.redirects))
	}
	return nil
}

// newBuilder checks opt and out; broken is the default for opt.BrokenLinks.
func newBuilder(opt Options, out, broken string) (*builder, error) {
	broken, err := opt.brokenLinks(broken)
	if err != nil {
		return nil, err
	}
	out, err = filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	if err := checkReplaceable(out); err != nil {
		return nil, err
	}
	params, err := opt.params(false, broken)
	if err != nil {
		return nil, err
	}
	if err := checkBaseURL(opt.baseURL()); err != nil {
		return nil, err
	}
	site, err := opt.siteSources()
	if err != nil {
		return nil, err
	}
	hugo, err := opt.hugo()
	if err != nil {
		return nil, err
	}
	return &builder{opt: opt, out: out, params: params, site: site, hugo: hugo}, nil
}

// hugoVersion makes sure Hugo runs (compiling it the first time) and
// returns its version line.
func (b *builder) hugoVersion(ctx context.Context) (string, error) {
	if b.version != "" {
		return b.version, nil
	}
	v, err := b.hugo.Version(ctx)
	if err != nil {
		return "", err
	}
	b.version = v
	fmt.Fprintf(b.opt.progress(), "wiki: running %s\n", v)
	checkHugoVersion(b.opt, v)
	return v, nil
}

// build scans the tree (and the versions, see Options.Versions), has Hugo
// write the site next to the output folder and swaps it in only when the
// build succeeded.
func (b *builder) build(ctx context.Context) (*Result, error) {
	progress := b.opt.progress()
	tree, err := b.scan(ctx, b.opt.root(), "")
	if err != nil {
		return nil, err
	}
	versions, err := b.scanVersions(ctx)
	defer versions.remove()
	if err != nil {
		return nil, err
	}
	version, err := b.hugoVersion(ctx)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(b.out), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(b.out), "."+filepath.Base(b.out)+"-*")
	if err != nil {
		return nil, err
	}
	// After the swap tmp holds the previous site; on failure, the new one.
	defer os.RemoveAll(tmp)

	base := b.opt.baseURL()
	res := &Result{Out: b.out, Hugo: version}
	plan, err := newVersionPlan(base, tree, versions)
	if err != nil {
		return nil, err
	}
	newest, err := plan.site(0)
	if err != nil {
		return nil, err
	}
	if err := b.render(ctx, res, tree, nil, tmp, base, b.params, newest); err != nil {
		return nil, err
	}
	if err := b.redirectPages(tree, tmp, res); err != nil {
		return nil, err
	}
	if err := plan.share(tmp, ""); err != nil {
		return nil, err
	}
	if err := plan.claim(tmp); err != nil {
		return nil, err
	}
	for i, v := range versions {
		dir, err := plan.folder(tmp, v.name)
		if err != nil {
			return nil, err
		}
		// An old release's broken links cannot be fixed any more: they are
		// listed, and its pages built all the same.
		params := b.params
		params.BrokenLinks = BrokenLinksWarn
		site, err := plan.site(i + 1)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		if err := b.render(ctx, res, v.tree, v.fsys, dir, plan.base(v.name), params, site); err != nil {
			return nil, fmt.Errorf("version %s: %w", v.name, err)
		}
		// Its redirected docs' old addresses, from its own redirect map.
		if _, err := v.tree.writeRedirectPages(dir, plan.base(v.name)); err != nil {
			return nil, fmt.Errorf("version %s: %w", v.name, err)
		}
		if _, err := writeSearchIndex(dir); err != nil { // its own, at /wiki/TAG/search-index/
			return nil, fmt.Errorf("version %s: %w", v.name, err)
		}
		if err := plan.share(dir, v.name); err != nil {
			return nil, fmt.Errorf("version %s: %w", v.name, err)
		}
		fmt.Fprintf(progress, "wiki: %s: %d docs built at %s in %s\n", v.name, len(v.tree.Docs), plan.base(v.name), time.Since(start).Round(time.Millisecond))
	}
	res.Versions = len(versions)

	redirected := 0
	for _, p := range res.Inexact {
		fmt.Fprintln(progress, "wiki: warning: "+p.String())
		if p.Redirected {
			redirected++
		}
	}
	if n := len(res.Inexact) - redirected; n > 0 {
		fmt.Fprintf(progress, "wiki: %d inexact reference(s) listed above: each names a file but for case or slash direction, and is resolved to it; write the exact name to silence the warning\n", n)
	}
	if redirected > 0 {
		fmt.Fprintf(progress, "wiki: %d reference(s) to redirected docs listed above: each is resolved as the site's redirect says; link to the new page to silence the warning\n", redirected)
	}
	for _, p := range res.Broken {
		fmt.Fprintln(progress, "wiki: "+p.String())
	}
	if len(res.Broken) > 0 {
		fmt.Fprintf(progress, "wiki: %d broken reference(s) listed above; the site is built anyway\n", len(res.Broken))
	}

	if _, err := b.finish(tmp, res, plan.folders()); err != nil {
		return nil, err
	}
	return res, nil
}

// finish completes the site Hugo wrote into tmp (the working tree's, with
// the versions' sites in their folders) and swaps it in place of the
// output folder: the sitemap when the base URL is absolute, the search
// index, the compressed copies; res gets the files' count and size. It
// returns the search index of the working tree.
func (b *builder) finish(tmp string, res *Result, versions []string) (*searchIndex, error) {
	if base := b.opt.baseURL(); absoluteBase(base) {
		if err := writeSitemap(tmp, base, versions, b.redirects); err != nil {
			return nil, err
		}
	}
	// The search index works on its own files only (searchIndexFile): the
	// rest of the site is compressed meanwhile, the index after.
	compressed := make(chan error, 1)
	go func() { compressed <- b.compress(tmp, searchIndexFile) }()
	idx, err := writeSearchIndex(tmp)
	if err := errors.Join(err, <-compressed); err != nil {
		return nil, err
	}
	if err := b.compress(filepath.Join(tmp, searchDir), nil); err != nil {
		return nil, err
	}
	var saved int64
	if len(versions) > 0 {
		linked, n, err := linkIdentical(tmp)
		if err != nil {
			return nil, err
		}
		saved = n
		fmt.Fprintf(b.opt.progress(), "wiki: %d files identical to another stored once (hard links): %.1f MB saved\n", linked, float64(n)/1e6)
	}
	err = filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		if fi, err := d.Info(); err == nil {
			res.Bytes += fi.Size()
		}
		res.Files++
		if strings.HasSuffix(p, ".html") {
			res.Pages++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Bytes -= saved // the room the site takes: a linked file's bytes once
	return idx, replaceDir(tmp, b.out)
}

// scan reads the tree at root with its last-updated days; name is the
// version it is ("" for the working tree), for the progress line.
func (b *builder) scan(ctx context.Context, root, name string) (*Tree, error) {
	// git's log is read while the tree is scanned (on cpp-docs it takes
	// longer than the scan).
	commits := make(chan map[string]string, 1)
	go func() { commits <- commitDates(ctx, root) }()
	tree, err := ScanTree(root)
	if err != nil {
		<-commits
		return nil, err
	}
	if name == "" {
		fmt.Fprintf(b.opt.progress(), "wiki: %d docs and %d other files under %s\n", len(tree.Docs), len(tree.Files), filepath.Join(tree.Root, "docs"))
		if !tree.Contributing {
			fmt.Fprintf(b.opt.progress(), "wiki: no CONTRIBUTING.md in %s: the site has no Contributing page\n", tree.Root)
		}
		if !tree.Registry {
			fmt.Fprintf(b.opt.progress(), "wiki: no %s in %s: the site has no hook reference\n", registryPath, tree.Root)
		}
	} else {
		fmt.Fprintf(b.opt.progress(), "wiki: %s: %d docs and %d other files\n", name, len(tree.Docs), len(tree.Files))
	}
	for _, n := range tree.RedirectNotes {
		fmt.Fprintf(b.opt.progress(), "wiki: %swarning: %s\n", versionPrefix(name), n)
	}
	if len(tree.Redirects) > 0 {
		fmt.Fprintf(b.opt.progress(), "wiki: %s%d redirected doc(s) read from the site's redirect map\n", versionPrefix(name), len(tree.Redirects))
	}
	if err := tree.readDates(<-commits); err != nil {
		return nil, err
	}
	return tree, nil
}

// render has Hugo write the site of tree into dest (a folder that is empty
// or missing) under base, adding to res what it took and the broken
// references it listed; site is what the version switcher, the banner and
// the "What changed" page are made from (nil without versions). A broken
// reference fails the render when params say BrokenLinksError.
//
// repo is the tree's repository, where the layouts' links to files outside
// docs/ are looked for; nil means the tree's own folder.
func (b *builder) render(ctx context.Context, res *Result, tree *Tree, repo fs.FS, dest, base string, params siteParams, site *versionSite) error {
	progress := b.opt.progress()
	gen, err := os.MkdirTemp("", "wiki-gen-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(gen)
	cfg, err := tree.writeGenerated(gen, b.site, params)
	if err != nil {
		return err
	}
	if err := site.write(gen); err != nil {
		return err
	}

	start := time.Now()
	var reports []linkreport.Report
	var logged []string
	use, runErr := b.hugo.Run(ctx, tree.pageCount(), func(line string) {
		if r, ok := linkreport.Parse(line); ok {
			reports = append(reports, r)
			return
		}
		logged = append(logged, line)
	}, "build",
		"--source", b.site,
		"--config", filepath.Join(b.site, "hugo.toml")+","+cfg,
		"--destination", dest,
		"--baseURL", base,
		"--logLevel", "warn",
		"--printPathWarnings",
		"--noBuildLock",
	)
	res.Duration += time.Since(start)
	res.Usage.CPU += use.CPU
	res.Usage.PeakRSS = max(res.Usage.PeakRSS, use.PeakRSS)

	if repo == nil {
		root, err := os.OpenRoot(tree.Root)
		if err != nil {
			return err
		}
		defer root.Close()
		repo = root.FS()
	}
	var probs, inexact []Problem
	for _, p := range problems(repo, reports, tree) {
		if p.Warning {
			inexact = append(inexact, p)
		} else {
			probs = append(probs, p)
		}
	}
	if len(probs) > 0 && params.BrokenLinks == BrokenLinksError {
		return &BuildError{Problems: probs}
	}
	if runErr != nil {
		for _, l := range logged {
			fmt.Fprintln(progress, "hugo: "+l)
		}
		return runErr
	}
	for _, l := range logged {
		if strings.HasPrefix(l, "WARN") {
			fmt.Fprintln(progress, "hugo: "+l)
		}
	}
	if err := assembleInPlace(dest); err != nil {
		return err
	}
	if site != nil && site.current != "" {
		for i := range probs {
			probs[i].Version = site.current
		}
		for i := range inexact {
			inexact[i].Version = site.current
		}
	}
	res.Broken = append(res.Broken, probs...)
	res.Inexact = append(res.Inexact, inexact...)
	return nil
}

// entriesDir makes a folder for the pages' entries (gather) beside the
// site, on its file system.
func (b *builder) entriesDir() (string, error) {
	return os.MkdirTemp(filepath.Dir(b.out), "."+filepath.Base(b.out)+"-entries-*")
}

// replaceDir puts the finished site tmp in place of out. On Linux the two
// folders are exchanged in one step (renameat2 with RENAME_EXCHANGE): a
// server reading out (docs-mcp opens the folder on every request) finds
// the old site or the new one, never a missing or half-removed one, and
// the old site is left at tmp for the caller to remove. Elsewhere, on a
// file system that cannot exchange, and for the first build, the old site
// is renamed aside and the new one renamed in: out is missing for the
// instant between the two renames.
func replaceDir(tmp, out string) error {
	err := exchange(tmp, out)
	if err == nil {
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("replace %s: %w", out, err)
	}
	old := tmp + "-old"
	if err := os.Rename(out, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("replace %s: %w", out, err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return fmt.Errorf("replace %s: %w", out, err)
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("remove the previous site: %w", err)
	}
	return nil
}

// checkReplaceable refuses to replace a folder that is not an earlier wiki
// build (so -o never wipes the wrong directory).
func checkReplaceable(out string) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	// An earlier build has llms.txt and a search index: search/manifest.json,
	// or search-index.json before the index came in pieces.
	if !fileExists(filepath.Join(out, "llms.txt")) {
		return fmt.Errorf("refusing to replace %s: it is not empty and not an earlier wiki build (no llms.txt)", out)
	}
	if !fileExists(filepath.Join(out, searchDir, searchManifest)) && !fileExists(filepath.Join(out, "search-index.json")) {
		return fmt.Errorf("refusing to replace %s: it is not empty and not an earlier wiki build (no %s)", out, searchDir+"/"+searchManifest)
	}
	return nil
}

// Serve previews opt at addr (host:port) until ctx ends: Watch builds the
// site into a temporary folder, without compressed copies of its files,
// and a file server serves it at the base URL's path (http://ADDR/wiki/ by
// default) from the moment the first build is in. An edit shows as Watch
// publishes it; broken references are reported as file:line while it
// runs. The fingerprinted stylesheet and script may be kept by browsers;
// nothing else is.
func Serve(ctx context.Context, opt Options, addr string) error {
	if _, err := opt.brokenLinks(BrokenLinksWarn); err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve wiki: address %q: %w", addr, err)
	}
	if opt.BaseURL == "" {
		opt.BaseURL = "http://" + net.JoinHostPort(host, port) + DefaultBaseURL
	}
	u, err := url.Parse(opt.baseURL())
	if err != nil {
		return fmt.Errorf("serve wiki: base URL %q: %w", opt.BaseURL, err)
	}
	dir, err := os.MkdirTemp("", "wiki-serve-*")
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "wiki")

	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	srv := &http.Server{Handler: previewHandler(u.Path, out), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	fmt.Fprintf(opt.progress(), "wiki: preview at %s once the first build is in (edits show as they are built; Ctrl-C stops)\n", opt.baseURL())

	// Plain: the preview's file server sends files as they are, so the
	// compressed copies Watch writes for docs-mcp would never be read.
	err = watch(ctx, opt, out, 0, true)
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	return nil
}

// previewHandler serves the site at dir under the URL path base; the site
// is missing until the first build is in (503).
func previewHandler(base, dir string) http.Handler {
	files := http.StripPrefix(strings.TrimSuffix(base, "/"), http.FileServer(http.Dir(dir)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || r.URL.Path+"/" == base {
			http.Redirect(w, r, base, http.StatusFound)
			return
		}
		if !strings.HasPrefix(r.URL.Path, base) {
			http.NotFound(w, r)
			return
		}
		if !fileExists(filepath.Join(dir, "index.html")) {
			http.Error(w, "the wiki is being built: try again in a moment", http.StatusServiceUnavailable)
			return
		}
		if name := path.Base(r.URL.Path); strings.Contains(name, ".min.") && (path.Ext(name) == ".css" || path.Ext(name) == ".js") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, r)
	})
}

// versionPrefix is "NAME: " for a version's progress lines, "" for the working tree's.
func versionPrefix(name string) string {
	if name == "" {
		return ""
	}
	return name + ": "
}

func fileExists(name string) bool {
	info, err := os.Stat(name)
	return err == nil && info.Mode().IsRegular()
}
