package wiki

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

func TestWatch(t *testing.T) {
	t.Parallel() // waits on Hugo and polls: see TestMain
	root := fixture(t)
	out := filepath.Join(t.TempDir(), "wiki")
	log, stop := startWatch(t, options(t, root), out)
	stopReading := readWhole(t, out)
	defer func() {
		stop()
		stopReading()
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*")); len(left) > 0 {
			t.Errorf("Watch left %q beside the site", left)
		}
	}()

	page := func(rel string) string { return filepath.Join(out, filepath.FromSlash(rel)) }
	waitFor(t, log, "the first build", func() bool { return exists(page("getting-started/index.html")) })

	// An edit shows in the page, its Markdown twin and the search index,
	// rendered by the running Hugo: the tree is not built again.
	gs := filepath.Join(root, "docs", "getting-started.md")
	mcptest.WriteFile(t, gs, mcptest.ReadFile(t, gs)+"\nA line written while the wiki is watched.\n")
	waitFor(t, log, "the edit", func() bool {
		return contains(page("getting-started/index.html"), "A line written while the wiki is watched.") &&
			contains(page("getting-started.md"), "A line written while the wiki is watched.") &&
			indexHolds(out, "A line written while the wiki is watched.") &&
			strings.Contains(log.String(), "wiki: rebuilt ")
	})
	if strings.Contains(log.String(), "building the whole tree") {
		t.Errorf("an edit built the whole tree again; log:\n%s", log.String())
	}

	// A new doc gets a page, and its broken link is listed, not fatal.
	mcptest.WriteFile(t, filepath.Join(root, "docs", "clients", "zed.md"), "# Zed\n\nSee [the old page](old.md).\n")
	waitFor(t, log, "the new doc", func() bool {
		return contains(page("clients/zed/index.html"), "<title>Zed · modkit wiki</title>") &&
			contains(page("clients/zed.md"), "# Zed")
	})
	if want := `wiki: docs/clients/zed.md:3: broken link "old.md": docs/clients/old.md does not exist`; !strings.Contains(log.String(), want) {
		t.Errorf("Watch did not list %q; log:\n%s", want, log.String())
	}

	// A doc moved to a new folder: its page moves, the old one goes.
	if err := os.MkdirAll(filepath.Join(root, "docs", "editors"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "docs", "clients", "zed.md"), filepath.Join(root, "docs", "editors", "zed.md")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, log, "the moved doc", func() bool {
		return contains(page("editors/zed/index.html"), "<title>Zed · modkit wiki</title>") && exists(page("editors/zed.md")) &&
			!exists(page("clients/zed/index.html")) && !exists(page("clients/zed.md"))
	})

	// A new title shows in the folder's page, which lists the doc.
	mcptest.WriteFile(t, filepath.Join(root, "docs", "editors", "zed.md"), "# Zed, the editor\n\nSee [the old page](old.md).\n")
	waitFor(t, log, "the new title in the folder's page", func() bool {
		return contains(page("editors/index.html"), "Zed, the editor")
	})

	// The redirect files are followed: a redirect added gets its page at
	// the old address, as a build writes it.
	mcptest.WriteFile(t, filepath.Join(root, opsRedirectFile), `{"redirections": [
		{"source_path": "docs/editors/old-zed.md", "redirect_url": "/modkit/editors/zed"}
	]}`)
	waitFor(t, log, "the new redirect's page", func() bool {
		return contains(page("editors/old-zed/index.html"), `<meta http-equiv="refresh" content="0; url=/wiki/editors/zed/">`)
	})

	// A tree that cannot be built keeps the last site served; fixing it
	// builds again.
	taken := filepath.Join(root, "docs", "search.md")
	mcptest.WriteFile(t, taken, "# Search\n")
	waitFor(t, log, "the failed build's report", func() bool {
		return strings.Contains(log.String(), "(the last site stays served)")
	})
	if !exists(page("editors/zed/index.html")) {
		t.Fatal("a failed build removed the site")
	}
	if err := os.Remove(taken); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "docs", "clients", "vscode.md")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, log, "the removed doc's page to go", func() bool { return !exists(page("clients/vscode/index.html")) })
	if !exists(page("editors/zed/index.html")) {
		t.Error("the rebuild after the fix lost the moved doc")
	}
}

