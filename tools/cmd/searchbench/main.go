// Command searchbench measures the docs server end to end on a large tree:
// it builds the real server (or takes one with -server), starts it over
// stdio with mcp-go's client, and reports
//
//   - start-up: process start to initialize answered, and to the first
//     search's whole answer (a page the server cut short is followed
//     through its cursor, and the calls are counted), with the page cache
//     warm or (-cold) dropped first, and the server's cache (-cache-dir) in
//     use, written by an earlier run, or off;
//   - the start-up window: p50 and p95 of the first query searched again
//     and again from the first answer until the server logs that its index
//     is built (with -wait-index);
//   - resident memory (VmRSS from /proc) once the index is built and after
//     -searches more searches, and the peak (VmHWM), each as a multiple of
//     the corpus's bytes; VmRSS split into the memory the server made
//     (RssAnon: the docs, their index and ranking, the runtime), which
//     grows with the tree, and the pages of its program file (RssFile),
//     which do not;
//   - p50 and p95 of search round trips per query kind at -limit, next to
//     ripgrep (rg -F -i) on the same files in the same run;
//   - edit to searchable: the time from writing a new line into a doc to
//     the first search that finds it, over -edits edits (the doc is put
//     back as it was afterwards).
//
// With -spawns N it times only what a client over stdio waits for at the
// start of each session: a new server process per search, from the spawn
// to the first complete answer, N times per query, without a cache and
// with a warm one, beside rg -F -i (see spawn.go):
//
//	go run ./tools/cmd/searchbench -corpus /tmp/small40k -files 40000 -shape small -spawns 10 -limit 20 -query the,Quuxplotter,ZephyrQuotaLedger
//
// The tree is either generated (by mcp-server/cmd/gencorpus, into -corpus,
// reused on later runs) or any existing folder of Markdown (-docs DIR):
//
//	go run ./tools/cmd/searchbench -files 40000 -shape small -corpus /tmp/small40k
//	go run ./tools/cmd/searchbench -files 9746 -shape large -corpus /tmp/large9k
//	go run ./tools/cmd/searchbench -docs ~/src/some-project/docs -query player
//	go run ./tools/cmd/searchbench -corpus /tmp/small40k -files 40000 -shape small -cold
//
// -cold drops the kernel's page cache (sync; echo 3 >
// /proc/sys/vm/drop_caches) before it starts the server, which needs root:
// without it the run stops with an error rather than report a warm figure
// as cold. It needs rg (apt-get install -y ripgrep).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
)

func main() {
	var cfg config
	flag.IntVar(&cfg.Files, "files", 40000, "files in the generated corpus")
	flag.StringVar(&cfg.Shape, "shape", "pages", "shape of the generated corpus: pages, small or large (see gencorpus)")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "seed of the corpus generator")
	flag.StringVar(&cfg.Corpus, "corpus", "", "data root for a generated corpus: generated there on the first run, reused on later ones (default: a temporary folder)")
	flag.StringVar(&cfg.Docs, "docs", "", "an existing folder of Markdown to serve instead of a generated corpus (never written to, except by -edits, which puts the edited doc back)")
	var queries string
	flag.StringVar(&queries, "query", "", "comma-separated queries to time (default: the generator's query kinds)")
	flag.IntVar(&cfg.Runs, "runs", 200, "timed searches per query kind")
	flag.IntVar(&cfg.RgRuns, "rg-runs", 5, "timed ripgrep runs per query kind (0: no rg)")
	flag.IntVar(&cfg.Limit, "limit", 50, "limit passed to mod_search_docs")
	flag.IntVar(&cfg.Searches, "searches", 1000, "searches run (over the query kinds) before memory is measured again")
	flag.IntVar(&cfg.Edits, "edits", 20, "edits timed from write to searchable (0: none)")
	flag.IntVar(&cfg.Spawns, "spawns", 0, "time only from spawn to the first complete answer, this many new processes per query, without a cache and with a warm one, beside rg (0: the usual run)")
	flag.BoolVar(&cfg.SpawnCache, "spawn-cache", true, "with -spawns, time a warm cache too (false: start the server with no cache flag, for a server that has no cache)")
	flag.BoolVar(&cfg.Cold, "cold", false, "drop the page cache before starting the server (needs root)")
	flag.StringVar(&cfg.Server, "server", "", "server binary to measure (default: build ./mcp-server)")
	flag.StringVar(&cfg.ServerLog, "server-log", "", "also write the server's log (JSON) to this file")
	flag.StringVar(&cfg.LogLevel, "log-level", "info", "the server's --log-level")
	flag.StringVar(&cfg.CacheDir, "cache-dir", "", "the server's --cache-dir; off: --no-cache; empty: the server's default")
	flag.BoolVar(&cfg.WaitIndex, "wait-index", true, "wait for the server's \"search index built\" log line before timing queries")
	flag.StringVar(&cfg.Versions, "versions", "", "the server's --versions: serve these release tags of the corpus's git repository too")
	flag.StringVar(&cfg.Version, "version", "", "the version argument of every search (a tag, or latest; needs -versions); empty: the working tree")
	flag.Parse()
	if cfg.Runs < 1 || cfg.RgRuns < 0 || cfg.Searches < 0 || cfg.Edits < 0 || cfg.Limit < 1 {
		fmt.Fprintln(os.Stderr, "searchbench: -runs and -limit must be at least 1, -rg-runs, -searches and -edits at least 0")
		os.Exit(2)
	}
	if queries != "" {
		cfg.Queries = strings.Split(queries, ",")
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(context.Background(), cfg, log); err != nil {
		if !errors.Is(err, context.Canceled) {
			fmt.Fprintf(os.Stderr, "searchbench: %v\n", err)
		}
		os.Exit(1)
	}
}
