package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestToolSchemas snapshots what clients see of each tool: name,
// description, annotations and both schemas, one golden file per tool
// (testdata/tools/NAME.json), so that a change shows in review as a diff
// of that tool's file (refresh them with -update). A change that takes
// something away from a client (see breaking) fails, -update or not.
func TestToolSchemas(t *testing.T) {
	c := newClient(t, fixtureRoot)
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		got, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if old, err := os.ReadFile(filepath.Join("testdata", "tools", tool.Name+".json")); err == nil {
			broken, err := breaking(old, got)
			if err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			if len(broken) > 0 {
				// Not written, even with -update: the snapshot is the contract.
				t.Errorf("%s breaks its clients:\n\t%s\nkeep the old field, its description starting \"Deprecated\", for a release, and say so in docs/server/changelog.md",
					tool.Name, strings.Join(broken, "\n\t"))
				continue
			}
		}
		golden(t, filepath.Join("tools", tool.Name+".json"), append(got, '\n'))
		a := tool.Annotations
		if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
			a.IdempotentHint == nil || !*a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v; want read-only, not destructive, idempotent, closed world", tool.Name, a)
		}
		if tool.OutputSchema.Type != "object" || len(tool.OutputSchema.Properties) == 0 {
			t.Errorf("%s has no output schema", tool.Name)
		}
	}
	want := []string{"mod_ask_docs", "mod_docs_changes", "mod_get_hook", "mod_hook_registry", "mod_list_doc_paths", "mod_list_versions", "mod_read_contributing", "mod_read_doc", "mod_repo_layout", "mod_search_docs"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	// No snapshot of a tool the server no longer has.
	files, err := filepath.Glob(filepath.Join("testdata", "tools", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); !slices.Contains(names, name) {
			t.Errorf("%s snapshots %s, which the server does not register: delete it", f, name)
		}
	}
}

// TestInitializeTellsHowToUseTheTools: the initialize result carries the
// server's name and version, its capabilities, and instructions that name
// every tool the server registers and its prompt.
func TestInitializeTellsHowToUseTheTools(t *testing.T) {
	c, res := initialize(t, newServer(t, fixtureRoot, func(c *Config) { c.Version = "v9.9.9" }))
	if res.ServerInfo.Name != "docs-mcp" || res.ServerInfo.Version != "v9.9.9" {
		t.Errorf("server info %+v; want docs-mcp v9.9.9", res.ServerInfo)
	}
	caps := res.Capabilities
	if caps.Tools == nil || caps.Resources == nil || caps.Prompts == nil {
		t.Errorf("capabilities %+v; want tools, resources and prompts", caps)
	}
	if res.Instructions != strings.TrimSpace(instructions) {
		t.Errorf("instructions %q; want instructions.md", res.Instructions)
	}
	tools, prompts := registered(t, c)
	for _, name := range append(tools, prompts...) {
		if !strings.Contains(res.Instructions, name) {
			t.Errorf("the instructions do not say how to use %s:\n%s", name, res.Instructions)
		}
	}
}

// TestToolsAreDescribed holds the three texts that tell how to use the
// tools to the tools the server registers: the instructions sent at
// initialize (instructions.md), the prompt's "Using the tools"
// (using_tools.md) and docs/server/tools.md, which has a section per tool.
// Each names every tool, and no tool or prompt the server does not have.
func TestToolsAreDescribed(t *testing.T) {
	tools, prompts := registered(t, newClient(t, fixtureRoot))
	reference, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "server", "tools.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, place := range []struct{ name, text string }{
		{"instructions.md", instructions},
		{"using_tools.md", usingTools},
		{"docs/server/tools.md", string(reference)},
	} {
		named := map[string]bool{}
		for _, m := range modName.FindAllString(place.text, -1) {
			if !strings.HasSuffix(m, ".json") { // mod_hooks.json, the registry file
				named[m] = true
			}
		}
		for _, name := range tools {
			if !named[name] {
				t.Errorf("%s does not describe the tool %s", place.name, name)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(named)) {
			if !slices.Contains(tools, name) && !slices.Contains(prompts, name) {
				t.Errorf("%s names %s, which the server does not register", place.name, name)
			}
		}
	}
	for _, name := range tools {
		if !strings.Contains(string(reference), "\n## "+name+"\n") {
			t.Errorf("docs/server/tools.md has no section \"## %s\"", name)
		}
	}
}

// modName matches the names of tools and prompts, and mod_hooks.json.
var modName = regexp.MustCompile(`\bmod_[a-z_]+(\.json)?`)

