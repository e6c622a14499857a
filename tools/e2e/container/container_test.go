package container

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

const (
	project = "docs-mcp-e2e" // a compose project of its own, so a user's stack is left alone
	image   = "docs-mcp:e2e" // an image tag of its own, so a user's docs-mcp:local keeps its tag
)

// TestCompose brings the stack up from the repository as checked out,
// exactly as a user does, and checks it from the outside and from /proc.
// It publishes on a free port of its own (DOCS_STACK_HOST_PORT), so a
// user's container on 3040 is left running and does not fail the test.
func TestCompose(t *testing.T) {
	root := repoRoot(t)
	testenv.RequireDocker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()

	// compose.yaml as the user has it, with the image tag overridden.
	override := filepath.Join(t.TempDir(), "compose.e2e.yaml")
	if err := os.WriteFile(override, []byte("services:\n  docs-mcp: {image: \""+image+"\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"compose", "-p", project, "-f", "compose.yaml", "-f", override}
	port := testenv.FreePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	var env []string
	for _, kv := range os.Environ() { // the user's own settings stay out
		if !strings.HasPrefix(kv, "COMPOSE_") && !strings.HasPrefix(kv, "DOCS_MCP_") && !strings.HasPrefix(kv, "DOCS_STACK_") {
			env = append(env, kv)
		}
	}
	env = append(env, fmt.Sprintf("DOCS_STACK_HOST_PORT=%d", port))
	compose := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "docker", append(files, args...)...)
		cmd.Dir, cmd.Env = root, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	t.Cleanup(func() {
		cmd := exec.Command("docker", append(files, "down", "--timeout", "10")...)
		cmd.Dir, cmd.Env = root, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("docker compose down: %v\n%s", err, out)
		}
		// Only the test's tag: "down --rmi all" would take the live
		// service's docs-mcp-live:local too, and an image that another
		// tag shares.
		if out, err := exec.Command("docker", "image", "rm", image).CombinedOutput(); err != nil && !strings.Contains(string(out), "No such image") {
			t.Errorf("docker image rm %s: %v\n%s", image, err, out)
		}
	})

	start := time.Now()
	if out, err := compose("build", "docs-mcp"); err != nil {
		t.Fatalf("docker compose build: %v\n%s", err, out)
	}
	built := time.Now()
	if out, err := compose("up", "-d", "docs-mcp"); err != nil {
		t.Fatalf("docker compose up: %v\n%s", err, out)
	}
	out, err := compose("ps", "-q", "docs-mcp")
	id := strings.TrimSpace(out)
	if err != nil || id == "" {
		t.Fatalf("docker compose ps: %v\n%s", err, out)
	}
	serving := waitServing(ctx, t, base)
	waitHealthy(ctx, t, id)
	t.Logf("build %s; from up: serving /health %s, healthy (first HEALTHCHECK run) %s",
		built.Sub(start).Round(100*time.Millisecond), serving.Sub(built).Round(10*time.Millisecond), time.Since(built).Round(100*time.Millisecond))
	// The image carries a static binary and the built site, nothing else.
	const maxImageBytes = 30 << 20
	size, err := strconv.ParseInt(inspect(t, "image", image, "{{.Size}}"), 10, 64)
	if err != nil {
		t.Fatalf("image size: %v", err)
	}
	t.Logf("image size: %d bytes", size)
	if size > maxImageBytes {
		t.Errorf("image is %d bytes, more than %d: something besides the binary and the site went in", size, maxImageBytes)
	}

	t.Run("health", func(t *testing.T) { checkHealth(t, base, root) })
	t.Run("wiki", func(t *testing.T) { checkWiki(t, base) })
	t.Run("mcp", func(t *testing.T) { checkMCP(ctx, t, base, root) })
	t.Run("confinement", func(t *testing.T) { checkConfinement(t, id) })
	t.Run("registry label", func(t *testing.T) { checkLabel(t, root) })
	t.Run("logged address", func(t *testing.T) { checkLoggedAddress(t, id, base) })
	t.Run("start log", func(t *testing.T) { checkStartLog(t, id) })
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "compose.yaml")); err != nil {
		t.Fatalf("no compose.yaml at the repository root: %v", err)
	}
	return root
}

