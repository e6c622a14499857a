package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// guard wraps mcp-go's Streamable HTTP handler with the rules it leaves to
// us, checked in this order: Origin, bearer token, method, body size and
// shape, then the session.
//
// Requests on protocol version 2026-07-28 (stateless by design: no
// initialize, no session ids) skip the session rules; mcp-go validates them
// and refuses their GET and DELETE. Older versions need a live session for
// everything but initialize, which admit counts against the cap.
func (s *Server) guard(next http.Handler) http.Handler {
	cors := len(s.opts.AllowedOrigins) > 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.checkOrigin(r); err != nil {
			writeError(w, err, nil)
			return
		}
		if r.Method == http.MethodOptions && cors {
			next.ServeHTTP(w, r) // a CORS preflight carries no credentials
			return
		}
		if err := s.checkToken(r); err != nil {
			writeError(w, err, nil)
			return
		}
		switch r.Method {
		case http.MethodPost:
			s.post(next, w, r)
		case http.MethodGet:
			s.get(next, w, r)
		case http.MethodDelete:
			s.delete(next, w, r)
		default:
			writeError(w, fmt.Errorf("%w (got %s)", errMethod, r.Method), nil)
		}
	})
}

// message is what the guard reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// protocolVersion is the version a 2026-07-28 request states in its
// params._meta.
func (m message) protocolVersion() string {
	var p struct {
		Meta *mcp.Meta `json:"_meta"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return ""
	}
	return p.Meta.ProtocolVersion()
}

func (s *Server) post(next http.Handler, w http.ResponseWriter, r *http.Request) {
	body, err := s.readBody(w, r)
	if err != nil {
		writeError(w, err, nil)
		return
	}
	msg, err := parseMessage(body)
	if err != nil {
		writeError(w, err, nil)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))

	modern := mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) || mcp.IsModernProtocol(msg.protocolVersion())
	if s.sessions == nil || modern {
		next.ServeHTTP(w, r)
		return
	}
	if msg.Method != string(mcp.MethodInitialize) {
		if err := s.sessions.touch(r.Header.Get(server.HeaderKeySessionID)); err != nil {
			writeError(w, err, msg.ID)
			return
		}
		next.ServeHTTP(w, r)
		return
	}
	if s.stopping.Load() {
		writeError(w, errStopping, msg.ID)
		return
	}
	ctx, release, err := s.sessions.admit(r.Context())
	if err != nil {
		s.log.Warn("session refused", "err", err, "max_sessions", s.opts.MaxSessions)
		writeError(w, fmt.Errorf("%w (limit %d)", err, s.opts.MaxSessions), msg.ID)
		return
	}
	defer release()
	next.ServeHTTP(w, r.WithContext(ctx))
}

// readBody reads a POST body of at most MaxBodyBytes.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	limit := s.opts.MaxBodyBytes
	if r.ContentLength > limit {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d (--max-body-bytes)", errTooLarge, r.ContentLength, limit)
	}
	// A slow body must not hold a connection forever; the deadline is
	// lifted again for the response, which may be a long SSE stream.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(bodyReadTimeout))
	defer rc.SetReadDeadline(time.Time{})

	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%w: more than %d bytes (--max-body-bytes)", errTooLarge, limit)
	case err != nil:
		return nil, fmt.Errorf("%w: read body: %v", errParse, err)
	}
	return body, nil
}

// parseMessage checks that body is one JSON-RPC message.
func parseMessage(body []byte) (message, error) {
	var msg message
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return msg, errBatch
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		return msg, fmt.Errorf("%w: %v", errParse, err)
	}
	return msg, nil
}

func (s *Server) get(next http.Handler, w http.ResponseWriter, r *http.Request) {
	if s.sessions == nil {
		writeError(w, errStateless, nil)
		return
	}
	if mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) {
		next.ServeHTTP(w, r)
		return
	}
	ctx, done, err := s.sessions.openStream(r.Context(), r.Header.Get(server.HeaderKeySessionID))
	if err != nil {
		writeError(w, err, nil)
		return
	}
	defer done()

	// A stream ends when its session does (DELETE, expiry) and on shutdown,
	// by its context. mcp-go's handler sees that only between writes: a
	// write blocked on a client that stopped reading would hold the stream,
	// and shutdown, until the shutdown timeout. If the handler has not
	// returned streamEndGrace after the end, a write deadline frees it (and
	// the connection, its write failed, is closed).
	stop := make(chan struct{})
	var unblocked sync.WaitGroup
	unblocked.Go(func() {
		select {
		case <-ctx.Done():
		case <-stop:
			return
		}
		grace := time.NewTimer(streamEndGrace)
		defer grace.Stop()
		select {
		case <-grace.C:
			_ = http.NewResponseController(w).SetWriteDeadline(time.Now())
		case <-stop:
		}
	})
	defer unblocked.Wait() // the controller must not be used once this handler returns
	defer close(stop)
	next.ServeHTTP(w, r.WithContext(ctx))
}

func (s *Server) delete(next http.Handler, w http.ResponseWriter, r *http.Request) {
	if s.sessions == nil {
		writeError(w, errStateless, nil)
		return
	}
	if mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) {
		next.ServeHTTP(w, r)
		return
	}
	if err := s.sessions.touch(r.Header.Get(server.HeaderKeySessionID)); err != nil {
		writeError(w, err, nil)
		return
	}
	next.ServeHTTP(w, r)
}
