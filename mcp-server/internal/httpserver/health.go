package httpserver

import (
	"encoding/json"
	"net/http"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
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
// once shutting down. What is served comes from Options.Status, at each
// request, so an edit to the registry shows at once.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	h, status := s.status()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(h)
}

// status is the report of /health and its HTTP status.
func (s *Server) status() (Health, int) {
	st := s.opts.Status()
	h := Health{
		Status:     "ok",
		Version:    s.opts.Version,
		Docs:       st.Docs,
		Hooks:      st.Hooks,
		HooksError: st.HooksError,
		Generation: st.Generation,
		Watch:      st.Watch,
		Wiki:       !s.opts.NoWiki && s.wikiPresent(),
		Stateless:  s.sessions == nil,
	}
	status := http.StatusOK
	if !st.Loaded {
		h.Status, status = "loading", http.StatusServiceUnavailable
	}
	if s.sessions != nil {
		h.Sessions = s.sessions.count()
	}
	h.Budgets = s.budgets.Report()
	if s.stopping.Load() {
		h.Status, status = "stopping", http.StatusServiceUnavailable
	}
	return h, status
}
