package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// The fixture's skill (mcpserver/testdata/skills).
const (
	greetSkill = "skill://greet-players/SKILL.md"
	greetHooks = "skill://greet-players/references/hooks.md"
)

// skillSubscriber is a real client of docs-mcp over stdio, serving a small
// repository with the fixture's skill, subscribed (2025-06-18,
// resources/subscribe) to the skill's SKILL.md and to a file of it; each
// notification it receives is sent on notes as its method and URI.
type skillSubscriber struct {
	c     *client.Client
	root  string // the data root
	notes chan string
}

func subscribeToSkill(tb testing.TB, root string) *skillSubscriber {
	tb.Helper()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "mcpserver", "testdata", "skills"))); err != nil {
		tb.Fatal(err)
	}
	c, err := client.NewStdioMCPClient("docs-mcp", nil, "--stdio", "--data-root", root, "--log-level", "warn")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	s := &skillSubscriber{c: c, root: root, notes: make(chan string, 1000)}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		name := n.Method
		if uri, ok := n.Params.AdditionalFields["uri"].(string); ok {
			name += " " + uri
		}
		s.notes <- name
	})
	if err := c.Start(context.Background()); err != nil {
		tb.Fatal(err)
	}
	mcptest.Initialize(tb, c, "2025-06-18", "skills-live-test")
	for _, uri := range []string{greetSkill, greetHooks} {
		req := mcp.SubscribeRequest{}
		req.Params.URI = uri
		if err := c.Subscribe(context.Background(), req); err != nil {
			tb.Fatalf("subscribe %s: %v", uri, err)
		}
	}
	return s
}

// save writes a file of the skills folder as an editor saves it: whole,
// then renamed over the old one.
func (s *skillSubscriber) save(tb testing.TB, rel, text string) {
	tb.Helper()
	p := filepath.Join(s.root, "skills", filepath.FromSlash(rel))
	mcptest.WriteFile(tb, p+".tmp", text)
	if err := os.Rename(p+".tmp", p); err != nil {
		tb.Fatal(err)
	}
}

// await waits for the notification want, and returns those received
// before it.
func (s *skillSubscriber) await(tb testing.TB, want string) []string {
	tb.Helper()
	var before []string
	timeout := time.After(mcptest.Deadline)
	for {
		select {
		case n := <-s.notes:
			if n == want {
				return before
			}
			before = append(before, n)
		case <-timeout:
			tb.Fatalf("no %s; received %q", want, before)
		}
	}
}

// TestStdioLiveSkills: a real client of docs-mcp over stdio, subscribed to
// a skill's SKILL.md and to a file of it, is told of an edit to the file on
// both URIs (the skill's entry, the file's digest, changed with it) and
// reads the new text; a skill added is a change of the resource list.
// BenchmarkStdioSkillEdit times the same edit.
func TestStdioLiveSkills(t *testing.T) {
	s := subscribeToSkill(t, repo(t))
	s.save(t, "greet-players/references/hooks.md", "# Hooks\n\nplayer.joined passes the player and first_join.\n")
	got := append(s.await(t, "notifications/resources/updated "+greetHooks), "notifications/resources/updated "+greetHooks)
	if !slices.Contains(got, "notifications/resources/updated "+greetSkill) {
		s.await(t, "notifications/resources/updated "+greetSkill)
	}
	read := mcp.ReadResourceRequest{}
	read.Params.URI = greetHooks
	res, err := s.c.ReadResource(t.Context(), read)
	if err != nil || !strings.Contains(res.Contents[0].(mcp.TextResourceContents).Text, "first_join") {
		t.Errorf("read %s after the edit: %v %v", greetHooks, res, err)
	}
	s.save(t, "wave/SKILL.md", "---\nname: wave\ndescription: Wave at players.\n---\n# Wave\n")
	s.await(t, "notifications/resources/list_changed")
}

// BenchmarkStdioSkillEdit measures, per edit, the time from saving a file
// of a skill to the moment a client of docs-mcp over stdio subscribed to it
// is told (notifications/resources/updated), with the server's default
// following (--watch auto: file events). It reports the median and 95th
// percentile as p50-ms and p95-ms:
//
//	go test -run '^$' -bench StdioSkillEdit -benchtime 50x ./mcp-server/internal/cli
func BenchmarkStdioSkillEdit(b *testing.B) {
	s := subscribeToSkill(b, benchRepo(b))
	var latencies []time.Duration
	i := 0
	for b.Loop() {
		i++
		start := time.Now()
		s.save(b, "greet-players/references/hooks.md", fmt.Sprintf("# Hooks\n\nEdit %d.\n", i))
		s.await(b, "notifications/resources/updated "+greetHooks)
		latencies = append(latencies, time.Since(start))
	}
	slices.Sort(latencies)
	pct := func(q float64) float64 {
		return float64(latencies[int(q*float64(len(latencies)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}

// benchRepo is repo's small repository, for a benchmark.
func benchRepo(b *testing.B) string {
	root := b.TempDir()
	for p, content := range map[string]string{
		"go.work":                  "go 1.26.0\n",
		"docs/index.md":            "# Home\n\nWelcome.\n",
		"framework/mod_hooks.json": `{"hooks": []}` + "\n",
	} {
		mcptest.WriteFile(b, filepath.Join(root, filepath.FromSlash(p)), content)
	}
	return root
}
