package httpserver

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/pires/go-proxyproto"
)

// proxies are the reverse proxies and load balancers whose word on a
// client's address the server takes (--trusted-proxies): the address in
// their PROXY protocol header, or the hop their X-Forwarded-For names.
// Without them, a client is the address its connection comes from, and
// behind a proxy every client is the proxy: one client for the
// per-client limits (the sessions each holds, the rate it opens them at).
type proxies []netip.Prefix

// trusts reports whether addr (an address without port) is a trusted
// proxy.
func (p proxies) trusts(addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, prefix := range p {
		if prefix.Contains(addr) {
			return true
		}
	}
	return false
}

// ParseTrustedProxies reads a list of CIDR prefixes or single addresses
// (the value of --trusted-proxies), separated by commas or spaces.
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for item := range strings.FieldsFuncSeq(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		if addr, err := netip.ParseAddr(item); err == nil {
			addr = addr.Unmap()
			out = append(out, netip.PrefixFrom(addr, addr.BitLen()))
			continue
		}
		prefix, err := netip.ParsePrefix(item)
		if err != nil {
			return nil, err
		}
		if prefix.Addr().Is4In6() && prefix.Bits() >= 96 { // ::ffff:10.0.0.0/104 is 10.0.0.0/8
			prefix = netip.PrefixFrom(prefix.Addr().Unmap(), prefix.Bits()-96)
		}
		out = append(out, prefix.Masked())
	}
	return out, nil
}

// clientAddr is the address of the client a request comes from: its
// connection's address (which the PROXY protocol header of a trusted
// proxy has set, see listen), or, when that is a trusted proxy that sent
// X-Forwarded-For, the rightmost address there that is not a trusted
// proxy: the hops to its right were added by proxies the server trusts,
// and the ones to its left by whoever the client is, who can write
// anything there.
func (s *Server) clientAddr(r *http.Request) string {
	host := clientHost(r.RemoteAddr)
	if len(s.proxies) == 0 {
		return host
	}
	addr, err := netip.ParseAddr(host)
	if err != nil || !s.proxies.trusts(addr) {
		return host
	}
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		parts := strings.Split(hops[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			hop, err := netip.ParseAddr(strings.TrimSpace(parts[j]))
			if err != nil {
				return host // a hop that is no address: the chain cannot be followed past it
			}
			if !s.proxies.trusts(hop) {
				return hop.Unmap().String()
			}
		}
	}
	return host
}

// listen wraps ln to read the PROXY protocol header (v1 or v2) that a
// trusted proxy sends before its request: the connection's remote address
// is then the client's. Connections from anyone else are not read for one
// (a header there is not HTTP, and gets 400).
func (s *Server) listen(ln net.Listener) net.Listener {
	if len(s.proxies) == 0 {
		return ln
	}
	return &proxyproto.Listener{
		Listener:          ln,
		ReadHeaderTimeout: headerTimeout,
		ConnPolicy: func(o proxyproto.ConnPolicyOptions) (proxyproto.Policy, error) {
			if tcp, ok := o.Upstream.(*net.TCPAddr); ok {
				if addr, ok := netip.AddrFromSlice(tcp.IP); ok && s.proxies.trusts(addr) {
					return proxyproto.USE, nil
				}
			}
			return proxyproto.SKIP, nil
		},
	}
}
