package oauth

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestHangingKeySet: with the issuer's key set hanging, tokens naming
// made-up key ids (anyone can make one: no signature is checked before the
// lookup) wait for one shared fetch, while a valid token whose key is
// cached is answered at once; once the key set answers, the waiting
// tokens are refused as signed with a key the issuer does not publish.
func TestHangingKeySet(t *testing.T) {
	key := ecKey(t, "k")
	is := newIssuer(t, key)
	cfg := testConfig(is.srv.URL, audience)
	cfg.Client = &http.Client{} // no timeout of its own: a fetch lasts as long as the key set hangs
	now := time.Now()
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	cfg.Now = func() time.Time { return *clock.Load() }
	v, _ := New(cfg)
	ctx := t.Context()
	if _, err := v.Discover(ctx); err != nil {
		t.Fatal(err)
	}
	later := now.Add(minRefresh) // an unknown key id may cause a fetch again
	clock.Store(&later)
	valid := sign(t, key, claimsFor(is.srv.URL, now, nil))
	release := is.hang()
	defer release()

	const forged = 20
	answers := make(chan error, forged)
	for i := range forged {
		tok := sign(t, ecKey(t, fmt.Sprintf("forged-%d", i)), claimsFor(is.srv.URL, now, nil))
		go func() {
			_, err := v.Verify(ctx, tok)
			answers <- err
		}()
	}
	mcptest.Eventually(t, "a fetch of the keys hanging", func() bool { return is.jwksGets.Load() == 2 })

	done := make(chan error, 1)
	go func() {
		_, err := v.Verify(ctx, valid)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("a valid token with its key cached, the key set hanging: %v", err)
		}
	case <-time.After(mcptest.Deadline):
		release()
		t.Fatalf("a valid token with its key cached waited %s for the hanging key set", mcptest.Deadline)
	}
	if n := len(answers); n != 0 {
		t.Errorf("%d tokens of made-up key ids were answered while the fetch that could know their keys hung", n)
	}
	if n := is.jwksGets.Load(); n != 2 {
		t.Errorf("the key set was asked %d times for %d tokens of unknown key ids; want one fetch for all (2 with the first)", n, forged)
	}

	release()
	for range forged {
		select {
		case err := <-answers:
			if !errors.Is(err, ErrInvalidToken) || !strings.Contains(err.Error(), "does not publish") {
				t.Errorf("a token of a made-up key id after the fetch: %v; want refused as not published", err)
			}
		case <-time.After(mcptest.Deadline):
			t.Fatal("the tokens of made-up key ids were not answered after the key set answered")
		}
	}
}

// TestUnreachableIssuerNewKey: keys fetched, then the issuer is down
// (connection refused). A token naming a key id not fetched before cannot
// be judged: ErrUnavailable (503), not "the issuer does not publish it",
// since the issuer may have rotated to it. A token whose key is cached is
// still accepted. Each failed fetch is logged, at most one line a minute
// counting the failures since the last.
func TestUnreachableIssuerNewKey(t *testing.T) {
	key, next := rsaKey(t, "old"), ecKey(t, "new")
	is := newIssuer(t, key)
	clock := time.Now()
	var (
		mu   sync.Mutex
		logs bytes.Buffer
	)
	cfg := testConfig(is.srv.URL, audience)
	cfg.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	cfg.Logger = slog.New(slog.NewTextHandler(&lockedWriter{mu: &mu, w: &logs}, nil))
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); clock = clock.Add(d) }
	lines := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Split(strings.TrimSpace(logs.String()), "\n")
	}
	v, _ := New(cfg)
	ctx := t.Context()
	valid := sign(t, key, claimsFor(is.srv.URL, clock, nil))
	if _, err := v.Verify(ctx, valid); err != nil {
		t.Fatal(err)
	}
	newTok := sign(t, next, claimsFor(is.srv.URL, clock, nil))
	is.srv.Close()

	for i := range 5 {
		advance(minRefresh)
		if _, err := v.Verify(ctx, newTok); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("try %d: a new key id, the issuer down: %v; want ErrUnavailable", i, err)
		}
		if _, err := v.Verify(ctx, valid); err != nil {
			t.Fatalf("try %d: a cached key, the issuer down: %v", i, err)
		}
	}
	if got := lines(); len(got) != 1 || !strings.Contains(got[0], "cannot be fetched") || !strings.Contains(got[0], "failed_fetches=1") {
		t.Fatalf("log after 5 failed fetches within a minute: %q; want the first one logged", got)
	}
	advance(logEvery)
	if _, err := v.Verify(ctx, newTok); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a new key id, the issuer still down: %v", err)
	}
	if got := lines(); len(got) != 2 || !strings.Contains(got[1], "failed_fetches=5") {
		t.Fatalf("log a minute later: %q; want a second line counting the 5 failures since the first", got)
	}
}

// lockedWriter writes to w under mu, which the test's clock shares.
type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
