// Package status is what docs-mcp reports about itself: one Status, which
// /health and /metrics both read. The corpus's part (what is served) comes
// from mcpserver's Server.Status, the transport's part (sessions, streams,
// shutdown) from httpserver, which fills in the rest at each request.
package status

// Status is the state of a server at one moment.
type Status struct {
	// What is served (mcpserver).
	Loaded     bool   // the docs are loaded; until then /health answers 503 "loading"
	Docs       int    // docs in the snapshot served
	Generation uint64 // of that snapshot; it grows with each change on disk
	Hooks      int    // hooks in the registry as it is on disk now; -1 when it cannot be read
	HooksError string // why, when Hooks is -1
	Watch      string // how changes on disk are followed: fsnotify, poll or off

	// How it is served (httpserver).
	Stopping bool // shutting down: /health answers 503 "stopping"
	Sessions int  // live MCP sessions (0 when stateless)
	Streams  int  // open event streams: GET /mcp and subscriptions/listen
}

// Serving reports whether the server answers requests that need the docs
// and is not shutting down: /health says "ok".
func (s Status) Serving() bool { return s.Loaded && !s.Stopping }
