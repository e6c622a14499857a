package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

const audience = "https://docs.example.com/mcp"

// issuer is an authorization server's discovery document and key set on a
// local listener; its keys can be replaced, as an issuer rotating them,
// and its key set can hang (see hang).
type issuer struct {
	srv       *httptest.Server
	mu        sync.Mutex
	published []jose.JSONWebKey
	gate      chan struct{} // when set, GET /jwks waits for it to close
	jwksGets  atomic.Int32
}

// hang makes GET /jwks wait, without answering, until the returned
// function is called (or the request ends); a test calls it before it
// ends, since closing the server waits for the requests in progress.
func (is *issuer) hang() (release func()) {
	gate := make(chan struct{})
	is.mu.Lock()
	is.gate = gate
	is.mu.Unlock()
	return sync.OnceFunc(func() {
		is.mu.Lock()
		is.gate = nil
		is.mu.Unlock()
		close(gate)
	})
}

func newIssuer(t testing.TB, keys ...jose.JSONWebKey) *issuer {
	is := &issuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": is.srv.URL, "jwks_uri": is.srv.URL + "/jwks"})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		is.jwksGets.Add(1)
		is.mu.Lock()
		gate := is.gate
		is.mu.Unlock()
		if gate != nil {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		is.mu.Lock()
		defer is.mu.Unlock()
		var set jose.JSONWebKeySet
		for _, k := range is.published {
			set.Keys = append(set.Keys, k.Public())
		}
		json.NewEncoder(w).Encode(set)
	})
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	is.publish(keys...)
	return is
}

func (is *issuer) publish(keys ...jose.JSONWebKey) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.published = keys
}

func rsaKey(t testing.TB, kid string) jose.JSONWebKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return jose.JSONWebKey{Key: k, KeyID: kid, Algorithm: string(jose.RS256), Use: "sig"}
}

func ecKey(t testing.TB, kid string) jose.JSONWebKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return jose.JSONWebKey{Key: k, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"}
}

// sign makes an access token (typ at+jwt) of claims with key.
func sign(t testing.TB, key jose.JSONWebKey, claims any) string {
	t.Helper()
	return signTyped(t, key, claims, "at+jwt")
}