// TestWatchSkills: the repository's skills (skills/, a section of the
// wiki) are followed as the docs are: an edit of a skill shows in its page,
// and a new skill gets one.
func TestWatchSkills(t *testing.T) {
	t.Parallel() // waits on Hugo and polls: see TestMain
	root := fixture(t)
	wave := filepath.Join(root, "skills", "wave", "SKILL.md")
	mcptest.WriteFile(t, wave, "---\nname: wave\ndescription: Wave at players who leave.\n---\n\n# Wave\n\nWave.\n")
	out := filepath.Join(t.TempDir(), "wiki")
	log, stop := startWatch(t, options(t, root), out)
	defer stop()
	page := func(rel string) string { return filepath.Join(out, filepath.FromSlash(rel), "index.html") }
	waitFor(t, log, "the first build", func() bool { return exists(page("skills/wave")) })

	mcptest.WriteFile(t, wave, mcptest.ReadFile(t, wave)+"\nWave twice at a friend.\n")
	waitFor(t, log, "the skill's edit", func() bool { return contains(page("skills/wave"), "Wave twice at a friend.") })

	mcptest.WriteFile(t, filepath.Join(root, "skills", "bow", "SKILL.md"), "---\nname: bow\ndescription: Bow to the admins of the server.\n---\n\n# Bow\n\nBow low.\n")
	waitFor(t, log, "the new skill's page", func() bool {
		return contains(page("skills/bow"), "Bow low.") && contains(page("skills"), "Bow to the admins of the server.")
	})
}

// readWhole checks, until stopped, that the site at out is whole whenever
// it is there at all, as a server reading it during rebuilds would see it:
// its home page present and its search index complete JSON. On other
// systems than Linux the swap leaves out missing for an instant, so only
// Linux is held to it.
func readWhole(t *testing.T, out string) (stop func()) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	var problem string
	reads := 0
	go func() {
		defer wg.Done()
		for seen := false; ; {
			select {
			case <-quit:
				return
			default:
			}
			index, err := os.ReadFile(filepath.Join(out, searchDir, searchManifest))
			if err != nil && !seen {
				time.Sleep(time.Millisecond)
				continue // not built yet
			}
			seen = true
			reads++
			if err != nil || !json.Valid(index) {
				problem = "the search index was missing or cut: " + errString(err)
				return
			}
			if !exists(filepath.Join(out, "index.html")) {
				problem = "the home page was missing"
				return
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
		if problem != "" {
			t.Errorf("during rebuilds, after %d whole reads: %s", reads, problem)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "not valid JSON"
	}
	return err.Error()
}

func waitFor(t *testing.T, log *mcptest.Buffer, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited two minutes for %s; log:\n%s", what, log.String())
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func contains(path, text string) bool {
	b, err := os.ReadFile(path)
	return err == nil && strings.Contains(string(b), text)
}

func TestReplaceDir(t *testing.T) {
	for _, earlier := range []bool{true, false} {
		dir := t.TempDir()
		out := filepath.Join(dir, "wiki")
		if earlier {
			mcptest.WriteFile(t, filepath.Join(out, "old.html"), "old")
		}
		tmp := filepath.Join(dir, ".wiki-1")
		mcptest.WriteFile(t, filepath.Join(tmp, "new.html"), "new")

		if err := replaceDir(tmp, out); err != nil {
			t.Fatalf("replaceDir (earlier site: %t): %v", earlier, err)
		}
		if got := mcptest.ReadFile(t, filepath.Join(out, "new.html")); got != "new" {
			t.Errorf("earlier site %t: out holds %q, want the new site", earlier, got)
		}
		if exists(filepath.Join(out, "old.html")) {
			t.Errorf("earlier site %t: the old site's file is still in out", earlier)
		}
		// What replaceDir leaves beside out is at tmp, which the caller removes.
		if err := os.RemoveAll(tmp); err != nil {
			t.Fatal(err)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
			t.Errorf("earlier site %t: left %q", earlier, left)
		}
	}
}

func TestStampsChanges(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(t *testing.T, root string)
		want   []string
	}{
		{"nothing", func(*testing.T, string) {}, nil},
		{"an edited doc", func(t *testing.T, root string) {
			mcptest.WriteFile(t, filepath.Join(root, "docs", "getting-started.md"), "# Getting started\n\nShorter now.\n")
		}, []string{"docs/getting-started.md"}},
		{"a new doc in a new folder, and an image", func(t *testing.T, root string) {
			mcptest.WriteFile(t, filepath.Join(root, "docs", "new", "a.md"), "# A\n")
			mcptest.WriteFile(t, filepath.Join(root, "docs", "new", "a.svg"), "<svg/>")
		}, []string{"docs/new/a.md", "docs/new/a.svg"}},
		{"a removed folder", func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, "docs", "framework")); err != nil {
				t.Fatal(err)
			}
		}, []string{"docs/framework/advanced/priorities.md", "docs/framework/overview.md"}},
		{"the registry and the guide", func(t *testing.T, root string) {
			mcptest.WriteFile(t, filepath.Join(root, "framework", "mod_hooks.json"), `{"hooks":[]}`)
			if err := os.Remove(filepath.Join(root, "CONTRIBUTING.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"CONTRIBUTING.md", "framework/mod_hooks.json"}},
		{"an editor's hidden files, and files beside docs/", func(t *testing.T, root string) {
			mcptest.WriteFile(t, filepath.Join(root, "docs", ".getting-started.md.swp"), "x")
			mcptest.WriteFile(t, filepath.Join(root, "docs", ".cache", "a.md"), "x")
			mcptest.WriteFile(t, filepath.Join(root, "README.md"), "x")
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := fixture(t)
			before, err := stamps(root)
			if err != nil {
				t.Fatal(err)
			}
			// A time the edits cannot share, on file systems with coarse times.
			old := time.Now().Add(-time.Hour)
			for p := range before {
				if err := os.Chtimes(filepath.Join(root, p), old, old); err != nil {
					t.Fatal(err)
				}
			}
			if before, err = stamps(root); err != nil {
				t.Fatal(err)
			}
			c.change(t, root)
			after, err := stamps(root)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, before.changes(after)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
		})
	}

	if _, err := stamps(t.TempDir()); err == nil {
		t.Error("stamps of a tree without docs/ succeeded")
	}
}

// BenchmarkStamps is one poll of wiki watch over this repository's tree.
func BenchmarkStamps(b *testing.B) {
	root, err := repo.Root(".")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := stamps(root); err != nil {
			b.Fatal(err)
		}
	}
}

// startWatch runs Watch on opt into out, polling every 20 ms, and returns
// its log and a stop that ends it, failing the test if it ended with an
// error.
func startWatch(t *testing.T, opt Options, out string) (*mcptest.Buffer, func()) {
	t.Helper()
	log := &mcptest.Buffer{}
	opt.Progress = log
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Watch(ctx, opt, out, 20*time.Millisecond) }()
	return log, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Watch: %v", err)
		}
	}
}

