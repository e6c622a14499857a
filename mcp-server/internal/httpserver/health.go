package httpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"

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
	Wiki       bool   `json:"wiki"`                  // the built wiki is present
	Sessions   int    `json:"sessions"`              // live MCP sessions (0 when stateless)
	Stateless  bool   `json:"stateless"`
	// Budgets are the limits on what clients can make the server hold,
	// what is in use, and how many requests each refused since start.
	Budgets []budget.Usage `json:"budgets"`
}

// health answers GET and HEAD /health: 200 while serving, 503 while the
// docs are still loading (MCP requests that need them wait meanwhile) and
// once shutting down. Counting the hooks reads the registry from disk each time,
// so an edit shows at once; it is a small file.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	h, status := s.status()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(h)
}

// status is the report of /health and its HTTP status.
func (s *Server) status() (Health, int) {
	h := Health{
		Status:    "ok",
		Version:   s.opts.Version,
		Watch:     "off",
		Wiki:      s.wikiPresent(),
		Stateless: s.sessions == nil,
	}
	status := http.StatusOK
	if snap := s.store.Snapshot(); snap != nil {
		h.Docs, h.Generation = len(snap.Docs()), snap.Generation()
	} else {
		h.Status, status = "loading", http.StatusServiceUnavailable
	}
	if s.sessions != nil {
		h.Sessions = s.sessions.count()
	}
	if s.opts.Watching != nil {
		h.Watch = s.opts.Watching()
	}
	if n, err := countHooks(s.opts.RegistryPath); err != nil {
		h.Hooks, h.HooksError = -1, err.Error()
	} else {
		h.Hooks = n
	}
	h.Budgets = s.budgets.Report()
	if s.stopping.Load() {
		h.Status, status = "stopping", http.StatusServiceUnavailable
	}
	return h, status
}

// countHooks counts the entries of the registry's "hooks" array.
func countHooks(path string) (int, error) {
	if path == "" {
		return 0, errors.New("no registry configured")
	}
	data, err := os.ReadFile(path)
	if perr, ok := errors.AsType[*fs.PathError](err); ok {
		err = perr.Err // the body is public: say what failed, not where
	}
	if err != nil {
		return 0, fmt.Errorf("read registry: %w", err)
	}
	var reg struct {
		Hooks *[]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		return 0, fmt.Errorf("parse registry: %w", err)
	}
	if reg.Hooks == nil {
		return 0, errors.New(`registry has no "hooks" array`)
	}
	return len(*reg.Hooks), nil
}
