package httpserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/idp"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
)

// TestOAuthMetadataPaths checks where the Protected Resource Metadata is
// served: at the path RFC 9728 §3.1 builds from the resource identifier,
// with that identifier as its resource (§3.3), and not at the bare path
// when the resource has a path; and that a browser's CORS preflight for
// it is answered for any origin and the headers asked for.
func TestOAuthMetadataPaths(t *testing.T) {
	for _, tc := range []struct {
		audience, path, notServed string
	}{
		{"https://docs.example.com/mcp", oauth.MetadataPath + "/mcp", oauth.MetadataPath},
		{"https://docs.example.com/", oauth.MetadataPath, ""},
	} {
		verifier, err := oauth.New(oauthConfig("https://idp.example", tc.audience))
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, func(o *setup) { o.OAuth = verifier })
		base := strings.TrimSuffix(f.url, "/mcp")
		get := func(path string) result {
			req, _ := http.NewRequest(http.MethodGet, base+path, nil)
			return do(t, req)
		}
		res := get(tc.path)
		var meta oauth.Metadata
		if err := json.Unmarshal(res.body, &meta); res.status != http.StatusOK || err != nil || meta.Resource != tc.audience {
			t.Errorf("GET %s for %s: %d %s; want 200 naming the resource", tc.path, tc.audience, res.status, res.body)
		}
		if tc.notServed != "" {
			if res := get(tc.notServed); res.status != http.StatusNotFound {
				t.Errorf("GET %s for %s: %d %s; want 404, no document naming another resource", tc.notServed, tc.audience, res.status, res.body)
			}
		}

		req, _ := http.NewRequest(http.MethodOptions, base+tc.path, nil)
		req.Header.Set("Origin", "https://app.example")
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", "mcp-protocol-version")
		res = do(t, req)
		h := res.header
		if res.status != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "mcp-protocol-version") {
			t.Errorf("CORS preflight of %s: %d %v; want 204 allowing any origin, GET and mcp-protocol-version", tc.path, res.status, h)
		}
	}
}

// TestOAuthRequireAccessTokenType checks --oauth-require-at-jwt with a
// real OpenID provider: its access tokens, typed at+jwt, are served; a
// token signed with its key but typed JWT, as ID tokens are, gets 401
// saying why; without the option, that token is served.
func TestOAuthRequireAccessTokenType(t *testing.T) {
	const audience = "https://docs.example.com/mcp"
	provider := idp.Start(t, []string{audience}, "docs:read")
	real := provider.AuthorizationCode("alice", audience, "docs:read")
	key := provider.Keys[0]
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", key.KeyID))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	typedJWT, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: provider.Issuer, Subject: "alice", Audience: jwt.Audience{audience},
		Expiry: jwt.NewNumericDate(now.Add(time.Hour)), IssuedAt: jwt.NewNumericDate(now)}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	for _, require := range []bool{true, false} {
		cfg := oauthConfig(provider.Issuer, audience)
		cfg.RequireAccessTokenType = require
		verifier, err := oauth.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, func(o *setup) { o.OAuth = verifier })
		status := func(token string) result { return f.initializeAs(t, token) }
		if res := status(real); res.status != http.StatusOK {
			t.Errorf("require at+jwt %v: the provider's access token: %d %s", require, res.status, res.body)
		}
		res := status(typedJWT)
		switch {
		case require && (res.status != http.StatusUnauthorized || !strings.Contains(res.header.Get("WWW-Authenticate"), "not typed as an access token")):
			t.Errorf("require at+jwt: a token typed JWT: %d %q; want 401 saying it is not typed as an access token", res.status, res.header.Get("WWW-Authenticate"))
		case !require && res.status != http.StatusOK:
			t.Errorf("at+jwt not required: a token typed JWT: %d %s; want 200", res.status, res.body)
		}
	}
}
