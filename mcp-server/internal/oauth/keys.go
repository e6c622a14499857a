package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// minRefresh is the least time between two fetches of the keys that a token
// can cause (one naming an unknown key id): tokens with made-up key ids
// cannot make this server hammer the issuer.
const minRefresh = time.Second

// maxDocBytes bounds a discovery document or key set.
const maxDocBytes = 1 << 20

// keySet holds the issuer's signing keys: fetched through its discovery
// document at first use, again when older than maxAge, and when a token
// names a key id not in the set (the issuer rotated its keys), at most once
// per minRefresh.
type keySet struct {
	issuer string
	client *http.Client
	maxAge time.Duration
	now    func() time.Time

	mu      sync.Mutex // held during a fetch: concurrent checks wait for it
	jwksURI string
	keys    []jose.JSONWebKey
	fetched time.Time // when keys were fetched
	tried   time.Time // when a fetch was last tried
	err     error     // of the last try
}

func newKeySet(issuer string, client *http.Client, maxAge time.Duration, now func() time.Time) *keySet {
	return &keySet{issuer: issuer, client: client, maxAge: maxAge, now: now}
}

// find returns the keys a token signed with key id kid may verify against:
// the key with that id, or every key when the token names none. An empty
// result means the issuer does not publish such a key.
func (k *keySet) find(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := k.now()
	stale := k.fetched.IsZero() || now.Sub(k.fetched) > k.maxAge
	due := k.tried.IsZero() || now.Sub(k.tried) >= minRefresh
	if due && (stale || len(match(k.keys, kid)) == 0) {
		k.err = k.refreshLocked(ctx)
		// A failed refresh keeps the keys fetched before until the next
		// try: the issuer being down for a moment locks nobody out.
	}
	if k.fetched.IsZero() {
		return nil, k.err
	}
	return match(k.keys, kid), nil
}

// load fetches the discovery document and keys now.
func (k *keySet) load(ctx context.Context) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.err = k.refreshLocked(ctx)
	return k.jwksURI, k.err
}

func match(keys []jose.JSONWebKey, kid string) []jose.JSONWebKey {
	if kid == "" {
		return keys
	}
	for _, key := range keys {
		if key.KeyID == kid {
			return []jose.JSONWebKey{key}
		}
	}
	return nil
}

// refreshLocked fetches the keys, and the discovery document first if it
// was not fetched yet. The caller holds mu.
func (k *keySet) refreshLocked(ctx context.Context) error {
	k.tried = k.now()
	if k.jwksURI == "" {
		uri, err := discover(ctx, k.client, k.issuer)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		k.jwksURI = uri
	}
	keys, err := fetchKeys(ctx, k.client, k.jwksURI)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	k.keys, k.fetched = keys, k.now()
	return nil
}

// discover reads the issuer's metadata: OpenID Connect discovery
// (issuer + /.well-known/openid-configuration), else RFC 8414
// (/.well-known/oauth-authorization-server + the issuer's path). The
// document must name the same issuer.
func discover(ctx context.Context, client *http.Client, issuer string) (jwksURI string, err error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return "", fmt.Errorf("issuer %q: %v", issuer, err)
	}
	oidc := strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration"
	rfc8414 := u.Scheme + "://" + u.Host + "/.well-known/oauth-authorization-server" + strings.TrimSuffix(u.Path, "/")
	var doc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	err = getJSON(ctx, client, oidc, &doc)
	if errors.Is(err, errNotFound) {
		err = getJSON(ctx, client, rfc8414, &doc)
	}
	switch {
	case err != nil:
		return "", fmt.Errorf("discovery: %w", err)
	case doc.Issuer != issuer:
		return "", fmt.Errorf("discovery: the document names issuer %q, not %q (set --oauth-issuer to exactly the issuer its tokens carry)", doc.Issuer, issuer)
	case doc.JWKSURI == "":
		return "", errors.New("discovery: the document has no jwks_uri")
	}
	return doc.JWKSURI, nil
}

// fetchKeys reads a JWK set and keeps the public signing keys it can use;
// keys of other types or for encryption are skipped, not an error.
func fetchKeys(ctx context.Context, client *http.Client, uri string) ([]jose.JSONWebKey, error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := getJSON(ctx, client, uri, &set); err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	var keys []jose.JSONWebKey
	for _, raw := range set.Keys {
		var key jose.JSONWebKey
		if json.Unmarshal(raw, &key) != nil || key.Use == "enc" {
			continue
		}
		if !key.IsPublic() {
			key = key.Public()
		}
		if key.Valid() {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("keys: %s holds no signing key this server can use", uri)
	}
	return keys, nil
}

var errNotFound = errors.New("404 Not Found")

func getJSON(ctx context.Context, client *http.Client, uri string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("GET %s: %w", uri, errNotFound)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("GET %s: %s", uri, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxDocBytes)).Decode(v); err != nil {
		return fmt.Errorf("GET %s: %v", uri, err)
	}
	return nil
}
