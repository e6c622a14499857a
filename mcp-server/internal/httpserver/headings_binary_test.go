package httpserver_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestHostileHeadings runs the real binary on a doc of "# Same" and
// 100,000 "## Remarks" with one line of text after them, and checks that
// a search for that line and a read of a section the doc does not have
// each cost at most 20 ms of the server's CPU (read from /proc), with the
// answers a client needs: the line's heading trail and anchor, and the
// doc's headings listed in the read's error. Numbering the repeats as
// Hugo does, trying -1, -2, … from 1 each time, cost minutes of CPU per
// call at this size.
func TestHostileHeadings(t *testing.T) {
	if testing.Short() || mcptest.Race {
		t.Skip("its subject is the binary's CPU; skipped with -short and -race")
	}
	const headings = 100_000
	root := t.TempDir()
	var doc strings.Builder
	doc.WriteString("# Same\n")
	for range headings {
		doc.WriteString("## Remarks\n")
	}
	doc.WriteString("zqxjvwk the one line under the remarks\n")
	mcptest.WriteFile(t, filepath.Join(root, "docs", "same.md"), doc.String())
	mcptest.WriteFile(t, filepath.Join(root, "docs", "index.md"), "# Index\n\nSee same.md.\n")
	p := start(t, nil, "--data-root", root)
	waitUntil(t, "the docs loaded", func() bool { return health(t, p).Docs == 2 })
	last := cpuOf(t, p)
	waitUntil(t, "the server idle after the start-up", func() bool {
		time.Sleep(time.Second)
		now := cpuOf(t, p)
		idle := now-last <= 20*time.Millisecond
		last = now
		return idle
	})
	url := "http://" + p.addr + "/mcp"
	sid := rawSession(t, p)
	for _, tc := range []struct {
		name, tool, args, want string
	}{
		{"search for the line", "mod_search_docs", `{"query":"zqxjvwk the one line"}`, fmt.Sprintf("#remarks-%d", headings-1)},
		{"read of an unknown section", "mod_read_doc", `{"path":"same.md","section":"no such section"}`, fmt.Sprintf("and %d more", headings+1-200)},
	} {
		const calls = 20
		cpu := cpuOf(t, p)
		for i := range calls {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i+2, tc.tool, tc.args)
			answered := make(chan string, 1)
			go func() {
				status, b, _, err := post(url, sid, body)
				answered <- fmt.Sprintf("%d %v %s", status, err, b)
			}()
			select {
			case got := <-answered:
				if !strings.HasPrefix(got, "200 <nil>") || !strings.Contains(got, tc.want) {
					t.Fatalf("%s: %.300s; want 200 with %q", tc.name, got, tc.want)
				}
			case <-time.After(mcptest.Deadline):
				t.Fatalf("%s: no answer after %s", tc.name, mcptest.Deadline)
			}
		}
		used := cpuOf(t, p) - cpu
		t.Logf("%s in a doc of %d identical headings: server CPU %s for %d calls, %s a call", tc.name, headings, used, calls, used/calls)
		if per := used / calls; per > 20*time.Millisecond {
			t.Errorf("%s cost %s of CPU each, want at most 20ms", tc.name, per)
		}
	}
}
