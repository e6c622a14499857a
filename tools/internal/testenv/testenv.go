// Package testenv holds what the end-to-end tests ask of the machine they
// run on: a Docker engine, a free port, a program on PATH; and what a test
// does when the machine lacks it.
package testenv

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// RequireDocker skips the test without a Docker engine and Compose v2,
// except with CI=true, where that is a failure (.ci/run installs them).
func RequireDocker(t testing.TB) {
	t.Helper()
	out, err := exec.Command("docker", "compose", "version").CombinedOutput()
	if err == nil {
		out, err = exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput()
	}
	if err != nil {
		Missing(t, "no Docker engine with Compose v2 here (%v: %s); shared/container/setup.sh, beside the checkout, installs one", err, bytes.TrimSpace(out))
	}
}

// Missing skips a test whose prerequisite the machine lacks, except with
// CI=true, where that is a failure: .ci/run installs every prerequisite.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true and a prerequisite is missing: "+format, args...)
	}
	t.Skipf("skipping: "+format+" (with CI=true this fails)", args...)
}

// LookPath finds a program on PATH, or ends the test through Missing,
// saying why the test needs it.
func LookPath(t testing.TB, name, why string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "no %s on PATH: %s; install it (.ci/run installs every prerequisite on Debian)", name, why)
	}
	return path
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// NodePackages makes sure a test can run the Node packages of dir (a
// committed package.json and package-lock.json): it ends the test through
// Missing without node or npm, and runs npm ci there when node_modules
// lacks pkg (.ci/run installs them first).
func NodePackages(t testing.TB, dir, pkg, why string) {
	t.Helper()
	LookPath(t, "node", why)
	LookPath(t, "npm", why)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg))); err == nil {
		return
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
}

// Chromium is how the browser tests start headless Chromium (exe): no
// sandbox, GPU, first run or background traffic, and a TMPDIR of its own,
// removed when the test ends (Chromium leaves its folder there behind when
// stopped). That folder's path is kept short, not the test's t.TempDir:
// Chromium puts a Unix socket in it, whose path may not pass 107 bytes, and
// a test's folder under a long TMPDIR (CI's in /dev/shm) and a long test
// name went past that. More options (a window size) follow these.
func Chromium(t testing.TB, exe string, more ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	t.Helper()
	dir, err := os.MkdirTemp("", "cr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Env("TMPDIR=" + dir),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}, more...)
}
