package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

func complete(t testing.TB, c *client.Client, ref any, arg, value string) mcp.Completion {
	t.Helper()
	var req mcp.CompleteRequest
	req.Params.Ref = ref
	req.Params.Argument = mcp.CompleteArgument{Name: arg, Value: value}
	res, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatalf("complete %s=%q: %v", arg, value, err)
	}
	return res.Completion
}

// TestCompletion completes doc paths one folder level at a time (folders
// first), hook names for the hook:// template and the prompt's hook
// argument, and the prompt's task, through mcp-go's client; the server
// advertises the capability.
func TestCompletion(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for _, p := range []string{"guide/sub/deep.md", "guide/zeta/z.md", "guide/alpha.md", "gx.md"} {
		writeFile(t, dir, "docs/"+p, "# "+p+"\n")
	}
	c, init := initialize(t, newServer(t, dir))
	if init.Capabilities.Completions == nil {
		t.Error("initialize does not advertise completions")
	}

	docsRef := mcp.ResourceReference{Type: "ref/resource", URI: "docs://{+path}"}
	for _, tt := range []struct {
		value string
		want  []string
	}{
		{"", []string{"guide/", "server/", "gx.md", "index.md"}},
		{"g", []string{"guide/", "gx.md"}},
		{"guide/", []string{"guide/sub/", "guide/zeta/", "guide/alpha.md", "guide/intro.md", "guide/unicode.md"}},
		{"guide/z", []string{"guide/zeta/"}},
		{"guide/sub/d", []string{"guide/sub/deep.md"}},
		{"nope/", []string{}},
		{"../", []string{}},
	} {
		got := complete(t, c, docsRef, "path", tt.value)
		if diff := cmp.Diff(tt.want, got.Values); diff != "" || got.Total != len(tt.want) || got.HasMore {
			t.Errorf("path %q (-want +got):\n%s (total %d, hasMore %v)", tt.value, diff, got.Total, got.HasMore)
		}
	}

	hookRef := mcp.ResourceReference{Type: "ref/resource", URI: "hook://{name}"}
	promptRef := mcp.PromptReference{Type: "ref/prompt", Name: "mod_modding_context"}
	for _, ref := range []any{hookRef, promptRef} {
		got := complete(t, c, ref, map[bool]string{true: "name", false: "hook"}[ref == any(hookRef)], "player.")
		if len(got.Values) == 0 {
			t.Errorf("%v: no hook completes player.", ref)
		}
		for _, v := range got.Values {
			if !strings.HasPrefix(v, "player.") {
				t.Errorf("%v: %q does not start with player.", ref, v)
			}
		}
	}
	if got := complete(t, c, promptRef, "task", "add a"); !cmp.Equal(got.Values, []string{"add a hook for crafting", "add a filter hook"}) {
		t.Errorf("task completion: %q", got.Values)
	}
	if got := complete(t, c, mcp.PromptReference{Type: "ref/prompt", Name: "other"}, "task", ""); len(got.Values) != 0 {
		t.Errorf("another prompt completes %q", got.Values)
	}
}

// TestCompletionCap: a folder of 150 docs gives 100 values, folders first,
// with hasMore and the total.
func TestCompletionCap(t *testing.T) {
	dir := copyTree(t, fixtureRoot)
	for i := range 150 {
		writeFile(t, dir, fmt.Sprintf("docs/many/p%03d.md", i), "# p\n")
	}
	writeFile(t, dir, "docs/many/zz/last.md", "# last\n")
	c := newClient(t, dir)
	got := complete(t, c, mcp.ResourceReference{Type: "ref/resource", URI: "docs://{+path}"}, "path", "many/")
	if len(got.Values) != 100 || !got.HasMore || got.Total != 151 || got.Values[0] != "many/zz/" || got.Values[1] != "many/p000.md" {
		t.Errorf("got %d values (%q…), hasMore %v, total %d; want 100 starting with many/zz/, hasMore, total 151", len(got.Values), got.Values[:min(3, len(got.Values))], got.HasMore, got.Total)
	}
}

