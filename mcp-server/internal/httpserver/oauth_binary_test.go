package httpserver_test

// The real docs-mcp binary in OAuth resource-server mode against a real
// OpenID provider (oidc-provider, run by internal/idp): tokens from real
// grants, and every way a token must be refused.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/idp"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/tssdk"
)

const scope = "docs:read"

// oauthServer is docs-mcp in resource-server mode with the provider that
// issues its tokens.
type oauthServer struct {
	*proc
	idp      *idp.Provider
	base     string // http://127.0.0.1:PORT
	audience string // base + /mcp
}

func startOAuth(t *testing.T, args ...string) *oauthServer {
	t.Helper()
	base := fmt.Sprintf("http://127.0.0.1:%d", idp.FreePort(t))
	s := &oauthServer{base: base, audience: base + "/mcp"}
	s.idp = idp.Start(t, []string{s.audience, "https://other.example/mcp"}, scope+" docs:other")
	s.proc = start(t, nil, append([]string{"--listen", strings.TrimPrefix(base, "http://"),
		"--oauth-issuer", s.idp.Issuer, "--oauth-audience", s.audience, "--oauth-scopes", scope}, args...)...)
	return s
}

// post sends a JSON-RPC message to /mcp with token (none when empty).
func (s *oauthServer) post(t *testing.T, token, session, body string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.audience, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, data
}

// call connects mcp-go's client with token on protocol version and
// searches the docs; it reports what failed, if anything.
func call(t *testing.T, url, token, version string) (session string, err error) {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		return "", err
	}
	c := client.NewClient(tr, client.WithProtocolVersion(version))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		return "", err
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: "oauth-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		return "", fmt.Errorf("initialize: %w", err)
	}
	search := mcp.CallToolRequest{}
	search.Params.Name = "mod_search_docs"
	search.Params.Arguments = map[string]any{"query": "hook"}
	res, err := c.CallTool(ctx, search)
	if err != nil {
		return "", fmt.Errorf("search: %w", err)
	}
	if res.IsError {
		return "", fmt.Errorf("search: tool error %v", res.Content)
	}
	return c.GetSessionId(), nil
}