// signTyped makes a JWT of claims with key and the header typ ("": none).
func signTyped(t testing.TB, key jose.JSONWebKey, claims any, typ string) string {
	t.Helper()
	opts := &jose.SignerOptions{}
	if typ != "" {
		opts = opts.WithType(jose.ContentType(typ))
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(key.Algorithm), Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// unsigned makes a token with header alg "none" or HS256 by hand: go-jose
// will not sign either for a public-key issuer.
func handMade(t testing.TB, alg, kid string, claims any, secret []byte) string {
	enc := base64.RawURLEncoding
	h, _ := json.Marshal(map[string]string{"alg": alg, "kid": kid, "typ": "JWT"})
	c, _ := json.Marshal(claims)
	signing := enc.EncodeToString(h) + "." + enc.EncodeToString(c)
	if secret == nil {
		return signing + "."
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: secret}, nil)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := signer.Sign([]byte(c))
	if err != nil {
		t.Fatal(err)
	}
	compact, _ := jws.CompactSerialize()
	return signing + "." + compact[strings.LastIndex(compact, ".")+1:]
}

func claimsFor(iss string, now time.Time, extra map[string]any) map[string]any {
	c := map[string]any{
		"iss": iss, "sub": "alice", "aud": []string{audience, "https://other.example"},
		"exp": now.Add(time.Hour).Unix(), "iat": now.Unix(), "nbf": now.Unix(),
		"scope": "openid docs:read", "client_id": "cli",
	}
	for k, v := range extra {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

func TestVerify(t *testing.T) {
	rs, es, other := rsaKey(t, "rs1"), ecKey(t, "es1"), rsaKey(t, "rs1") // other: same kid, not published
	is := newIssuer(t, rs, es)
	now := time.Now()
	v, err := New(testConfig(is.srv.URL, audience, "docs:read"))
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := x509.MarshalPKIXPublicKey(rs.Public().Key)
	c := func(extra map[string]any) map[string]any { return claimsFor(is.srv.URL, now, extra) }
	valid := sign(t, rs, c(nil))
	tampered := valid[:strings.LastIndex(valid, ".")] + "." + sign(t, other, c(nil))[strings.LastIndex(valid, ".")+1:]

	for _, tc := range []struct {
		name, token string
		want        error  // nil: valid
		reason      string // in the error
	}{
		{"RS256", valid, nil, ""},
		{"ES256", sign(t, es, c(nil)), nil, ""},
		{"scp as a list (Okta)", sign(t, es, c(map[string]any{"scope": nil, "scp": []string{"docs:read"}})), nil, ""},
		{"scp as a string (Entra ID)", sign(t, es, c(map[string]any{"scope": nil, "scp": "docs:read x"})), nil, ""},
		{"within the leeway after exp", sign(t, rs, c(map[string]any{"exp": now.Add(-10 * time.Second).Unix()})), nil, ""},
		{"empty", "", ErrNoToken, ""},
		{"opaque", "2YotnFZFEjr1zCsicMWpAA", ErrInvalidToken, "opaque tokens are not accepted"},
		{"alg none", handMade(t, "none", "rs1", c(nil), nil), ErrInvalidToken, `algorithm "none" is not accepted`},
		{"HS256 keyed with the public key", handMade(t, "HS256", "rs1", c(nil), pub), ErrInvalidToken, `algorithm "HS256" is not accepted`},
		{"bad signature", tampered, ErrInvalidToken, "signature does not verify"},
		{"signed by another key", sign(t, rsaKey(t, "nobody"), c(nil)), ErrInvalidToken, "key the issuer does not publish"},
		{"another audience", sign(t, rs, c(map[string]any{"aud": "https://other.example/mcp"})), ErrInvalidToken, "not for this resource (aud)"},
		{"another issuer", sign(t, rs, c(map[string]any{"iss": "https://evil.example"})), ErrInvalidToken, "another issuer (iss)"},
		{"expired", sign(t, rs, c(map[string]any{"exp": now.Add(-time.Minute).Unix()})), ErrInvalidToken, "expired (exp)"},
		{"not yet valid", sign(t, rs, c(map[string]any{"nbf": now.Add(time.Minute).Unix()})), ErrInvalidToken, "not valid yet (nbf)"},
		{"no exp", sign(t, rs, c(map[string]any{"exp": nil})), ErrInvalidToken, "no expiry"},
		{"no sub", sign(t, rs, c(map[string]any{"sub": nil})), ErrInvalidToken, "no subject"},
		{"claims of the wrong type", sign(t, rs, c(map[string]any{"exp": "tomorrow"})), ErrInvalidToken, "claims are not"},
		{"without the scope", sign(t, rs, c(map[string]any{"scope": "openid"})), ErrInsufficientScope, "docs:read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok, err := v.Verify(context.Background(), tc.token)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				if tok.Subject != "alice" || !strings.Contains(strings.Join(tok.Scopes, " "), "docs:read") {
					t.Errorf("token %+v: want subject alice with docs:read", tok)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("Verify: %v; want %v saying %q", err, tc.want, tc.reason)
			}
			if tc.token != "" && strings.Contains(err.Error(), tc.token[:min(len(tc.token), 20)]) {
				t.Errorf("the error repeats the token: %v", err)
			}
		})
	}
}

// TestKeyRotation checks that keys are fetched once and cached, fetched
// again for a token naming a new key id (at most once a second), and that
// a key the issuer withdrew is refused after that.
func TestKeyRotation(t *testing.T) {
	old, next := rsaKey(t, "old"), ecKey(t, "new")
	is := newIssuer(t, old)
	now := time.Now()
	clock := now
	cfg := testConfig(is.srv.URL, audience)
	cfg.Now = func() time.Time { return clock }
	v, _ := New(cfg)
	ctx := context.Background()
	oldTok, newTok := sign(t, old, claimsFor(is.srv.URL, now, nil)), sign(t, next, claimsFor(is.srv.URL, now, nil))
	for range 3 {
		if _, err := v.Verify(ctx, oldTok); err != nil {
			t.Fatal(err)
		}
	}
	if n := is.jwksGets.Load(); n != 1 {
		t.Fatalf("keys fetched %d times for 3 tokens; want once", n)
	}

	is.publish(next) // rotation: the old key is withdrawn
	if _, err := v.Verify(ctx, newTok); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("a new key id within a second of the last fetch: %v; want refused without a fetch", err)
	}
	if n := is.jwksGets.Load(); n != 1 {
		t.Fatalf("keys fetched %d times; want no new fetch within a second", n)
	}
	clock = clock.Add(minRefresh)
	if _, err := v.Verify(ctx, newTok); err != nil {
		t.Fatalf("the new key after rotation: %v", err)
	}
	if _, err := v.Verify(ctx, oldTok); !errors.Is(err, ErrInvalidToken) || !strings.Contains(err.Error(), "does not publish") {
		t.Fatalf("the withdrawn key: %v; want refused", err)
	}
	if n := is.jwksGets.Load(); n != 2 {
		t.Fatalf("keys fetched %d times; want 2", n)
	}

	// Keys older than KeysMaxAge are fetched again even when every token
	// names a known key.
	// The token that finds them old is checked with them, while they are
	// fetched beside it.
	clock = clock.Add(DefaultConfig().KeysMaxAge + time.Second)
	if _, err := v.Verify(ctx, sign(t, next, claimsFor(is.srv.URL, clock, nil))); err != nil {
		t.Fatal(err)
	}
	mcptest.Eventually(t, "the keys fetched a third time after KeysMaxAge", func() bool { return is.jwksGets.Load() == 3 })
}

