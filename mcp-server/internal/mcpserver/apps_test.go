package mcpserver

import (
	"fmt"
	"path/filepath"
	"testing"
)

// appCalls are calls of the tools the docs reader app shows (apps.go), on
// the fixture repository, each named for its golden file.
var appCalls = []struct{ name, tool, args string }{
	{"read_doc", "mod_read_doc", `{"path":"guide/intro.md","section":"filters"}`},
	{"read_doc_title", "mod_read_doc", `{"path":"guide/intro.md"}`},
	{"get_hook", "mod_get_hook", `{"name":"player.joined"}`},
	{"search_docs", "mod_search_docs", `{"query":"handler"}`},
	{"ask_docs", "mod_ask_docs", `{"question":"how do I register a handler"}`},
	{"read_doc_error", "mod_read_doc", `{"path":"guide/nope.md"}`},
}

// TestAppLeavesAnswersAlone: the answers of the tools the app is attached
// to are the bytes a transport sent before the app existed (the golden
// files in testdata/apps were written by the server of the commit before
// it), to a host without Apps and to one that declares the extension
// alike: the app reads what every client gets, and adds nothing to it.
func TestAppLeavesAnswersAlone(t *testing.T) {
	answer := rawAnswer(t, newServer(t, fixtureRoot))
	const withApps = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}}`
	for _, c := range appCalls {
		t.Run(c.name, func(t *testing.T) {
			req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`
			plain := answer(fmt.Sprintf(req, c.tool, c.args, meta0728))
			golden(t, filepath.Join("apps", c.name+".json"), []byte(plain+"\n"))
			if ui := answer(fmt.Sprintf(req, c.tool, c.args, withApps)); ui != plain {
				t.Errorf("a host with Apps got another answer:\n%s\nwant, as a host without:\n%s", ui, plain)
			}
		})
	}
}
