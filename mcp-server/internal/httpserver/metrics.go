package httpserver

import (
	"net/http"
	"strings"
)

// refusalRule names the rule, not a budget, that refused a /mcp request
// with status (and header, for a token without the scope needed), if one
// did. Refusals by budget are counted where they happen, in the budgets
// (refuse), which /metrics reads.
func refusalRule(status int, header http.Header) (string, bool) {
	switch status {
	case http.StatusUnauthorized:
		return "token", true
	case http.StatusForbidden:
		if strings.Contains(header.Get("WWW-Authenticate"), "insufficient_scope") {
			return "scope", true
		}
		return "origin", true // or Host: both are the DNS-rebinding defence
	case http.StatusNotFound:
		return "session", true // unknown, ended or expired session id
	}
	return "", false
}

// countRefusal counts a /mcp request refused by a rule in /metrics.
func (s *Server) countRefusal(r *http.Request, status int, header http.Header) {
	if s.parts.Metrics == nil || r.URL.Path != "/mcp" {
		return
	}
	if rule, ok := refusalRule(status, header); ok {
		s.parts.Metrics.Refused(rule)
	}
}
