package httpserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/idp"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestOAuthSubjects checks, with tokens from a real OpenID provider, that
// a tool handler sees the token's subject through oauth.Subject (what a
// per-subject limit keys by), and that one subject cannot hold more than
// its share of sessions: at --max-sessions-per-subject its own idle
// session makes room, and when all of its sessions are busy it gets 429
// while another subject is still served.
func TestOAuthSubjects(t *testing.T) {
	const audience = "https://docs.example.com/mcp"
	provider := idp.Start(t, []string{audience}, "docs:read")
	verifier := verifierOf(t, provider.Issuer, audience)
	root, _ := filepath.Abs(testRoot)
	_, mcpSrv, o := parts(t, root, 0)
	mcpSrv.AddTool(mcp.NewTool("whoami"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		subject, ok := oauth.Subject(ctx)
		if !ok {
			return mcp.NewToolResultError("no subject"), nil
		}
		return mcp.NewToolResultText(subject), nil
	})
	o.OAuth, o.MaxSessionsPerSubject = verifier, 2
	f := serve(t, New(o.Config, o.Parts), mcpSrv)

	alice := provider.AuthorizationCode("alice", audience, "docs:read")
	bob := provider.AuthorizationCode("bob", audience, "docs:read")
	auth := func(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }

	for _, version := range []string{mcp.ProtocolVersion20250618, "2026-07-28"} {
		c := f.connect(t, version, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + alice}))
		req := mcp.CallToolRequest{}
		req.Params.Name = "whoami"
		res, err := c.CallTool(context.Background(), req)
		if err != nil || res.IsError || mcp.GetTextFromContent(res.Content[0]) != "alice" {
			t.Errorf("whoami on %s: %v %+v; want alice", version, err, res)
		}
		c.Close() // mcp-go's client sends DELETE without its headers: the session stays
	}
	held := func(subject string) int {
		f.srv.sessions.mu.Lock()
		defer f.srv.sessions.mu.Unlock()
		return f.srv.sessions.heldLocked(subject)
	}
	for _, id := range f.srv.sessions.ids() {
		f.srv.sessions.Terminate(id)
	}

	// Two sessions of alice, each with an open GET stream: busy.
	a1, a2 := f.initialize(t, auth(alice)), f.initialize(t, auth(alice))
	ctx, closeStreams := context.WithCancel(context.Background())
	defer closeStreams()
	for _, id := range []string{a1, a2} {
		req := f.stream(t, id).WithContext(ctx)
		req.Header.Set("Authorization", "Bearer "+alice)
		req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion20250618)
		go func() {
			if res, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, res.Body) // until the stream is closed
				res.Body.Close()
			}
		}()
		mcptest.Eventually(t, "alice's stream open", func() bool { return f.srv.sessions.streamOpen(id) })
	}
	req := f.rpc(t, "", initializeBody)
	req.Header.Set("Authorization", "Bearer "+alice)
	if res := do(t, req); res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") == "" {
		t.Errorf("alice's third session with two busy: %d %s; want 429 with Retry-After", res.status, res.body)
	}
	f.initialize(t, auth(bob)) // bob is not held back by alice

	// Idle again, alice's third session makes room by ending one of hers.
	closeStreams()
	mcptest.Eventually(t, "streams closed", func() bool { return !f.srv.sessions.streamOpen(a1) && !f.srv.sessions.streamOpen(a2) })
	f.initialize(t, auth(alice))
	gone := 0
	for _, id := range []string{a1, a2} {
		req := f.rpc(t, id, toolsListBody)
		req.Header.Set("Authorization", "Bearer "+alice)
		if do(t, req).status == http.StatusNotFound {
			gone++
		}
	}
	if gone != 1 || held("alice") != 2 || held("bob") != 1 {
		t.Errorf("%d of alice's first two sessions ended; alice holds %d, bob %d; want 1 ended, 2 and 1", gone, held("alice"), held("bob"))
	}
}

// TestOAuthIssuerDown checks that a token that cannot be checked (the
// issuer is unreachable) gets 503, and that the answer does not carry the
// network error, which the log keeps.
func TestOAuthIssuerDown(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	issuer := down.URL
	down.Close()
	verifier, err := oauth.New(oauthConfig(issuer, "https://docs.example.com/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(o *setup) { o.OAuth = verifier })
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	token, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: issuer, Subject: "alice"}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	req := f.rpc(t, "", initializeBody)
	req.Header.Set("Authorization", "Bearer "+token)
	res := do(t, req)
	if res.status != http.StatusServiceUnavailable || res.header.Get("Retry-After") == "" {
		t.Errorf("%d %s; want 503 with Retry-After", res.status, res.body)
	}
	if strings.Contains(string(res.body), strings.TrimPrefix(issuer, "http://")) {
		t.Errorf("the answer names the issuer's address: %s", res.body)
	}
}

// TestOAuthChallengeCORS checks that a browser client at an origin listed
// in AllowedOrigins can read the 401's WWW-Authenticate, which tells it
// where to get a token.
func TestOAuthChallengeCORS(t *testing.T) {
	verifier, err := oauth.New(oauthConfig("https://idp.example", "https://docs.example.com/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	const origin = "https://app.example"
	f := newFixture(t, func(o *setup) { o.OAuth, o.AllowedOrigins = verifier, []string{origin} })
	req := f.rpc(t, "", initializeBody)
	req.Header.Set("Origin", origin)
	res := do(t, req)
	if res.status != http.StatusUnauthorized || res.header.Get("Access-Control-Allow-Origin") != origin ||
		res.header.Get("Access-Control-Expose-Headers") != "WWW-Authenticate" || !strings.Contains(res.header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Errorf("%d %v; want 401 readable from %s", res.status, res.header, origin)
	}
}

// oauthConfig is oauth.DefaultConfig for issuer and audience.
// verifierOf is a verifier of the issuer's access tokens for audience.
func verifierOf(t *testing.T, issuer, audience string) *oauth.Verifier {
	t.Helper()
	verifier, err := oauth.New(oauthConfig(issuer, audience))
	if err != nil {
		t.Fatal(err)
	}
	return verifier
}

// initializeAs posts an initialize with token as its bearer token.
func (f *fixture) initializeAs(t *testing.T, token string) result {
	t.Helper()
	req := f.rpc(t, "", initializeBody)
	req.Header.Set("Authorization", "Bearer "+token)
	return do(t, req)
}

func oauthConfig(issuer, audience string) oauth.Config {
	cfg := oauth.DefaultConfig()
	cfg.Issuer, cfg.Audience = issuer, audience
	return cfg
}
