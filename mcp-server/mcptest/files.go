package mcptest

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes text to path, making the folders it needs.
func WriteFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteTree writes files (slash path from dir → text) under dir.
func WriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		WriteFile(t, filepath.Join(dir, filepath.FromSlash(p)), text)
	}
}

// ReadFile returns the text of the file at path.
func ReadFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// RepoDir is the repository's root: the nearest folder holding go.work at
// or above the test's working directory (go test runs a test in its
// package's folder). It is found from there, not from a source file's path
// (runtime.Caller), which -trimpath (.ci/run's) makes a module path.
func RepoDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.work at or above the working directory: run the tests in this repository")
		}
		dir = parent
	}
}
