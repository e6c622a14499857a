package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The client pages write these where a reader puts their own paths; the
// test puts its own.
const (
	docClone  = "/path/to/docs-mcp"  // the clone (its absolute path)
	docGoBin  = "/Users/you/go/bin"  // where go install put docs-mcp (Claude Desktop takes no PATH)
	workspace = "${workspaceFolder}" // VS Code's and Cursor's variable for the workspace: the clone
)

// clientPages are the pages whose stdio commands TestClientCommands
// starts; each leads with the installed binary.
var clientPages = []string{"claude-code.md", "vscode.md", "cursor.md", "claude-desktop.md"}

// A clientCommand is a stdio command as a client page writes it: a
// claude mcp add line, or a server of an mcp.json.
type clientCommand struct {
	where   string // page:line
	command string
	args    []string
	env     map[string]string
	cwd     string // as written; "" when the client chooses
	project bool   // Claude Code's project scope: started in the folder claude was started in, the clone
}

// TestClientCommands does what the README and the client pages tell a
// user to: the install step (go install, into a folder of the test's put
// first on PATH), then every stdio command of the client pages, each as
// its client would start it (its arguments, environment and working
// folder), and checks through mcp-go's stdio client that each answers
// initialize as docs-mcp and serves this clone's docs. The commands are
// read from the pages, so that the pages and this test cannot drift. It
// logs the time from each spawn to the initialize answer (go run ones
// with Go's build cache as this machine has it); it asserts none.
func TestClientCommands(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	install := installStep(t, root)
	gobin := t.TempDir()
	cmd := exec.Command(install[0], install[1:]...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOBIN="+gobin)
	begin := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(install, " "), err, out)
	}
	t.Logf("%s: %s", strings.Join(install, " "), time.Since(begin).Round(time.Millisecond))
	if _, err := os.Stat(filepath.Join(gobin, "docs-mcp")); err != nil {
		t.Fatalf("%s installed no docs-mcp: %v", strings.Join(install, " "), err)
	}
	t.Setenv("PATH", gobin+string(os.PathListSeparator)+os.Getenv("PATH"))

	for _, page := range clientPages {
		cmds := pageCommands(t, filepath.Join(root, "docs", "clients", page))
		if len(cmds) == 0 {
			t.Errorf("docs/clients/%s: no stdio command found", page)
			continue
		}
		if base := filepath.Base(cmds[0].command); base != "docs-mcp" {
			t.Errorf("%s: the page's first stdio command is %s; lead with the installed docs-mcp", cmds[0].where, cmds[0].command)
		}
		for _, c := range cmds {
			t.Run(c.where, func(t *testing.T) { startClientCommand(t, root, gobin, c) })
		}
	}
}

// installStep is the install command of the README, which the clients'
// pages give too: a go install line of an sh block, the same on every
// page that has one, and in the README and the clients' index at least.
func installStep(t *testing.T, root string) []string {
	t.Helper()
	pages := []string{"README.md", "docs/clients/index.md"}
	for _, p := range clientPages {
		pages = append(pages, "docs/clients/"+p)
	}
	var step string
	for i, page := range pages {
		found := false
		for _, b := range fencedBlocks(t, filepath.Join(root, page), "sh") {
			for _, l := range b.lines {
				cmd, _, _ := strings.Cut(l, "#")
				if cmd = strings.TrimSpace(cmd); !strings.HasPrefix(cmd, "go install ") {
					continue
				}
				if step == "" {
					step = cmd
				}
				if cmd != step {
					t.Errorf("%s:%d installs with %q, %s with %q: give one install step", page, b.line, cmd, pages[0], step)
				}
				found = true
			}
		}
		if !found && i < 2 {
			t.Fatalf("%s gives no install step (go install ...)", page)
		}
	}
	return strings.Fields(step)
}

