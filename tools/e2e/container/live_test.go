package container

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// liveProject is the compose project of TestComposeLive, apart from a
// user's stack and from TestCompose's.
const liveProject = "docs-mcp-e2e-live"

// TestComposeLive runs live mode from a copy of the repository, with the
// commands the operations page gives: it switches between the plain and the
// live server, edits docs and adds one, and checks that the live wiki
// follows (page, Markdown twin, search index) and that "docker compose down"
// stops everything. The copy gets its own image tags (a compose.override.yaml)
// and host ports; all it built and started is removed at the end.
func TestComposeLive(t *testing.T) {
	root := repoRoot(t)
	testenv.RequireDocker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()

	s := newLiveStack(t, root)
	t.Cleanup(s.remove)

	// Switching: plain, live beside it, plain and live again. Nothing
	// collides and no build orphans an image.
	s.up(ctx, "docs-mcp")
	s.waitHealth(ctx, s.plain)
	s.up(ctx, "docs-mcp-live")
	s.waitHealth(ctx, s.live)
	s.waitHealth(ctx, s.plain)
	s.up(ctx, "docs-mcp")
	s.up(ctx, "docs-mcp-live")
	s.checkNoDangling()

	// "docker compose down", as typed, stops the live services too.
	s.down(ctx)

	s.up(ctx, "docs-mcp-live")
	s.waitHealth(ctx, s.live)
	t.Run("wiki follows edits", func(t *testing.T) { s.checkEdits(ctx, t) })
	t.Run("confinement", func(t *testing.T) {
		for _, service := range []string{"docs-mcp-live", "wiki-live"} {
			t.Run(service, func(t *testing.T) { checkConfinement(t, s.container(ctx, service)) })
		}
		if mode := inspect(t, "container", s.container(ctx, "wiki-live"), "{{.HostConfig.NetworkMode}}"); mode != "none" {
			t.Errorf("wiki-live's network mode is %q; want none", mode)
		}
	})
	s.down(ctx)
}

// liveStack is the compose project run from a copy of the repository.
type liveStack struct {
	t           *testing.T
	dir         string   // the copy
	env         []string // the commands' environment: project, ports
	plain, live string   // base URLs of the two servers
	tag         string   // the image tag the copy builds
	images      []string // the image IDs seen, to check for orphans and remove
}

func newLiveStack(t *testing.T, root string) *liveStack {
	t.Helper()
	dir := t.TempDir()
	if err := copyRepo(root, dir); err != nil {
		t.Fatal(err)
	}
	s := &liveStack{t: t, dir: dir, tag: "e2e-live"}
	override := fmt.Sprintf(`# TestComposeLive's own image tags, removed when it ends.
services:
  docs-mcp: {image: "docs-mcp:%[1]s"}
  docs-mcp-live: {image: "docs-mcp-live:%[1]s"}
  wiki-live: {image: "docs-mcp-live:%[1]s"}
`, s.tag)
	if err := os.WriteFile(filepath.Join(dir, "compose.override.yaml"), []byte(override), 0o644); err != nil {
		t.Fatal(err)
	}
	plain, live := testenv.FreePort(t), testenv.FreePort(t)
	for live == plain {
		live = testenv.FreePort(t)
	}
	s.plain = fmt.Sprintf("http://127.0.0.1:%d", plain)
	s.live = fmt.Sprintf("http://127.0.0.1:%d", live)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "COMPOSE_") && !strings.HasPrefix(kv, "DOCS_MCP_") && !strings.HasPrefix(kv, "DOCS_STACK_") {
			s.env = append(s.env, kv)
		}
	}
	s.env = append(s.env, "COMPOSE_PROJECT_NAME="+liveProject,
		fmt.Sprintf("DOCS_STACK_HOST_PORT=%d", plain), fmt.Sprintf("DOCS_STACK_LIVE_HOST_PORT=%d", live))
	return s
}

