// Package idp runs a real OpenID provider in tests: panva's certified
// oidc-provider (mcp-server/testdata/idp/idp.mjs, the version pinned by its
// package-lock.json) as an organisation's authorization server, issuing
// JWT access tokens for docs-mcp through real grants.
//
// Without node and npm the calling test is skipped, except in CI
// (CI=true), where that is a failure (mcptest.NodePackages).
package idp

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// Clients the provider knows (see idp.mjs).
const (
	MachineClient   = "machine"    // client credentials; tokens signed RS256
	MachineESClient = "machine-es" // client credentials; tokens signed ES256
	machineSecret   = "machine-secret"
	cliClient       = "cli" // public; authorization code with PKCE
	cliRedirect     = "http://127.0.0.1/callback"
)

// Provider is a running oidc-provider.
type Provider struct {
	Issuer string
	// Keys are the private keys it signs with now: an RS256 and an ES256
	// key, each with a key id that changes on Rotate.
	Keys []jose.JSONWebKey

	t         testing.TB
	port      int
	resources []string
	scope     string
	dir       string
	stop      func()
	Log       *mcptest.Buffer // its stdout and stderr
	rotations int
}

// Start runs a provider on a free loopback port that issues tokens for the
// resources (their audience), with scope the scopes it knows besides
// openid (space-separated).
func Start(t testing.TB, resources []string, scope string) *Provider {
	t.Helper()
	dir := ScriptDir(t)
	mcptest.NodePackages(t, dir, "oidc-provider", "the test with a real OpenID provider")
	p := &Provider{t: t, port: FreePort(t), resources: resources, scope: scope, dir: dir, Log: &mcptest.Buffer{}}
	p.Issuer = fmt.Sprintf("http://127.0.0.1:%d", p.port)
	p.run()
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("oidc-provider output:\n%s", p.Log)
		}
	})
	return p
}

// Rotate restarts the provider with new keys on the same port: the old ones
// are withdrawn from its JWKS, as when an organisation revokes a key.
func (p *Provider) Rotate() {
	p.t.Helper()
	p.stop()
	p.rotations++
	p.run()
}

// Stop stops the provider before the test ends, as an issuer that goes
// down: its port then refuses connections.
func (p *Provider) Stop() { p.stop() }

func (p *Provider) run() {
	t := p.t
	t.Helper()
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p.Keys = []jose.JSONWebKey{
		{Key: rsaKey, KeyID: fmt.Sprintf("rs-%d", p.rotations), Algorithm: string(jose.RS256), Use: "sig"},
		{Key: ecKey, KeyID: fmt.Sprintf("es-%d", p.rotations), Algorithm: string(jose.ES256), Use: "sig"},
	}
	cfg, err := json.Marshal(map[string]any{
		"port": p.port, "issuer": p.Issuer, "resources": p.resources, "scope": p.scope,
		"jwks": jose.JSONWebKeySet{Keys: p.Keys},
	})
	if err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(t.TempDir(), "idp.json")
	if err := os.WriteFile(cfgFile, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(p.dir, "idp.mjs"), cfgFile)
	cmd.Stderr = p.Log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start oidc-provider: %v", err)
	}
	ready, exited := make(chan struct{}), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			fmt.Fprintln(p.Log, sc.Text())
			if strings.HasPrefix(sc.Text(), "ready ") {
				close(ready)
			}
		}
		cmd.Wait()
		close(exited)
	}()
	p.stop = func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("oidc-provider exited before it was ready:\n%s", p.Log)
	case <-time.After(30 * time.Second):
		p.stop()
		t.Fatalf("oidc-provider not ready after 30s:\n%s", p.Log)
	}
}

// ClientCredentials gets an access token for resource through the client
// credentials grant of client (MachineClient or MachineESClient), asking
// for scope (empty: none).
func (p *Provider) ClientCredentials(client, resource, scope string) string {
	p.t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {resource}}
	if scope != "" {
		form.Set("scope", scope)
	}
	req, _ := http.NewRequest(http.MethodPost, p.Issuer+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(client, machineSecret)
	return p.token(http.DefaultClient, req)
}

// AuthorizationCode gets an access token for resource as user through the
// authorization code grant with PKCE (S256), as the public client "cli":
// the authorization request, the provider's headless sign-in and consent
// (following its redirects with cookies, as a browser would), the code at
// the redirect URI, then the token request with the code verifier.
func (p *Provider) AuthorizationCode(user, resource, scope string) string {
	t := p.t
	t.Helper()
	verifier := rand.Text() + rand.Text()
	sum := sha256.Sum256([]byte(verifier))
	state := rand.Text()
	auth := p.Issuer + "/auth?" + url.Values{
		"client_id": {cliClient}, "response_type": {"code"}, "redirect_uri": {cliRedirect},
		"scope": {scope}, "resource": {resource}, "state": {state}, "login_hint": {user},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
	}.Encode()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			if strings.HasPrefix(req.URL.String(), cliRedirect) {
				return http.ErrUseLastResponse // the client's redirect URI: stop there
			}
			return nil
		}}
	resp, err := browser.Get(auth)
	if err != nil {
		t.Fatalf("authorization request: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), cliRedirect) {
		t.Fatalf("authorization request ended at %d %q, not the redirect URI:\n%s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	if loc.Query().Get("state") != state || loc.Query().Get("code") == "" {
		t.Fatalf("redirect %s: want a code and the state", loc.Redacted())
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {cliRedirect},
		"client_id": {cliClient}, "code_verifier": {verifier}, "resource": {resource}}
	req, _ := http.NewRequest(http.MethodPost, p.Issuer+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return p.token(browser, req)
}

// token sends a token request and returns the access token.
func (p *Provider) token(client *http.Client, req *http.Request) string {
	p.t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		p.t.Fatalf("token request: %v", err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		p.t.Fatalf("token request: %s %v %s: %s", resp.Status, err, tok.Error, tok.Description)
	}
	return tok.AccessToken
}

// Sign makes a token no grant of the provider would give (expired, for
// another issuer), signed with its current RS256 key, so that only the
// claims are wrong.
func (p *Provider) Sign(claims map[string]any) string {
	p.t.Helper()
	key := p.Keys[0]
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: key},
		(&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", key.KeyID))
	if err != nil {
		p.t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		p.t.Fatal(err)
	}
	return tok
}

// Claims are a token's claims, read without checking it (to make variants).
func Claims(t testing.TB, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT")
	}
	data, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// FreePort is a loopback port free now, for a server whose URL must be
// known before it starts (the audience of the tokens).
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := new(net.ListenConfig).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// ScriptDir is mcp-server/testdata/idp, for tests in any package.
func ScriptDir(t testing.TB) string {
	return filepath.Join(mcptest.RepoDir(t), "mcp-server", "testdata", "idp")
}
