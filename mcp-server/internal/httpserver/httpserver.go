// Package httpserver serves docs-mcp over HTTP: MCP Streamable HTTP at /mcp,
// a health report at /health and the static wiki under /wiki/ (package
// site), on one http.Server with one mux.
//
// mcp-go's Streamable HTTP handler speaks the protocol; this package adds
// what it leaves to its user: real session tracking (unknown, forged, ended
// and expired ids get 404; live sessions are capped), a request body limit,
// Origin and Host checks, an optional bearer token or OAuth access tokens
// (resource-server mode), an access log and a graceful shutdown.
package httpserver

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/site"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/status"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/transport"
)

const (
	// maxHeartbeat is the longest pause between heartbeats on a GET stream.
	// Heartbeats keep proxies from closing quiet streams and find dead
	// clients; a stream counts as activity, so its session does not expire.
	maxHeartbeat = 30 * time.Second
	// headerTimeout bounds how long a client may take to send a request's
	// headers, and maxHeaderBytes their size (past it: 431).
	headerTimeout  = 10 * time.Second
	maxHeaderBytes = 64 << 10
	// streamEndGrace is how long an ended GET stream may take to finish
	// its last write before the connection is cut (a client that does not
	// read).
	streamEndGrace = time.Second
)

// Config is what the server is set to: plain values, from the command
// line's flags. Start from DefaultConfig: New uses every field as given.
// What the server works with is in Parts.
type Config struct {
	Version            string
	Listen             string // host:port the command line listens on
	SiteDir            string // the built wiki, served under /wiki/ (package site)
	NoWiki             bool   // /wiki/ and / answer 404
	Stateless          bool   // no sessions: every POST stands alone, no GET stream
	SessionIdleTimeout time.Duration
	SessionInitTimeout time.Duration // a session that does nothing after initialize expires after this (at most SessionIdleTimeout)
	MaxSessions        int
	// MaxSessionStreams caps the sessions holding a GET stream (at most
	// MaxSessions): a session with a stream cannot make room for a new
	// one, so below MaxSessions the others always can.
	MaxSessionStreams int
	// MaxSessionsPerSubject caps the live sessions of one subject when
	// OAuth is set.
	MaxSessionsPerSubject int
	// SessionRate is how many new sessions a second one client (address,
	// and subject with OAuth) may open once it has used SessionBurst;
	// faster ones get 429 with Retry-After. 0: any rate.
	SessionRate float64
	// SessionBurst is how many new sessions one client may open at once
	// (at least 1).
	SessionBurst int
	// TrustedProxies are the proxies whose PROXY protocol header or
	// X-Forwarded-For gives the client's address (see clientAddr).
	TrustedProxies     []netip.Prefix
	MaxStreams         int           // open event streams: GET and subscriptions/listen together
	StreamWriteTimeout time.Duration // a stream whose client takes no data for this long is ended
	MaxConnections     int
	// MaxBodyBytes is the largest request body read on /mcp (past it: 413).
	// No request of this server needs much: a query is at most 1 KiB, a
	// cursor 4 KiB, and the largest initialize of the official clients a
	// few KiB of capabilities; the default leaves ten times that.
	MaxBodyBytes    int64
	BodyTimeout     time.Duration // a request body must arrive within this
	AllowedOrigins  []string      // browser origins allowed besides the server's own ("*": any)
	AuthToken       string        // when set, /mcp needs Authorization: Bearer <token>
	ShutdownTimeout time.Duration
	// DrainDelay is how long the server goes on serving after SIGTERM with
	// /health answering 503 "stopping", so that a load balancer checking
	// it stops sending new work before the listener closes.
	DrainDelay time.Duration
}

// Parts are what the server works with, as stdio's (transport.Parts).
type Parts = transport.Parts

// DefaultConfig is the configuration of a server with every default: the
// defaults of the command line's flags.
func DefaultConfig() Config {
	const maxSessions = 1000
	return Config{
		Listen:                "127.0.0.1:3000",
		SiteDir:               filepath.Join("build", "wiki"),
		SessionIdleTimeout:    30 * time.Minute,
		SessionInitTimeout:    time.Minute,
		MaxSessions:           maxSessions,
		MaxSessionStreams:     DefaultSessionStreams(maxSessions),
		MaxSessionsPerSubject: 100,
		SessionRate:           DefaultSessionRate,
		SessionBurst:          DefaultSessionBurst(DefaultSessionRate),
		MaxStreams:            500,
		StreamWriteTimeout:    30 * time.Second,
		MaxConnections:        2048,
		MaxBodyBytes:          DefaultMaxBodyBytes,
		BodyTimeout:           15 * time.Second,
		ShutdownTimeout:       10 * time.Second,
	}
}

// DefaultSessionRate is the default --session-rate: new sessions a second
// per client. A client opens one session and keeps it; ten a second (after
// a burst of fifty) leaves room for many clients on one host, and makes a
// loop opening sessions fill the default 1,000 slots in no less than
// 95 s, and push a session out of the protected segment (the 800 used
// latest) only if it has not been used for over a minute.
const DefaultSessionRate = 10

