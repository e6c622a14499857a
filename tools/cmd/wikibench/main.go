// Command wikibench measures wiki builds at scale: it builds this
// repository's docs, then trees of generated docs (mcp-server/cmd/gencorpus,
// the shapes the server's search benchmarks use) of each size asked for,
// with the Hugo the wiki command runs, and prints a Markdown table: docs,
// HTML pages written (generated folder pages included), output size, wall
// time, Hugo's wall time and the rest (the search index and compression,
// after Hugo), Hugo's CPU time, Hugo's peak resident memory, and the load
// average before and after each build (others may share the machine: CPU
// time is the steadier figure then).
//
// Run it from anywhere in the repository:
//
//	go run ./tools/cmd/wikibench -docs 500,1000,2000,10000,40000
//
// Add -real to give the generated trees what real trees add to prose (front
// matter, snippet include lines, wide tables of code, twenty reference pages
// of 1,400 sections, a hidden folder, a symlinked folder: realshape.go), and
// -corpus DIR to keep the generated trees in DIR and reuse them on later
// runs, and -shape small (about 350 folders however many docs, like a real
// reference tree) or large (fewer, longer docs) for the other shapes of the
// generator; the default, pages, nests folders deeply, about five for every
// four docs, each of which is a page of the wiki too. Broken links do not
// stop a build here (-broken-links=warn); the generated docs have none.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
	"github.com/docs-mcp/docs-mcp/tools/internal/wiki"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var cfg config
	flag.StringVar(&cfg.Sizes, "docs", "500,1000,2000,10000,40000", "comma-separated sizes of the generated trees, in docs")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "seed of the corpus generator")
	flag.StringVar(&cfg.Shape, "shape", "pages", "shape of the generated trees: pages, small or large (see gencorpus -h)")
	flag.StringVar(&cfg.Corpus, "corpus", "", "folder for the generated trees: made on the first run, reused on later ones (default: a temporary folder)")
	flag.BoolVar(&cfg.Real, "real", false, "give the generated trees the shape of a real tree: front matter, includes, wide tables, long reference pages, hidden and symlinked folders")
	flag.BoolVar(&cfg.Repo, "repo", true, "also build this repository's own docs, first")
	flag.Parse()
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, context.Canceled) {
			fmt.Fprintf(os.Stderr, "wikibench: %v\n", err)
		}
		os.Exit(1)
	}
}

type config struct {
	Sizes  string
	Seed   uint64
	Shape  string
	Corpus string
	Real   bool
	Repo   bool
}

func run(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	var sizes []int
	for f := range strings.SplitSeq(cfg.Sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return fmt.Errorf("-docs: %q is not a positive number", f)
		}
		sizes = append(sizes, n)
	}
	root, err := repo.Root(".")
	if err != nil {
		return err
	}
	corpus := cfg.Corpus
	if corpus == "" {
		if corpus, err = os.MkdirTemp("", "wikibench-*"); err != nil {
			return err
		}
		defer os.RemoveAll(corpus)
	}
	work, err := os.MkdirTemp("", "wikibench-out-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	type tree struct{ name, root string }
	var trees []tree
	if cfg.Repo {
		trees = append(trees, tree{"this repository", root})
	}
	for _, n := range sizes {
		dir, err := generate(ctx, root, corpus, n, cfg)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("generated, %s, seed %d", cfg.Shape, cfg.Seed)
		if cfg.Real {
			name += ", real shape"
		}
		trees = append(trees, tree{name, dir})
	}

	fmt.Fprintln(stdout, "| tree | docs | HTML pages | output | wall | Hugo | after Hugo | Hugo CPU | Hugo peak RSS | load before → after |")
	fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for i, tr := range trees {
		scan, err := wiki.ScanTree(tr.root)
		if err != nil {
			return err
		}
		opt := wiki.Options{Repo: root, Root: tr.root, Progress: stderr, BrokenLinks: wiki.BrokenLinksWarn}
		before := loadAvg()
		start := time.Now()
		res, err := wiki.Build(ctx, opt, filepath.Join(work, strconv.Itoa(i)))
		wall := time.Since(start)
		if err != nil {
			return fmt.Errorf("%s: %w", tr.root, err)
		}
		fmt.Fprintf(stdout, "| %s | %d | %d | %.0f MB | %.1f s | %.1f s | %.1f s | %.1f s | %.0f MB | %s → %s |\n",
			tr.name, len(scan.Docs), res.Pages, float64(res.Bytes)/1e6, wall.Seconds(),
			res.Duration.Seconds(), (wall - res.Duration).Seconds(), res.Usage.CPU.Seconds(), float64(res.Usage.PeakRSS)/(1<<20), before, loadAvg())
		if err := os.RemoveAll(res.Out); err != nil {
			return err
		}
	}
	return nil
}

// generate makes (or finds) a tree of n generated docs of cfg's shape under
// corpus: docs/ from gencorpus (with addRealShape's additions if cfg.Real)
// and this repository's hook registry, which the wiki needs. The pages
// shape keeps the folder name it always had.
func generate(ctx context.Context, root, corpus string, n int, cfg config) (string, error) {
	name := fmt.Sprintf("seed%d-%d", cfg.Seed, n)
	if cfg.Shape != "pages" {
		name = cfg.Shape + "-" + name
	}
	if cfg.Real {
		name = "real-" + name
	}
	dir := filepath.Join(corpus, name)
	if _, err := os.Stat(filepath.Join(dir, "framework", "mod_hooks.json")); err == nil {
		return dir, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "run", "./mcp-server/cmd/gencorpus",
		"-files", strconv.Itoa(n), "-seed", strconv.FormatUint(cfg.Seed, 10), "-shape", cfg.Shape, "-out", filepath.Join(dir, "docs"))
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil { // its stdout (a JSON summary) is not needed
		return "", fmt.Errorf("generate %d docs: %w", n, err)
	}
	if cfg.Real {
		if err := addRealShape(filepath.Join(dir, "docs")); err != nil {
			return "", err
		}
	}
	reg, err := os.ReadFile(filepath.Join(root, "framework", "mod_hooks.json"))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, "framework"), 0o755); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "framework", "mod_hooks.json"), reg, 0o644)
}

// loadAvg is the one-minute load average, or "n/a" off Linux.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "n/a"
}
