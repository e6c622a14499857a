package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// floodConfig is the hostile load run beside the measured sessions: n
// raw sessions that each send the same padded request over and over.
type floodConfig struct {
	sessions int
	methods  string // comma-separated: ping, completion/complete
	bytes    int    // each body's size
}

// floodBody is a request of method padded to size bytes: ping pads its
// _meta, completion/complete its argument's value (issue 35's maximal
// bodies).
func floodBody(method string, size int) string {
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{"_meta":{"pad":"`, method)
	if method == "completion/complete" {
		head = `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"mod_modding_context"},"argument":{"name":"task","value":"`
	}
	const tail = `"}}}`
	return head + strings.Repeat("p", max(0, size-len(head)-len(tail))) + tail
}

// flood runs fc.sessions raw sessions until ctx ends: each initializes
// over plain HTTP, then sends its method's padded body (the methods taken
// in turn by session) again and again. It returns the HTTP statuses they
// got (-1: no answer).
func flood(ctx context.Context, url string, fc floodConfig) map[int]int {
	methods := strings.Split(fc.methods, ",")
	bodies := map[string]string{}
	for _, m := range methods {
		bodies[m] = floodBody(m, fc.bytes)
	}
	r := newRaw(url, fc.sessions)
	var wg sync.WaitGroup
	for i := range fc.sessions {
		body := bodies[methods[i%len(methods)]]
		wg.Go(func() {
			_, session := r.send(ctx, "", initialize)
			for ctx.Err() == nil {
				status, _ := r.send(ctx, session, body)
				r.count(ctx, status)
			}
		})
	}
	wg.Wait()
	return r.statuses
}

// churn runs n loops until ctx ends that open sessions as fast as they
// can and never end them: initialize, notifications/initialized, ping. It
// returns the HTTP statuses of their initializes.
func churn(ctx context.Context, url string, n int) map[int]int {
	r := newRaw(url, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				status, session := r.send(ctx, "", initialize)
				r.count(ctx, status)
				if status != http.StatusOK {
					continue
				}
				r.send(ctx, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
				r.send(ctx, session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
			}
		})
	}
	wg.Wait()
	return r.statuses
}

const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"loadtest-raw","version":"1"}}}`

// raw sends JSON-RPC requests over plain HTTP and counts the statuses.
type raw struct {
	url string
	hc  *http.Client

	mu       sync.Mutex
	statuses map[int]int
}

func newRaw(url string, conns int) *raw {
	return &raw{url: url, hc: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns}}, statuses: map[int]int{}}
}

// count adds a status, unless the run ended while it was awaited.
func (r *raw) count(ctx context.Context, status int) {
	if ctx.Err() != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.statuses[status]++
}

// send POSTs body, on session when not "", and returns the status (-1:
// no answer) and the Mcp-Session-Id of the answer.
func (r *raw) send(ctx context.Context, session, body string) (int, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, strings.NewReader(body))
	if err != nil {
		return -1, ""
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := r.hc.Do(req)
	if err != nil {
		return -1, ""
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Mcp-Session-Id")
}
