package cli

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/urfave/cli/v2"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
)

// cacheCommand writes the cache of the docs that the flags name, as a
// start-up does, and exits: an image runs it at build time, so that its
// containers start from the cache it ships (--cache-read-only) rather
// than read every doc and build the index on a file system where they
// cannot keep the result.
func cacheCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "cache",
		Usage:     "write the docs cache (the docs and their search index) into --cache-dir, as a start-up does, and exit",
		UsageText: "docs-mcp cache [--data-root DIR] [--cache-dir DIR] [--max-doc-bytes N]",
		Description: `A server started later on the same docs folder with the same --cache-dir and
--max-doc-bytes reads this file instead of every doc, and checks every doc against it. The
file and a folder it makes are readable by all, so that an image can write the cache as
root for a server that runs as another user; such a server takes --cache-read-only, since
its file system cannot be written. Exits 1 when the cache cannot be written.`,
		Flags: pickFlags(flags(), "data-root", "docs-dir", "cache-dir", "max-doc-bytes"),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("cache: unexpected argument %q", c.Args().First())
			}
			root, err := dataRoot(c.String("data-root"))
			if err != nil {
				return err
			}
			docsPath := under(root, c.String("docs-dir"))
			if err := readableDir(docsPath); err != nil {
				return usagef("no docs folder at %s: %v (set --docs-dir, or --data-root to the repository)", docsPath, err)
			}
			dir := cacheDir(c)
			if dir == "" {
				return usagef("cache: no cache folder: set --cache-dir")
			}
			cfg := corpus.DefaultConfig()
			cfg.DataRoot, cfg.DocsPath, cfg.MaxDocBytes = root, docsPath, c.Int64("max-doc-bytes")
			cfg.CacheFile = corpus.CacheFile(dir, docsPath)
			cfg.Logger = newLogger(c.App.ErrWriter, slog.LevelWarn, "text") // the docs skipped
			size, held, err := corpus.WriteCache(c.Context, cfg)
			if err != nil {
				return fmt.Errorf("cache: %w", err)
			}
			fmt.Fprintf(stdout, "%s: the docs cache of %s written (%d docs, %d bytes)\n", cfg.CacheFile, docsPath, held, size)
			return nil
		},
	}
}
