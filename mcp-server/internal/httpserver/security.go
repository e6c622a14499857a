package httpserver

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// checkHost defends against DNS rebinding: a request that arrives over a
// loopback connection (the server is bound to loopback, or to every
// interface and reached locally) must name a loopback host. A web page
// whose domain an attacker has pointed at 127.0.0.1 sends its own domain in
// Host, and is refused. Requests from other interfaces (a container's port
// mapping, a LAN) are not affected.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if ok && isLoopback(local.String()) && !isLoopback(r.Host) {
			writeError(w, fmt.Errorf("%w (got %q)", errHost, r.Host), nil)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopback reports whether a host or host:port names a loopback address.
func isLoopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// checkOrigin lets through requests without Origin (every non-browser
// client), same-origin requests (the Origin's host and port are the ones
// the request was sent to), and origins listed in AllowedOrigins.
func (s *Server) checkOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	if sameOrigin(origin, r.Host) {
		return nil
	}
	for _, allowed := range s.opts.AllowedOrigins {
		if allowed == "*" || strings.EqualFold(strings.TrimSuffix(allowed, "/"), origin) {
			return nil
		}
	}
	return fmt.Errorf("%w (got %q)", errOrigin, origin)
}

// sameOrigin reports whether a browser origin is this server as the
// request addressed it: scheme http (or https, the scheme a page has behind
// a TLS-terminating proxy), the same port, and the same host, where every
// loopback name (localhost, 127.0.0.1, [::1]) is the same host.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	oport, hport := u.Port(), portOf(host)
	if oport == "" {
		oport = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return oport == hport && isLoopback(u.Hostname()) && isLoopback(host)
}

// portOf is the port of a Host header, 80 when it has none.
func portOf(host string) string {
	if _, port, err := net.SplitHostPort(host); err == nil {
		return port
	}
	return "80"
}

// checkToken compares the bearer token in constant time, when one is set.
// Hashing both sides first keeps the comparison from leaking the length.
func (s *Server) checkToken(r *http.Request) error {
	if s.opts.AuthToken == "" {
		return nil
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return errUnauthorized
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(token)))
	want := sha256.Sum256([]byte(s.opts.AuthToken))
	if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
		return errUnauthorized
	}
	return nil
}
