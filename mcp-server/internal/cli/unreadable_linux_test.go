package cli

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestUnreadableDocs runs docs-mcp as a user who cannot read the docs
// folder (as root, the test runs it as nobody: permissions do not stop
// root): the message names the folder and the fix, not a missing folder,
// and nothing is served (exit 2).
func TestUnreadableDocs(t *testing.T) {
	root := repo(t)
	for _, d := range []string{root, filepath.Dir(root)} { // t.TempDir's folders are 0700
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, blocked := range map[string]string{
		"docs folder": filepath.Join(root, "docs"),
		"data root":   root, // docs/ exists, but its parent cannot be searched
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.Chmod(blocked, 0); err != nil {
				t.Fatal(err)
			}
			defer os.Chmod(blocked, 0o755)
			cmd := unprivileged(t, "--stdio", "--data-root", root)
			var stderr bytes.Buffer
			cmd.Stdin, cmd.Stderr = strings.NewReader(""), &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitUsage {
				t.Errorf("exit: %v; want status %d\n%s", err, exitUsage, stderr.String())
			}
			want := "docs-mcp: cannot read the docs folder " + filepath.Join(root, "docs") +
				": permission denied (make it, and every folder above it, readable by the user docs-mcp runs as)\n"
			if stderr.String() != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
			}
		})
	}
}

// TestUnusableCache runs docs-mcp with a cache folder its user cannot
// write, or cannot even read (as TestUnreadableDocs, as nobody when the
// test runs as root): one warning says so, what it costs and what to do,
// though the server tries to write the cache twice (at the end of the
// start-up and when it stops), and none promises that the cache "will be
// written again". The server serves all the same (exit 0).
func TestUnusableCache(t *testing.T) {
	root := repo(t)
	for _, d := range []string{root, filepath.Dir(root)} { // t.TempDir's folders are 0700
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		mode os.FileMode
		says string
	}{
		{"not writable", 0o555, "cannot write the docs cache"},
		{"not readable", 0, "cannot read the docs cache"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			if err := os.Chmod(base, 0o755); err != nil {
				t.Fatal(err)
			}
			cache := filepath.Join(base, "cache")
			if err := os.Mkdir(cache, c.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(cache, c.mode); err != nil { // past the umask
				t.Fatal(err)
			}
			cmd := unprivileged(t, "--stdio", "--data-root", root, "--cache-dir", cache, "--no-cache=false")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr mcptest.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The start-up's write has been tried once the memory settled;
			// the end of input makes the second try.
			mcptest.Eventually(t, "the end of the start-up", func() bool { return strings.Contains(stderr.String(), "memory settled") })
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v\n%s", err, stderr.String())
			}
			var warnings []string
			for l := range strings.Lines(stderr.String()) {
				if strings.Contains(l, "level=WARN") && strings.Contains(l, "cache") {
					warnings = append(warnings, l)
				}
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], c.says) || !strings.Contains(warnings[0], "--cache-dir") ||
				!strings.Contains(warnings[0], "--no-cache") || !strings.Contains(warnings[0], "path="+filepath.Join(cache, "docs-")) {
				t.Errorf("warnings about the cache:\n%s\nwant one saying %q, naming the file and --cache-dir and --no-cache\nstderr:\n%s",
					strings.Join(warnings, ""), c.says, stderr.String())
			}
			if strings.Contains(stderr.String(), "written again") {
				t.Errorf("a warning promises a cache that cannot be written:\n%s", stderr.String())
			}
		})
	}
}

// unprivileged is this test binary run as docs-mcp by a user other than
// root: the binary is copied where that user may run it.
func unprivileged(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "docs-mcp") // the name testscript.Main dispatches on
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	if os.Geteuid() != 0 {
		return cmd
	}
	// t.TempDir's folders are private to root: open the way to the binary
	// and the repository for nobody.
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	return cmd
}

// TestListenInUse checks that a taken port is named with the flag that
// moves it.
func TestListenInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var stderr bytes.Buffer
	code := Main(t.Context(), "test", []string{"docs-mcp", "--data-root", repo(t), "--listen", ln.Addr().String()}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	last := stderr.String()[strings.LastIndex(strings.TrimSuffix(stderr.String(), "\n"), "\n")+1:]
	want := "docs-mcp: listen tcp " + ln.Addr().String() + ": bind: address already in use (set --listen or DOCS_MCP_LISTEN to a free host:port, e.g. 127.0.0.1:3001)\n"
	if code != exitFailure || last != want {
		t.Errorf("exit %d, last line %q; want %d, %q", code, last, exitFailure, want)
	}
}