func inspect(t *testing.T, kind, id, format string) string {
	t.Helper()
	out, err := exec.Command("docker", kind, "inspect", "--format", format, id).CombinedOutput()
	if err != nil {
		t.Fatalf("docker %s inspect %s: %v\n%s", kind, id, err, out)
	}
	return strings.TrimSpace(string(out))
}

// waitServing polls /health from the host until it answers 200 and
// returns when that was.
func waitServing(ctx context.Context, t *testing.T, base string) time.Time {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(base + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Now()
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("/health did not answer 200 within 2 minutes: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitHealthy polls the engine's view of the HEALTHCHECK, which runs
// "docs-mcp healthcheck" inside the container.
func waitHealthy(ctx context.Context, t *testing.T, id string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		status := inspect(t, "container", id, "{{.State.Health.Status}}")
		if status == "healthy" {
			return
		}
		if status == "unhealthy" || time.Now().After(deadline) || ctx.Err() != nil {
			logs, _ := exec.Command("docker", "logs", id).CombinedOutput()
			t.Fatalf("container is %s, not healthy\n%s", status, logs)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func get(t *testing.T, base, path string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp, body
}

func checkHealth(t *testing.T, base, root string) {
	resp, body := get(t, base, "/health")
	var h struct {
		Status string
		Docs   int
		Hooks  int
		Wiki   bool
	}
	if err := json.Unmarshal(body, &h); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/health: %s %q: %v", resp.Status, body, err)
	}
	var registry struct{ Hooks []json.RawMessage }
	data, err := os.ReadFile(filepath.Join(root, "framework", "mod_hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &registry); err != nil {
		t.Fatal(err)
	}
	docs := countDocs(t, filepath.Join(root, "docs"))
	if h.Status != "ok" || h.Docs != docs || h.Hooks != len(registry.Hooks) || !h.Wiki {
		t.Errorf("/health = %+v; want ok, %d docs, %d hooks, the wiki", h, docs, len(registry.Hooks))
	}
}

func countDocs(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// checkWiki follows / to the wiki's home page and fetches a page that
// llms.txt lists.
func checkWiki(t *testing.T, base string) {
	resp, body := get(t, base, "/")
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/wiki/" || !bytes.Contains(body, []byte("<html")) {
		t.Fatalf("GET / ended at %s with %s; want the wiki's home page", resp.Request.URL, resp.Status)
	}
	resp, body = get(t, base, "/wiki/llms.txt")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/wiki/llms.txt: %s", resp.Status)
	}
	var page string
	for line := range strings.Lines(string(body)) {
		if i := strings.Index(line, "](/wiki/"); i >= 0 {
			page = line[i+2 : i+2+strings.IndexByte(line[i+2:], ')')]
			break
		}
	}
	if page == "" {
		t.Fatalf("llms.txt lists no /wiki/ page:\n%s", body)
	}
	if resp, _ := get(t, base, page); resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %s", page, resp.Status)
	}
}

// checkMCP runs a real session: initialize, list, search, read, registry,
// and DELETE, after which the session is gone.
func checkMCP(ctx context.Context, t *testing.T, base, root string) {
	c, err := client.NewStreamableHttpClient(base + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	// The newest protocol with sessions: the test ends one with DELETE.
	mcptest.Initialize(t, c, mcp.ProtocolVersion20251125, "container-test")
	session := c.GetSessionId()
	if session == "" {
		t.Fatal("initialize gave no Mcp-Session-Id")
	}

	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) != 10 {
		t.Fatalf("tools/list: %v, %d tools; want 10", err, len(tools.Tools))
	}
	found := mcptest.SearchHits(t, mcptest.Call(t, c, "mod_search_docs", map[string]any{"query": "mod_read_doc", "limit": 5}))
	if len(found) == 0 {
		t.Fatal("mod_search_docs found no \"mod_read_doc\" in the docs")
	}
	first := found[0]
	doc, _ := mcptest.CallOK[struct{ Content string }](t, c, "mod_read_doc", map[string]any{"path": first.Path, "start_line": first.Line, "end_line": first.Line})
	if !strings.Contains(doc.Content, "mod_read_doc") {
		t.Errorf("mod_read_doc %s:%d = %q; want the matching line", first.Path, first.Line, doc.Content)
	}
	_, registry := mcptest.CallOK[any](t, c, "mod_hook_registry", nil)
	want, err := os.ReadFile(filepath.Join(root, "framework", "mod_hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := registry; got != string(want) {
		t.Errorf("mod_hook_registry returned %d bytes, not the %d-byte file", len(got), len(want))
	}

	if err := c.Close(); err != nil { // DELETE /mcp
		t.Fatalf("close: %v", err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a request in the deleted session got %s, want 404", resp.Status)
	}
}

// checkConfinement looks at the server process itself, from the host: its
// user, capabilities and root mount.
func checkConfinement(t *testing.T, id string) {
	pid := inspect(t, "container", id, "{{.State.Pid}}")
	status, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	if err != nil {
		t.Skipf("cannot read the container's /proc entry (is dockerd on another host?): %v", err)
	}
	fields := map[string]string{}
	for line := range strings.Lines(string(status)) {
		if k, v, ok := strings.Cut(line, ":"); ok {
			fields[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	if uid := fields["Uid"]; strings.HasPrefix(uid, "0 ") {
		t.Errorf("the server runs as root (Uid: %s)", uid)
	}
	if fields["CapEff"] != "0000000000000000" || fields["NoNewPrivs"] != "1" {
		t.Errorf("CapEff %s, NoNewPrivs %s; want no capabilities and no new privileges", fields["CapEff"], fields["NoNewPrivs"])
	}
	mounts, err := os.ReadFile(filepath.Join("/proc", pid, "mountinfo"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(mounts)) {
		f := strings.Fields(line)
		if len(f) > 5 && f[4] == "/" {
			if !strings.HasPrefix(f[5], "ro") {
				t.Errorf("the root filesystem is mounted %s; want ro", f[5])
			}
			return
		}
	}
	t.Error("no root mount in the container's mountinfo")
}

// checkLabel checks the label the MCP Registry reads to tie the image to
// server.json: io.modelcontextprotocol.server.name, equal to its name.
func checkLabel(t *testing.T, root string) {
	b, err := os.ReadFile(filepath.Join(root, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entry struct{ Name string }
	if err := json.Unmarshal(b, &entry); err != nil {
		t.Fatal(err)
	}
	if got := inspect(t, "image", image, `{{index .Config.Labels "io.modelcontextprotocol.server.name"}}`); got != entry.Name {
		t.Errorf("the image's label io.modelcontextprotocol.server.name is %q, server.json's name %q", got, entry.Name)
	}
}

// checkLoggedAddress checks that the start-up log names the MCP endpoint a
// client on the host reaches, not the container's own [::]:3000.
func checkLoggedAddress(t *testing.T, id, base string) {
	logs, err := exec.Command("docker", "logs", id).CombinedOutput()
	if err != nil {
		t.Fatalf("docker logs: %v\n%s", err, logs)
	}
	for line := range strings.Lines(string(logs)) {
		var rec struct{ Msg, MCP string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "serving http" {
			if rec.MCP != base+"/mcp" {
				t.Errorf("the log names the MCP endpoint %s; a client reaches %s/mcp", rec.MCP, base)
			}
			return
		}
	}
	t.Errorf("no serving http line in the logs:\n%s", logs)
}

// checkStartLog checks that the container started without a warning (it
// warned at every start that it could not write the docs cache on its
// read-only file system) and from the cache the image ships, checked
// against its docs.
func checkStartLog(t *testing.T, id string) {
	logs, err := exec.Command("docker", "logs", id).CombinedOutput()
	if err != nil {
		t.Fatalf("docker logs: %v\n%s", err, logs)
	}
	loaded := false
	for line := range strings.Lines(string(logs)) {
		var rec struct {
			Level, Msg, Cache string
			ReadAgain         *int `json:"read_again"`
			Docs              int
		}
		if json.Unmarshal([]byte(line), &rec) != nil {
			t.Errorf("a log line that is not JSON: %s", line)
			continue
		}
		if rec.Level != "INFO" && rec.Level != "DEBUG" {
			t.Errorf("the container logged at %s: %s", rec.Level, line)
		}
		if rec.Msg == "docs loaded" {
			loaded = true
			if rec.Cache != "used" || rec.ReadAgain == nil {
				t.Errorf("the docs were loaded without the image's cache: %s", line)
				continue
			}
			t.Logf("docs loaded from the image's cache: %d docs, %d read again", rec.Docs, *rec.ReadAgain)
		}
	}
	if !loaded {
		t.Errorf("no docs loaded line in the logs:\n%s", logs)
	}
}
