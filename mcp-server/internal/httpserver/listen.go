package httpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
)

// establishesNothing reports whether a 2026-07-28 subscriptions/listen asks
// for nothing this server delivers: docs-mcp offers resource list changes
// and resource subscriptions, never tool or prompt list changes (its tools
// and prompts are fixed; the conformance test's labels say so and fail if
// that changes). Such a listen is acknowledged and answered at once.
func establishesNothing(msg *protocol.Message) bool {
	n := msg.Params.Notifications
	return msg.ParamsErr == nil && !n.ResourcesListChanged && len(n.ResourceSubscriptions) == 0
}

// serveEmptyListen serves a listen that establishes nothing (see
// establishesNothing) as a stream whose first message is its
// acknowledgement, then its result. mcp-go v1.2.1 queues the
// acknowledgement for the stream and returns the result at once: its
// forwarder can take the acknowledgement off the queue and then find the
// request done, and drop it (seen in 2 of 13 conformance runs on a loaded
// machine). So mcp-go's answer is taken whole here, and the
// acknowledgement put first when it is missing; the result is mcp-go's as
// it wrote it.
func serveEmptyListen(w http.ResponseWriter, r *http.Request, next http.Handler, id json.RawMessage) {
	rec := &buffered{header: http.Header{}}
	next.ServeHTTP(rec, r)
	var events [][]byte
	if rec.status == 0 || rec.status == http.StatusOK {
		events = sseData(rec.body.Bytes(), rec.header.Get("Content-Type"))
	}
	if len(events) == 0 || !bytes.Contains(events[len(events)-1], []byte(`"result"`)) {
		// An error or an answer of another shape: passed on as it came.
		copyHeader(w.Header(), rec.header)
		w.WriteHeader(max(rec.status, http.StatusOK))
		w.Write(rec.body.Bytes())
		return
	}
	if !bytes.Contains(events[0], []byte(mcp.MethodNotificationSubscriptionsAcknowledged)) {
		var subID any
		if err := json.Unmarshal(id, &subID); err != nil {
			subID = string(id)
		}
		ack, err := json.Marshal(mcp.JSONRPCNotification{
			JSONRPC: mcp.JSONRPC_VERSION,
			Notification: mcp.Notification{
				Method: mcp.MethodNotificationSubscriptionsAcknowledged,
				Params: mcp.NotificationParams{
					Meta:             map[string]any{mcp.MetaKeySubscriptionID: subID},
					AdditionalFields: map[string]any{"notifications": mcp.SubscriptionFilter{}},
				},
			},
		})
		if err == nil {
			events = append([][]byte{ack}, events...)
		}
	}
	copyHeader(w.Header(), rec.header)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Del("Content-Length")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", e)
	}
}

// sseData returns the data of each event of an SSE body, or the body
// itself when it is a JSON answer.
func sseData(body []byte, contentType string) [][]byte {
	if !bytes.HasPrefix([]byte(contentType), []byte("text/event-stream")) {
		if len(bytes.TrimSpace(body)) == 0 {
			return nil
		}
		return [][]byte{bytes.TrimSpace(body)}
	}
	var out [][]byte
	for _, event := range bytes.Split(body, []byte("\n\n")) {
		for _, line := range bytes.Split(event, []byte("\n")) {
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				out = append(out, data)
			}
		}
	}
	return out
}

func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = v
	}
}

// buffered keeps what a handler writes, and lets it flush (mcp-go streams
// only to a writer that can).
type buffered struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *buffered) Header() http.Header { return r.header }
func (r *buffered) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}
func (r *buffered) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
func (r *buffered) Flush() {}
