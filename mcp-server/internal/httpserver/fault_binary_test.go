package httpserver_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Fault: SIGTERM while clients keep the real binary busy (sessions opened,
// searched and deleted in a loop). Every request is either answered in
// full or not served at all (connection refused or closed before a
// response began, or 503 for a new session once stopping); none is cut off
// mid-answer, and the process exits 0.
func TestFaultSIGTERMUnderLoad(t *testing.T) {
	const workers = 16
	p := start(t, anyRate, "--shutdown-timeout", "30s")
	url := "http://" + p.addr + "/mcp"

	var (
		sigtermSent         atomic.Bool
		answered, afterTerm atomic.Int64
		notServed, refused  atomic.Int64
		mu                  sync.Mutex
		failures            []string
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf(format, args...))
	}
	// post sends one message and says whether the worker may go on.
	post := func(client *http.Client, method, session, body string) (sid string, ok bool) {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		term := sigtermSent.Load()
		res, err := client.Do(req)
		if err != nil { // no response began
			if !term && !sigtermSent.Load() {
				fail("%s before SIGTERM: %v", method, err)
			}
			notServed.Add(1)
			return "", false
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		switch {
		case err != nil:
			fail("%s cut off after status %d: %v (%d bytes read)", method, res.StatusCode, err, len(b))
			return "", false
		case res.StatusCode == http.StatusServiceUnavailable && sigtermSent.Load():
			refused.Add(1)
			return "", false
		case res.StatusCode != http.StatusOK:
			fail("%s: status %d: %s", method, res.StatusCode, b)
			return "", false
		}
		if method == http.MethodPost && !hasResult(res.Header.Get("Content-Type"), b) {
			fail("POST answered 200 with an incomplete or failed message: %.200s", b)
			return "", false
		}
		answered.Add(1)
		if sigtermSent.Load() {
			afterTerm.Add(1)
		}
		return res.Header.Get("Mcp-Session-Id"), true
	}

	const search = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"hook"}}}`
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{}}
			defer client.CloseIdleConnections()
			for {
				sid, ok := post(client, http.MethodPost, "", initialize)
				if !ok {
					return
				}
				for range 5 {
					if _, ok := post(client, http.MethodPost, sid, search); !ok {
						return
					}
				}
				if _, ok := post(client, http.MethodDelete, sid, ""); !ok {
					return
				}
			}
		})
	}
	stopped := make(chan struct{}) // every worker gave up: a failure is recorded
	go func() { wg.Wait(); close(stopped) }()
	for answered.Load() < 500 {
		select {
		case <-stopped:
			t.Fatalf("every client stopped before 500 answers:\n%s", strings.Join(failures, "\n"))
		case <-time.After(10 * time.Millisecond):
		}
	}
	sigtermSent.Store(true)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	select {
	case <-p.exited:
	case <-time.After(60 * time.Second):
		t.Fatal("docs-mcp still running a minute after SIGTERM")
	}
	t.Logf("%d requests answered in full (%d of them after SIGTERM), %d not served (no response begun), %d new sessions refused with 503",
		answered.Load(), afterTerm.Load(), notServed.Load(), refused.Load())
	for _, f := range failures {
		t.Error(f)
	}
	var exit interface{ ExitCode() int }
	if p.err != nil && (!errors.As(p.err, &exit) || exit.ExitCode() != 0) {
		t.Errorf("exit after SIGTERM under load: %v, want status 0", p.err)
	}
}

// hasResult says whether a POST's answer holds a JSON-RPC result: the body
// itself, or, when the server answered with an event stream (it does when
// notifications, such as the resource list changing once the docs are
// loaded, go out with the answer), one of its data lines.
func hasResult(contentType string, body []byte) bool {
	messages := [][]byte{body}
	if strings.HasPrefix(contentType, "text/event-stream") {
		messages = nil
		for line := range bytes.Lines(body) {
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				messages = append(messages, data)
			}
		}
	}
	for _, m := range messages {
		var msg struct{ Result json.RawMessage }
		if json.Unmarshal(m, &msg) == nil && msg.Result != nil {
			return true
		}
	}
	return false
}
