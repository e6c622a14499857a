package httpserver

import (
	"io"
	"net/http"
	"testing"
)

// BenchmarkPost measures what the HTTP path costs one request of a live
// session (2025-06-18): the guard, mcp-go's handler and the answer, over
// a loopback connection, for a ping and for a tools/call whose tool does
// little work, so that the transport's share shows.
//
//	go test -run '^$' -bench Post -benchmem ./mcp-server/internal/httpserver
func BenchmarkPost(b *testing.B) {
	f := newFixture(b, nil)
	session := f.initialize(b, nil)
	do(b, f.rpc(b, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	for _, bc := range []struct{ name, body string }{
		{"ping", `{"jsonrpc":"2.0","id":7,"method":"ping"}`},
		{"tools-call", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mod_read_doc","arguments":{"path":"index.md","start_line":1,"end_line":2}}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := http.DefaultClient.Do(f.rpc(b, session, bc.body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("status %d", res.StatusCode)
				}
			}
		})
	}
}
