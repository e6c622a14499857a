package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"
)

// spawnBench times what a client over stdio waits for: from the spawn of
// a new server process to the first complete answer of one search (a page
// cut short is followed through its cursor, and the calls are counted),
// for each query, runs times each, without a cache and with a warm one,
// beside rg -F -i on the same files (a new process each run too). The
// server's cache lives in a folder of the run's, written by two warm-up
// starts that run to the end of their start-up (the first may find files
// too new to trust by their times; see the cache in configuration.md).
func spawnBench(ctx context.Context, bin string, args []string, docsDir string, c corpus, cfg config, work string) error {
	cacheDir := filepath.Join(work, "spawn-cache")
	modes := []struct {
		name string
		args []string
	}{
		{"no cache", []string{"--no-cache"}},
		{"warm cache", []string{"--cache-dir", cacheDir}},
	}
	if !cfg.SpawnCache {
		// A server without a cache (one older than the cache): as it starts.
		modes = modes[:1]
		modes[0].args = nil
	}
	for range 2 {
		if len(modes) < 2 {
			break
		}
		if err := warmCache(ctx, bin, append(slices.Clone(args), modes[1].args...)); err != nil {
			return fmt.Errorf("warm the cache: %w", err)
		}
	}
	size := "none"
	if entries, err := os.ReadDir(cacheDir); err == nil {
		var total int64
		for _, e := range entries {
			if info, err := e.Info(); err == nil {
				total += info.Size()
			}
		}
		size = fmt.Sprintf("%.1f MB", float64(total)/1e6)
	}
	fmt.Printf("from spawn to the first complete answer, %d runs each, limit %d; cache file %s\n", cfg.Spawns, cfg.Limit, size)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintf(tw, "query kind\tquery\tmatches\t")
	for _, m := range modes {
		fmt.Fprintf(tw, "%s p50\t%s max\tcalls\t", m.name, m.name)
	}
	fmt.Fprintf(tw, "rg p50\trg lines\t\n")
	for _, q := range c.Queries {
		fmt.Fprintf(tw, "%s\t%q\t", q.Kind, q.Text)
		var matches int
		var cells []string
		for _, m := range modes {
			var times []time.Duration
			calls := 0
			for range cfg.Spawns {
				n, k, d, err := spawnSearch(ctx, bin, append(slices.Clone(args), m.args...), cfg.Version, q.Text, cfg.Limit)
				if err != nil {
					return fmt.Errorf("%s, %q: %w", m.name, q.Text, err)
				}
				matches, calls = n, max(calls, k)
				times = append(times, d)
			}
			cells = append(cells, ms(percentile(times, 50)), ms(slices.Max(times)), fmt.Sprint(calls))
		}
		fmt.Fprintf(tw, "%d\t", matches)
		for _, cell := range cells {
			fmt.Fprintf(tw, "%s\t", cell)
		}
		rg, lines, err := timeRipgrep(ctx, docsDir, q.Text, cfg.Spawns)
		if err != nil {
			return fmt.Errorf("rg %q: %w", q.Text, err)
		}
		fmt.Fprintf(tw, "%s\t%d\t\n", ms(rg), lines)
	}
	return tw.Flush()
}

// spawnSearch starts the server, initializes, searches until the answer is
// complete, and stops it: the matches, the calls, and the time from the
// spawn to the answer.
func spawnSearch(ctx context.Context, bin string, args []string, version, text string, limit int) (int, int, time.Duration, error) {
	begin := time.Now()
	cl, proc, err := startServer(ctx, bin, append(args, "--stdio", "--log-level", "warn"), io.Discard)
	if err != nil {
		return 0, 0, 0, err
	}
	defer stop(cl, proc)
	cl.version = version
	if err := cl.initialize(ctx); err != nil {
		return 0, 0, 0, err
	}
	n, calls, _, err := cl.search(ctx, text, limit)
	return n, calls, time.Since(begin), err
}

// warmCache starts the server and stops it once its start-up is over, so
// that it writes its cache.
func warmCache(ctx context.Context, bin string, args []string) error {
	logs := newLogWatch()
	cl, proc, err := startServer(ctx, bin, append(args, "--stdio", "--log-format", "json"), logs)
	if err != nil {
		return err
	}
	defer stop(cl, proc)
	if err := cl.initialize(ctx); err != nil {
		return err
	}
	select {
	case <-logs.settled:
		return nil
	case <-time.After(2 * time.Minute):
		return fmt.Errorf("the server logged no \"memory settled\" within 2 minutes")
	}
}