// copyRepo copies the working tree at root into dir, leaving out git's
// folder, build output and test artifacts.
func copyRepo(root, dir string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		switch {
		case rel == ".git": // a folder, or in a worktree a file
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir() && (rel == "build" || rel == "artifacts" || d.Name() == "node_modules"):
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, info.Mode().Perm())
	})
}

// compose runs "docker compose ARGS" in the copy, as a user would there.
func (s *liveStack) compose(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "docker", append([]string{"compose"}, args...)...)
	cmd.Dir = s.dir
	cmd.Env = s.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// up runs "docker compose up -d SERVICE", which must succeed (no port in
// use), and notes the images the project's services now use.
func (s *liveStack) up(ctx context.Context, service string) {
	s.t.Helper()
	defer s.noteImages() // failed or not: remove takes away what was built
	start := time.Now()
	if out, err := s.compose(ctx, "up", "-d", service); err != nil {
		s.t.Fatalf("docker compose up -d %s: %v\n%s", service, err, out)
	}
	s.t.Logf("docker compose up -d %s: %s", service, time.Since(start).Round(100*time.Millisecond))
}

// noteImages adds the IDs of the project's images to s.images.
func (s *liveStack) noteImages() {
	for _, ref := range []string{"docs-mcp:" + s.tag, "docs-mcp-live:" + s.tag} {
		out, err := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", ref).Output()
		if id := strings.TrimSpace(string(out)); err == nil && !slices.Contains(s.images, id) {
			s.images = append(s.images, id)
		}
	}
}

// down runs "docker compose down" as a user types it and checks that no
// container of the project is left.
func (s *liveStack) down(ctx context.Context) {
	s.t.Helper()
	start := time.Now()
	if out, err := s.compose(ctx, "down"); err != nil {
		s.t.Fatalf("docker compose down: %v\n%s", err, out)
	}
	s.t.Logf("docker compose down: %s", time.Since(start).Round(100*time.Millisecond))
	out, err := exec.Command("docker", "ps", "-a", "--filter", "label=com.docker.compose.project="+liveProject, "--format", "{{.Names}} {{.Status}}").CombinedOutput()
	if err != nil {
		s.t.Fatalf("docker ps: %v\n%s", err, out)
	}
	if left := strings.TrimSpace(string(out)); left != "" {
		s.t.Errorf("docker compose down left containers:\n%s", left)
	}
}

// checkNoDangling fails when an image the project built has lost its tag
// to a later build: an image that only "docker image prune" would remove.
func (s *liveStack) checkNoDangling() {
	s.t.Helper()
	for _, id := range s.images {
		tags := inspect(s.t, "image", id, "{{len .RepoTags}}")
		if tags == "0" {
			s.t.Errorf("image %s lost its tag to a rebuild (dangling)", id)
		}
	}
	if len(s.images) != 2 {
		s.t.Errorf("the project used %d image IDs, want 2 (the plain and the live image): %q", len(s.images), s.images)
	}
}

// remove takes away everything the test made: containers, network, the
// wiki volume, the images, tagged or not.
func (s *liveStack) remove() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := s.compose(ctx, "down", "--volumes", "--rmi", "all", "--remove-orphans", "--timeout", "10"); err != nil {
		s.t.Errorf("docker compose down: %v\n%s", err, out)
	}
	for _, id := range s.images {
		if exec.Command("docker", "image", "inspect", id).Run() != nil {
			continue // removed with its tag
		}
		if out, err := exec.Command("docker", "rmi", id).CombinedOutput(); err != nil {
			s.t.Errorf("docker rmi %s: %v\n%s", id, err, out)
		}
	}
}

// container returns the id of the service's running container.
func (s *liveStack) container(ctx context.Context, service string) string {
	s.t.Helper()
	out, err := s.compose(ctx, "ps", "-q", service)
	id := strings.TrimSpace(out)
	if err != nil || id == "" {
		s.t.Fatalf("docker compose ps -q %s: %v\n%s", service, err, out)
	}
	return id
}

