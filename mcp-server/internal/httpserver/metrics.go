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

// refusalBudget names the budget or rule that refused a /mcp request with
// status, if a refusal it is.
func refusalBudget(status int) (string, bool) {
	switch status {
	case http.StatusUnauthorized:
		return "token", true
	case http.StatusForbidden:
		return "origin", true // or Host: both are the DNS-rebinding defence
	case http.StatusNotFound:
		return "session", true // unknown, ended or expired session id
	case http.StatusRequestEntityTooLarge, http.StatusRequestTimeout:
		return "body", true // too large, or too slow to arrive
	case http.StatusTooManyRequests:
		return "rate", true
	case http.StatusServiceUnavailable:
		return "capacity", true // live sessions at the cap, or shutting down
	}
	return "", false
}

// countRefusal counts a refused /mcp request in /metrics.
func (s *Server) countRefusal(r *http.Request, status int) {
	if s.opts.Metrics == nil || r.URL.Path != "/mcp" {
		return
	}
	if budget, ok := refusalBudget(status); ok {
		s.opts.Metrics.Refused(budget)
	}
}
