package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
)

// config is everything the flags decide, checked.
type config struct {
	Version          string
	Stdio            bool
	DataRoot         string // absolute
	DocsPath         string // absolute path of the docs folder
	RegistryPath     string // absolute path of mod_hooks.json
	ContributingPath string
	MaxResultBytes   int
	MaxDocBytes      int64
	LogLevel         slog.Level
	LogFormat        string
}

const minResultBytes = 1 << 10

func flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "stdio", EnvVars: []string{envName("stdio")},
			Usage: "speak MCP over standard input and output (the way MCP clients start local servers)"},
		&cli.StringFlag{Name: "data-root", EnvVars: []string{envName("data-root")}, DefaultText: "the nearest folder holding go.work, else the working directory",
			Usage: "the repository to serve: it holds the docs folder, the framework folder and CONTRIBUTING.md"},
		&cli.StringFlag{Name: "docs-dir", EnvVars: []string{envName("docs-dir")}, Value: "docs",
			Usage: "the docs folder, relative to the data root unless absolute"},
		&cli.StringFlag{Name: "framework-dir", EnvVars: []string{envName("framework-dir")}, Value: "framework",
			Usage: "the folder holding mod_hooks.json, relative to the data root unless absolute"},
		&cli.IntFlag{Name: "max-result-bytes", EnvVars: []string{envName("max-result-bytes")}, Value: mcpserver.DefaultMaxResultBytes,
			Usage: "most bytes of text one tool result carries; longer results are cut on a line boundary and say how to continue (at least 1024)"},
		&cli.Int64Flag{Name: "max-doc-bytes", EnvVars: []string{envName("max-doc-bytes")}, Value: docs.DefaultMaxDocBytes,
			Usage: "docs larger than this are skipped with a warning"},
		&cli.StringFlag{Name: "log-level", EnvVars: []string{envName("log-level")}, Value: "info",
			Usage: "least severe log level written to stderr: debug, info, warn or error"},
		&cli.StringFlag{Name: "log-format", EnvVars: []string{envName("log-format")}, Value: "text",
			Usage: "log format: text or json"},
		&cli.BoolFlag{Name: "version", Aliases: []string{"V"},
			Usage: "print the version and exit"},
	}
}

// configFrom checks the flags and the data root they name.
func configFrom(c *cli.Context) (config, error) {
	cfg := config{
		Stdio:          c.Bool("stdio"),
		MaxResultBytes: c.Int("max-result-bytes"),
		MaxDocBytes:    c.Int64("max-doc-bytes"),
		LogFormat:      c.String("log-format"),
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(c.String("log-level"))); err != nil {
		return cfg, usagef("--log-level %q: use debug, info, warn or error", c.String("log-level"))
	}
	if cfg.LogFormat != "text" && cfg.LogFormat != "json" {
		return cfg, usagef("--log-format %q: use text or json", cfg.LogFormat)
	}
	if cfg.MaxResultBytes < minResultBytes {
		return cfg, usagef("--max-result-bytes %d is too small: use at least %d", cfg.MaxResultBytes, minResultBytes)
	}
	if cfg.MaxDocBytes < 1 {
		return cfg, usagef("--max-doc-bytes %d: use a positive size", cfg.MaxDocBytes)
	}

	root, err := dataRoot(c.String("data-root"))
	if err != nil {
		return cfg, err
	}
	cfg.DataRoot = root
	cfg.DocsPath = under(root, c.String("docs-dir"))
	cfg.RegistryPath = filepath.Join(under(root, c.String("framework-dir")), "mod_hooks.json")
	cfg.ContributingPath = filepath.Join(root, "CONTRIBUTING.md")
	if err := isDir(cfg.DocsPath); err != nil {
		return cfg, usagef("no docs folder at %s: %v (set --docs-dir, or --data-root to the repository)", cfg.DocsPath, err)
	}
	return cfg, nil
}

// dataRoot resolves the data root: the flag when given, else the nearest
// folder holding go.work from the working directory up, else the working
// directory.
func dataRoot(flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", usagef("data root %q: %v", flag, err)
		}
		if err := isDir(abs); err != nil {
			return "", usagef("data root %s: %v", abs, err)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", usagef("find the data root: %v (set --data-root)", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return wd, nil
		}
	}
}

// under resolves a folder flag: relative to the data root unless absolute.
func under(root, dir string) string {
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(root, dir)
}

func isDir(path string) error {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("it does not exist")
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("it is not a folder")
	}
	return nil
}
