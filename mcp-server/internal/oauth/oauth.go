// Package oauth makes docs-mcp an OAuth 2.1 resource server: it checks the
// access tokens an organisation's authorization server issues for it (JWTs
// signed with a key from the issuer's JWKS, naming this resource in aud) and
// describes itself in Protected Resource Metadata (RFC 9728), so that MCP
// clients find where to get a token.
//
// The cryptography is go-jose's; this package fetches the issuer's
// discovery document and keys, caches them, and checks the claims.
package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Algorithms are the signature algorithms accepted: asymmetric ones only.
// "none" and the HMAC algorithms (a key shared with the issuer) are refused.
var Algorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512,
	jose.EdDSA,
}

// Errors of Verify. A request without a token gets ErrNoToken; a token that
// fails a check wraps ErrInvalidToken with the reason; a valid token that
// lacks a required scope gets ErrInsufficientScope; when the issuer's keys
// cannot be had, ErrUnavailable. No error carries the token.
var (
	ErrNoToken           = errors.New("this server needs an OAuth access token: send Authorization: Bearer <token>")
	ErrInvalidToken      = errors.New("invalid access token")
	ErrInsufficientScope = errors.New("the access token lacks a required scope")
	ErrUnavailable       = errors.New("the authorization server's keys cannot be fetched now")
)

// Config configures a Verifier. Start from DefaultConfig: New uses every
// field as given.
type Config struct {
	Issuer   string   // the authorization server, exactly as its tokens' iss says
	Audience string   // this resource (the public MCP URL); tokens must name it in aud
	Scopes   []string // scopes every token must carry; none: any valid token
	// RequireAccessTokenType refuses a token whose JOSE header does not
	// say typ "at+jwt" (or "application/at+jwt"), the type RFC 9068 §2.1
	// gives JWT access tokens. Off by default: see Verify.
	RequireAccessTokenType bool
	// Leeway is the clock skew allowed between the issuer and this server
	// when exp, nbf and iat are checked.
	Leeway time.Duration
	// KeysMaxAge is how long the issuer's keys are used before they are
	// fetched again, so that a key the issuer withdrew stops working within
	// this time even if no token names a new key.
	KeysMaxAge time.Duration
	Client     *http.Client // for discovery and keys
	Now        func() time.Time
	// Logger gets a line when the issuer's keys cannot be fetched (at
	// most one a minute) and when they can again; nil discards them.
	Logger *slog.Logger
}

// DefaultConfig is a Verifier's configuration with every default; the
// issuer and the audience are left to set (empty: OAuth is off).
func DefaultConfig() Config {
	return Config{Leeway: 30 * time.Second, KeysMaxAge: 10 * time.Minute,
		Client: &http.Client{Timeout: 10 * time.Second}, Now: time.Now}
}

// Verifier checks access tokens. It is safe for concurrent use.
type Verifier struct {
	cfg  Config
	keys *keySet
}

// New returns a Verifier. It fetches nothing yet: the issuer's discovery
// document and keys are fetched at the first check (or by Discover) and
// cached.
func New(cfg Config) (*Verifier, error) {
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("oauth: an issuer and an audience are both needed")
	}
	v := &Verifier{cfg: cfg}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	v.keys = newKeySet(cfg.Issuer, cfg.Client, cfg.KeysMaxAge, cfg.Now, log)
	return v, nil
}

// Discover fetches the issuer's discovery document and keys now, and
// returns where the keys are. A server calls it at start to report a
// misconfigured issuer early; Verify would fetch them anyway.
func (v *Verifier) Discover(ctx context.Context) (jwksURI string, err error) {
	return v.keys.load(ctx)
}

// Token is what a valid access token says about its bearer.
type Token struct {
	Subject string // sub: the user, or the client for a client-credentials grant
	Scopes  []string
}

// claims are the fields of an access token read here (RFC 9068), with scp
// as Entra ID (a string) and Okta (a list) write it.
type claims struct {
	jwt.Claims
	Scope scopeList `json:"scope"`
	Scp   scopeList `json:"scp"`
}

// scopeList reads scopes given as one space-separated string or as a list.
type scopeList []string

func (s *scopeList) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*s = strings.Fields(one)
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return errors.New("scope is neither a string nor a list of strings")
	}
	*s = list
	return nil
}

// invalid is an ErrInvalidToken with its reason, which clients may see.
func invalid(reason string) error { return fmt.Errorf("%w: %s", ErrInvalidToken, reason) }

