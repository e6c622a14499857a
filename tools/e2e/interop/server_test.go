package interop

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// revisions are the protocol revisions docs-mcp serves, oldest first.
var revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// patience bounds every wait for something that should happen at once; it
// is generous so that a loaded machine never fails the test. No test here
// asserts how fast anything is.
const patience = time.Minute

// bin is the docs-mcp binary built for the tests (TestMain), from the
// repository at repoRoot.
var bin, repoRoot string

func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "interop-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		// The servers the tests start keep their caches here, not in the
		// user's cache folder.
		os.Setenv("DOCS_MCP_CACHE_DIR", filepath.Join(dir, "cache"))
		repoRoot, err = repo.Root(".")
		if err == nil {
			bin, err = mcptest.BuildDocsMCP(repoRoot, dir)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return m.Run()
	}())
}

// pagedDocs is how many docs the data root holds: more than a page of
// resources/list (500), so that listing pages.
const pagedDocs = 510

// dataRoot writes a repository for one cell: pagedDocs docs, a registry,
// a guide and the repository's skills, committed and tagged v1, so that the server started with
// serverArgs serves the release beside the working tree.
func dataRoot(t *testing.T) string {
	t.Helper()
	r := mcptest.NewGitRepo(t)
	files := map[string]string{
		"go.work":                 "go 1.26.0\n",
		"docs/getting-started.md": "# Getting started\n\nRegister hooks early.\n",
		"CONTRIBUTING.md":         "# Contributing\n\n## Conventions\n\n- Small commits.\n",
	}
	for i := range pagedDocs - 1 {
		files[fmt.Sprintf("docs/pages/page-%03d.md", i)] = fmt.Sprintf("# Page %d\n\nAbout hooks, part %d.\n", i, i)
	}
	registry, err := os.ReadFile(filepath.Join(repoRoot, "framework", "mod_hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	files["framework/mod_hooks.json"] = string(registry)
	// The repository's own skills, for the Skills extension.
	skillsDir := filepath.Join(repoRoot, "skills")
	err = filepath.WalkDir(skillsDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(repoRoot, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Write(files)
	r.Commit("v1")
	r.Git("tag", "v1")
	return r.Dir
}

// skillCount is the number of the repository's skills, which dataRoot
// copies: each SKILL.md is listed by resources/list.
func skillCount(t *testing.T) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(repoRoot, "skills", "*", "SKILL.md"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no skills in %s: %v", filepath.Join(repoRoot, "skills"), err)
	}
	return len(m)
}

// serverArgs are the arguments every cell's server runs with, besides its
// transport's: the data root and its releases.
func serverArgs(root string) []string {
	return []string{"--data-root", root, "--versions", "v*", "--log-level", "warn"}
}

// templates are the resource templates each cell must list, in the
// server's order.
var templates = []string{"docs://{+path}", "docs-version://{version}/{+path}", "hook://{name}", "skill://{+path}", "skill-version://{version}/{+path}"}

// readable are the URIs each cell reads: a doc (one through the
// template's escaped spelling), the repository files, a hook, a doc of
// the release, two files of a skill and one of the release's (the
// templates' URIs).
var readable = []string{"docs://getting-started.md", "docs://pages%2Fpage-007.md", "repo://CONTRIBUTING.md", "repo://layout",
	"repo://framework/mod_hooks.json", "hook://player.joined", "docs-version://v1/getting-started.md",
	"skill://add-a-hook/SKILL.md", "skill://add-a-hook/references/troubleshooting.md", "skill-version://v1/add-a-hook/SKILL.md"}

// httpServer runs docs-mcp over HTTP on root until the test ends, and
// returns its base URL.
func httpServer(t *testing.T, root string) string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
	cmd := exec.Command(bin, append(serverArgs(root), "--listen", addr)...)
	var stderr mcptest.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("docs-mcp stderr:\n%s", stderr.String())
		}
	})
	base := "http://" + addr
	for end := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
		if h, err := health(base); err == nil && h.Status == "ok" {
			return base
		}
		select {
		case <-exited:
			t.Fatalf("docs-mcp exited: %s", stderr.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("docs-mcp on %s not healthy after %s", addr, patience)
		}
	}
}

type healthReport struct {
	Status   string `json:"status"`
	Sessions int    `json:"sessions"`
}

func health(base string) (healthReport, error) {
	var h healthReport
	res, err := http.Get(base + "/health")
	if err != nil {
		return h, err
	}
	defer res.Body.Close()
	return h, json.NewDecoder(res.Body).Decode(&h)
}

// writeDoc writes a doc under root's docs folder.
func writeDoc(t *testing.T, root, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, "docs", filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cellName names a cell of the matrix: client, transport, revision.
func cellName(client, transport, revision string) string {
	return strings.Join([]string{client, transport, revision}, "/")
}