func (s *liveStack) waitHealth(ctx context.Context, base string) {
	s.t.Helper()
	if _, err := waitFor(ctx, base+"/health", func(status int, _ string) bool { return status == http.StatusOK }); err != nil {
		logs, _ := s.compose(ctx, "logs", "--tail", "50")
		s.t.Fatalf("%s/health: %v\n%s", base, err, logs)
	}
}

// checkEdits edits a doc a few times and adds one, timing how long each
// takes to show in the live wiki.
func (s *liveStack) checkEdits(ctx context.Context, t *testing.T) {
	if _, err := waitFor(ctx, s.live+"/wiki/wiki/", func(status int, _ string) bool { return status == http.StatusOK }); err != nil {
		t.Fatalf("the live wiki's page for docs/wiki.md: %v", err)
	}
	doc := filepath.Join(s.dir, "docs", "wiki.md")
	var took []time.Duration
	for i := range 3 {
		line := fmt.Sprintf("Edited while live, edit %d of %d.", i+1, 3)
		appendFile(t, doc, "\n"+line+"\n")
		d := s.waitShown(ctx, t, line, "/wiki/wiki/", "/wiki/wiki.md", "/wiki/llms-full.txt")
		took = append(took, d)
	}

	// A new doc in a new folder, with a link to a page not written yet.
	draft := filepath.Join(s.dir, "docs", "drafts", "live-page.md")
	if err := os.MkdirAll(filepath.Dir(draft), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(draft, []byte("# A page written while live\n\nIts text, and a [link to a page not yet written](next.md).\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	took = append(took, s.waitShown(ctx, t, "A page written while live",
		"/wiki/drafts/live-page/", "/wiki/drafts/live-page.md", "/wiki/llms-full.txt", "/wiki/llms.txt"))
	t.Logf("edit to wiki (the page, its twin and llms-full.txt all showing it): edits %s; new doc %s", took[:3], took[3])

	c, err := client.NewStreamableHttpClient(s.live + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mcptest.Initialize(t, c, mcp.ProtocolVersion20251125, "container-live-test")
	found := mcptest.SearchHits(t, mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "written while live"}))
	if len(found) != 1 || found[0].Path != "drafts/live-page.md" {
		t.Errorf("mod_search_docs on the live server found %+v; want the new doc", found)
	}

	screenshot(ctx, t, s.live+"/wiki/drafts/live-page/")
}

// waitShown waits until each path of the live server holds text, and
// returns how long after the call that was.
func (s *liveStack) waitShown(ctx context.Context, t *testing.T, text string, paths ...string) time.Duration {
	t.Helper()
	start := time.Now()
	for _, p := range paths {
		if _, err := waitFor(ctx, s.live+p, func(status int, body string) bool {
			return status == http.StatusOK && strings.Contains(body, text)
		}); err != nil {
			logs, _ := s.compose(ctx, "logs", "--tail", "30", "wiki-live")
			t.Fatalf("%s never showed %q: %v\n%s", p, text, err, logs)
		}
	}
	return time.Since(start).Round(10 * time.Millisecond)
}

// waitFor polls url until ok says yes, for at most two minutes, and
// returns the last body.
func waitFor(ctx context.Context, url string, ok func(status int, body string) bool) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var last string
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return "", err
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			last = fmt.Sprintf("%s, %d bytes", resp.Status, len(body))
			if ok(resp.StatusCode, string(body)) {
				return string(body), nil
			}
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("not within two minutes (last: %s)", last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// screenshot saves the page as artifacts/container/live-edit.png when
// Chromium is installed, for a person to look at.
func screenshot(ctx context.Context, t *testing.T, url string) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Logf("no screenshot: %v", err)
		return
	}
	dir := filepath.Join(repoRoot(t), "artifacts", "container")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "live-edit.png")
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--hide-scrollbars", "--window-size=1280,1000",
		"--screenshot="+file, url).CombinedOutput()
	if err != nil {
		t.Errorf("chromium --screenshot: %v\n%s", err, out)
		return
	}
	t.Logf("screenshot of the live-edited page: %s", file)
}
