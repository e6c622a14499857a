package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// threeReleases makes a repository with three release tags, whose docs
// are added, removed and edited and whose registry changes from one to
// the next, and a working tree edited since the last.
func threeReleases(t *testing.T) *mcptest.GitRepo {
	t.Helper()
	reg, err := os.ReadFile(filepath.Join(fixtureRoot, "framework", "mod_hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{
		"docs/guide.md":            "# Guide\n\nInstall with go get.\n\n## Install\n\nRun go get.\n",
		"docs/old.md":              "# Old\n\nAn old page about go.\n",
		"CONTRIBUTING.md":          "# Contributing v1\n",
		"framework/mod_hooks.json": string(reg),
	})
	r.Commit("v1.0.0")
	r.Git("tag", "v1.0.0")
	r.Write(map[string]string{
		"docs/guide.md": "# Guide\n\nInstall with go get.\n\n## Install\n\nRun go install.\n\n## Upgrade\n\nRun go get -u.\n",
		"docs/new.md":   "# New\n\nA new page about go.\n",
		"docs/old.md":   "",
	})
	r.Commit("v1.1.0")
	r.Git("tag", "-a", "-m", "release", "v1.1.0")
	r.Write(map[string]string{"framework/mod_hooks.json": strings.Replace(string(reg),
		"A player finished joining and spawned in the world.", "A player joined and spawned.", 1)})
	r.Commit("v2.0.0")
	r.Git("tag", "v2.0.0")
	r.Write(map[string]string{"docs/guide.md": "# Guide\n\nEdited in the working tree, go.\n"})
	return r
}

// versionedClient serves r's working tree and its tags matching sel,
// polling the tags every few milliseconds, until the test ends.
func versionedClient(t *testing.T, r *mcptest.GitRepo, sel string) *client.Client {
	t.Helper()
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gitdocs.ParseSelector(sel)
	if err != nil {
		t.Fatal(err)
	}
	vc := versions.Config{Repo: repo, Selector: s, DocsDir: "docs", RegistryPath: "framework/mod_hooks.json",
		ContributingPath: "CONTRIBUTING.md", PollInterval: 20 * time.Millisecond}
	srv, set := newReleasesServer(t, r.Dir, repo, vc)
	<-set.Loaded() // the tests of the tools on releases loaded; those of a load under way start their own
	return connect(t, srv)
}

