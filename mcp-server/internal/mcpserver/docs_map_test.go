package mcpserver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

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
