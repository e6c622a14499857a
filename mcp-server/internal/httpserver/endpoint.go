package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
)

// guard wraps mcp-go's Streamable HTTP handler with the rules it leaves to
// us, checked in this order: Origin, bearer token (static or OAuth),
// method, body size and shape, then the session.
//
// Requests on protocol version 2026-07-28 (stateless by design: no
// initialize, no session ids) skip the session rules; mcp-go validates them
// and refuses their GET and DELETE. Older versions need a live session for
// everything but initialize, which admit counts against the cap.
func (s *Server) guard(next http.Handler) http.Handler {
	cors := len(s.cfg.AllowedOrigins) > 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.checkOrigin(r); err != nil {
			writeError(w, err, nil)
			return
		}
		if r.Method == http.MethodOptions && cors {
			next.ServeHTTP(w, r) // a CORS preflight carries no credentials
			return
		}
		r, err := s.authenticate(w, r)
		if err != nil {
			if cors && r.Header.Get("Origin") != "" {
				// A browser client at a listed origin must be able to
				// read the challenge to find where to get a token.
				h := w.Header()
				h.Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
				h.Set("Access-Control-Expose-Headers", "WWW-Authenticate")
				h.Add("Vary", "Origin")
			}
			writeError(w, err, nil)
			return
		}
		if id := r.Header.Get(server.HeaderKeySessionID); id != "" && s.sessions != nil {
			if err := s.sessions.checkOwner(id, subjectOf(r)); err != nil {
				writeError(w, err, nil)
				return
			}
		}
		switch r.Method {
		case http.MethodPost:
			s.post(next, w, r)
		case http.MethodGet, http.MethodDelete:
			switch {
			case s.sessions == nil:
				writeError(w, errStateless, nil)
			case mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)):
				next.ServeHTTP(w, r) // on 2026-07-28 mcp-go answers as that revision says
			case r.Method == http.MethodGet:
				s.get(next, w, r)
			default:
				s.delete(next, w, r)
			}
		default:
			writeError(w, fmt.Errorf("%w (got %s)", errMethod, r.Method), nil)
		}
	})
}