func TestDiscoveryErrors(t *testing.T) {
	is := newIssuer(t, rsaKey(t, "k"))
	for _, tc := range []struct{ issuer, want string }{
		{is.srv.URL + "/", "names issuer"}, // a trailing slash is another issuer
		{is.srv.URL + "/tenant", "404"},
	} {
		v, _ := New(testConfig(tc.issuer, audience))
		_, err := v.Discover(context.Background())
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Discover(%s): %v; want ErrUnavailable saying %q", tc.issuer, err, tc.want)
		}
	}
}

func TestChallenge(t *testing.T) {
	v, _ := New(testConfig("https://idp.example", audience, "docs:read"))
	meta := `resource_metadata="https://docs.example.com/.well-known/oauth-protected-resource/mcp"`
	for _, tc := range []struct {
		err    error
		header string
	}{
		{ErrNoToken, `Bearer scope="docs:read", ` + meta},
		{invalid(`it has expired (exp)`), `Bearer error="invalid_token", error_description="it has expired (exp)", scope="docs:read", ` + meta},
		{invalid(`algorithm "x\"y" is not accepted`), `Bearer error="invalid_token", error_description="algorithm 'x''y' is not accepted", scope="docs:read", ` + meta},
		{ErrInsufficientScope, `Bearer error="insufficient_scope", scope="docs:read", ` + meta},
		{ErrUnavailable, ""},
	} {
		if header := v.Challenge(tc.err); header != tc.header {
			t.Errorf("Challenge(%v) = %s\nwant %s", tc.err, header, tc.header)
		}
	}
	if diff := cmp.Diff([]string{MetadataPath + "/mcp"}, v.MetadataPaths()); diff != "" {
		t.Errorf("MetadataPaths (-want +got):\n%s", diff)
	}
}

// BenchmarkVerify is the cost of checking one token per request once the
// issuer's keys are cached: parse, signature, claims.
func BenchmarkVerify(b *testing.B) {
	for _, key := range []jose.JSONWebKey{rsaKey(b, "rs"), ecKey(b, "es")} {
		b.Run(key.Algorithm, func(b *testing.B) {
			is := newIssuer(b, key)
			v, _ := New(testConfig(is.srv.URL, audience, "docs:read"))
			tok := sign(b, key, claimsFor(is.srv.URL, time.Now(), nil))
			ctx := context.Background()
			if _, err := v.Verify(ctx, tok); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.Verify(ctx, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestIssuerDown checks that without the issuer's keys a token is not
// judged: ErrUnavailable, also for a second token within the second after
// a failed fetch (not "unknown key").
func TestIssuerDown(t *testing.T) {
	key := rsaKey(t, "k")
	is := newIssuer(t, key)
	url := is.srv.URL
	is.srv.Close()
	v, _ := New(testConfig(url, audience))
	if _, err := v.Discover(context.Background()); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Discover: %v; want ErrUnavailable", err)
	}
	tok := sign(t, key, claimsFor(url, time.Now(), nil))
	for range 2 {
		if _, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Verify with the issuer down: %v; want ErrUnavailable", err)
		}
	}
}

// TestAccessTokenType: with RequireAccessTokenType, only a JWT typed as an
// access token (RFC 9068: at+jwt, or application/at+jwt, in any case)
// passes; without it, the type is not looked at.
func TestAccessTokenType(t *testing.T) {
	key := ecKey(t, "k")
	is := newIssuer(t, key)
	claims := claimsFor(is.srv.URL, time.Now(), nil)
	typed := func(typ string) string { return signTyped(t, key, claims, typ) }
	for _, require := range []bool{true, false} {
		cfg := testConfig(is.srv.URL, audience)
		cfg.RequireAccessTokenType = require
		v, _ := New(cfg)
		for typ, accessToken := range map[string]bool{"at+jwt": true, "application/at+jwt": true, "AT+JWT": true, "JWT": false, "": false, "jwt+at": false} {
			_, err := v.Verify(t.Context(), typed(typ))
			switch {
			case (accessToken || !require) && err != nil:
				t.Errorf("require %v, typ %q: %v; want accepted", require, typ, err)
			case !accessToken && require && (!errors.Is(err, ErrInvalidToken) || !strings.Contains(err.Error(), "not typed as an access token")):
				t.Errorf("require %v, typ %q: %v; want refused as not typed as an access token", require, typ, err)
			}
		}
	}
}

// testConfig is DefaultConfig for issuer and audience, with scopes.
func testConfig(issuer, audience string, scopes ...string) Config {
	cfg := DefaultConfig()
	cfg.Issuer, cfg.Audience, cfg.Scopes = issuer, audience, scopes
	return cfg
}
