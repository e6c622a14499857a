package mcpserver

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docsmap"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// TestDocsMapLive: docs://map is listed, names every doc, is the map the
// prompt carries, and a subscriber hears of a doc added and reads it in
// the map; a session not subscribed hears nothing of the map.
func TestDocsMapLive(t *testing.T) {
	l := startLive(t, watch.Auto)
	sub, other := l.connect(t), l.connect(t)
	if !slices.Contains(sub.listed(t), mapURI) {
		t.Fatalf("resources/list lacks %s: %v", mapURI, sub.listed(t))
	}
	text, err := sub.read(t, mapURI)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range l.corpus.Snapshot().Docs() {
		if !strings.Contains(text, "- "+d.Path+":") {
			t.Errorf("the map lacks %s:\n%s", d.Path, text)
		}
	}
	req := mcp.GetPromptRequest{}
	req.Params.Name = moddingContextName
	prompt, err := sub.c.GetPrompt(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := prompt.Messages[0].Content.(mcp.TextContent).Text; !strings.Contains(got, text) {
		t.Errorf("the prompt does not carry the map:\n%s", got)
	}

	sub.subscribe(t, mapURI)
	writeFile(t, l.docs, "modding/ocelot.md", "# Ocelots\n\nOcelots climb trees.\n\n## Feeding\n\nFish.\n")
	sub.await(t, updated+mapURI)
	text, err = sub.read(t, mapURI)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "- modding/ocelot.md: Ocelots climb trees.\n  #feeding\n") {
		t.Errorf("the map after the edit lacks the new doc:\n%s", text)
	}
	for _, n := range other.await(t, listChanged) {
		if n == updated+mapURI {
			t.Errorf("a session not subscribed got %s", n)
		}
	}
}

// TestDocsMapSubscribedUnread: a subscriber that never read the map hears
// of its change too (the server writes the map on a change only when it
// was read or someone subscribed to it).
func TestDocsMapSubscribedUnread(t *testing.T) {
	l := startLive(t, watch.Auto)
	sub := l.connect(t)
	sub.subscribe(t, mapURI)
	writeFile(t, l.docs, "modding/lynx.md", "# Lynxes\n\nLynxes have tufted ears.\n")
	sub.await(t, updated+mapURI)
	if text, err := sub.read(t, mapURI); err != nil || !strings.Contains(text, "- modding/lynx.md: Lynxes have tufted ears.\n") {
		t.Errorf("the map after the edit: %v\n%s", err, text)
	}
}

// largeTree writes a data root whose docs are too many for the map to
// name each: areas of topics, each with a reference folder holding an
// includes folder of one fragment; every doc of a folder links to the
// folder's x-hub.md, and to the next area's hub, so that the hubs are the
// docs most linked to; the even areas have an index.md.
func largeTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{}
	doc := func(p, title, body string) {
		files["docs/"+p] = "# " + title + "\n\n" + body + "\n\n## Details\n\nMore.\n"
	}
	const areas = 16
	for a := range areas {
		area := fmt.Sprintf("area-%02d/", a)
		next := fmt.Sprintf("../area-%02d/x-hub.md", (a+1)%areas)
		if a%2 == 0 {
			doc(area+"index.md", fmt.Sprintf("Area %d", a), "Where area "+strconv.Itoa(a)+" starts.")
		}
		doc(area+"x-hub.md", fmt.Sprintf("Hub of area %d", a), "The hub.")
		for i := range 20 + 10*a {
			doc(fmt.Sprintf("%stopic-%03d.md", area, i), fmt.Sprintf("Topic %d of area %d", i, a),
				"See [the hub](x-hub.md) and [the next area](<"+next+">).")
		}
		ref := area + "reference/"
		doc(ref+"x-hub.md", fmt.Sprintf("Reference of area %d", a), "The reference hub.")
		for i := range 50 + 5*a {
			doc(fmt.Sprintf("%sentry-%03d.md", ref, i), fmt.Sprintf("Entry %d of area %d", i, a),
				"See [the hub](./x-hub.md#details), [the area's](../x-hub.md) and [!INCLUDE[note](includes/note.md)].")
		}
		doc(ref+"includes/note.md", "note", "A fragment.")
	}
	mcptest.WriteTree(t, root, files)
	return root
}

// TestDocsMapLargeTree: on a tree too large to name every doc, the map
// fills its budget with folder lines and the docs that stand for each
// folder. Every folder line's path, as written, is a prefix that lists
// as many docs as the line says; a folder's first doc is its index page,
// else its hub (the doc most linked to in it); the one-fragment includes
// folders are folded into their parents. A prefix taken from a folder's
// name alone lists nothing and names the folders it may mean.
func TestDocsMapLargeTree(t *testing.T) {
	mcptest.SkipUnderRace(t, "one client reading the map of a large generated tree")
	c := newClient(t, largeTree(t))
	req := mcp.ReadResourceRequest{}
	req.Params.URI = mapURI
	res, err := c.ReadResource(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Contents[0].(mcp.TextResourceContents).Text
	defer func() {
		if t.Failed() {
			t.Logf("the map, %d bytes:\n%s", len(text), text)
		}
	}()
	if budget := docsmap.DefaultBytes; len(text) > budget || len(text) < budget*9/10 {
		t.Errorf("the map is %d bytes: not within 90%% to 100%% of its budget of %d", len(text), budget)
	}
	heading := regexp.MustCompile(`^## (\S+/) \((\d+) docs?(?:, (\d+) more folders?)?\)$`)
	var folders []string
	first := map[string]string{} // folder: the first doc under its line
	folder := ""
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		if m := heading.FindStringSubmatch(line); m != nil {
			folder = m[1]
			folders = append(folders, folder)
			listed, _ := paths(t, c, folder)
			if n, _ := strconv.Atoi(m[2]); n != len(listed) {
				t.Errorf("%q: mod_list_doc_paths lists %d docs with prefix %s", line, len(listed), folder)
			}
			if strings.HasSuffix(folder, "/includes/") {
				t.Errorf("%q: a folder of one fragment has a line of its own", line)
			}
			continue
		}
		if p, ok := strings.CutPrefix(line, "- "); ok && folder != "" && first[folder] == "" {
			first[folder], _, _ = strings.Cut(p, ":")
		}
	}
	if len(folders) < 16 {
		t.Errorf("%d folder lines; the 16 areas have a line each at least", len(folders))
	}
	for _, f := range folders {
		want := f + "x-hub.md"
		if a, _ := strconv.Atoi(strings.TrimPrefix(strings.TrimSuffix(f, "/"), "area-")); !strings.Contains(f, "reference") && a%2 == 0 {
			want = f + "index.md"
		}
		if first[f] != want {
			t.Errorf("the first doc under %s is %q, want %s", f, first[f], want)
		}
	}
	if !strings.Contains(text, "\n## area-15/reference/ (127 docs, 1 more folder)\n") {
		t.Errorf("area-15/reference/'s line does not say it holds a folder more")
	}

	out, msg := mcptest.CallOK[ListDocPathsOutput](t, c, "mod_list_doc_paths", map[string]any{"prefix": "reference/includes/"})
	if len(out.Paths) != 0 || len(out.DidYouMean) != 10 || out.DidYouMean[0] != (FolderEntry{Path: "area-00/reference/includes/", Docs: 1}) {
		t.Errorf("prefix reference/includes/: %+v", out)
	}
	if !strings.Contains(msg, "No doc path starts with \"reference/includes/\"; these prefixes list docs:\narea-00/reference/includes/  (1 doc)\n") {
		t.Errorf("prefix reference/includes/: the text does not name the folders:\n%s", msg)
	}
}
