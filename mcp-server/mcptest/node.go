package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NodePackages makes sure a test can run a Node program in dir: it skips
// the test when node or npm is missing (fails it in CI, CI=true, where
// .ci/run installs both), and runs npm ci in dir when node_modules lacks
// pkg. what names the test in the skip message.
func NodePackages(t testing.TB, dir, pkg, what string) {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; CI must install it (.ci/run)", tool)
			}
			t.Skipf("%s is not installed: skipping %s (install Node.js and npm, Debian: apt-get install nodejs npm; with CI=true this fails)", tool, what)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg))); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
}
