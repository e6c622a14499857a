package docs

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestNearestFindsTheBest checks the path index against ranking every
// path: for paths a client might mistype (a letter dropped, changed or
// doubled, the wrong folder, the wrong case), the first suggestion scores
// as well as the best of all the docs.
func TestNearestFindsTheBest(t *testing.T) {
	var all []*Doc
	for i := range 3000 {
		p, _ := corpusgen.ShapedFile(corpusgen.Small, 1, i)
		all = append(all, &Doc{Path: p})
	}
	snap := newSnapshot(1, all, nil)
	ctx := context.Background()
	for i := 0; i < len(all); i += mcptest.UnderRace(37, 370) {
		p := snap.Docs()[i].Path
		k := len(p) / 2
		for _, miss := range []string{
			p[:k] + p[k+1:],
			p[:k] + "q" + p[k+1:],
			p[:k] + p[k:k+1] + p[k:],
			"elsewhere/" + path.Base(p),
			strings.ToUpper(p[:k]) + p[k:] + "x",
		} {
			if _, ok := snap.Lookup(miss); ok {
				continue
			}
			t.Run(fmt.Sprint(miss), func(t *testing.T) {
				got := snap.Nearest(ctx, miss, 5)
				if len(got) != 5 {
					t.Fatalf("Nearest = %v, want 5 paths", got)
				}
				want := strings.ToLower(miss)
				base := path.Base(want)
				best := nearness(want, base, got[0])
				for _, d := range all {
					if score := nearness(want, base, d.Path); score < best {
						t.Fatalf("Nearest(%q) = %v: %s scores %d, but %s scores %d", miss, got, got[0], best, d.Path, score)
					}
				}
			})
		}
	}
}

func TestNearestStopsWhenCancelled(t *testing.T) {
	snap := newSnapshot(1, []*Doc{{Path: "server/tools.md"}, {Path: "guide/intro.md"}}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	if got := snap.Nearest(ctx, "tool.md", 5); len(got) != 2 {
		t.Errorf("Nearest = %v, want both paths", got)
	}
	cancel()
	if got := snap.Nearest(ctx, "tool.md", 5); got != nil {
		t.Errorf("Nearest after cancel = %v, want nil", got)
	}
	_, err := snap.Doc(ctx, "tool.md")
	if err == nil || strings.Contains(err.Error(), "nearest") {
		t.Errorf("Doc after cancel: %v, want a not-found error without suggestions", err)
	}
}
