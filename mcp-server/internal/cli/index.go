package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docsmap"
)

// errStale is a file whose map is not the map of the docs: index --check
// exits 1 with it.
var errStale = errors.New("the docs map is stale")

// indexCommand writes the map of the docs (docs://map) between two marker
// lines of a file, such as AGENTS.md, for assistants that read files
// rather than MCP resources; --check tells whether the file is up to date,
// for CI. It takes the server's flags that say where the docs are and how
// large the map is, after the subcommand or before it.
func indexCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:  "index",
		Usage: "write the map of the docs into a file between marker lines (--write), or check that it is up to date (--check)",
		UsageText: "docs-mcp index --write FILE [--data-root DIR] [--map-bytes N]\n" +
			"docs-mcp index --check FILE [--data-root DIR] [--map-bytes N]",
		Description: `The map is the text of the server's docs://map resource: every doc's path, title,
first sentence and section anchors, by folder, and the hooks by group, within --map-bytes.
--write puts it between the lines
  ` + docsmap.BeginMarker + `
  ` + docsmap.EndMarker + `
leaving the rest of the file as it is (a file without them gets them at its end; a
missing file is created). --check writes nothing and exits 1 when the file's map differs
from the docs' (run --write to refresh it).`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "write", Usage: "the file to write the map into", TakesFile: true},
			&cli.StringFlag{Name: "check", Usage: "the file to check: exit 1 when its map is stale", TakesFile: true},
		}, pickFlags(flags(), "data-root", "docs-dir", "framework-dir", "map-bytes", "max-doc-bytes")...),
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return explainUsage(c.Command.Flags, "docs-mcp index", err)
		},
		Action: func(c *cli.Context) error {
			file, check, err := writeOrCheck(c, "index", "FILE")
			if err != nil {
				return err
			}
			text, err := mapOf(c)
			if err != nil {
				return err
			}
			old, err := os.ReadFile(file)
			if err != nil && !(errors.Is(err, fs.ErrNotExist) && !check) {
				return fmt.Errorf("index: %w", err)
			}
			updated, err := docsmap.Splice(old, text)
			if err != nil {
				return fmt.Errorf("index: %s: %w", file, err)
			}
			switch {
			case bytes.Equal(old, updated):
				fmt.Fprintf(stdout, "%s: the docs map is up to date (%d bytes)\n", file, len(text))
				return nil
			case check:
				return fmt.Errorf("%s: %w: run docs-mcp index --write %s", file, errStale, file)
			}
			if err := writeFileAtomic(file, updated); err != nil {
				return fmt.Errorf("index: %w", err)
			}
			fmt.Fprintf(stdout, "%s: the docs map written (%d bytes)\n", file, len(text))
			return nil
		},
	}
}

// mapOf loads the docs and the hook registry that the flags name and
// writes their map, as the server's docs://map would be.
func mapOf(c *cli.Context) (string, error) {
	root, err := dataRoot(c.String("data-root"))
	if err != nil {
		return "", err
	}
	if c.Int("map-bytes") < minMapBytes {
		return "", usagef("--map-bytes %d is too small: use at least %d", c.Int("map-bytes"), minMapBytes)
	}
	docsPath := under(root, c.String("docs-dir"))
	if err := isDir(docsPath); err != nil {
		return "", usagef("no docs folder at %s: %v (set --docs-dir, or --data-root to the repository)", docsPath, err)
	}
	snap, err := docs.Load(c.Context, docsPath, docs.LoadOptions{MaxDocBytes: c.Int64("max-doc-bytes")})
	if err != nil {
		return "", fmt.Errorf("index: %w", err)
	}
	var reg *registry.Registry
	regPath := filepath.Join(under(root, c.String("framework-dir")), "mod_hooks.json")
	switch raw, err := os.ReadFile(regPath); {
	case errors.Is(err, fs.ErrNotExist):
		// A docs tree without a framework: a map without hooks.
	case err != nil:
		return "", fmt.Errorf("index: read the hook registry: %w", err)
	default:
		var problems []registry.Problem
		if reg, problems = registry.Check(raw); len(problems) > 0 {
			return "", fmt.Errorf("index: the hook registry %s is invalid: %s (line %d)", regPath, problems[0].Message, problems[0].Line)
		}
	}
	return docsmap.Render(docsmap.Of(snap), docsmap.HooksOf(reg), c.Int("map-bytes")), nil
}

// pickFlags returns the flags of all that are named, so that a subcommand
// takes them with the same names, variables and defaults.
func pickFlags(all []cli.Flag, names ...string) []cli.Flag {
	var out []cli.Flag
	for _, f := range all {
		if slices.Contains(names, f.Names()[0]) {
			out = append(out, f)
		}
	}
	return out
}

// writeFileAtomic replaces name with data by a rename, so that a reader
// never sees half a file, keeping its permissions.
func writeFileAtomic(name string, data []byte) error {
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(name); err == nil {
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // once renamed, there is nothing left to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// writeOrCheck reads the --write and --check of a command that writes a
// file or folder from the docs (index, skills): no argument, exactly one of
// the two flags. It returns the path named and whether it is to be checked
// rather than written.
func writeOrCheck(c *cli.Context, command, what string) (string, bool, error) {
	if c.NArg() > 0 {
		return "", false, usagef("%s: unexpected argument %q", command, c.Args().First())
	}
	write, check := c.String("write"), c.String("check")
	if (write == "") == (check == "") {
		return "", false, usagef("%s: give one of --write %s and --check %s", command, what, what)
	}
	if check != "" {
		return check, true, nil
	}
	return write, false, nil
}
