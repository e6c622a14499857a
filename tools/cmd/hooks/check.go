package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

const usage = `usage: hooks check [FILE]

Validate a modkit hook registry. FILE defaults to framework/mod_hooks.json
in the repository holding the current directory (the nearest ancestor with
a go.work file).

Exit status: 0 when valid, 1 when the registry has problems or cannot be
read, 2 on a usage error.
`

// Exit codes.
const (
	exitOK       = 0
	exitProblems = 1
	exitUsage    = 2
)

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "check":
	default:
		fmt.Fprintf(stderr, "hooks: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
	rest := args[1:]
	if len(rest) > 1 {
		fmt.Fprintf(stderr, "hooks check: too many arguments; want at most one FILE\n\n%s", usage)
		return exitUsage
	}
	if len(rest) == 1 && len(rest[0]) > 1 && rest[0][0] == '-' {
		fmt.Fprintf(stderr, "hooks check: unknown flag %s\n\n%s", rest[0], usage)
		return exitUsage
	}

	file := ""
	if len(rest) == 1 {
		file = rest[0]
	} else {
		f, err := defaultFile()
		if err != nil {
			fmt.Fprintf(stderr, "hooks check: %v; name the registry file\n", err)
			return exitUsage
		}
		file = f
	}
	return check(file, stdout, stderr)
}

func check(file string, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "hooks check: read registry: %v\n", err)
		return exitProblems
	}
	r, problems := registry.Check(data)
	if len(problems) == 0 {
		fmt.Fprintf(stdout, "ok: %d hooks\n", len(r.Hooks))
		return exitOK
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "%s:%s\n", file, location(p))
	}
	noun := "problems"
	if len(problems) == 1 {
		noun = "problem"
	}
	fmt.Fprintf(stderr, "%s: %d %s\n", file, len(problems), noun)
	return exitProblems
}

// location formats a problem as "LINE:COL: message", using 1:1 when the
// position is unknown so that every line has the same shape.
func location(p registry.Problem) string {
	line, col := p.Line, p.Col
	if line == 0 {
		line, col = 1, 1
	}
	return fmt.Sprintf("%d:%d: %s", line, col, p.Message)
}

// defaultFile finds framework/mod_hooks.json in the repository holding the
// current directory, relative to it.
func defaultFile() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find repository: %w", err)
	}
	root, err := repo.Root(wd)
	if errors.Is(err, repo.ErrNotFound) {
		return "", errors.New("no go.work in the current directory or above, so no default registry")
	} else if err != nil {
		return "", err
	}
	f := filepath.Join(root, "framework", "mod_hooks.json")
	if rel, err := filepath.Rel(wd, f); err == nil {
		f = rel
	}
	return f, nil
}
