package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
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

// fetchTimeout bounds one fetch of the discovery document and keys,
// whatever the HTTP client's own timeout: while a fetch runs, tokens
// naming unknown keys wait for it, and no second one starts.
const fetchTimeout = 10 * time.Second

// logEvery is the least time between two log lines about failed fetches:
// an issuer down for an hour, with tokens arriving, is a line a minute
// (each counting the failures since the last), not one a second.
const logEvery = time.Minute

// maxDocBytes bounds a discovery document or key set.
const maxDocBytes = 1 << 20

// keySet holds the issuer's signing keys: fetched through its discovery
// document at first use, again when older than maxAge, and when a token
// names a key id not in the set (the issuer rotated its keys), at most once
// per minRefresh.
//
// No lock is held during a fetch, and a token whose key is in the set
// never waits for one: a fetch runs in a goroutine of its own, one at a
// time; the tokens that need it (an unknown key id, no keys yet) wait for
// that one fetch, each until its own request ends, and keys merely older
// than maxAge are used while a fresh set is fetched beside them. A key id
// anyone can make up (no signature is checked before the lookup) so costs
// at most one fetch a second and the wait of the tokens that name it,
// never the wait of a valid token.
type keySet struct {
	issuer string
	client *http.Client
	maxAge time.Duration
	now    func() time.Time
	log    *slog.Logger

	mu      sync.Mutex // guards the fields below; never held during a fetch
	jwksURI string
	keys    []jose.JSONWebKey
	fetched time.Time // when keys were fetched
	tried   time.Time // when a fetch was last started
	err     error     // of the last fetch
	flight  *flight   // the fetch running now, if any
	failed  int       // fetches failed since the last log line about them
	logged  time.Time // when a failed fetch was last logged
}

// flight is one fetch of the keys, which any number of callers may wait for.
type flight struct {
	done chan struct{} // closed when the fetch is over and its result is in the keySet
}

func newKeySet(issuer string, client *http.Client, maxAge time.Duration, now func() time.Time, log *slog.Logger) *keySet {
	return &keySet{issuer: issuer, client: client, maxAge: maxAge, now: now, log: log}
}

// find returns the keys a token signed with key id kid may verify against:
// the key with that id, or every key when the token names none. An empty
// result means the issuer does not publish such a key; ErrUnavailable,
// that whether it does cannot be told now (no keys fetched yet, or the
// fetch for an unknown kid failed).
func (k *keySet) find(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	k.mu.Lock()
	now := k.now()
	found := match(k.keys, kid)
	stale := k.fetched.IsZero() || now.Sub(k.fetched) > k.maxAge
	due := k.tried.IsZero() || now.Sub(k.tried) >= minRefresh
	if len(found) > 0 {
		if stale && due && k.flight == nil {
			k.startLocked(now) // for the next tokens: this one goes on with the keys at hand
		}
		k.mu.Unlock()
		return found, nil
	}
	f := k.flight
	if f == nil && due {
		f = k.startLocked(now)
	}
	if f == nil { // a fetch was tried less than minRefresh ago
		defer k.mu.Unlock()
		return nil, k.unknownLocked()
	}
	k.mu.Unlock()
	select {
	case <-f.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if found := match(k.keys, kid); len(found) > 0 {
		return found, nil
	}
	return nil, k.unknownLocked()
}

// unknownLocked is find's answer for a kid not in the keys after the last
// fetch: the fetch's error when it failed (the issuer may publish the key
// under a kid this server could not fetch), else none. The caller holds mu.
func (k *keySet) unknownLocked() error {
	if k.err != nil || k.fetched.IsZero() {
		return k.err
	}
	return nil
}

// load fetches the discovery document and keys now (or waits for the
// fetch running), and returns where the keys are.
func (k *keySet) load(ctx context.Context) (string, error) {
	k.mu.Lock()
	f := k.flight
	if f == nil {
		f = k.startLocked(k.now())
	}
	k.mu.Unlock()
	select {
	case <-f.done:
	case <-ctx.Done():
		return "", fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())
	}
	k.mu.Lock()
	defer k.mu.Unlock()
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

// startLocked starts a fetch of the keys, and of the discovery document
// first if it was not fetched yet. The caller holds mu.
func (k *keySet) startLocked(now time.Time) *flight {
	f := &flight{done: make(chan struct{})}
	k.flight, k.tried = f, now
	uri := k.jwksURI
	go func() {
		defer close(f.done)
		// The fetch is no request's: one that ends does not end it for
		// the others waiting.
		ctx, cancel := context.WithTimeout(context.Background(), fetchTimeout)
		defer cancel()
		keys, uri, err := fetch(ctx, k.client, k.issuer, uri)
		k.mu.Lock()
		defer k.mu.Unlock()
		k.flight = nil
		k.noteLocked(err)
		if err != nil {
			// The keys fetched before stay until the next fetch: the
			// issuer being down for a moment locks nobody out.
			k.err = fmt.Errorf("%w: %v", ErrUnavailable, err)
			return
		}
		k.jwksURI, k.keys, k.fetched, k.err = uri, keys, k.now(), nil
	}()
	return f
}

// noteLocked logs a fetch's failure, at most once per logEvery with the
// number of failures since the last line, and the first success after
// failures. The caller holds mu.
func (k *keySet) noteLocked(err error) {
	now := k.now()
	switch {
	case err != nil:
		k.failed++
		if k.logged.IsZero() || now.Sub(k.logged) >= logEvery {
			k.log.Warn("oauth: the issuer's keys cannot be fetched; a token naming a key not fetched before gets 503 until they can",
				"issuer", k.issuer, "err", err, "failed_fetches", k.failed)
			k.logged, k.failed = now, 0
		}
	case !k.logged.IsZero():
		k.log.Info("oauth: the issuer's keys are fetched again", "issuer", k.issuer, "failed_fetches_since_last_logged", k.failed)
		k.logged, k.failed = time.Time{}, 0
	}
}

// fetch reads the discovery document, unless jwksURI is known already,
// and the keys.
func fetch(ctx context.Context, client *http.Client, issuer, jwksURI string) ([]jose.JSONWebKey, string, error) {
	if jwksURI == "" {
		uri, err := discover(ctx, client, issuer)
		if err != nil {
			return nil, "", err
		}
		jwksURI = uri
	}
	keys, err := fetchKeys(ctx, client, jwksURI)
	if err != nil {
		return nil, "", err
	}
	return keys, jwksURI, nil
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
