// Package wiki builds the modkit wiki: the repository's docs/ rendered by the
// Hugo pinned in tools/hugo, with the site sources in tools/internal/wiki/site.
//
// A build scans the tree (docs/, CONTRIBUTING.md, framework/mod_hooks.json),
// writes the parts that depend on it (the Hugo mounts, a page for each folder
// without an index.md, and data/wiki.json mapping repository paths to pages)
// into a temporary folder, runs Hugo, and turns the broken references the
// layouts report into file:line problems. The site is written next to the
// output folder and swapped in only when the build succeeded.
package wiki

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
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
	Repo     string    // the docs-mcp checkout: holds tools/internal/wiki/site and tools/hugo
	Root     string    // the tree to build (docs/, ...); empty means Repo
	BaseURL  string    // empty means DefaultBaseURL
	Progress io.Writer // progress for the user; nil discards it
	// BrokenLinks is BrokenLinksError or BrokenLinksWarn; empty means
	// BrokenLinksError for Build and BrokenLinksWarn for Serve.
	BrokenLinks string
}

func (o Options) siteDir() string { return filepath.Join(o.Repo, "tools", "internal", "wiki", "site") }

func (o Options) hugo() *Hugo {
	return &Hugo{ModDir: filepath.Join(o.Repo, "tools", "hugo"), Progress: o.progress()}
}

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
	Bytes    int64         // the size of all files written
	Hugo     string        // Hugo's version line
	Duration time.Duration // Hugo's run, not counting its compile
	Usage    Usage         // what Hugo's run used: CPU time and peak memory
	Broken   []Problem     // the broken references a BrokenLinksWarn build listed
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
func Build(ctx context.Context, opt Options, out string) (res *Result, err error) {
	progress := opt.progress()
	broken, err := opt.brokenLinks(BrokenLinksError)
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	out, err = filepath.Abs(out)
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	if err := checkReplaceable(out); err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	tree, err := ScanTree(opt.root())
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	fmt.Fprintf(progress, "wiki: %d docs and %d other files under %s\n", len(tree.Docs), len(tree.Files), filepath.Join(tree.Root, "docs"))
	if !tree.Contributing {
		fmt.Fprintf(progress, "wiki: no CONTRIBUTING.md in %s: the site has no Contributing page\n", tree.Root)
	}

	hugo := opt.hugo()
	version, err := hugo.Version(ctx)
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}

	gen, err := os.MkdirTemp("", "wiki-gen-*")
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	defer os.RemoveAll(gen)
	cfg, err := tree.writeGenerated(gen, opt.siteDir(), false, broken)
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), "."+filepath.Base(out)+"-*")
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	defer os.RemoveAll(tmp) // gone after the swap; left over only on failure

	fmt.Fprintf(progress, "wiki: running %s\n", version)
	start := time.Now()
	var reports []report
	var logged []string
	use, runErr := hugo.Run(ctx, func(line string) {
		if r, ok := parseReport(line); ok {
			reports = append(reports, r)
			return
		}
		logged = append(logged, line)
	}, "build",
		"--source", opt.siteDir(),
		"--config", filepath.Join(opt.siteDir(), "hugo.toml")+","+cfg,
		"--destination", tmp,
		"--baseURL", opt.baseURL(),
		"--logLevel", "warn",
		"--printPathWarnings",
		"--noBuildLock",
	)
	took := time.Since(start)

	root, err := os.OpenRoot(tree.Root)
	if err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	defer root.Close()
	probs := problems(root, reports)
	if len(probs) > 0 && broken == BrokenLinksError {
		return nil, fmt.Errorf("build wiki: %w", &BuildError{Problems: probs})
	}
	if runErr != nil {
		for _, l := range logged {
			fmt.Fprintln(progress, "hugo: "+l)
		}
		return nil, fmt.Errorf("build wiki: %w", runErr)
	}
	for _, l := range logged {
		if strings.HasPrefix(l, "WARN") {
			fmt.Fprintln(progress, "hugo: "+l)
		}
	}

	for _, p := range probs {
		fmt.Fprintln(progress, "wiki: "+p.String())
	}
	if len(probs) > 0 {
		fmt.Fprintf(progress, "wiki: %d broken reference(s) listed above; the site is built anyway (-broken-links=warn)\n", len(probs))
	}

	res = &Result{Out: out, Hugo: version, Duration: took, Usage: use, Broken: probs}
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
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	if err := os.RemoveAll(out); err != nil {
		return nil, fmt.Errorf("build wiki: replace %s: %w", out, err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return nil, fmt.Errorf("build wiki: %w", err)
	}
	return res, nil
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
	for _, marker := range []string{"llms.txt", "search-index.json"} {
		if _, err := os.Stat(filepath.Join(out, marker)); err != nil {
			return fmt.Errorf("refusing to replace %s: it is not empty and not an earlier wiki build (no %s)", out, marker)
		}
	}
	return nil
}

// Serve runs Hugo's live preview of opt at addr (host:port) until ctx ends.
// Broken references are reported as file:line while it runs.
func Serve(ctx context.Context, opt Options, addr string) error {
	progress := opt.progress()
	broken, err := opt.brokenLinks(BrokenLinksWarn)
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve wiki: address %q: %w", addr, err)
	}
	tree, err := ScanTree(opt.root())
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	hugo := opt.hugo()
	version, err := hugo.Version(ctx)
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	gen, err := os.MkdirTemp("", "wiki-gen-*")
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	defer os.RemoveAll(gen)
	cfg, err := tree.writeGenerated(gen, opt.siteDir(), true, broken)
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	root, err := os.OpenRoot(tree.Root)
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	defer root.Close()

	base := opt.BaseURL
	if base == "" {
		base = "http://" + net.JoinHostPort(host, port) + DefaultBaseURL
	}
	fmt.Fprintf(progress, "wiki: live preview with %s at %s (edits show live; restart after adding, moving or removing a doc; raw .md twins are only in builds; Ctrl-C stops)\n", version, base)
	_, err = hugo.Run(ctx, func(line string) {
		if r, ok := parseReport(line); ok {
			for _, p := range problems(root, []report{r}) {
				fmt.Fprintln(progress, "wiki: "+p.String())
			}
			return
		}
		fmt.Fprintln(progress, "hugo: "+line)
	}, "server",
		"--source", opt.siteDir(),
		"--config", filepath.Join(opt.siteDir(), "hugo.toml")+","+cfg,
		"--bind", host,
		"--port", port,
		"--baseURL", base,
		"--appendPort=false",
		"--disableFastRender",
		"--renderToMemory",
		"--logLevel", "warn",
		"--noBuildLock",
	)
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("serve wiki: %w", err)
	}
	return nil
}