func TestVersionedTools(t *testing.T) {
	r := threeReleases(t)
	c := versionedClient(t, r, "v*")

	// mod_list_versions: the working tree, then the tags newest first.
	lv, _ := mcptest.CallOK[ListVersionsOutput](t, c, "mod_list_versions", struct{}{})
	var names []string
	var counts []int
	for _, v := range lv.Versions {
		names, counts = append(names, v.Name), append(counts, v.Docs)
	}
	if diff := cmp.Diff([]string{WorkingTree, "v2.0.0", "v1.1.0", "v1.0.0"}, names); diff != "" {
		t.Errorf("versions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2, 2, 2, 2}, counts); diff != "" {
		t.Errorf("doc counts (-want +got):\n%s", diff)
	}
	if v := lv.Versions[1]; v.Commit != r.Git("rev-parse", "--short=7", "v2.0.0") || v.Date != "2026-01-03T12:00:00Z" {
		t.Errorf("v2.0.0: %+v", v)
	}

	// mod_list_doc_paths
	for version, want := range map[string][]string{
		"":       {"guide.md", "new.md"},
		"v1.0.0": {"guide.md", "old.md"},
		"v1.1.0": {"guide.md", "new.md"},
		"latest": {"guide.md", "new.md"},
		"v2.0.0": {"guide.md", "new.md"},
	} {
		got, _ := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", ListDocPathsInput{Version: version})
		var paths []string
		for _, e := range got.Paths {
			paths = append(paths, e.Path)
		}
		if diff := cmp.Diff(want, paths); diff != "" {
			t.Errorf("mod_list_doc_paths version %q (-want +got):\n%s", version, diff)
		}
	}

	// mod_read_doc, whole and by section, with the release's provenance.
	v1 := r.Git("rev-parse", "--short=7", "v1.0.0")
	rd, text := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: "guide.md", Section: "install", Version: "v1.0.0"})
	if rd.Content != "## Install\n\nRun go get." {
		t.Errorf("guide.md#install at v1.0.0 = %q", rd.Content)
	}
	if diff := cmp.Diff(&Provenance{Version: "v1.0.0", Commit: v1, Date: "2026-01-01T12:00:00Z"}, rd.Provenance); diff != "" {
		t.Errorf("provenance at v1.0.0 (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "From release v1.0.0, last changed in commit "+v1) || rd.URI != "docs-version://v1.0.0/guide.md#install" {
		t.Errorf("text or uri of a release's section: %s\n%s", rd.URI, text)
	}
	// The doc unchanged since v1.1.0 keeps that commit in v2.0.0.
	rd, _ = mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: "guide.md", Version: "latest"})
	if want := r.Git("rev-parse", "--short=7", "v1.1.0^{commit}"); rd.Provenance.Version != "v2.0.0" || rd.Provenance.Commit != want || !strings.Contains(rd.Content, "go install") {
		t.Errorf("guide.md at latest: %+v %+v, want commit %s", rd, *rd.Provenance, want)
	}
	if msg := mcptest.CallErr(t, c, "mod_read_doc", ReadDocInput{Path: "old.md", Version: "v1.1.0"}); !strings.Contains(msg, "old.md") {
		t.Errorf("old.md at v1.1.0: %s", msg)
	}

	// mod_search_docs
	sd, _ := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", SearchDocsInput{Query: "go", Version: "v1.0.0"})
	var hits []string
	for _, m := range matchesOf(sd) {
		hits = append(hits, m.Path+":"+m.Snippet)
	}
	if diff := cmp.Diff([]string{"guide.md:Install with go get.", "guide.md:Run go get.", "old.md:An old page about go."}, hits); diff != "" {
		t.Errorf("search at v1.0.0 (-want +got):\n%s", diff)
	}
	if sd.Version != "v1.0.0" || len(sd.Docs) != 2 || sd.Docs[0].Commit != v1 || sd.Docs[1].Commit != v1 {
		t.Errorf("search provenance at v1.0.0: version %q, docs %+v; want each doc at %s", sd.Version, sd.Docs, v1)
	}
	sd, _ = mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", SearchDocsInput{Query: "go"})
	if ms := matchesOf(sd); len(ms) != 2 || ms[0].Snippet != "Edited in the working tree, go." {
		t.Errorf("search of the working tree: %+v", ms)
	}

	// mod_hook_registry and mod_get_hook
	hr, _ := mcptest.CallOK[HookRegistryOutput](t, c, "mod_hook_registry", HookRegistryInput{Version: "v1.1.0"})
	if want := r.Git("show", "v1.1.0:framework/mod_hooks.json"); strings.TrimSpace(hr.Content) != want {
		t.Errorf("registry at v1.1.0 is not the tag's")
	}
	for version, want := range map[string]string{"v1.1.0": "A player finished joining and spawned in the world.", "v2.0.0": "A player joined and spawned."} {
		gh, _ := mcptest.CallOK[GetHookOutput](t, c, "mod_get_hook", GetHookInput{Name: "player.joined", Version: version})
		if gh.Hook.Summary != want {
			t.Errorf("player.joined at %s: summary %q, want %q", version, gh.Hook.Summary, want)
		}
	}

	// An unknown version is a tool error listing the known ones.
	for tool, args := range map[string]map[string]any{
		"mod_list_doc_paths": {},
		"mod_search_docs":    {"query": "go"},
		"mod_read_doc":       {"path": "guide.md"},
		"mod_hook_registry":  {},
		"mod_get_hook":       {"name": "player.joined"},
	} {
		args["version"] = "v9"
		msg := mcptest.CallErr(t, c, tool, args)
		if !strings.Contains(msg, `no version "v9"`) || !strings.Contains(msg, "v2.0.0, v1.1.0, v1.0.0") {
			t.Errorf("%s with an unknown version: %s", tool, msg)
		}
	}
}

// TestVersionNotServed: without --versions, a version is a tool error.
func TestVersionNotServed(t *testing.T) {
	c := newClient(t, fixtureRoot)
	msg := mcptest.CallErr(t, c, "mod_read_doc", ReadDocInput{Path: "a.md", Version: "v1.0.0"})
	if !strings.Contains(msg, "--versions") {
		t.Errorf("version without --versions: %s", msg)
	}
}

// TestTagAddedWhileRunning: a release tagged (and one deleted) while the
// server runs is served without a restart.
func TestTagAddedWhileRunning(t *testing.T) {
	r := threeReleases(t)
	c := versionedClient(t, r, "v*")
	names := func() []string {
		lv, _ := mcptest.CallOK[ListVersionsOutput](t, c, "mod_list_versions", struct{}{})
		var out []string
		for _, v := range lv.Versions[1:] {
			out = append(out, v.Name)
		}
		return out
	}
	r.Write(map[string]string{"docs/fresh.md": "# Fresh\n\nNew in v3.\n"})
	r.Commit("v3")
	r.Git("tag", "v3.0.0")
	r.Git("tag", "-d", "v1.0.0")
	mcptest.Eventually(t, "v3.0.0 served and v1.0.0 gone", func() bool {
		return cmp.Equal([]string{"v3.0.0", "v2.0.0", "v1.1.0"}, names())
	})
	got, _ := mcptest.CallOK[ReadDocOutput](t, c, "mod_read_doc", ReadDocInput{Path: "fresh.md", Version: "latest"})
	if got.Content != "# Fresh\n\nNew in v3." {
		t.Errorf("fresh.md at latest = %q", got.Content)
	}
}

