package httpserver

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/idp"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestOAuthSessionOfAnotherSubject checks, with tokens from a real OpenID
// provider, that bob presenting alice's live session id gets exactly the
// answer of an id that names no session, for POST, GET and DELETE: the
// same status, type and bytes, so a token holder cannot tell whether a
// leaked id is live.
func TestOAuthSessionOfAnotherSubject(t *testing.T) {
	const audience = "https://docs.example.com/mcp"
	provider := idp.Start(t, []string{audience}, "docs:read")
	verifier := verifierOf(t, provider.Issuer, audience)
	f := newFixture(t, func(o *setup) { o.OAuth = verifier })
	alice := provider.AuthorizationCode("alice", audience, "docs:read")
	bob := provider.AuthorizationCode("bob", audience, "docs:read")
	live := f.initialize(t, http.Header{"Authorization": {"Bearer " + alice}})
	ended := f.initialize(t, http.Header{"Authorization": {"Bearer " + bob}})
	f.srv.sessions.Terminate(ended)

	answer := func(method, id string) result {
		var req *http.Request
		switch method {
		case http.MethodPost:
			req = f.rpc(t, id, toolsListBody)
		case http.MethodGet:
			req = f.stream(t, id)
		default:
			req = f.rpc(t, id, "")
			req.Method = method
		}
		req.Header.Set("Authorization", "Bearer "+bob)
		return do(t, req)
	}
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		others := answer(method, live)
		for _, unknown := range []string{ended, "mcp-session-00000000-0000-4000-8000-000000000000"} {
			u := answer(method, unknown)
			if others.status != http.StatusNotFound || u.status != others.status || !bytes.Equal(u.body, others.body) ||
				u.header.Get("Content-Type") != others.header.Get("Content-Type") {
				t.Errorf("%s with alice's live session: %d %q %s\n%s with an id of no session: %d %q %s\nwant both 404, the same bytes",
					method, others.status, others.header.Get("Content-Type"), others.body, method, u.status, u.header.Get("Content-Type"), u.body)
			}
		}
	}
}

// TestOAuthEvictionLog: a session ended to make room at the subject's cap
// is logged with that cap, not the server's.
func TestOAuthEvictionLog(t *testing.T) {
	const audience = "https://docs.example.com/mcp"
	provider := idp.Start(t, []string{audience}, "docs:read")
	verifier := verifierOf(t, provider.Issuer, audience)
	var logs mcptest.Buffer
	f := newFixture(t, func(o *setup) {
		o.OAuth, o.MaxSessionsPerSubject = verifier, 1
		o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	alice := http.Header{"Authorization": {"Bearer " + provider.AuthorizationCode("alice", audience, "docs:read")}}
	f.initialize(t, alice)
	f.initialize(t, alice) // the first, idle, makes room
	var line string
	for l := range strings.SplitSeq(logs.String(), "\n") {
		if strings.Contains(l, "to make room") {
			line = l
		}
	}
	if !strings.Contains(line, "max_sessions_per_subject=1") || strings.Contains(line, "max_sessions=") {
		t.Errorf("the eviction at alice's cap is logged as %q; want max_sessions_per_subject=1", line)
	}
}