func (s *Server) post(next http.Handler, w http.ResponseWriter, r *http.Request) {
	body, err := s.readBody(w, r)
	if err != nil {
		s.refuse(w, err, nil)
		return
	}
	msg, err := s.parse(r, body)
	switch {
	case err != nil && !errors.Is(err, protocol.ErrBatch) && !errors.Is(err, protocol.ErrParse):
		s.refuse(w, err, nil) // busy, or the client left while it waited
		return
	case errors.Is(err, protocol.ErrBatch):
		writeError(w, errBatch, nil)
		return
	case err != nil:
		writeError(w, fmt.Errorf("request body is %w", err), nil)
		return
	}
	// The one parse of the body: mcpserver's checks read it from the
	// context; mcp-go's handler takes the bytes and parses them again.
	r = r.WithContext(protocol.WithMessage(r.Context(), &msg))
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))

	version := msg.ProtocolVersion()
	modern := mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) || mcp.IsModernProtocol(version)
	if modern && msg.Method != "" && !msg.IsRequest() && version == "" {
		// A 2026-07-28 client notification without _meta, such as the Go
		// SDK's notifications/cancelled when it ends a listen: accepted, as
		// notifications are (202), with nothing to do. A request there is
		// its own exchange, ended by closing its stream; mcp-go would answer
		// 400, and the Go SDK would take that for a broken connection.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if modern && msg.Method == string(mcp.MethodPing) && msg.IsRequest() && version == "" {
		// A liveness check on 2026-07-28 without _meta, such as the Go
		// SDK's Ping (v1.8.0): answered as stdio answers it, with an empty
		// result. mcp-go would answer 400 for the missing _meta; a ping
		// with _meta is left to it, which says the method was removed (404).
		writeJSON(w, http.StatusOK, protocol.Result(msg.ID, struct{}{}))
		return
	}
	if (modern || s.sessions == nil) && s.refused(w, r, &msg, modern) {
		return // with sessions, after the session is checked
	}
	if modern && msg.Method == string(mcp.MethodSubscriptionsListen) && msg.IsRequest() {
		// A 2026-07-28 listen stream has no session, but it is a stream.
		ctx, done, err := s.streams.add(r.Context())
		if err != nil {
			s.refuse(w, err, msg.ID)
			return
		}
		defer done()
		serveStream(ctx, w, r, next, s.cfg.StreamWriteTimeout)
		return
	}
	if s.sessions == nil || modern {
		next.ServeHTTP(w, r)
		return
	}
	if msg.Method != string(mcp.MethodInitialize) {
		used := msg.Method != string(mcp.MethodNotificationInitialized)
		done, err := s.sessions.begin(r.Header.Get(server.HeaderKeySessionID), used)
		if err != nil {
			writeError(w, err, msg.ID)
			return
		}
		defer done()
		if s.refused(w, r, &msg, false) {
			return
		}
		next.ServeHTTP(w, r)
		return
	}
	if s.stopping.Load() {
		writeError(w, errStopping, msg.ID)
		return
	}
	if id := r.Header.Get(server.HeaderKeySessionID); id != "" {
		if _, err := s.sessions.Validate(id); err == nil {
			writeError(w, errInitialized, msg.ID)
			return
		}
	}
	client := s.clientAddr(r)
	if err := s.rates.allow(client, subjectOf(r), time.Now()); err != nil {
		s.refuse(w, err, msg.ID)
		return
	}
	ctx, release, evicted, err := s.sessions.admit(r.Context(), client)
	if err != nil {
		limit := s.cfg.MaxSessions
		if errors.Is(err, errSubjectFull) {
			limit = s.cfg.MaxSessionsPerSubject
		}
		s.refuse(w, fmt.Errorf("%w (limit %d)", err, limit), msg.ID)
		return
	}
	for _, by := range evicted {
		if by == bySubject {
			s.log.Info("session ended to make room for a new one of its subject", "max_sessions_per_subject", s.cfg.MaxSessionsPerSubject)
		} else {
			s.log.Info("session ended to make room for a new one", "max_sessions", s.cfg.MaxSessions)
		}
	}
	defer release()
	next.ServeHTTP(w, r.WithContext(ctx))
}

// parseInQueue is the body size from which a body is parsed in the work
// queue (Parts.Work): smaller ones cost microseconds, less than a turn.
const parseInQueue = 8 << 10

// parse parses a POST body, a large one in its client's turn of the work
// queue (see Parts.Work). The client is the one the work queue charges
// for the request's own work: the OAuth subject, else the live session the
// request names, else its address (a forged session id is not a client).
// It fails with the queue's error when no turn came (*budget.BusyError) or
// the client left first.
func (s *Server) parse(r *http.Request, body []byte) (protocol.Message, error) {
	if len(body) < parseInQueue || s.parts.Work == nil {
		return protocol.Parse(body)
	}
	session := r.Header.Get(server.HeaderKeySessionID)
	if session != "" && s.sessions != nil {
		if _, err := s.sessions.Validate(session); err != nil {
			session = ""
		}
	}
	var (
		msg      protocol.Message
		parseErr error
	)
	client := budget.ClientFor(subjectOf(r), session, s.clientAddr(r))
	if err := s.parts.Work.Do(r.Context(), client, func() { msg, parseErr = protocol.Parse(body) }); err != nil {
		return msg, err
	}
	return msg, parseErr
}

// refused answers a request that Parts.Refusal answers itself, and
// reports whether it did. On 2026-07-28 (modern) the HTTP status follows
// the JSON-RPC error code as that revision prescribes, as mcp-go's own
// answers do (400 for invalid params, 404 for method not found); older
// revisions answer a JSON-RPC error with 200.
func (s *Server) refused(w http.ResponseWriter, r *http.Request, msg *protocol.Message, modern bool) bool {
	if s.parts.Refusal == nil || !msg.IsRequest() {
		return false
	}
	answer := s.parts.Refusal(r.Context(), msg)
	if answer == nil {
		return false
	}
	status := http.StatusOK
	if modern {
		status = modernStatus(answer)
	}
	writeJSON(w, status, answer)
	return true
}

