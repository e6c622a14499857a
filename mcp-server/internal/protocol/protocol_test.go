package protocol

import (
	"errors"
	"testing"
)

// TestParse reads what the transports' checks need from each kind of
// message, and keeps a message whose params have a shape of their own for
// mcp-go to answer.
func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name, body      string
		err             error
		method, version string
		request         bool
		paramsErr       bool
	}{
		{name: "request", body: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"docs://a.md"}}`, method: "resources/read", request: true},
		{name: "modern", body: `{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, method: "tools/list", version: "2026-07-28", request: true},
		{name: "notification", body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, method: "notifications/initialized"},
		{name: "null id", body: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, method: "ping"},
		{name: "params of another shape", body: `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":5}}`, method: "resources/read", request: true, paramsErr: true},
		{name: "params not an object", body: `{"jsonrpc":"2.0","id":2,"method":"ping","params":[]}`, method: "ping", request: true, paramsErr: true},
		{name: "batch", body: ` [{"jsonrpc":"2.0","id":1,"method":"ping"}]`, err: ErrBatch},
		{name: "method not a string", body: `{"jsonrpc":"2.0","id":1,"method":5}`, err: ErrParse},
		{name: "not JSON", body: `{"jsonrpc":`, err: ErrParse},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse([]byte(tt.body))
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("Parse: %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if m.Method != tt.method || m.ProtocolVersion() != tt.version || m.IsRequest() != tt.request || (m.ParamsErr != nil) != tt.paramsErr {
				t.Errorf("method %q, version %q, request %v, params error %v; want %q, %q, %v, %v",
					m.Method, m.ProtocolVersion(), m.IsRequest(), m.ParamsErr, tt.method, tt.version, tt.request, tt.paramsErr)
			}
		})
	}
}

// TestError writes a JSON-RPC error response as clients read it.
func TestError(t *testing.T) {
	for _, tt := range []struct {
		id   string
		data any
		want string
	}{
		{"", nil, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no batches"}}`},
		{`"a"`, map[string]any{"uri": "x"}, `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"no batches","data":{"uri":"x"}}}`},
	} {
		if got := string(Error([]byte(tt.id), -32600, "no batches", tt.data)); got != tt.want {
			t.Errorf("Error(%s) = %s, want %s", tt.id, got, tt.want)
		}
	}
}

// TestMethod reads the method as mcp-go's decoder would (escapes decoded),
// and nothing from what is not a JSON object.
func TestMethod(t *testing.T) {
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`: "tools/call",
		`{"params":{"uri":"docs://a.md"},"method":"resources/\u0073ubscribe"}`: "resources/subscribe",
		`{"jsonrpc":"2.0","id":1,"result":{}}`:                                 "",
		`[{"method":"ping"}]`:                                                  "",
		`not json`:                                                             "",
		`{"method":7}`:                                                         "",
	} {
		if got := Method([]byte(body)); got != want {
			t.Errorf("Method(%s) = %q, want %q", body, got, want)
		}
	}
}