// TestWatchEditRendersFew: an edit of one doc's text has Hugo render again
// that page and what shows it, not the pages that link to it. In a tree of
// docs that link to each other (a chain of 24, each to the next, and 12
// that link to the chain's last) the last is edited: when links were
// resolved by asking Hugo for their pages, every page of the chain and
// every page linking to it was rendered and published again (on a large
// tree, most of the site and most of an edit's wait).
func TestWatchEditRendersFew(t *testing.T) {
	t.Parallel() // waits on Hugo and polls: see TestMain
	root := fixture(t)
	const chain, linking = 24, 12
	for i := 1; i <= chain; i++ {
		text := fmt.Sprintf("# Chain %02d\n\nStep %d of the chain.\n", i, i)
		if i < chain {
			text += fmt.Sprintf("\nNext: [chain %02d](c%02d.md).\n", i+1, i+1)
		}
		mcptest.WriteFile(t, filepath.Join(root, "docs", "chain", fmt.Sprintf("c%02d.md", i)), text)
	}
	for i := 1; i <= linking; i++ {
		mcptest.WriteFile(t, filepath.Join(root, "docs", "linking", fmt.Sprintf("l%02d.md", i)),
			fmt.Sprintf("# Linking %02d\n\nSee [the last step](../chain/c%02d.md#chain-%02d).\n", i, chain, chain))
	}
	out := filepath.Join(t.TempDir(), "wiki")
	log, stop := startWatch(t, options(t, root), out)
	defer stop()
	last := fmt.Sprintf("chain/c%02d/index.html", chain)
	waitFor(t, log, "the first build", func() bool {
		return exists(filepath.Join(out, filepath.FromSlash(last))) && exists(filepath.Join(out, searchDir, searchManifest))
	})
	before := htmlFiles(t, out)

	// Written beside it and renamed over it, as many editors save: a poll
	// of a loaded machine can see a file written in place half written.
	doc := filepath.Join(root, "docs", "chain", fmt.Sprintf("c%02d.md", chain))
	mcptest.WriteFile(t, doc+".new", mcptest.ReadFile(t, doc)+"\nA line written while the wiki is watched.\n")
	if err := os.Rename(doc+".new", doc); err != nil {
		t.Fatal(err)
	}
	waitFor(t, log, "the edit", func() bool {
		return contains(filepath.Join(out, filepath.FromSlash(last)), "A line written while the wiki is watched.") &&
			indexHolds(out, "A line written while the wiki is watched.")
	})
	var written []string // pages published again: a new file, renamed over the old one
	for rel, fi := range htmlFiles(t, out) {
		if old, ok := before[rel]; !ok || !os.SameFile(old, fi) {
			written = append(written, rel)
		}
	}
	slices.Sort(written)
	// The page, its folder's page (which lists it with its summary), the
	// home's and the 404 page (both list the tree), and the pages that first
	// made the text every page shares (the sidebar, previous / next),
	// whichever those were: a few of the 53 pages.
	t.Logf("the edit published %d of %d pages again: %q", len(written), len(before), written)
	if !slices.Contains(written, last) || len(written) > 6 {
		t.Errorf("an edit of docs/chain/c%02d.md published %d of %d pages again, want it and at most 5 more: %q\nlog:\n%s",
			chain, len(written), len(before), written, log.String())
	}
}