// BenchmarkCompletePath completes doc paths on 40,000 generated docs: the
// top level, a folder and a prefix in it, the server's share (the
// provider mcp-go calls) once the folder tree of the snapshot is built.
// The target is well under a millisecond.
//
//	go test -run '^$' -bench CompletePath -benchmem ./mcp-server/internal/mcpserver
func BenchmarkCompletePath(b *testing.B) {
	dir := b.TempDir()
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 1, Files: 40000}); err != nil {
		b.Fatal(err)
	}
	snap, err := docs.Load(context.Background(), dir, docs.LoadOptions{Generation: 1})
	if err != nil {
		b.Fatal(err)
	}
	// The first completion of a snapshot builds its folder tree (measured
	// before the server opens: its search index build would share the CPU).
	b.Run("tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buildTree(snap.Docs())
		}
	})
	srv := New(DefaultConfig(), openCorpus(snap, corpus.DefaultConfig()))
	treeOf(snap)
	first := snap.Docs()[len(snap.Docs())/2].Path
	folder := first[:strings.LastIndexByte(first, '/')+1]
	for name, value := range map[string]string{"top": "", "folder": folder, "prefix": first[:len(folder)+1]} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			arg := mcp.CompleteArgument{Name: "path", Value: value}
			for b.Loop() {
				c, err := srv.CompleteResourceArgument(context.Background(), docTemplate, arg, mcp.CompleteContext{})
				if err != nil || len(c.Values) == 0 {
					b.Fatalf("%q: %v %v", value, c, err)
				}
			}
		})
	}
}

// TestHookResourceAndPromptHook reads hook://{name}, an unknown hook's
// "resource not found" with the nearest names, and the prompt with a hook.
func TestHookResourceAndPromptHook(t *testing.T) {
	c := newClient(t, fixtureRoot)
	if got := readResource(t, c, "hook://player.joined"); !strings.Contains(got, `"name": "player.joined"`) {
		t.Errorf("hook://player.joined: %q", got)
	}
	var rr mcp.ReadResourceRequest
	rr.Params.URI = "hook://player.join"
	if _, err := c.ReadResource(t.Context(), rr); err == nil || !strings.Contains(err.Error(), "resource not found") || !strings.Contains(err.Error(), "did you mean player.joined") {
		t.Errorf("unknown hook: %v", err)
	}
	var req mcp.GetPromptRequest
	req.Params.Name = "mod_modding_context"
	req.Params.Arguments = map[string]string{"hook": "player.joined"}
	res, err := c.GetPrompt(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Messages[0].Content.(mcp.TextContent).Text; !strings.Contains(text, "## Hook player.joined\n\nplayer.joined (event") {
		t.Errorf("prompt with a hook lacks its entry:\n%s", text[:min(len(text), 600)])
	}
}

// TestCompletionAfterAnEdit: once completion has been used, the folder tree
// of the next snapshot is built in the background when the docs change,
// and completion sees the edit.
func TestCompletionAfterAnEdit(t *testing.T) {
	l := startLive(t, watch.Auto)
	w := l.connect(t)
	ref := mcp.ResourceReference{Type: "ref/resource", URI: "docs://{+path}"}
	if got := complete(t, w.c, ref, "path", "new"); len(got.Values) != 0 {
		t.Fatalf("before the edit: %q", got.Values)
	}
	before := l.corpus.Snapshot()
	writeFile(t, l.root, "docs/newfolder/page.md", "# Page\n")
	mcptest.Eventually(t, "a new snapshot", func() bool { return l.corpus.Snapshot() != before })
	mcptest.Eventually(t, "its folder tree built without a completion", func() bool {
		_, ok := docs.Attached(l.corpus.Snapshot(), docTreeKey)
		return ok
	})
	if got := complete(t, w.c, ref, "path", "new"); !cmp.Equal(got.Values, []string{"newfolder/"}) {
		t.Errorf("after the edit: %q, want newfolder/", got.Values)
	}
}