// startClientCommand starts c as its client would and checks that it
// answers initialize as docs-mcp, then serves a doc of the clone.
func startClientCommand(t *testing.T, root, gobin string, c clientCommand) {
	expand := func(s string) string {
		s = strings.ReplaceAll(s, workspace, root)
		s = strings.ReplaceAll(s, docGoBin, gobin)
		return strings.ReplaceAll(s, docClone, root)
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = expand(a)
	}
	// Where the client starts it: the folder given; the clone for
	// Claude Code's project scope; else a folder outside the clone, which
	// the command must not depend on.
	dir := t.TempDir()
	switch {
	case c.cwd != "":
		dir = expand(c.cwd)
	case c.project:
		dir = root
	}
	var env []string
	for _, kv := range os.Environ() { // the pages show the defaults
		if !strings.HasPrefix(kv, "DOCS_MCP_") {
			env = append(env, kv)
		}
	}
	env = append(env, "DOCS_MCP_CACHE_DIR="+t.TempDir()) // a first start's: no cache
	for k, v := range c.env {
		env = append(env, k+"="+expand(v))
	}
	command := expand(c.command)
	line := strings.Join(append([]string{command}, args...), " ")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	begin := time.Now()
	cl, err := client.NewStdioMCPClientWithOptions(command, nil, args, transport.WithCommandFunc(
		func(ctx context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Dir, cmd.Env = dir, env
			return cmd, nil
		}))
	if err != nil {
		t.Fatalf("start %s in %s: %v", line, dir, err)
	}
	defer cl.Close()
	init, err := cl.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
		ClientInfo:      mcp.Implementation{Name: "clients-test", Version: "1"},
	}})
	spawnToInit := time.Since(begin)
	if err != nil {
		t.Fatalf("%s (in %s): initialize: %v", line, dir, err)
	}
	t.Logf("%s (in %s): initialize answered %s after the spawn", line, dir, spawnToInit.Round(time.Millisecond))
	if init.ServerInfo.Name != "docs-mcp" {
		t.Errorf("%s: the server says it is %q", line, init.ServerInfo.Name)
	}
	res, err := cl.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{
		Name: "mod_read_doc", Arguments: map[string]any{"path": "clients/index.md", "end_line": 5},
	}})
	if err != nil || res.IsError {
		t.Fatalf("%s: mod_read_doc clients/index.md: %v %v", line, err, res)
	}
}

// pageCommands reads the stdio commands of a client page: each
// claude mcp add --transport stdio line of an sh block, and each server
// of a JSON block that the client starts as a process (not an HTTP
// server, nor the npx bridge to one).
func pageCommands(t *testing.T, path string) []clientCommand {
	t.Helper()
	page := filepath.Base(path)
	var out []clientCommand
	for _, b := range fencedBlocks(t, path, "sh", "json") {
		where := fmt.Sprintf("%s:%d", page, b.line)
		if b.lang == "sh" {
			for _, l := range b.lines {
				words := strings.Fields(l)
				sep := slices.Index(words, "--")
				if len(words) < 3 || words[0] != "claude" || words[2] != "add" || sep < 0 || !slices.Contains(words[:sep], "stdio") {
					continue
				}
				out = append(out, clientCommand{where: where, command: words[sep+1], args: words[sep+2:],
					project: slices.Contains(words[:sep], "project")})
			}
			continue
		}
		var config struct {
			MCPServers map[string]serverEntry `json:"mcpServers"`
			Servers    map[string]serverEntry `json:"servers"`
		}
		if err := json.Unmarshal([]byte(strings.Join(b.lines, "\n")), &config); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		for _, s := range []map[string]serverEntry{config.MCPServers, config.Servers} {
			for _, e := range s {
				if e.Command == "" || e.Command == "npx" {
					continue // an HTTP server, or the bridge to one
				}
				// Claude Code's .mcp.json is its project scope.
				out = append(out, clientCommand{where: where, command: e.Command, args: e.Args, env: e.Env,
					cwd: e.Cwd, project: page == "claude-code.md"})
			}
		}
	}
	return out
}

type serverEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
}

// A fencedBlock is a fenced code block of a Markdown page: its language,
// the line of its opening fence, and its lines, with an sh line that ends
// in a backslash joined to the next.
type fencedBlock struct {
	lang  string
	line  int
	lines []string
}

func fencedBlocks(t *testing.T, path string, langs ...string) []fencedBlock {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		out []fencedBlock
		cur *fencedBlock
	)
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &fencedBlock{lang: strings.TrimPrefix(l, "```"), line: i + 1}
		case cur != nil && strings.HasPrefix(l, "```"):
			if slices.Contains(langs, cur.lang) {
				out = append(out, *cur)
			}
			cur = nil
		case cur != nil:
			if n := len(cur.lines); cur.lang == "sh" && n > 0 && strings.HasSuffix(cur.lines[n-1], `\`) {
				cur.lines[n-1] = strings.TrimSuffix(cur.lines[n-1], `\`) + " " + strings.TrimSpace(l)
				continue
			}
			cur.lines = append(cur.lines, l)
		}
	}
	return out
}