// htmlFiles is every HTML page of the site at out, by slash path.
func htmlFiles(t *testing.T, out string) map[string]os.FileInfo {
	t.Helper()
	files := map[string]os.FileInfo{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".html" {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(out, p)
		files[filepath.ToSlash(rel)] = fi
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestWatchListsMatchBuild: after an edit, what wiki watch assembled in
// place (llms.txt, llms-full.txt from the pages' entries, the search index
// from the edited page's) is what a build of the tree makes: the same
// lists, byte for byte, the same excerpts, and each word in the same pages.
func TestWatchListsMatchBuild(t *testing.T) {
	t.Parallel() // waits on Hugo and polls: see TestMain
	root := fixture(t)
	out := filepath.Join(t.TempDir(), "wiki")
	log, stop := startWatch(t, options(t, root), out)
	defer stop()
	waitFor(t, log, "the first build", func() bool { return exists(filepath.Join(out, searchDir, searchManifest)) })

	gs := filepath.Join(root, "docs", "getting-started.md")
	const line = "Zanzibar quokkas were written while the wiki is watched."
	mcptest.WriteFile(t, gs, mcptest.ReadFile(t, gs)+"\n"+line+"\n")
	waitFor(t, log, "the edit in the lists and the index", func() bool {
		return contains(filepath.Join(out, fullFile), line) && indexHolds(out, line)
	})
	built := filepath.Join(t.TempDir(), "wiki")
	opt := options(t, root)
	opt.BrokenLinks = BrokenLinksWarn
	if _, err := Build(context.Background(), opt, built); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{llmsFile, fullFile} {
		if diff := cmp.Diff(mcptest.ReadFile(t, filepath.Join(built, f)), mcptest.ReadFile(t, filepath.Join(out, f))); diff != "" {
			t.Errorf("%s after an edit in watch, against a build's (-want +got):\n%s", f, diff)
		}
	}
	want, got := dirIndex(t, built), dirIndex(t, out)
	if diff := cmp.Diff(want.pages(t), got.pages(t)); diff != "" {
		t.Errorf("search excerpts after an edit in watch, against a build's (-want +got):\n%s", diff)
	}
	pagesOf := func(r *indexReader) map[string][]int {
		m := map[string][]int{}
		for term := range r.postings(t) {
			m[term] = r.pagesHolding(t, term)
		}
		return m
	}
	if diff := cmp.Diff(pagesOf(want), pagesOf(got)); diff != "" {
		t.Errorf("the pages of each word after an edit in watch, against a build's (-want +got):\n%s", diff)
	}
	if got := got.pagesHolding(t, "quokka"); len(got) != 1 {
		t.Errorf("quokka, the edit's word: pages %v, want one", got)
	}
}
