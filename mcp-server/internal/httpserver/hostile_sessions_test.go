package httpserver_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Issue 35, part 4: 1,000 sessions from one address are used once and
// left idle, filling --max-sessions; then a new client there opens 1,000
// sessions, 8 at a time, each initialized and then called. Every call
// works: the new sessions, once used, push the idle ones out of the
// protected segment, and those make room, not the new sessions waiting
// for their first call (4eeee72: 178 of 1,000 worked).
func TestHostileStaleSessions(t *testing.T) {
	const stale, fresh, workers = 1000, 1000, 8
	p := start(t, anyRate)
	url := "http://" + p.addr + "/mcp"
	for range stale {
		sid := rawSession(t, p)
		if status, body, _, err := post(url, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); err != nil || status != 200 {
			t.Fatalf("tools/list: %d %v %s", status, err, body)
		}
	}
	var worked, failed atomic.Int64
	var first sync.Once
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				status, body, h, err := post(url, "", initialize)
				if err != nil || status != 200 {
					failed.Add(1)
					first.Do(func() { t.Logf("initialize %d: %d %v %.200s", i, status, err, body) })
					continue
				}
				sid := h.Get("Mcp-Session-Id")
				post(url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
				status, body, _, err = post(url, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mod_search_docs","arguments":{"query":"hook"}}}`)
				if code, _ := rpcError(body); err != nil || status != 200 || code != 0 {
					failed.Add(1)
					first.Do(func() { t.Logf("session %d's first call: %d %v %.200s", i, status, err, body) })
					continue
				}
				worked.Add(1)
			}
		})
	}
	for i := range fresh {
		next <- i
	}
	close(next)
	wg.Wait()
	t.Logf("after %d idle sessions from one address, a new client's %d sessions: %d worked, %d failed; %d live", stale, fresh, worked.Load(), failed.Load(), health(t, p).Sessions)
	if worked.Load() != fresh {
		t.Errorf("%d of the new client's %d sessions worked, want all", worked.Load(), fresh)
	}
}

// initializeFrom sends initialize on a new connection from the loopback
// address from, with extra headers, and returns the status and the
// Retry-After header.
func initializeFrom(t *testing.T, p *proc, from net.IP, header ...string) (int, string) {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: from}}).DialContext}}
	defer hc.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodPost, "http://"+p.addr+"/mcp", strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Retry-After")
}

// Issue 35, part 4: one address opening sessions in a loop gets 429 with
// Retry-After past --session-rate (here 2 a second, in bursts of 10),
// counted as sessions refusals; another address is not slowed by it.
func TestHostileSessionRate(t *testing.T) {
	const tries = 50
	p := start(t, []string{"DOCS_MCP_SESSION_RATE=2"})
	got := map[int]int{}
	badRetry := 0
	for range tries {
		status, retry := initializeFrom(t, p, net.IPv4(127, 0, 0, 1))
		got[status]++
		if n, err := strconv.Atoi(retry); status == http.StatusTooManyRequests && (err != nil || n < 1) {
			badRetry++
		}
	}
	t.Logf("%d initializes from one address in a loop: %v", tries, got)
	if got[http.StatusTooManyRequests] == 0 || got[http.StatusOK]+got[http.StatusTooManyRequests] != tries || got[http.StatusOK] >= tries/2 {
		t.Errorf("%d initializes in a loop: %v, want most of them 429", tries, got)
	}
	if badRetry > 0 {
		t.Errorf("%d answers 429 without a Retry-After of at least 1 s", badRetry)
	}
	if status, _ := initializeFrom(t, p, net.IPv4(127, 0, 0, 2)); status != http.StatusOK {
		t.Errorf("another address, meanwhile: %d, want 200", status)
	}
	if u := usage(health(t, p), "sessions"); u.Refused != int64(got[http.StatusTooManyRequests]) {
		t.Errorf("sessions refused %d, want %d", u.Refused, got[http.StatusTooManyRequests])
	}
}

// proxyInitialize sends a PROXY protocol v1 header naming client, then
// initialize, on a raw connection from the loopback address from, and
// returns the status line.
func proxyInitialize(t *testing.T, p *proc, from net.IP, client string) string {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: from}}
	c, err := d.Dial("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "PROXY TCP4 %s 127.0.0.1 40000 3000\r\nPOST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		client, p.addr, len(initialize), initialize)
	return statusLine(c, bufio.NewReader(c))
}

// Issue 35, part 4: behind a trusted proxy (--trusted-proxies 127.0.0.1,
// here with --session-rate 0.4: bursts of 2) each client is the address the
// proxy names, in X-Forwarded-For (its rightmost untrusted hop) or in a
// PROXY protocol header: each has its own rate. From an address that is
// not trusted, neither is believed: X-Forwarded-For is ignored, and a
// PROXY header is not HTTP (400).
func TestHostileTrustedProxies(t *testing.T) {
	p := start(t, []string{"DOCS_MCP_SESSION_RATE=0.4", "DOCS_MCP_TRUSTED_PROXIES=127.0.0.1,10.0.0.0/8"})
	local, other := net.IPv4(127, 0, 0, 1), net.IPv4(127, 0, 0, 2)
	xff := func(from net.IP, hops string) int {
		status, _ := initializeFrom(t, p, from, "X-Forwarded-For", hops)
		return status
	}
	type step struct {
		What   string
		Status int
	}
	var got []step
	add := func(what string, status int) { got = append(got, step{what, status}) }
	// One client behind the proxy uses its burst, whatever it writes on
	// the left of the chain; others behind the same proxy are not slowed.
	for i := range 3 {
		add("client A "+strconv.Itoa(i), xff(local, fmt.Sprintf("192.0.2.%d, 198.51.100.7, 10.1.2.3", i)))
	}
	add("client B", xff(local, "198.51.100.8"))
	// PROXY protocol from the trusted proxy: client C has its own burst.
	for i := range 3 {
		line := proxyInitialize(t, p, local, "203.0.113.9")
		add("client C "+strconv.Itoa(i)+" (PROXY)", map[string]int{"HTTP/1.1 200 OK": 200, "HTTP/1.1 429 Too Many Requests": 429}[line])
	}
	// An untrusted address claiming to be client B is itself.
	for i := range 3 {
		add("untrusted, claiming B "+strconv.Itoa(i), xff(other, "198.51.100.8"))
	}
	add("untrusted, PROXY header", map[string]int{"HTTP/1.1 400 Bad Request": 400}[proxyInitialize(t, p, other, "198.51.100.8")])
	want := []step{
		{"client A 0", 200}, {"client A 1", 200}, {"client A 2", 429},
		{"client B", 200},
		{"client C 0 (PROXY)", 200}, {"client C 1 (PROXY)", 200}, {"client C 2 (PROXY)", 429},
		{"untrusted, claiming B 0", 200}, {"untrusted, claiming B 1", 200}, {"untrusted, claiming B 2", 429},
		{"untrusted, PROXY header", 400},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("initializes (-want +got):\n%s", diff)
	}
	if !strings.Contains(p.stderr.String(), `"client":"198.51.100.7"`) {
		t.Error("the access log does not name the client behind the proxy")
	}
}
