package httpserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/idp"
)

// TestOAuthIssuerDownNewKey checks, with a real OpenID provider, the
// answer to a token signed with a key the server has not fetched when
// the provider cannot be reached: the provider rotates its keys and goes
// down. A token of the new key gets 503 with Retry-After (whether the
// issuer publishes its key cannot be told), not 401; a token of the key
// fetched before is still served.
func TestOAuthIssuerDownNewKey(t *testing.T) {
	const audience = "https://docs.example.com/mcp"
	provider := idp.Start(t, []string{audience}, "docs:read")
	verifier := verifierOf(t, provider.Issuer, audience)
	f := newFixture(t, func(o *setup) { o.OAuth = verifier })
	status := func(token string) result { return f.initializeAs(t, token) }
	before := provider.AuthorizationCode("alice", audience, "docs:read")
	if res := status(before); res.status != http.StatusOK {
		t.Fatalf("a token of the provider's key: %d %s", res.status, res.body)
	}
	fetched := time.Now()
	provider.Rotate()
	after := provider.AuthorizationCode("alice", audience, "docs:read")
	provider.Stop()
	// A token of an unknown key makes the server fetch the keys again at
	// most once a second: past that second, this one does.
	time.Sleep(time.Until(fetched.Add(time.Second)))

	if res := status(after); res.status != http.StatusServiceUnavailable || res.header.Get("Retry-After") == "" {
		t.Errorf("a token of the new key, the provider down: %d %s; want 503 with Retry-After", res.status, res.body)
	}
	if res := status(before); res.status != http.StatusOK {
		t.Errorf("a token of the key fetched before, the provider down: %d %s; want 200", res.status, res.body)
	}
}
