package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// skillsRoot is a copy of the fixture with a skills folder holding one
// skill, skills/greet-players/ (testdata/skills).
func skillsRoot(t *testing.T) string {
	t.Helper()
	root := copyTree(t, fixtureRoot)
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "skills"))); err != nil {
		t.Fatal(err)
	}
	return root
}

// withSkills gives the server the skills folder of root, loaded.
func withSkills(t *testing.T, root string) func(*Config) {
	t.Helper()
	c := openCorpus(loadDocs(t, filepath.Join(root, "skills")), corpus.DefaultConfig())
	return func(cfg *Config) { cfg.Skills = c }
}

// The fixture's skill.
const (
	greetSkill = "skill://greet-players/SKILL.md"
	greetHooks = "skill://greet-players/references/hooks.md"
)

// TestSkillsDeclared: server/discover (2026-07-28) declares the Skills
// extension with directoryRead; initialize, on the revisions that
// negotiate no extension, does not.
func TestSkillsDeclared(t *testing.T) {
	root := skillsRoot(t)
	answer := rawAnswer(t, newServer(t, root, withSkills(t, root)))
	var discover struct {
		Result struct {
			Capabilities mcp.ServerCapabilities
		}
	}
	decode(t, answer(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta0728+`}}`), &discover)
	ext := discover.Result.Capabilities.Extensions
	if d := cmp.Diff(map[string]any{"directoryRead": true}, ext[SkillsExtension]); d != "" {
		t.Errorf("server/discover's extensions[%s] (-want +got):\n%s\nextensions: %v", SkillsExtension, d, ext)
	}
	if discover.Result.Capabilities.Resources == nil {
		t.Error("server/discover declares no resources capability, which the extension requires")
	}
	for _, rev := range []string{"2025-11-25", "2024-11-05"} {
		var initialize struct {
			Result mcp.InitializeResult
		}
		decode(t, answer(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+rev+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`), &initialize)
		if initialize.Result.ProtocolVersion != rev {
			t.Fatalf("initialize %s: %+v", rev, initialize.Result)
		}
		if _, ok := initialize.Result.Capabilities.Extensions[SkillsExtension]; ok {
			t.Errorf("%s: initialize declares %s: %v", rev, SkillsExtension, initialize.Result.Capabilities.Extensions)
		}
	}
}

func decode(t *testing.T, answer string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(answer), v); err != nil {
		t.Fatalf("%s: %v", answer, err)
	}
}

// TestSkillResources: a skill's SKILL.md is listed by resources/list with
// the name and description of its front matter, and every file of the
// skill is read by its skill:// URI (also through the template's
// completion), byte for byte as on disk.
func TestSkillResources(t *testing.T) {
	root := skillsRoot(t)
	c := newClient(t, root, withSkills(t, root))
	ctx := context.Background()
	res, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(res.Resources, func(r mcp.Resource) bool { return r.URI == greetSkill })
	if i < 0 {
		t.Fatalf("resources/list lacks %s", greetSkill)
	}
	want := mcp.Resource{URI: greetSkill, Name: "greet-players", Description: "Greet players when they join. Use when a mod should welcome players.", MIMEType: "text/markdown"}
	if d := cmp.Diff(want, res.Resources[i]); d != "" {
		t.Errorf("the skill's listing (-want +got):\n%s", d)
	}
	if j := slices.IndexFunc(res.Resources, func(r mcp.Resource) bool { return strings.HasPrefix(r.URI, docScheme) && r.URI != mapURI }); j >= 0 && j < i {
		t.Errorf("the skills come after the docs on the first page (%d, %d): a client looking for a SKILL.md finds docs://skills/... first", i, j)
	}
	for uri, file := range map[string]string{greetSkill: "SKILL.md", greetHooks: "references/hooks.md"} {
		disk, err := os.ReadFile(filepath.Join(root, "skills", "greet-players", filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		read := mcp.ReadResourceRequest{}
		read.Params.URI = uri
		got, err := c.ReadResource(ctx, read)
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		tc := got.Contents[0].(mcp.TextResourceContents)
		if tc.Text != string(disk) || tc.MIMEType != "text/markdown" {
			t.Errorf("read %s: %q (%s), want the file as on disk", uri, tc.Text, tc.MIMEType)
		}
	}
	var values []string
	for _, prefix := range []string{"", "greet-players/", "greet-players/references/"} {
		req := mcp.CompleteRequest{}
		req.Params.Ref = mcp.ResourceReference{Type: "ref/resource", URI: skillTemplate}
		req.Params.Argument.Name, req.Params.Argument.Value = "path", prefix
		comp, err := c.Complete(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		values = append(values, comp.Completion.Values...)
	}
	if d := cmp.Diff([]string{"greet-players/", "greet-players/references/", "greet-players/SKILL.md", "greet-players/references/hooks.md"}, values); d != "" {
		t.Errorf("completions of the skill template's path (-want +got):\n%s", d)
	}
}

// TestLiveSkills: an edit to a skill's file tells its subscribers, on the
// file's URI and on its skill's SKILL.md (whose entry, the digests,
// changed), and the new text is served at once; a new skill is a change
// of the resource list, and is listed.
func TestLiveSkills(t *testing.T) {
	l := &live{root: skillsRoot(t)}
	var cfg Config
	cfg, l.docs = withFixture(t, l.root)
	skillsDir := filepath.Join(l.root, "skills")
	sc := corpus.DefaultConfig()
	sc.DataRoot, sc.DocsPath, sc.Watch, sc.PollInterval = l.root, skillsDir, watch.Auto, 20*time.Millisecond
	skillsCorpus := corpus.New(sc)
	cfg.Skills = skillsCorpus
	l.srv, l.corpus = runCorpus(t, cfg, l.docs, watch.Auto)
	mcptest.Background(t, "Run skills", func(ctx context.Context) error { return skillsCorpus.Run(ctx, l.srv.PublishSkills) })
	mcptest.Closed(t, skillsCorpus.Settled(), "the end of the skills corpus's start-up")
	sub := l.connect(t)
	sub.subscribe(t, greetSkill)
	sub.subscribe(t, greetHooks)

	writeFile(t, skillsDir, "greet-players/references/hooks.md", "# Hooks\n\nplayer.joined passes the player and first_join.\n")
	got := sub.await(t, updated+greetSkill)
	if !slices.Contains(got, updated+greetHooks) {
		got = append(got, sub.await(t, updated+greetHooks)...)
	}
	slices.Sort(got)
	if d := cmp.Diff([]string{updated + greetSkill, updated + greetHooks}, got); d != "" {
		t.Errorf("notifications of the edit (-want +got):\n%s", d)
	}
	if text, err := sub.read(t, greetHooks); err != nil || !strings.Contains(text, "first_join") {
		t.Errorf("read after the edit: %q, %v", text, err)
	}

	writeFile(t, skillsDir, "wave/SKILL.md", "---\nname: wave\ndescription: Wave at players.\n---\n# Wave\n")
	sub.await(t, listChanged)
	mcptest.Eventually(t, "the new skill in resources/list", func() bool {
		res, err := sub.c.ListResources(context.Background(), mcp.ListResourcesRequest{})
		return err == nil && slices.ContainsFunc(res.Resources, func(r mcp.Resource) bool { return r.URI == "skill://wave/SKILL.md" })
	})
}
