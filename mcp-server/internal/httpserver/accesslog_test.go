package httpserver

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestAccessLog: one line per request at info, without headers (so without
// the token); a healthy /health only at debug.
func TestAccessLog(t *testing.T) {
	const token = "secret-token-for-the-log-test"
	var buf mcptest.Buffer
	f := newFixture(t, func(o *setup) {
		o.AuthToken = token
		o.Logger = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	get := func(path string) {
		req, _ := http.NewRequest(http.MethodGet, f.http.URL+path, nil)
		do(t, req)
	}
	get("/health")
	get("/wiki/")
	req := f.rpc(t, "", initializeBody)
	req.Header.Set("Authorization", "Bearer "+token)
	do(t, req)

	type line struct {
		Msg, Method, Path string
		Status            int
	}
	var got []line
	for l := range strings.Lines(buf.String()) {
		var entry line
		if err := json.Unmarshal([]byte(l), &entry); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if entry.Msg == "http" {
			got = append(got, line{Msg: entry.Msg, Method: entry.Method, Path: entry.Path, Status: entry.Status})
		}
	}
	want := []line{
		{Msg: "http", Method: "GET", Path: "/wiki/", Status: 200},
		{Msg: "http", Method: "POST", Path: "/mcp", Status: 200},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("access log (-want +got):\n%s", diff)
	}
	if strings.Contains(buf.String(), token) {
		t.Error("the bearer token is in the log")
	}
}
