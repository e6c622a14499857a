// Package repo finds the repository the tools run in.
package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotFound is returned by Root when no folder up from dir holds go.work.
var ErrNotFound = errors.New("no go.work in the folder or any parent")

// Root returns the repository holding dir: the nearest ancestor of dir
// (dir included) that holds a go.work file.
func Root(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find repository root: %w", err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "go.work")); err == nil && fi.Mode().IsRegular() {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("find repository root from %s: %w", abs, ErrNotFound)
		}
	}
}
