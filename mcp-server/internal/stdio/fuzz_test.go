package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
)

// FuzzStdio writes any bytes, optionally after a valid initialize, into the
// stdio server as a client would, then closes its input: the same path as
// docs-mcp --stdio (Serve with the real MCP server), in process. It must
// return without error, write nothing to stdout but JSON-RPC 2.0 messages
// one per line, and answer every request it read (a line with a method and
// an id) before it stops.
func FuzzStdio(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"hooks"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mod_read_doc","arguments":{"path":"../go.work"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"docs://guide/intro.md"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"mod_modding_context"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":6,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`,
		`this is not json {`,
		"",
		"\n\n",
		"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"mod_search_docs\",\"arguments\":{\"query\":\"\xff\x00\"}}}",
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"mod_list_doc_paths","arguments":{"cursor":"eyJrIjoibGlzdCJ9"}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`{"jsonrpc":"2.0","id":11,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}`,
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}

	root := f.TempDir()
	served := stdioCorpus(f, root)
	log := slog.New(slog.DiscardHandler)

	f.Fuzz(func(t *testing.T, data []byte, initialize bool) {
		var in bytes.Buffer
		if initialize {
			in.WriteString(initLine + "\n")
		}
		in.Write(data)
		input := in.Bytes()

		var out bytes.Buffer
		// One server per run, as one per process: nothing a run leaves in
		// it reaches the next.
		if err := Serve(context.Background(), partsOf(log, stdioServer(served, root)), bytes.NewReader(input), &out, DefaultMaxLineBytes); err != nil {
			t.Fatalf("Serve: %v", err)
		}

		// A request the client cancels may go unanswered (it must, when
		// the cancellation comes before the answer).
		cancelled := map[string]bool{}
		for line := range bytes.Lines(input) {
			if e, err := protocol.Parse(line); err == nil && e.Method == "notifications/cancelled" {
				cancelled[idKey(e.Params.RequestID)] = true
			}
		}
		requests := 0
		for line := range bytes.Lines(input) {
			if e, err := protocol.Parse(line); isRequest(line) && err == nil && !cancelled[idKey(e.ID)] {
				requests++
			}
		}
		responses := 0
		for line := range bytes.Lines(out.Bytes()) {
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Method  string          `json:"method"`
			}
			if !bytes.HasSuffix(line, []byte("\n")) || json.Unmarshal(line, &msg) != nil || msg.JSONRPC != "2.0" {
				t.Fatalf("stdout carried something that is not a JSON-RPC 2.0 line: %q", line)
			}
			if msg.ID != nil && msg.Method == "" {
				responses++
			}
		}
		if responses < requests {
			t.Fatalf("%d requests, %d responses; input:\n%s\noutput:\n%s", requests, responses, input, out.Bytes())
		}
	})
}

// isRequest reports whether a client line is a JSON-RPC request: an object
// with a method and an id that is not null.
func isRequest(line []byte) bool {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	return json.Unmarshal(line, &msg) == nil && msg.Method != "" && msg.ID != nil && !bytes.Equal(msg.ID, []byte("null"))
}
