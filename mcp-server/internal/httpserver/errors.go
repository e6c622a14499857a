package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
)

// Request errors that the middleware answers itself, before mcp-go sees the
// request. Each maps to one HTTP status and JSON-RPC error code in problems.
var (
	errHost          = errors.New("forbidden Host header (DNS rebinding protection): use localhost, 127.0.0.1 or [::1]")
	errOrigin        = errors.New("forbidden Origin: it is not this server and not in --allowed-origins")
	errUnauthorized  = errors.New("missing or wrong bearer token: send Authorization: Bearer <token>")
	errMethod        = errors.New("method not allowed on /mcp: use POST, GET or DELETE")
	errStateless     = errors.New("this server is stateless (--stateless): there are no sessions, so no GET stream and no DELETE")
	errTooLarge      = errors.New("request body too large")
	errBodyTimeout   = errors.New("request body too slow")
	errNotAcceptable = errors.New("a GET on /mcp answers an event stream: send Accept: text/event-stream")
	errBatch         = errors.New("JSON-RPC batches are not supported: send one message per POST")
	errStopping      = errors.New("the server is shutting down")
	errInitialized   = errors.New("this session is initialized already: send initialize without Mcp-Session-Id to start a new one")
)

// JSON-RPC error codes used in our error bodies.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeServer         = -32000 // implementation-defined server error
	codeNoSession      = -32001 // session not found (the code the TypeScript SDK uses)
)

type problem struct {
	status int
	code   int
	budget budget.Name // the budget that refused the request, if any
}

// problemOf maps a request error to what the client gets: the one place
// that decides HTTP statuses. Anything unexpected is a 500.
func problemOf(err error) problem {
	var busy *budget.BusyError
	switch {
	case errors.As(err, &busy), errors.Is(err, context.Canceled):
		// No turn in the work queue (the queue counts the refusal), or
		// the client left while it waited.
		return problem{http.StatusServiceUnavailable, codeServer, ""}
	case errors.Is(err, errHost), errors.Is(err, errOrigin):
		return problem{http.StatusForbidden, codeServer, ""}
	case errors.Is(err, errUnauthorized), errors.Is(err, oauth.ErrNoToken), errors.Is(err, oauth.ErrInvalidToken):
		return problem{http.StatusUnauthorized, codeServer, ""}
	case errors.Is(err, oauth.ErrInsufficientScope):
		return problem{http.StatusForbidden, codeServer, ""}
	case errors.Is(err, oauth.ErrUnavailable):
		return problem{http.StatusServiceUnavailable, codeServer, ""}
	case errors.Is(err, errSubjectFull), errors.Is(err, errSessionRate):
		return problem{http.StatusTooManyRequests, codeServer, budget.Sessions}
	case errors.Is(err, errMethod), errors.Is(err, errStateless):
		return problem{http.StatusMethodNotAllowed, codeServer, ""}
	case errors.Is(err, errTooLarge):
		return problem{http.StatusRequestEntityTooLarge, codeInvalidRequest, budget.Body}
	case errors.Is(err, errBodyTimeout):
		return problem{http.StatusRequestTimeout, codeInvalidRequest, budget.Body}
	case errors.Is(err, errNotAcceptable):
		return problem{http.StatusNotAcceptable, codeInvalidRequest, ""}
	case errors.Is(err, errBatch), errors.Is(err, errNoSession), errors.Is(err, errInitialized):
		return problem{http.StatusBadRequest, codeInvalidRequest, ""}
	case errors.Is(err, protocol.ErrParse):
		return problem{http.StatusBadRequest, codeParse, ""}
	case errors.Is(err, errUnknownSession):
		return problem{http.StatusNotFound, codeNoSession, ""}
	case errors.Is(err, errStreamOpen):
		return problem{http.StatusConflict, codeServer, ""}
	case errors.Is(err, errSessionsFull):
		return problem{http.StatusServiceUnavailable, codeServer, budget.Sessions}
	case errors.Is(err, errStreamsFull):
		return problem{http.StatusServiceUnavailable, codeServer, budget.Streams}
	case errors.Is(err, errStopping):
		return problem{http.StatusServiceUnavailable, codeServer, ""}
	}
	return problem{http.StatusInternalServerError, codeServer, ""}
}

// refuse answers a request that a budget refused, counting it under that
// budget and logging it.
func (s *Server) refuse(w http.ResponseWriter, err error, id json.RawMessage) {
	if b := problemOf(err).budget; b != "" {
		s.budgets.Refuse(b)
		s.log.Warn("refused", "budget", b, "err", err)
	}
	writeError(w, err, id)
}

// writeError answers a request with the status and JSON-RPC error that err
// maps to. id is the request's JSON-RPC id when known, else null.
func writeError(w http.ResponseWriter, err error, id json.RawMessage) {
	p := problemOf(err)
	if errors.Is(err, errUnknownSession) {
		// Without the request's id: a session another subject opened is
		// refused before the body is read, and its 404 must be the same
		// bytes as an unknown id's, or a token holder could tell a
		// leaked id is live.
		id = nil
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	switch p.status {
	case http.StatusUnauthorized:
		if h.Get("WWW-Authenticate") == "" { // OAuth's challenge is set already
			h.Set("WWW-Authenticate", `Bearer realm="docs-mcp"`)
		}
	case http.StatusServiceUnavailable, http.StatusTooManyRequests:
		retry := 5
		if re := (*rateError)(nil); errors.As(err, &re) {
			retry = re.retryAfter()
		}
		h.Set("Retry-After", strconv.Itoa(retry))
	case http.StatusMethodNotAllowed:
		if errors.Is(err, errStateless) {
			h.Set("Allow", "POST")
		} else {
			h.Set("Allow", "POST, GET, DELETE")
		}
	}
	w.WriteHeader(p.status)
	_, _ = w.Write(append(protocol.Error(id, p.code, err.Error(), nil), '\n'))
}
