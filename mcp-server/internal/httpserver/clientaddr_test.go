package httpserver

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestClientAddr: behind trusted proxies, the client is the rightmost
// X-Forwarded-For hop that is not one of them; what the client itself
// wrote further left is never taken, and nothing is taken from a peer
// that is not trusted.
func TestClientAddr(t *testing.T) {
	trusted, err := ParseTrustedProxies("10.0.0.0/8, 192.168.1.7,::ffff:172.16.0.0/108")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range trusted {
		names = append(names, p.String())
	}
	if diff := cmp.Diff([]string{"10.0.0.0/8", "192.168.1.7/32", "172.16.0.0/12"}, names); diff != "" {
		t.Errorf("ParseTrustedProxies (-want +got):\n%s", diff)
	}
	s := &Server{proxies: trusted}
	for _, tt := range []struct {
		remote string
		xff    []string
		want   string
	}{
		{"203.0.113.5:4000", nil, "203.0.113.5"},
		{"203.0.113.5:4000", []string{"198.51.100.1"}, "203.0.113.5"}, // an untrusted peer's word is not taken
		{"10.1.1.1:4000", nil, "10.1.1.1"},
		{"10.1.1.1:4000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"10.1.1.1:4000", []string{"6.6.6.6, 198.51.100.1"}, "198.51.100.1"},             // the client wrote 6.6.6.6
		{"10.1.1.1:4000", []string{"6.6.6.6", "198.51.100.1, 10.2.2.2"}, "198.51.100.1"}, // two headers, a trusted hop
		{"10.1.1.1:4000", []string{"6.6.6.6, 192.168.1.7, 172.20.0.1"}, "6.6.6.6"},       // every hop trusted but the first
		{"[::ffff:10.1.1.1]:4000", []string{"2001:db8::1"}, "2001:db8::1"},               // a mapped peer address
		{"10.1.1.1:4000", []string{"10.3.3.3"}, "10.1.1.1"},                              // only trusted hops: the peer
		{"10.1.1.1:4000", []string{"unknown, 198.51.100.1"}, "198.51.100.1"},             // junk left of the client
		{"10.1.1.1:4000", []string{"198.51.100.1, junk"}, "10.1.1.1"},                    // junk from a trusted hop: stop
	} {
		r := &http.Request{RemoteAddr: tt.remote, Header: http.Header{}}
		for _, v := range tt.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := s.clientAddr(r); got != tt.want {
			t.Errorf("from %s, X-Forwarded-For %q: %q, want %q", tt.remote, tt.xff, got, tt.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/33"); err == nil {
		t.Error("10.0.0.0/33: no error")
	}
}

// TestSessionRates: a client's burst, then its rate; another address and
// another subject have their own; IPv6 addresses share their /64.
func TestSessionRates(t *testing.T) {
	r := newSessionRates(1, 5)
	now := time.Unix(1000, 0)
	allowed := func(addr, subject string, n int) int {
		ok := 0
		for range n {
			if r.allow(addr, subject, now) == nil {
				ok++
			}
		}
		return ok
	}
	type counts struct{ A, A2, B, V6, V6Other, Later int }
	got := counts{
		A:       allowed("203.0.113.5", "", 8),
		B:       allowed("203.0.113.6", "", 8),
		V6:      allowed("2001:db8::1", "", 3),
		V6Other: allowed("2001:db8::2", "", 8), // same /64
	}
	now = now.Add(2 * time.Second)
	got.Later = allowed("203.0.113.5", "", 8)
	got.A2 = allowed("203.0.113.7", "alice", 8) // a fresh address, but alice's own rate applies too
	if diff := cmp.Diff(counts{A: 5, B: 5, V6: 3, V6Other: 2, Later: 2, A2: 5}, got); diff != "" {
		t.Errorf("sessions allowed (-want +got):\n%s", diff)
	}
	if err := r.allow("203.0.113.8", "alice", now); err == nil {
		t.Error("alice past her burst from another address: allowed")
	} else if re := (*rateError)(nil); !errors.As(err, &re) || re.by != "subject" || re.retryAfter() != 1 {
		t.Errorf("alice past her burst: %v, want a subject refusal with Retry-After 1", err)
	}
	if newSessionRates(0, 5) != nil {
		t.Error("rate 0 is not unlimited")
	}
}