// modernStatus is the HTTP status 2026-07-28 prescribes for a JSON-RPC
// error response (the mapping of mcp-go's StreamableHTTPServer).
func modernStatus(answer []byte) int {
	var resp struct {
		Error struct{ Code int } `json:"error"`
	}
	if json.Unmarshal(answer, &resp) != nil {
		return http.StatusOK
	}
	switch resp.Error.Code {
	case mcp.METHOD_NOT_FOUND:
		return http.StatusNotFound
	case mcp.INVALID_REQUEST, mcp.INVALID_PARAMS, mcp.PARSE_ERROR, mcp.HEADER_MISMATCH,
		mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, mcp.UNSUPPORTED_PROTOCOL_VERSION:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// writeJSON writes a JSON-RPC message as the response body.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// readBody reads a POST body of at most MaxBodyBytes within BodyTimeout.
// A body refused for its size is read to its end first (within the same
// time), so that a client still sending it gets the 413 instead of a
// connection reset; a body that does not arrive in time closes the
// connection after the answer, since the rest of it may never come.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	limit := s.cfg.MaxBodyBytes
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout))
	tooLarge := func() ([]byte, error) {
		if !strings.EqualFold(r.Header.Get("Expect"), "100-continue") { // else the client waits for us
			_, _ = io.Copy(io.Discard, r.Body)
		}
		w.Header().Set("Connection", "close")
		return nil, fmt.Errorf("%w: more than %d bytes (--max-body-bytes)", errTooLarge, limit)
	}
	if r.ContentLength > limit {
		return tooLarge()
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The deadline stays passed, so that Go's server does not wait
		// for the rest of the body before answering.
		w.Header().Set("Connection", "close")
		return nil, fmt.Errorf("%w: it did not arrive within %s (--body-timeout)", errBodyTimeout, s.cfg.BodyTimeout)
	case err != nil:
		w.Header().Set("Connection", "close")
		return nil, fmt.Errorf("request body is %w: the body could not be read", protocol.ErrParse)
	case int64(len(body)) > limit:
		return tooLarge()
	}
	// The deadline is lifted again for the response, which may be a long
	// SSE stream.
	_ = rc.SetReadDeadline(time.Time{})
	return body, nil
}

func (s *Server) get(next http.Handler, w http.ResponseWriter, r *http.Request) {
	if !acceptsEventStream(r) {
		writeError(w, errNotAcceptable, nil)
		return
	}
	ctx, done, err := s.sessions.openStream(r.Context(), r.Header.Get(server.HeaderKeySessionID))
	if err != nil {
		writeError(w, err, nil)
		return
	}
	defer done()
	ctx, counted, err := s.streams.add(ctx)
	if err != nil {
		s.refuse(w, err, nil)
		return
	}
	defer counted()
	// A stream ends when its session does (DELETE, expiry) and on shutdown,
	// by its context.
	serveStream(ctx, w, r, next, s.cfg.StreamWriteTimeout)
}

// acceptsEventStream reports whether a GET asks for what it gets: an event
// stream (a missing Accept accepts anything).
func acceptsEventStream(r *http.Request) bool {
	accept := r.Header.Values("Accept")
	if len(accept) == 0 {
		return true
	}
	for _, v := range accept {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
			switch strings.ToLower(strings.TrimSpace(mt)) {
			case "text/event-stream", "text/*", "*/*":
				return true
			}
		}
	}
	return false
}

func (s *Server) delete(next http.Handler, w http.ResponseWriter, r *http.Request) {
	if err := s.sessions.touch(r.Header.Get(server.HeaderKeySessionID)); err != nil {
		writeError(w, err, nil)
		return
	}
	next.ServeHTTP(w, r)
}
