package httpserver

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
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
	for _, allowed := range s.cfg.AllowedOrigins {
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
	if s.cfg.AuthToken == "" {
		return nil
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return errUnauthorized
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(token)))
	want := sha256.Sum256([]byte(s.cfg.AuthToken))
	if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
		return errUnauthorized
	}
	return nil
}

// authenticate checks the request's credentials: the static token, or in
// OAuth resource-server mode the access token, whose subject it then puts
// in the request's context (oauth.Subject) and the access log. A refusal
// carries the WWW-Authenticate challenge, set here; the token is never
// logged, and the reason logged is the one the client gets.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*http.Request, error) {
	if s.parts.OAuth == nil {
		return r, s.checkToken(r)
	}
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		token = ""
	}
	tok, err := s.parts.OAuth.Verify(r.Context(), strings.TrimSpace(token))
	if err != nil {
		if challenge := s.parts.OAuth.Challenge(err); challenge != "" {
			w.Header().Set("WWW-Authenticate", challenge)
		}
		switch {
		case errors.Is(err, oauth.ErrUnavailable):
			// The cause (an address, a network error) is for the log, not
			// the client; the verifier logs each failed fetch of the keys
			// (at most a line a minute), so a request adds only a debug line.
			s.log.Debug("access token not checked", "err", err, "remote", r.RemoteAddr)
			return r, oauth.ErrUnavailable
		case !errors.Is(err, oauth.ErrNoToken):
			s.log.Info("access token refused", "reason", err, "remote", r.RemoteAddr)
		}
		return r, err
	}
	noteSubject(r, tok.Subject)
	return r.WithContext(oauth.WithSubject(r.Context(), tok.Subject)), nil
}

// subjectOf is the request's authenticated subject; "" without OAuth.
func subjectOf(r *http.Request) string {
	subject, _ := oauth.Subject(r.Context())
	return subject
}

// resourceMetadata serves the Protected Resource Metadata (RFC 9728). It
// is public, so any origin may read it (browser-based MCP clients do;
// see metadataPreflight).
func (s *Server) resourceMetadata(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cache-Control", "max-age=3600")
	_ = json.NewEncoder(w).Encode(s.parts.OAuth.Metadata())
}

// metadataPreflight answers the CORS preflight of a browser-based client
// that reads the Protected Resource Metadata with a header of its own (the
// TypeScript SDK sends MCP-Protocol-Version): any origin, GET, and the
// headers it asks for. The document is public and read without
// credentials, so allowing every origin and header exposes nothing.
func metadataPreflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, OPTIONS")
	if asked := r.Header.Get("Access-Control-Request-Headers"); asked != "" {
		h.Set("Access-Control-Allow-Headers", asked)
	}
	h.Set("Access-Control-Max-Age", "86400")
	h.Set("Allow", "GET, OPTIONS")
	w.WriteHeader(http.StatusNoContent)
}
