// Command gencorpus writes a deterministic documentation tree for
// benchmarks and prints what it wrote, with the benchmark queries, as JSON:
//
//	go run ./mcp-server/cmd/gencorpus -files 40000 -seed 1 -out /tmp/corpus
//	go run ./mcp-server/cmd/gencorpus -files 40000 -shape small -out /tmp/small
//
// The same seed and file count always give the same files.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
)

func main() {
	files := flag.Int("files", 1000, "number of files to write")
	seed := flag.Uint64("seed", 1, "seed of the generator")
	out := flag.String("out", "", "folder to write into (created; must be empty)")
	shape := flag.String("shape", "pages", "how the text is cut into files: pages (about 2.9 KB a file, deep folders), small (about 1 KB a file in about 350 folders) or large (about 4.6 KB a file)")
	flag.Parse()
	sh, err := corpusgen.ParseShape(*shape)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gencorpus: %v\n", err)
		os.Exit(2)
	}
	if err := run(*out, corpusgen.Options{Seed: *seed, Files: *files, Shape: sh}); err != nil {
		fmt.Fprintf(os.Stderr, "gencorpus: %v\n", err)
		os.Exit(1)
	}
}

func run(out string, opts corpusgen.Options) error {
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", out)
	}
	stats, err := corpusgen.Generate(context.Background(), out, opts)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		corpusgen.Stats
		Seed    uint64            `json:"seed"`
		Shape   corpusgen.Shape   `json:"shape"`
		Queries []corpusgen.Query `json:"queries"`
	}{stats, opts.Seed, opts.Shape, corpusgen.Queries})
}
