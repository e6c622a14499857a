package httpserver

import (
	"encoding/json"
	"net/http"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/status"
)

// Health is the body of /health.
type Health struct {
	Status     string `json:"status"` // "ok"; "loading" (503) until the docs are loaded; "stopping" (503) during shutdown
	Version    string `json:"version"`
	Docs       int    `json:"docs"`
	Hooks      int    `json:"hooks"`                 // -1 when the registry cannot be read
	HooksError string `json:"hooks_error,omitempty"` // why, when Hooks is -1
	Generation uint64 `json:"generation"`            // of the docs snapshot served; grows with each change on disk
	Watch      string `json:"watch"`                 // how changes are followed: fsnotify, poll or off
	Wiki       bool   `json:"wiki"`                  // the built wiki is present and served
	Sessions   int    `json:"sessions"`              // live MCP sessions (0 when stateless)
	Stateless  bool   `json:"stateless"`
	// Budgets are the limits on what clients can make the server hold,
	// what is in use, and how many requests each refused since start.
	Budgets []budget.Usage `json:"budgets"`
}

// health answers GET and HEAD /health: 200 while serving, 503 while the
// docs are still loading (MCP requests that need them wait meanwhile) and
// once shutting down. What is served comes from Parts.Status, at each
// request, so an edit to the registry shows at once.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	h, code := s.status()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(h)
}

// report is the server's status now: what Parts.Status says is served,
// and the transport's part. /health and /metrics both read it.
func (s *Server) report() status.Status {
	st := s.parts.Status()
	st.Stopping = s.stopping.Load()
	if s.sessions != nil {
		st.Sessions = s.sessions.count()
	}
	st.Streams = s.streams.count() // GET and subscriptions/listen
	return st
}

// status is the report of /health and its HTTP status.
func (s *Server) status() (Health, int) {
	st := s.report()
	h := Health{
		Status:     "ok",
		Version:    s.cfg.Version,
		Docs:       st.Docs,
		Hooks:      st.Hooks,
		HooksError: st.HooksError,
		Generation: st.Generation,
		Watch:      st.Watch,
		Wiki:       s.site != nil && s.site.Present(),
		Sessions:   st.Sessions,
		Stateless:  s.sessions == nil,
		Budgets:    s.budgets.Report(),
	}
	code := http.StatusOK
	switch {
	case st.Stopping:
		h.Status, code = "stopping", http.StatusServiceUnavailable
	case !st.Loaded:
		h.Status, code = "loading", http.StatusServiceUnavailable
	}
	return h, code
}