// registered lists the names of the tools and prompts c's server offers.
func registered(t *testing.T, c *client.Client) (tools, prompts []string) {
	t.Helper()
	ctx := context.Background()
	tl, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tl.Tools {
		tools = append(tools, tool.Name)
	}
	pl, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pl.Prompts {
		prompts = append(prompts, p.Name)
	}
	if len(tools) == 0 || len(prompts) == 0 {
		t.Fatalf("the server registers %d tools and %d prompts", len(tools), len(prompts))
	}
	return tools, prompts
}

// TestInputSchemasOneType walks every tool's input schema as a client
// receives it: no property may have a list for its type (mcp-go types a
// pointer field ["null", "integer"]), which clients whose tool schemas
// allow one type reject (Gemini's; the Inspector's strict mode warns). An
// optional argument has a default instead, which the tool uses when the
// argument is left out or sent as null.
func TestInputSchemasOneType(t *testing.T) {
	c := newClient(t, fixtureRoot)
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema any
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case map[string]any:
				if typ, ok := v["type"].([]any); ok {
					t.Errorf("%s: %s has the types %v: give it one type (and a default)", tool.Name, path, typ)
				}
				for _, k := range slices.Sorted(maps.Keys(v)) {
					walk(path+"/"+k, v[k])
				}
			case []any:
				for i, e := range v {
					walk(fmt.Sprintf("%s/%d", path, i), e)
				}
			}
		}
		walk("inputSchema", schema)
	}

	// The defaults are what the tools use for an argument left out or null.
	for _, d := range []struct {
		tool string
		args map[string]any
	}{
		{"mod_search_docs", map[string]any{"query": "e"}},
		{"mod_list_doc_paths", map[string]any{}},
	} {
		var def any
		for _, tool := range res.Tools {
			if tool.Name == d.tool {
				def = tool.InputSchema.Properties["limit"].(map[string]any)["default"]
			}
		}
		n, ok := def.(float64)
		if !ok {
			t.Errorf("%s: limit has no default in its input schema: %v", d.tool, def)
			continue
		}
		answers := map[string]string{}
		for name, limit := range map[string]any{"left out": "", "null": nil, "the default": n} {
			args := maps.Clone(d.args)
			if limit != "" {
				args["limit"] = limit
			}
			_, answers[name] = mcptest.CallOK[map[string]any](t, c, d.tool, args)
		}
		if answers["left out"] != answers["the default"] || answers["null"] != answers["the default"] {
			t.Errorf("%s: limit left out, null and %v (the default) answer differently:\n%s\n---\n%s\n---\n%s",
				d.tool, n, answers["left out"], answers["null"], answers["the default"])
		}
	}
}

// toolCount matches what the docs say of how many tools there are: "ten
// tools", "the seven [tools](tools.md)", and "the six tools that take
// `version`", a count of the tools with that argument.
var toolCount = regexp.MustCompile("(?i)\\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|\\d+) \\[?tools\\b(?:\\]\\([^)]*\\))?( that take `([a-z_]+)`)?")

// TestDocsCountTools holds every line of the docs (docs/, README.md,
// CONTRIBUTING.md, AGENTS.md and the texts the server sends) that says how
// many tools there are to the server's tool list: "N tools" is all of
// them, "N tools that take `ARG`" those whose input schema has ARG.
func TestDocsCountTools(t *testing.T) {
	c := newClient(t, fixtureRoot)
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	root := repoRoot(t)
	files := []string{"README.md", "CONTRIBUTING.md", "AGENTS.md", "mcp-server/internal/mcpserver/instructions.md",
		"mcp-server/internal/mcpserver/using_tools.md", "mcp-server/internal/mcpserver/layout.md"}
	err = filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
		"thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
	counted := 0
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range toolCount.FindAllStringSubmatch(line, -1) {
				said := slices.Index(words, strings.ToLower(m[1]))
				if said < 0 {
					said, _ = strconv.Atoi(m[1])
				}
				want, what := len(res.Tools), "the server has"
				if arg := m[3]; arg != "" {
					want, what = 0, "take "+arg+" in"
					for _, tool := range res.Tools {
						if _, ok := tool.InputSchema.Properties[arg]; ok {
							want++
						}
					}
				}
				if said != want {
					t.Errorf("%s:%d says %q: %d tools %s (%s); say \"%s tools\", or \"N tools that take `ARG`\" for some of them",
						f, i+1, m[0], want, what, strings.Join(toolNames(res.Tools), ", "), words[min(want, len(words)-1)])
				}
				counted++
			}
		}
	}
	if counted == 0 {
		t.Error("no line of the docs says how many tools there are: the pattern no longer matches how they say it")
	}
}

func toolNames(tools []mcp.Tool) []string {
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	return names
}