// TestDocsChanges checks mod_docs_changes against what was changed.
func TestDocsChanges(t *testing.T) {
	r := threeReleases(t)
	c := versionedClient(t, r, "v*")
	got, text := mcptest.CallOK[DocsChangesOutput](t, c, "mod_docs_changes", DocsChangesInput{From: "v1.0.0", To: "v1.1.0"})
	want := DocsChangesOutput{From: "v1.0.0", To: "v1.1.0", Added: []string{"new.md"}, Removed: []string{"old.md"},
		Changed: []ChangedDoc{{Path: "guide.md", Sections: []ChangedSection{
			{Anchor: "install", Heading: "Install", Change: "changed"},
			{Anchor: "upgrade", Heading: "Upgrade", Change: "added"},
		}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("v1.0.0 to v1.1.0 (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "~ guide.md\n    changed #install\n    added #upgrade") {
		t.Errorf("text:\n%s", text)
	}
	got, text = mcptest.CallOK[DocsChangesOutput](t, c, "mod_docs_changes", DocsChangesInput{From: "v1.1.0", To: "latest"})
	if !got.Hooks.Changed || !cmp.Equal(got.Hooks.Edited, []string{"player.joined"}) || len(got.Changed)+len(got.Added)+len(got.Removed) != 0 {
		t.Errorf("v1.1.0 to latest: %+v\n%s", got, text)
	}
	// To the working tree (the default): guide.md edited on disk.
	got, _ = mcptest.CallOK[DocsChangesOutput](t, c, "mod_docs_changes", DocsChangesInput{From: "latest"})
	if got.To != WorkingTree || len(got.Changed) != 1 || got.Changed[0].Path != "guide.md" {
		t.Errorf("latest to the working tree: %+v", got)
	}
	if msg := mcptest.CallErr(t, c, "mod_docs_changes", DocsChangesInput{From: "v0"}); !strings.Contains(msg, `no version "v0"`) {
		t.Errorf("unknown from: %s", msg)
	}
}

// TestVersionedResources reads a release's docs through the resource
// template and completes its arguments.
func TestVersionedResources(t *testing.T) {
	r := threeReleases(t)
	c := versionedClient(t, r, "v*")
	tpls, err := c.ListResourceTemplates(t.Context(), mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(tpls.ResourceTemplates, func(tp mcp.ResourceTemplate) bool { return tp.URITemplate.Raw() == versionTemplate }) {
		t.Errorf("no template %s among %+v", versionTemplate, tpls.ResourceTemplates)
	}
	read := func(uri string) (string, map[string]any, error) {
		var rr mcp.ReadResourceRequest
		rr.Params.URI = uri
		res, err := c.ReadResource(t.Context(), rr)
		if err != nil {
			return "", nil, err
		}
		tc := res.Contents[0].(mcp.TextResourceContents)
		return tc.Text, tc.Meta, nil
	}
	text, meta, err := read("docs-version://v1.0.0/guide.md")
	if err != nil || text != "# Guide\n\nInstall with go get.\n\n## Install\n\nRun go get.\n" {
		t.Errorf("docs-version://v1.0.0/guide.md = %q, %v", text, err)
	}
	if p, _ := meta["provenance"].(map[string]any); p["version"] != "v1.0.0" || p["commit"] != r.Git("rev-parse", "--short=7", "v1.0.0") {
		t.Errorf("its provenance: %v", meta)
	}
	if text, _, err := read("docs-version://latest/guide.md#upgrade"); err != nil || text != "## Upgrade\n\nRun go get -u.\n" {
		t.Errorf("docs-version://latest/guide.md#upgrade = %q, %v", text, err)
	}
	if _, _, err := read("docs-version://v9/guide.md"); err == nil || !strings.Contains(err.Error(), "v2.0.0, v1.1.0, v1.0.0") {
		t.Errorf("an unknown version: %v", err)
	}
	if _, _, err := read("docs-version://v1.1.0/old.md"); err == nil {
		t.Error("old.md at v1.1.0 was read")
	}

	ref := mcp.ResourceReference{Type: "ref/resource", URI: versionTemplate}
	if got := complete(t, c, ref, "version", "v1"); !cmp.Equal([]string{"v1.1.0", "v1.0.0"}, got.Values) {
		t.Errorf("version completions of v1: %v", got.Values)
	}
	var req mcp.CompleteRequest
	req.Params.Ref = ref
	req.Params.Argument = mcp.CompleteArgument{Name: "path", Value: ""}
	req.Params.Context = mcp.CompleteContext{Arguments: map[string]string{"version": "v1.0.0"}}
	res, err := c.Complete(t.Context(), req)
	if err != nil || !cmp.Equal([]string{"guide.md", "old.md"}, res.Completion.Values) {
		t.Errorf("path completions in v1.0.0: %v, %v", res, err)
	}
}

// TestReleasesLoadingHoldNoTurn: while the releases load, a call that
// names one waits for it outside the work queue, and mod_list_versions
// answers at once with what is loaded and what is not, so that another
// client's calls are answered meanwhile, none refused as busy, with the
// only turn of work there is.
func TestReleasesLoadingHoldNoTurn(t *testing.T) {
	r := threeReleases(t)
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	proceed := make(chan struct{}) // the releases load once it is closed
	vc := versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", RegistryPath: "framework/mod_hooks.json",
		PollInterval: 20 * time.Millisecond,
		WorkingTree: func(ctx context.Context) *docs.Snapshot {
			select {
			case <-proceed:
			case <-ctx.Done():
			}
			return nil
		}}
	srv, set := newReleasesServer(t, r.Dir, repo, vc, func(c *Config) {
		c.Work = budget.WorkLimits{Running: 1, PerClient: 1, MaxWait: 100 * time.Millisecond}
	})
	waiting, other := connect(t, srv), connect(t, srv)

	mcptest.Eventually(t, "the tags read", func() bool { return set.Status().Listed })
	lv, text := mcptest.CallOK[ListVersionsOutput](t, waiting, "mod_list_versions", struct{}{})
	want := &VersionsLoading{Selected: 3, Loaded: 0, Pending: 3, Next: []string{"v2.0.0", "v1.1.0", "v1.0.0"}}
	if diff := cmp.Diff(want, lv.Loading); diff != "" || len(lv.Versions) != 1 || !strings.Contains(text, "0 of 3 loaded, 3 tags still loading") {
		t.Errorf("mod_list_versions while loading: versions %v, loading (-want +got):\n%s\ntext:\n%s", lv.Versions, diff, text)
	}

	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	read := make(chan answer, 1)
	go func() {
		var req mcp.CallToolRequest
		req.Params.Name = "mod_read_doc"
		req.Params.Arguments = map[string]any{"path": "guide.md", "section": "install", "version": "v1.0.0"}
		res, err := waiting.CallTool(context.Background(), req)
		read <- answer{res, err}
	}()
	// Time for the read to take the turn, had it taken one to wait in:
	// it would then hold it past the longest wait for a turn.
	time.Sleep(200 * time.Millisecond)
	var req mcp.CallToolRequest
	req.Params.Name = "mod_repo_layout"
	for i := range 5 {
		if res, err := other.CallTool(context.Background(), req); err != nil || res.IsError {
			t.Fatalf("another client's call %d while v1.0.0 loads: %v %v", i+1, err, res)
		}
	}
	select {
	case a := <-read:
		t.Fatalf("the read of v1.0.0 answered before it was loaded: %v %v", a.err, a.res)
	default:
	}
	// The transports' check of a read, which runs before the request is
	// handed on (on stdio, before the next line is read), refuses no
	// doc of a release loading and does not wait for it; the read itself
	// waits, on its own time.
	msg, err := protocol.Parse([]byte(`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"docs-version://v1.0.0/guide.md"}}`))
	if err != nil {
		t.Fatal(err)
	}
	checked := make(chan []byte, 1)
	go func() { checked <- srv.Refusal(context.Background(), &msg) }()
	select {
	case refusal := <-checked:
		if refusal != nil {
			t.Errorf("a read of a release loading refused: %s", refusal)
		}
	case <-time.After(mcptest.Deadline):
		t.Fatal("the check of a read of a release loading waited for the release")
	}
	resource := make(chan error, 1)
	go func() {
		var rr mcp.ReadResourceRequest
		rr.Params.URI = "docs-version://v1.0.0/guide.md"
		_, err := other.ReadResource(context.Background(), rr)
		resource <- err
	}()
	close(proceed)
	if err := <-resource; err != nil {
		t.Errorf("the read of docs-version://v1.0.0/guide.md once loaded: %v", err)
	}
	a := <-read
	if a.err != nil || a.res.IsError || !strings.Contains(mcptest.Text(a.res), "Run go get.") {
		t.Fatalf("the read of v1.0.0 once loaded: %v %v", a.err, a.res)
	}
	lv, _ = mcptest.CallOK[ListVersionsOutput](t, waiting, "mod_list_versions", struct{}{})
	if lv.Loading != nil || len(lv.Versions) != 4 {
		t.Errorf("mod_list_versions once loaded: %+v", lv)
	}
}

// TestDocsChangesKept: a comparison of two releases asked again answers
// the same (the corpus keeps it: corpus.TestChangesKept); one with the
// working tree answers too. A doc without headings names its one section, the text above the
// first heading (the empty anchor).
func TestDocsChangesKept(t *testing.T) {
	r := threeReleases(t)
	r.Write(map[string]string{"docs/plain.md": "No heading here.\n"})
	r.Commit("v2.1.0")
	r.Git("tag", "v2.1.0")
	r.Write(map[string]string{"docs/plain.md": "No heading here, edited.\n"})
	r.Commit("v2.2.0")
	r.Git("tag", "v2.2.0")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	vc := versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", RegistryPath: "framework/mod_hooks.json", PollInterval: 20 * time.Millisecond}
	srv, _ := newReleasesServer(t, r.Dir, repo, vc)
	c := connect(t, srv)
	in := DocsChangesInput{From: "v2.1.0", To: "latest"}
	first, text := mcptest.CallOK[DocsChangesOutput](t, c, "mod_docs_changes", in)
	want := []ChangedDoc{{Path: "plain.md", Sections: []ChangedSection{{Anchor: "", Heading: "", Change: "changed"}}}}
	if diff := cmp.Diff(want, first.Changed); diff != "" || !strings.Contains(text, "~ plain.md\n    changed (above the first heading)") {
		t.Errorf("v2.1.0 to latest (-want +got):\n%s\n%s", diff, text)
	}
	again, _ := mcptest.CallOK[DocsChangesOutput](t, c, "mod_docs_changes", in)
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("asked again (-first +again):\n%s", diff)
	}
	mcptest.CallOK[DocsChangesOutput](t, c, "mod_docs_changes", DocsChangesInput{From: "latest"})
}

// TestVersionErrors: an unknown version names a few of those served,
// nearest first, and how to list them all; a search of a release that
// finds nothing names the release; a release whose registry is past the
// size cap says so.
func TestVersionErrors(t *testing.T) {
	r := mcptest.NewGitRepo(t)
	r.Write(map[string]string{"framework/mod_hooks.json": `{"hooks":[]}`})
	r.Commit("base")
	r.ReleaseTags(40, 3, func(i int) string { return fmt.Sprintf("v1.%d.%d", i/10, i%10) })
	r.Write(map[string]string{"framework/mod_hooks.json": `{"hooks":[]}` + strings.Repeat(" ", 200)})
	r.Commit("v2")
	r.Git("tag", "v2.0.0")
	repo, err := gitdocs.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := gitdocs.ParseSelector("v*")
	vc := versions.Config{Repo: repo, Selector: sel, DocsDir: "docs", RegistryPath: "framework/mod_hooks.json",
		MaxDocBytes: 100, PollInterval: 20 * time.Millisecond}
	srv, _ := newReleasesServer(t, r.Dir, repo, vc)
	c := connect(t, srv)

	msg := mcptest.CallErr(t, c, "mod_read_doc", ReadDocInput{Path: "doc0.md", Version: "v1.2.10"})
	if want := `no version "v1.2.10"; the nearest of the 41 versions served: v1.2.1, v1.2.0, v1.3.1, v1.3.0, v1.2.9 (mod_list_versions lists them all;`; !strings.Contains(msg, want) {
		t.Errorf("an unknown version: %s\nwant %s", msg, want)
	}
	_, text := mcptest.CallOK[SearchDocsOutput](t, c, "mod_search_docs", SearchDocsInput{Query: "zeppelin", Version: "v1.0.3"})
	if text != `No line in the docs of release v1.0.3 contains "zeppelin".` {
		t.Errorf("a search of a release that finds nothing: %q", text)
	}
	msg = mcptest.CallErr(t, c, "mod_hook_registry", HookRegistryInput{Version: "latest"})
	if want := "the framework/mod_hooks.json of release v2.0.0 is not served: larger than the 100-byte cap (212 bytes; --max-doc-bytes)"; !strings.Contains(msg, want) {
		t.Errorf("a registry past the cap: %s\nwant %s", msg, want)
	}
}
