// Command searchbench measures mod_search_docs end to end: it generates a
// corpus with mcp-server/cmd/gencorpus, builds the real server, starts it
// over stdio with mcp-go's client, and times search round trips per query
// kind next to ripgrep (rg -F -i) on the same files in the same run.
//
// Run it from anywhere in the repository:
//
//	go run ./tools/cmd/searchbench -files 40000
//
// Add -corpus DIR to keep the generated corpus in DIR and reuse it on later
// runs (generating 40,000 files takes a while).
//
// It prints the start-up times (process start to initialize answered, and
// to the first search answered), the index build time the server logs, the
// server's resident memory per corpus byte (VmRSS from /proc), and a table
// of round-trip p50/p95 per query kind with limit 20 against ripgrep's p50.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
)

func main() {
	var cfg config
	flag.IntVar(&cfg.Files, "files", 40000, "files in the generated corpus")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "seed of the corpus generator")
	flag.IntVar(&cfg.Runs, "runs", 200, "timed searches per query kind")
	flag.IntVar(&cfg.RgRuns, "rg-runs", 5, "timed ripgrep runs per query kind")
	flag.IntVar(&cfg.Limit, "limit", 20, "limit passed to mod_search_docs")
	flag.StringVar(&cfg.Server, "server", "", "server binary to measure (default: build ./mcp-server)")
	flag.StringVar(&cfg.Corpus, "corpus", "", "data root for the corpus: generated there on the first run, reused on later ones (default: a temporary folder)")
	flag.BoolVar(&cfg.WaitIndex, "wait-index", true, "wait for the server's \"search index built\" log line before timing queries")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(context.Background(), cfg, log); err != nil {
		if !errors.Is(err, context.Canceled) {
			fmt.Fprintf(os.Stderr, "searchbench: %v\n", err)
		}
		os.Exit(1)
	}
}
