package httpserver

import (
	"net/http"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/metrics"
)

// metricsStatus is what /health reports, for the gauges of /metrics.
func (s *Server) metricsStatus() metrics.Status {
	h, _ := s.status()
	st := metrics.Status{
		Serving:    h.Status == "ok",
		Docs:       h.Docs,
		Hooks:      h.Hooks,
		Generation: h.Generation,
		Sessions:   h.Sessions,
	}
	st.Streams = s.streams.count() // GET and subscriptions/listen
	return st
}

// refusalRule names the rule, not a budget, that refused a /mcp request
// with status, if one did. Refusals by budget are counted where they
// happen, in the budgets (refuse), which /metrics reads.
func refusalRule(status int) (string, bool) {
	switch status {
	case http.StatusUnauthorized:
		return "token", true
	case http.StatusForbidden:
		return "origin", true // or Host: both are the DNS-rebinding defence
	case http.StatusNotFound:
		return "session", true // unknown, ended or expired session id
	}
	return "", false
}

// countRefusal counts a /mcp request refused by a rule in /metrics.
func (s *Server) countRefusal(r *http.Request, status int) {
	if s.opts.Metrics == nil || r.URL.Path != "/mcp" {
		return
	}
	if rule, ok := refusalRule(status); ok {
		s.opts.Metrics.Refused(rule)
	}
}
