// Command wiki builds the modkit wiki from docs/ with the Hugo pinned in
// tools/hugo, keeps it up to date on every change, or serves a live preview of it.
//
//	go run ./tools/cmd/wiki build [-o build/wiki] [-versions 'v*'] [-base-url URL] [-root DIR] [-broken-links error|warn] [-version V] [-edit-url URL] [-title T] [-logo FILE] [-hugo FILE]
//	go run ./tools/cmd/wiki watch [-o build/wiki] [-poll 500ms] [same flags as build]
//	go run ./tools/cmd/wiki serve [-addr 127.0.0.1:1313] [-base-url URL] [-root DIR] [-broken-links error|warn] [-version V] [-edit-url URL] [-title T] [-logo FILE] [-hugo FILE]
//
// Run it from anywhere in the docs-mcp repository, or (built with go build or
// go install) in any repository with a docs/ folder, with -hugo or a hugo on
// the PATH. The first run compiles Hugo, which
// takes minutes; later runs reuse the Go build cache. A broken link in a doc
// fails the build with its file and line; with -broken-links=warn the site is
// built all the same and every broken reference is listed (watch's default).
// Watch swaps each build in whole, so docs-mcp serving -o follows the docs
// without ever serving a half-written site (the compose service wiki-live).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/docs-mcp/docs-mcp/mcp-server/buildinfo"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
	"github.com/docs-mcp/docs-mcp/tools/internal/wiki"
)

const usage = `usage:
  wiki build [-o DIR] [flags]            write the site (default build/wiki/)
  wiki watch [-o DIR] [-poll D] [flags]  write it, then rewrite it on every change of the docs
  wiki serve [-addr HOST:PORT] [flags]   watch into a temporary folder and serve it

Run "wiki build -h", "wiki watch -h" or "wiki serve -h" for the flags.
`

// version is stamped the way docs-mcp's is, where there is no checkout to
// read it from (the live image): -ldflags "-X main.version=v1.2.3". It is
// the default of -version; empty means buildinfo.Version.
var version string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wiki: error:", err)
		os.Exit(1)
	}
}

// where finds, from dir, the docs-mcp checkout the command runs in (""
// when none: an installed binary run in another repository) and the tree
// to build by default: the checkout, else the nearest folder up from dir
// that holds docs/, else dir.
func where(dir string) (checkout, root string, err error) {
	checkout, err = repo.Root(dir)
	if errors.Is(err, repo.ErrNotFound) || (err == nil && !wiki.IsCheckout(checkout)) {
		checkout = "" // none, or another project's go.work
	} else if err != nil {
		return "", "", err
	}
	if checkout != "" {
		return checkout, checkout, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "docs")); err == nil && fi.IsDir() {
			return "", d, nil
		}
		if filepath.Dir(d) == d {
			return "", abs, nil
		}
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	checkout, root, err := where(".")
	if err != nil {
		return err
	}
	opt := wiki.Options{Repo: checkout, Progress: stderr}

	fs := flag.NewFlagSet("wiki "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opt.BaseURL, "base-url", os.Getenv("WIKI_BASE_URL"), "the `URL` the site is served under; an absolute one (https://docs.example.org/modkit/) also gives canonical links, OpenGraph URLs, sitemap.xml and robots.txt (default $WIKI_BASE_URL, else build and watch: "+wiki.DefaultBaseURL+", serve: http://ADDR"+wiki.DefaultBaseURL+")")
	fs.StringVar(&opt.Root, "root", root, "the tree to build: the folder holding docs/ (and optionally CONTRIBUTING.md, a Contributing page, and framework/mod_hooks.json, a hook reference); by default the docs-mcp checkout run in, else the nearest folder up holding docs/")
	fs.StringVar(&opt.BrokenLinks, "broken-links", "", "what a broken link or image does: "+wiki.BrokenLinksError+" (fail, listing them; build's default) or "+wiki.BrokenLinksWarn+" (list them with file and line, build the site anyway; the default of watch and serve)")
	if version == "" {
		version = buildinfo.Version()
	}
	fs.StringVar(&opt.Version, "version", version, "the docs-mcp `version` the footer shows, by default what docs-mcp reports when built like this command")
	fs.StringVar(&opt.EditURL, "edit-url", os.Getenv("WIKI_EDIT_URL"), "with it, each page links \"Edit this page\" to this `URL` followed by the file's repository path, e.g. https://github.com/ORG/REPO/edit/main/ (default $WIKI_EDIT_URL; none when empty)")
	fs.StringVar(&opt.Title, "title", os.Getenv("WIKI_TITLE"), "the site's `name`, in the top bar, every page's title and llms.txt (default $WIKI_TITLE, else \"modkit wiki\")")
	fs.StringVar(&opt.Logo, "logo", os.Getenv("WIKI_LOGO"), "an image `file` (SVG, PNG, JPEG or GIF) shown before the name in the top bar (default $WIKI_LOGO; none when empty)")
	fs.StringVar(&opt.Hugo, "hugo", "", "a Hugo `executable` built from tools/hugo/go.mod ("+wiki.HugoVersion+"), to run instead of compiling and running it with go tool (outside a docs-mcp checkout: the hugo on the PATH)")
	outFlag := func() *string {
		return fs.String("o", filepath.Join(root, "build", "wiki"), "output `dir` (replaced whole on each build; must be empty or an earlier wiki build)")
	}

	switch args[0] {
	case "build":
		out := outFlag()
		versions := fs.String("versions", os.Getenv("WIKI_VERSIONS"), "also build the release tags this `selector` picks, each at BASE-URL/TAG/, beside the working tree: globs separated by commas, and :N to keep the newest N (v*, v*:5, v1.*,v2.*); read from the repository at -root (default $WIKI_VERSIONS; none when empty)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *versions != "" {
			if opt.Versions, err = wiki.Releases(opt.Root, *versions); err != nil {
				return fmt.Errorf("-versions: %w", err)
			}
			if len(opt.Versions) == 0 {
				fmt.Fprintf(stderr, "wiki: no tag matches -versions %s: building the working tree alone\n", *versions)
			}
		}
		res, err := wiki.Build(ctx, opt, *out)
		if err != nil {
			return err
		}
		with := ""
		if res.Versions > 0 {
			with = fmt.Sprintf(" (the working tree and %d release versions)", res.Versions)
		}
		fmt.Fprintf(stderr, "wiki: built %d pages (%d files)%s in %s with Hugo → %s\n", res.Pages, res.Files, with, res.Duration.Round(1e6), res.Out)
		return nil
	case "watch":
		out := outFlag()
		poll := fs.Duration("poll", wiki.DefaultPoll, "how often to look for changes in the tree")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return wiki.Watch(ctx, opt, *out, *poll)
	case "serve":
		addr := fs.String("addr", "127.0.0.1:1313", "listen `address`")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return wiki.Serve(ctx, opt, *addr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stderr, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}
