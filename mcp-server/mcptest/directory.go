package mcptest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// DocsFolders browses the docs folder by folder through c, on revision
// rev, as a client of the Skills extension's resources/directory/read
// does: from root (docs:// for the working tree, docs-version://VERSION
// for a release), each folder's pages followed by their cursors, each
// folder listed read in turn. It checks what it read against docsDir on
// disk: each folder lists its Markdown files as text/markdown, each once,
// and its folders that hold Markdown as inode/directory, by their URIs
// (each path segment escaped), folders before files; every page carries
// the cache hints; a doc, a folder that does not exist and a trailing
// slash are -32602. On a revision before 2026-07-28, which negotiates no
// extension, the method is not found. It returns the number of pages read.
func DocsFolders(t testing.TB, c *client.Client, rev, root, docsDir string) int {
	t.Helper()
	if rev < mcp.ProtocolVersion20260728 {
		if _, rpcErr := Raw(t, c, rev, "resources/directory/read", map[string]any{"uri": root}); rpcErr == nil || rpcErr.Code != mcp.METHOD_NOT_FOUND {
			t.Errorf("%s: resources/directory/read %s answered %+v; want method not found", rev, root, rpcErr)
		}
		return 0
	}
	uriOf := func(rel string) string {
		segs := strings.Split(rel, "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		if strings.HasSuffix(root, "://") {
			return root + strings.Join(segs, "/")
		}
		return root + "/" + strings.Join(segs, "/")
	}
	// On disk: each folder's entries ("" is the docs folder), as URI and
	// MIME type, folders first.
	want := map[string][]string{"": nil}
	var files []string
	err := filepath.WalkDir(docsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		rel, _ := filepath.Rel(docsDir, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	folders := map[string]bool{"": true}
	for _, f := range files {
		for dir := path.Dir(f); dir != "." && !folders[dir]; dir = path.Dir(dir) {
			folders[dir] = true
		}
	}
	for dir := range folders {
		if dir != "" {
			parent := strings.TrimSuffix(path.Dir(dir), ".")
			want[parent] = append(want[parent], uriOf(dir)+" "+directoryMIME)
		}
	}
	for _, f := range files {
		parent := strings.TrimSuffix(path.Dir(f), ".")
		want[parent] = append(want[parent], uriOf(f)+" text/markdown")
	}
	for dir := range want {
		slices.SortFunc(want[dir], func(a, b string) int { // folders first, then by URI
			if fa, fb := strings.HasSuffix(a, directoryMIME), strings.HasSuffix(b, directoryMIME); fa != fb {
				if fa {
					return -1
				}
				return 1
			}
			return strings.Compare(a, b)
		})
	}

	got := map[string][]string{}
	pages := 0
	queue := []string{""}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		uri := root
		if dir != "" {
			uri = uriOf(dir)
		}
		got[dir] = []string{}
		for cursor := ""; ; {
			params := map[string]any{"uri": uri}
			if cursor != "" {
				params["cursor"] = cursor
			}
			raw, rpcErr := Raw(t, c, rev, "resources/directory/read", params)
			if rpcErr != nil {
				t.Fatalf("%s: resources/directory/read %s (cursor %q): %+v", rev, uri, cursor, rpcErr)
			}
			pages++
			var page struct {
				ResultType string         `json:"resultType"`
				Resources  []mcp.Resource `json:"resources"`
				NextCursor string         `json:"nextCursor"`
				TTLMs      *int64         `json:"ttlMs"`
				CacheScope string         `json:"cacheScope"`
			}
			if err := json.Unmarshal(raw, &page); err != nil {
				t.Fatalf("%s: resources/directory/read %s: %v: %s", rev, uri, err, raw)
			}
			if page.ResultType != "complete" || page.TTLMs == nil || page.CacheScope == "" {
				t.Errorf("%s: resources/directory/read %s: resultType %q, ttlMs %v, cacheScope %q; want complete and both cache hints", rev, uri, page.ResultType, page.TTLMs, page.CacheScope)
			}
			for _, r := range page.Resources {
				got[dir] = append(got[dir], r.URI+" "+r.MIMEType)
				if r.MIMEType == directoryMIME {
					sub, ok := strings.CutPrefix(r.URI, uriOf(""))
					unescaped, err := url.PathUnescape(sub)
					if !ok || err != nil {
						t.Fatalf("%s: %s lists %s, not a folder under %s", rev, uri, r.URI, root)
					}
					queue = append(queue, unescaped)
				}
				if r.Name == "" {
					t.Errorf("%s: %s lists %s without a name", rev, uri, r.URI)
				}
			}
			if cursor = page.NextCursor; cursor == "" {
				break
			}
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s: the docs' folders read from %s (-on disk +read):\n%s", rev, root, d)
	}
	refused := []string{root + "/", uriOf("no-such-folder")}
	if len(files) > 0 {
		refused = append(refused, uriOf(files[0]))
	}
	for _, uri := range refused {
		if _, rpcErr := Raw(t, c, rev, "resources/directory/read", map[string]any{"uri": uri}); rpcErr == nil || rpcErr.Code != mcp.INVALID_PARAMS {
			t.Errorf("%s: resources/directory/read %s: %+v; want -32602", rev, uri, rpcErr)
		}
	}
	return pages
}

const directoryMIME = "inode/directory"

// FolderDocs is how many docs ReleasedFolders writes into docs/many/, more
// than a page of resources/directory/read holds (500).
const FolderDocs = 600

// ReleasedFolders is Released(from, more...) with FolderDocs docs more in
// docs/many/ and one in docs/many/deep/: a folder read in two pages, and
// a folder in it.
func ReleasedFolders(t testing.TB, from string, more ...string) *GitRepo {
	t.Helper()
	extra := t.TempDir()
	for i := range FolderDocs {
		WriteFile(t, filepath.Join(extra, "docs", "many", fmt.Sprintf("page-%03d.md", i)), fmt.Sprintf("# Page %d\n\nOne of many.\n", i))
	}
	WriteFile(t, filepath.Join(extra, "docs", "many", "deep", "down.md"), "# Down\n\nDeep down.\n")
	return Released(t, from, append(more, extra)...)
}

// AwaitRelease waits until a release's folder is read rather than said to
// be loading, as a client asks again.
func AwaitRelease(t testing.TB, c *client.Client, rev, uri string) {
	t.Helper()
	Eventually(t, uri+" loaded", func() bool {
		_, rpcErr := Raw(t, c, rev, "resources/directory/read", map[string]any{"uri": uri})
		return rpcErr == nil || !strings.Contains(rpcErr.Message, "still loading")
	})
}