// DefaultSessionBurst is the default --session-burst for a --session-rate
// of perSecond: five seconds' worth, at least 1 (50 at the default rate).
//
// A replica that fails sends the sessions it held to the others at once,
// each client starting a new one: with three replicas, each of the other
// two takes half. Fifty lets an address that held 100 sessions on the
// replica lost (a team behind one NAT, a CI runner) start them all again
// without a 429; the swarm test's failover, 16 sessions from one address
// over three replicas, starts about 5 again. A larger burst has a price:
// a loop's burst counts as use, and renews the protected segment of the
// sessions (80% of --max-sessions) that much sooner, so a session in use
// but idle for (0.8 × max-sessions − burst) ÷ rate seconds can be ended to
// make room. With --max-sessions 100, a burst of 100 let 8 loops on a
// working client's address end its session at once
// (TestHostileSessionChurn); 50 leaves it 3 s.
func DefaultSessionBurst(perSecond float64) int {
	return max(1, int(math.Ceil(5*perSecond)))
}

// DefaultMaxBodyBytes is the default --max-body-bytes (see
// Config.MaxBodyBytes).
const DefaultMaxBodyBytes = 64 << 10

// DefaultSessionStreams is the default MaxSessionStreams for maxSessions:
// half of them, so that the other half can always make room for new
// sessions (--max-session-streams says so).
func DefaultSessionStreams(maxSessions int) int { return max(1, maxSessions/2) }

// Server is the HTTP face of docs-mcp. It is an http.Handler; Serve runs it
// on a listener until its context ends.
type Server struct {
	cfg      Config
	parts    Parts
	log      *slog.Logger
	mcp      *server.StreamableHTTPServer
	sessions *sessions     // nil when stateless
	rates    *sessionRates // nil: any rate
	proxies  proxies
	streams  *streams
	conns    *conns
	budgets  *budget.Budgets
	site     *site.Site // nil with NoWiki
	handler  http.Handler
	stopping atomic.Bool
	stop     context.CancelFunc // ends the session cleanup
}

// New returns a server set to cfg, made of parts.
func New(cfg Config, parts Parts) *Server {
	if parts.Budgets == nil {
		parts.Budgets = budget.New()
	}
	if parts.Status == nil {
		parts.Status = func() status.Status { return status.Status{Watch: "off"} }
	}
	if parts.Logger == nil {
		parts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, parts: parts, log: parts.Logger, budgets: parts.Budgets, streams: newStreams(cfg.MaxStreams),
		rates: newSessionRates(cfg.SessionRate, cfg.SessionBurst), proxies: cfg.TrustedProxies}
	if !cfg.NoWiki {
		s.site = site.New(cfg.SiteDir, parts.Logger)
	}
	cleanupCtx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.conns = newConns(cfg.MaxConnections, func() { s.budgets.Refuse(budget.Connections) })
	s.budgets.Define(budget.Connections, int64(cfg.MaxConnections), s.conns.count)
	s.budgets.Define(budget.Body, cfg.MaxBodyBytes, nil)
	s.budgets.Define(budget.Streams, int64(cfg.MaxStreams), func() int64 { return int64(s.streams.count()) })

	mcpOpts := []server.StreamableHTTPOption{
		server.WithStreamableHTTPLogger(parts.Logger),
		// The Host check lives in checkHost, for every path; one
		// implementation, not two that could disagree.
		server.WithDisableLocalhostProtection(true),
		// The client's address, for the per-client limits of the work
		// queue when a request has no session (see mcpserver's clientOf).
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			return budget.WithClientAddr(ctx, s.clientAddr(r))
		}),
	}
	if cfg.Stateless {
		mcpOpts = append(mcpOpts, server.WithStateLess(true), server.WithDisableStreaming(true))
	} else {
		s.sessions = newSessions(cfg.MaxSessions, cfg.MaxSessionStreams, cfg.SessionIdleTimeout, cfg.SessionInitTimeout)
		if parts.OAuth != nil {
			s.sessions.perSubject = cfg.MaxSessionsPerSubject
		}
		s.budgets.Define(budget.Sessions, int64(cfg.MaxSessions), func() int64 { return int64(s.sessions.count()) })
		mcpOpts = append(mcpOpts,
			server.WithSessionIdManagerResolver(s.sessions),
			// mcp-go's sweeper frees its own per-session state and ends
			// our record through sessions.Terminate.
			server.WithSessionIdleTTL(cfg.SessionIdleTimeout),
			server.WithHeartbeatInterval(min(cfg.SessionIdleTimeout/3, maxHeartbeat)),
		)
	}
	if parts.WithWikiURL != nil && s.site != nil {
		mcpOpts = append(mcpOpts, server.WithHTTPContextFunc(s.wikiContext))
	}
	if len(cfg.AllowedOrigins) > 0 {
		mcpOpts = append(mcpOpts, server.WithStreamableHTTPCORS(
			server.WithCORSAllowedOrigins(cfg.AllowedOrigins...),
			// Every header an MCP client sends; mcp-go's default list
			// leaves out the protocol version, which a browser client
			// sends on every request after initialize.
			server.WithCORSAllowedHeaders("Content-Type", "Accept", "Authorization", "Last-Event-ID",
				server.HeaderKeySessionID, mcp.HeaderProtocolVersion, mcp.HeaderMethod, mcp.HeaderName),
			server.WithCORSExposedHeaders(server.HeaderKeySessionID, mcp.HeaderProtocolVersion),
		))
	}
	s.mcp = server.NewStreamableHTTPServer(parts.MCP, mcpOpts...)
	if s.sessions != nil {
		s.sessions.startCleanup(cleanupCtx, s.forget)
	}

	mux := http.NewServeMux()
	mux.Handle("/mcp", s.guard(s.mcp))
	mux.HandleFunc("GET /health", s.health)
	if parts.Metrics != nil {
		parts.Metrics.ReportStatus(s.report)
		parts.Metrics.ReportBudgets(s.budgets.Report)
		mux.Handle("GET /metrics", parts.Metrics.Handler())
	}
	if parts.OAuth != nil {
		for _, p := range parts.OAuth.MetadataPaths() {
			mux.HandleFunc("GET "+p, s.resourceMetadata)
			mux.HandleFunc("OPTIONS "+p, metadataPreflight)
		}
	}
	if s.site != nil {
		s.site.Register(mux)
	}
	s.handler = s.accessLog(s.checkHost(mux))
	return s
}

