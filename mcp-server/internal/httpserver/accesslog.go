package httpserver

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// accessLog writes one line per request to the logger: method, path,
// status, duration, response bytes, the MCP session id and, in OAuth
// resource-server mode, the token's subject. Headers are never logged, so
// neither is a bearer token. A successful /health is
// logged at debug level: health checks poll it every few seconds and would
// drown the rest. Refusals of /mcp requests are counted for /metrics here,
// where every response's status is seen.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w}
		note := &logNote{}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), logNoteKey{}, note)))
		session := w.Header().Get(server.HeaderKeySessionID) // minted by initialize
		if session == "" {
			session = r.Header.Get(server.HeaderKeySessionID)
		}
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		s.countRefusal(r, rec.status, w.Header())
		level := slog.LevelInfo
		if r.URL.Path == "/health" && rec.status == http.StatusOK {
			level = slog.LevelDebug
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", rec.status),
			slog.Duration("duration", time.Since(start)),
			slog.Int64("bytes", rec.bytes),
			slog.String("session", session),
			slog.String("remote", r.RemoteAddr),
		}
		if note.subject != "" {
			attrs = append(attrs, slog.String("subject", note.subject))
		}
		if client := s.clientAddr(r); client != clientHost(r.RemoteAddr) {
			attrs = append(attrs, slog.String("client", client)) // as a trusted proxy said
		}
		s.log.LogAttrs(r.Context(), level, "http", attrs...)
	})
}

// logNote is what the handlers tell the access log about a request.
type logNote struct{ subject string }

type logNoteKey struct{}

// noteSubject records the authenticated subject of r for its log line.
func noteSubject(r *http.Request, subject string) {
	if note, ok := r.Context().Value(logNoteKey{}).(*logNote); ok {
		note.subject = subject
	}
}

// recorder notes the status and size of a response. It passes Flush on,
// which SSE streams need, and unwraps for http.ResponseController.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