// Verify checks a bearer token: a JWT signed with one of the issuer's keys
// by an asymmetric algorithm, from the issuer, naming this resource in
// aud, within exp and nbf (and iat) give or take the leeway, with a
// subject, and carrying every required scope; with
// RequireAccessTokenType, typed at+jwt.
//
// The type is not required by default because many authorization servers
// in use type their JWT access tokens "JWT" or not at all (RFC 9068 came
// after them), and requiring it would lock their users out. What keeps
// another kind of JWT from the issuer, such as an ID token, from passing
// for an access token is then the audience: an ID token names the client
// it was issued to in aud, and passes only where that client's id is this
// resource's URL (and, with required scopes, only if it carries them,
// which ID tokens do not). An operator whose issuer types its access
// tokens at+jwt closes even that with --oauth-require-at-jwt.
func (v *Verifier) Verify(ctx context.Context, raw string) (Token, error) {
	if raw == "" {
		return Token{}, ErrNoToken
	}
	jws, err := jose.ParseSignedCompact(raw, Algorithms)
	if err != nil {
		return Token{}, invalid(parseReason(raw))
	}
	if v.cfg.RequireAccessTokenType && !accessTokenType(jws.Signatures[0].Header) {
		return Token{}, invalid(`it is not typed as an access token (typ "at+jwt", RFC 9068)`)
	}
	keys, err := v.keys.find(ctx, jws.Signatures[0].Header.KeyID)
	if err != nil {
		return Token{}, err
	}
	if len(keys) == 0 {
		return Token{}, invalid("it is signed with a key the issuer does not publish (kid)")
	}
	var payload []byte
	for _, k := range keys {
		if payload, err = jws.Verify(k.Key); err == nil {
			break
		}
	}
	if err != nil {
		return Token{}, invalid("its signature does not verify")
	}
	var c claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return Token{}, invalid("its claims are not a JSON object of the usual types")
	}
	err = c.ValidateWithLeeway(jwt.Expected{
		Issuer:      v.cfg.Issuer,
		AnyAudience: jwt.Audience{v.cfg.Audience},
		Time:        v.cfg.Now(),
	}, v.cfg.Leeway)
	switch {
	case errors.Is(err, jwt.ErrInvalidIssuer):
		return Token{}, invalid("it is from another issuer (iss)")
	case errors.Is(err, jwt.ErrInvalidAudience):
		return Token{}, invalid("it is not for this resource (aud)")
	case errors.Is(err, jwt.ErrExpired):
		return Token{}, invalid("it has expired (exp)")
	case errors.Is(err, jwt.ErrNotValidYet):
		return Token{}, invalid("it is not valid yet (nbf)")
	case errors.Is(err, jwt.ErrIssuedInTheFuture):
		return Token{}, invalid("it is issued in the future (iat)")
	case err != nil:
		return Token{}, invalid("its claims do not check")
	case c.Expiry == nil:
		return Token{}, invalid("it has no expiry (exp)")
	case c.Subject == "":
		return Token{}, invalid("it has no subject (sub)")
	}
	scopes := c.Scope
	if len(scopes) == 0 {
		scopes = c.Scp
	}
	for _, want := range v.cfg.Scopes {
		if !slices.Contains(scopes, want) {
			return Token{}, fmt.Errorf("%w: %s", ErrInsufficientScope, strings.Join(v.cfg.Scopes, " "))
		}
	}
	return Token{Subject: c.Subject, Scopes: scopes}, nil
}

// accessTokenType reports whether a JOSE header types its JWT as an access
// token: typ "at+jwt", or the full media type "application/at+jwt" (RFC
// 9068 §4), media types being case-insensitive.
func accessTokenType(h jose.Header) bool {
	typ, _ := h.ExtraHeaders[jose.HeaderType].(string)
	typ = strings.ToLower(typ)
	return typ == "at+jwt" || typ == "application/at+jwt"
}

// parseReason says why a token is not a signed JWT this server accepts,
// without repeating any of it.
func parseReason(raw string) string {
	header, _, ok := strings.Cut(raw, ".")
	if !ok || strings.Count(raw, ".") != 2 {
		return "not a signed JWT (opaque tokens are not accepted: configure the issuer to issue JWT access tokens)"
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if data, err := base64.RawURLEncoding.DecodeString(header); err == nil && json.Unmarshal(data, &h) == nil && h.Alg != "" {
		if !slices.Contains(Algorithms, jose.SignatureAlgorithm(h.Alg)) {
			return fmt.Sprintf("algorithm %q is not accepted (asymmetric signatures only)", clip(h.Alg))
		}
	}
	return "not a well-formed signed JWT"
}

// clip bounds a value from a token before it goes into an error.
func clip(s string) string {
	if len(s) > 16 {
		return s[:16] + "..."
	}
	return s
}

type subjectKey struct{}

// WithSubject returns ctx carrying the authenticated subject of a request.
func WithSubject(ctx context.Context, subject string) context.Context {
	return context.WithValue(ctx, subjectKey{}, subject)
}

// Subject is the authenticated subject (the token's sub) of the request
// whose context ctx is; ok is false when the request carried no token
// (resource-server mode is off).
func Subject(ctx context.Context) (subject string, ok bool) {
	subject, ok = ctx.Value(subjectKey{}).(string)
	return subject, ok && subject != ""
}