// ServeHTTP routes a request through the middleware to /mcp, /health or
// the wiki.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// Serve answers requests on ln until ctx ends, then shuts down gracefully:
// it stops accepting, ends open GET streams, lets the requests in flight
// finish within the shutdown timeout and returns nil. Requests still
// running after the timeout are cut off and reported as an error.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: headerTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		IdleTimeout:       2 * time.Minute,
		ConnState:         s.conns.track,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	// Shutdown closes the listener, then runs this: GET streams never go
	// idle by themselves, so they are ended here, and their clients see a
	// clean end of stream. Sessions stay valid for the requests in flight.
	srv.RegisterOnShutdown(s.endStreams)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(s.listen(ln)) }()

	select {
	case err := <-served:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	s.stopping.Store(true)
	if s.cfg.DrainDelay > 0 {
		// Still serving: /health says "stopping", new sessions are
		// refused (503), requests of existing sessions are answered.
		s.log.Info("draining: /health says stopping", "drain_delay", s.cfg.DrainDelay)
		select {
		case <-time.After(s.cfg.DrainDelay):
		case err := <-served:
			return fmt.Errorf("serve http: %w", err)
		}
	}
	s.log.Info("shutting down", "timeout", s.cfg.ShutdownTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(ctx)
	if err != nil {
		srv.Close()
	}
	<-served
	s.Shutdown(context.WithoutCancel(ctx))
	if err != nil {
		return fmt.Errorf("shutdown: requests still running after %s were cut off: %w", s.cfg.ShutdownTimeout, err)
	}
	return nil
}

// forget tells mcp-go that a session ended here (expired, made room for):
// it frees its state for the session, and its hooks drop the session's
// subscriptions.
//
// A workaround for mcp-go (v1.2.1 to v1.6.0): the transport's state for a session (its
// entry in the handler's active sessions, per-session tools, resources and
// log level, its last-active time) is freed only by the unexported
// StreamableHTTPServer.cleanupSessionState, which only a DELETE, the idle
// sweeper (a TTL after the session's last request) and Shutdown call.
// MCPServer.UnregisterSession runs the unregister hooks but leaves that
// state, so a session ended here would keep it until the sweeper, without
// bound meanwhile (a client opening sessions in a loop). So the handler is
// served a DELETE for the session. (No upstream issue found; v1.6.0 adds
// CloseSessions, which ends every session, not one.)
func (s *Server) forget(id string) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, "/mcp", nil)
	if err != nil {
		return
	}
	req.Header.Set(server.HeaderKeySessionID, id)
	req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion20251125) // a version with sessions
	s.mcp.ServeHTTP(discard{header: http.Header{}}, req)
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}

// endStreams ends every open event stream and refuses new ones.
func (s *Server) endStreams() {
	s.streams.endAll()
	if s.sessions != nil {
		s.sessions.endStreams()
	}
}

// Shutdown ends every session and its GET stream and stops the idle
// sweeper. Serve calls it; a caller that only uses the Server as a handler
// (httptest) calls it when done.
func (s *Server) Shutdown(ctx context.Context) {
	s.stopping.Store(true)
	s.endStreams()
	s.stop()
	if err := s.mcp.Shutdown(ctx); err != nil {
		s.log.Warn("end mcp sessions", "err", err)
	}
}

// clientHost is the host of a remote address: a client's connections
// share it, whatever their ports.
func clientHost(remote string) string {
	if host, _, err := net.SplitHostPort(remote); err == nil {
		return host
	}
	return remote
}