// TestOAuthResourceServer runs the binary with --oauth-issuer and
// --oauth-audience against the provider: metadata, the 401 shape, tokens
// from client credentials (RS256 and ES256) and from the authorization
// code grant with PKCE served through mcp-go's client, and a 401 for each
// bad token: another audience, expired, another issuer, a bad signature,
// alg none, and a key withdrawn by rotation.
func TestOAuthResourceServer(t *testing.T) {
	s := startOAuth(t)
	metaURL := s.base + "/.well-known/oauth-protected-resource/mcp"

	t.Run("metadata", func(t *testing.T) {
		want := map[string]any{
			"resource":                 s.audience,
			"authorization_servers":    []any{s.idp.Issuer},
			"scopes_supported":         []any{scope},
			"bearer_methods_supported": []any{"header"},
			"resource_name":            "docs-mcp",
		}
		// Only at the path built from the resource (RFC 9728 §3.1): the
		// bare path would name a resource other than the one its URL was
		// built from (TestOAuthMetadataPaths).
		for _, u := range []string{metaURL} {
			resp, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			err = json.NewDecoder(resp.Body).Decode(&got)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d %v", u, resp.StatusCode, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("GET %s (-want +got):\n%s", u, diff)
			}
		}
	})

	t.Run("401 without a token", func(t *testing.T) {
		resp, body := s.post(t, "", "", initialize)
		want := fmt.Sprintf(`Bearer scope=%q, resource_metadata=%q`, scope, metaURL)
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("%d WWW-Authenticate %q\nwant 401 %q (%s)", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want, body)
		}
		for _, path := range []string{"/health", "/metrics"} { // open, as documented
			resp, err := http.Get(s.base + path)
			if err != nil || resp.StatusCode != 200 {
				t.Errorf("GET %s without a token: %v %v", path, resp.Status, err)
			}
			resp.Body.Close()
		}
	})

	machine := s.idp.ClientCredentials(idp.MachineClient, s.audience, scope)
	t.Run("valid tokens served", func(t *testing.T) {
		for name, tok := range map[string]string{
			"client credentials, RS256":          machine,
			"client credentials, ES256":          s.idp.ClientCredentials(idp.MachineESClient, s.audience, scope),
			"authorization code with PKCE (bob)": s.idp.AuthorizationCode("bob", s.audience, scope),
		} {
			for _, version := range []string{"2025-06-18", "2026-07-28"} {
				if _, err := call(t, s.audience, tok, version); err != nil {
					t.Errorf("%s on %s: %v", name, version, err)
				}
			}
		}
		if log := s.stderr.String(); !strings.Contains(log, `"subject":"bob"`) || !strings.Contains(log, `"subject":"machine"`) {
			t.Errorf("the access log names no subject bob and machine:\n%s", log)
		}
	})

	claims := idp.Claims(t, machine)
	with := func(k string, v any) map[string]any {
		c := map[string]any{}
		for k, v := range claims {
			c[k] = v
		}
		c[k] = v
		return c
	}
	parts := strings.Split(machine, ".")
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		t.Fatal(err)
	}
	sig[10] ^= 1 // one bit of the signature
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"at+jwt"}`)) + "." + parts[1] + "."

	for _, tc := range []struct{ name, token, reason string }{
		{"another audience", s.idp.ClientCredentials(idp.MachineClient, "https://other.example/mcp", scope), "it is not for this resource (aud)"},
		{"expired", s.idp.Sign(with("exp", time.Now().Add(-5*time.Minute).Unix())), "it has expired (exp)"},
		{"another issuer", s.idp.Sign(with("iss", "https://evil.example")), "it is from another issuer (iss)"},
		{"bad signature", parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(sig), "its signature does not verify"},
		{"alg none", none, `algorithm 'none' is not accepted (asymmetric signatures only)`},
	} {
		t.Run("401 "+tc.name, func(t *testing.T) {
			resp, body := s.post(t, tc.token, "", initialize)
			want := fmt.Sprintf(`Bearer error="invalid_token", error_description=%q, scope=%q, resource_metadata=%q`, tc.reason, scope, metaURL)
			if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
				t.Errorf("%d %q\nwant 401 %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
			}
			if strings.Contains(string(body), tc.token[:40]) {
				t.Error("the answer repeats the token")
			}
		})
	}

	t.Run("403 without the scope", func(t *testing.T) {
		tok := s.idp.ClientCredentials(idp.MachineClient, s.audience, "docs:other")
		resp, _ := s.post(t, tok, "", initialize)
		want := fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, scope, metaURL)
		if resp.StatusCode != 403 || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("%d %q\nwant 403 %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
	})

	t.Run("a session belongs to its subject", func(t *testing.T) {
		alice := s.idp.AuthorizationCode("alice", s.audience, scope)
		resp, _ := s.post(t, alice, "", initialize)
		id := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != 200 || id == "" {
			t.Fatalf("initialize as alice: %d, session %q", resp.StatusCode, id)
		}
		list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
		if resp, _ := s.post(t, machine, id, list); resp.StatusCode != 404 {
			t.Errorf("alice's session with machine's token: %d, want 404", resp.StatusCode)
		}
		if resp, body := s.post(t, alice, id, list); resp.StatusCode != 200 {
			t.Errorf("alice's session with her token: %d %s", resp.StatusCode, body)
		}
	})

	t.Run("a withdrawn key refused after rotation", func(t *testing.T) {
		s.idp.Rotate()
		// docs-mcp fetches keys for an unknown key id at most once a
		// second; make sure that second has passed since its last fetch.
		time.Sleep(1100 * time.Millisecond)
		fresh := s.idp.ClientCredentials(idp.MachineClient, s.audience, scope)
		if _, err := call(t, s.audience, fresh, "2026-07-28"); err != nil {
			t.Fatalf("a token signed with the new key: %v", err)
		}
		resp, _ := s.post(t, machine, "", initialize)
		want := fmt.Sprintf(`Bearer error="invalid_token", error_description="it is signed with a key the issuer does not publish (kid)", scope=%q, resource_metadata=%q`, scope, metaURL)
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("the token signed with the withdrawn key: %d %q\nwant 401 %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
	})

	if log := s.stderr.String(); strings.Contains(log, parts[2]) || strings.Contains(log, "eyJ") {
		t.Errorf("a token appears in docs-mcp's log")
	}
	for _, line := range strings.Split(s.stderr.String(), "\n") {
		if strings.Contains(line, "subject") || strings.Contains(line, "refused") || strings.Contains(line, "oauth") {
			t.Log(line)
		}
	}
}

// TestOAuthTypeScriptClient lets the official TypeScript SDK client's
// OAuth support (testdata/tsclient/oauth.mjs) find its way from the 401 to
// a tool call: resource_metadata from WWW-Authenticate, the Protected
// Resource Metadata, the provider's metadata, dynamic client registration,
// the authorization request with PKCE and the resource, the code (the
// headless sign-in is the script's), the token, and a search.
func TestOAuthTypeScriptClient(t *testing.T) {
	s := startOAuth(t)
	var got struct {
		UnauthorizedFirst, RegisteredClient bool
		Authorization                       struct {
			CodeChallengeMethod, Resource, Scope string
			HasCodeChallenge, ClientID           bool
		}
		RedirectHops int
		TokenType    string
		Search       struct {
			IsError bool
			Matches int
		}
		Protocol string
		Requests []string
	}
	out := tssdk.RunScript(t, "oauth.mjs", s.audience)
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("oauth.mjs: %v: %s", err, out)
	}
	t.Logf("TypeScript SDK OAuth flow, %d redirects at the provider, protocol %s; its requests:\n%s",
		got.RedirectHops, got.Protocol, strings.Join(got.Requests, "\n"))

	switch {
	case !got.UnauthorizedFirst || !got.RegisteredClient:
		t.Errorf("401 first %v, registered %v", got.UnauthorizedFirst, got.RegisteredClient)
	case got.Authorization.CodeChallengeMethod != "S256" || !got.Authorization.HasCodeChallenge || !got.Authorization.ClientID:
		t.Errorf("authorization request %+v: want PKCE S256 and the registered client", got.Authorization)
	case got.Authorization.Resource != s.audience || got.Authorization.Scope != scope:
		t.Errorf("authorization request for %q with scope %q; want %q, %q", got.Authorization.Resource, got.Authorization.Scope, s.audience, scope)
	case !strings.EqualFold(got.TokenType, "bearer") || got.Search.IsError || got.Search.Matches == 0:
		t.Errorf("token type %q, search %+v", got.TokenType, got.Search)
	}
	// The order that shows discovery from the 401: refused, then the
	// metadata named in WWW-Authenticate, then the provider.
	want := []string{
		"POST " + s.audience + " 401",
		"GET " + s.base + "/.well-known/oauth-protected-resource/mcp 200",
		"POST " + s.idp.Issuer + "/reg 201",
		"POST " + s.idp.Issuer + "/token 200",
		"POST " + s.audience + " 200",
	}
	i := 0
	for _, r := range got.Requests {
		if i < len(want) && r == want[i] {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("the SDK's requests lack %q in this order after %q:\n%s", want[i], want[:i], strings.Join(got.Requests, "\n"))
	}
	if !strings.Contains(s.stderr.String(), `"subject":"alice"`) {
		t.Error("docs-mcp's access log names no subject for the SDK's requests")
	}
}
