package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// searcher speaks MCP to the server over its standard input and output,
// one JSON-RPC message a line each way, and times each search twice:
//   - the round trip: from the request written to the pipe to the end of
//     the line answering it read back, what the server and the pipe take
//     before any client can decode the answer;
//   - the whole call: the round trip, then the decoding of that same answer
//     as mcp-go's stdio client does it (mcptest.DecodeAsMCPGo). That
//     decoding grows with the answer and does not depend on the server;
//     BenchmarkClientDecode in mcp-server/internal/mcpserver times it
//     alone.
//
// Timing the decoding apart, on the bytes the server sent, shows what the
// server takes and what one widely used client adds to it.
//
// The searcher's own garbage is collected between searches, never during
// one: decoding a 50-match answer as mcp-go does makes about 150 KB of it,
// and a collection running beside a search would take the core the server
// needs (on 2 cores), timing the client's collector rather than the
// server.
type searcher struct {
	in    io.WriteCloser // the server's standard input
	out   *bufio.Reader  // its standard output
	id    int            // of the last request
	calls int
	// version, when set, is the version argument of every search (a
	// release served with the server's --versions, or latest).
	version string
}

// startServer starts bin with args, its log going to stderr, and returns
// a searcher speaking to it over its stdin and stdout; stop ends both.
func startServer(ctx context.Context, bin string, args []string, stderr io.Writer) (*searcher, *exec.Cmd, error) {
	proc := exec.CommandContext(ctx, bin, args...)
	proc.Stderr = stderr
	stdin, err := proc.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := proc.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := proc.Start(); err != nil {
		return nil, nil, fmt.Errorf("start server: %w", err)
	}
	return newSearcher(stdin, stdout), proc, nil
}

func newSearcher(in io.WriteCloser, out io.Reader) *searcher {
	return &searcher{in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

// timing is one search's two times (see searcher).
type timing struct{ roundTrip, call time.Duration }

type timings struct{ roundTrip, call []time.Duration }

func (ts *timings) add(t timing) {
	ts.roundTrip = append(ts.roundTrip, t.roundTrip)
	ts.call = append(ts.call, t.call)
}

// initialize opens the session as a client of the latest revision with
// sessions (2025-11-25) does.
func (s *searcher) initialize(ctx context.Context) error {
	_, _, err := s.call(ctx, "initialize", map[string]any{
		"protocolVersion": mcp.LATEST_LEGACY_PROTOCOL_VERSION,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "searchbench", "version": "1"},
	})
	if err != nil {
		return err
	}
	return s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
}

// search calls mod_search_docs until its answer is complete, and returns
// the number of matches, the calls it took and their times summed. A page
// is complete when it holds limit matches, or when the server says no
// more remain; a page cut short before that (the server stopped for its
// per-call budget) is followed through its cursor, as a client that wants
// the answer must, and every call is counted.
func (s *searcher) search(ctx context.Context, text string, limit int) (matches, calls int, t timing, err error) {
	args := map[string]any{"query": text, "limit": limit}
	if s.version != "" {
		args["version"] = s.version
	}
	for {
		n, more, cursor, one, err := s.page(ctx, args)
		calls++
		t.roundTrip += one.roundTrip
		t.call += one.call
		if err != nil {
			return 0, calls, t, err
		}
		if matches += n; !more || matches >= limit {
			return matches, calls, t, nil
		}
		args["cursor"], args["limit"] = cursor, limit-matches
	}
}

// page calls mod_search_docs once and returns its number of matches,
// whether more remain and the cursor to them, and its times.
func (s *searcher) page(ctx context.Context, args map[string]any) (int, bool, string, timing, error) {
	line, roundTrip, err := s.call(ctx, "tools/call", map[string]any{"name": "mod_search_docs", "arguments": args})
	if err != nil {
		return 0, false, "", timing{}, err
	}
	begin := time.Now()
	res, err := mcptest.DecodeAsMCPGo(line)
	t := timing{roundTrip: roundTrip, call: roundTrip + time.Since(begin)}
	if s.calls++; s.calls%16 == 0 {
		runtime.GC()
	}
	if err != nil {
		return 0, false, "", t, err
	}
	if res.IsError {
		return 0, false, "", t, fmt.Errorf("tool error: %v", res.Content)
	}
	out, ok := res.StructuredContent.(map[string]any)
	if !ok {
		return 0, false, "", t, fmt.Errorf("no structured content in %v", res.Content)
	}
	docs, ok := out["docs"].([]any)
	if !ok {
		return 0, false, "", t, fmt.Errorf("structured content without docs: %v", out)
	}
	// The matching lines, grouped by doc and section.
	matches := 0
	for _, d := range docs {
		sections, _ := d.(map[string]any)["sections"].([]any)
		for _, s := range sections {
			lines, _ := s.(map[string]any)["lines"].([]any)
			matches += len(lines)
		}
	}
	more, _ := out["has_more"].(bool)
	cursor, _ := out["next_cursor"].(string)
	return matches, more, cursor, t, nil
}

// call sends a request and returns the line that answers it, with the time
// from writing the request to reading that line's end. Lines between
// (notifications, such as the list changes that edits cause) are skipped.
func (s *searcher) call(ctx context.Context, method string, params any) ([]byte, time.Duration, error) {
	s.id++
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params})
	if err != nil {
		return nil, 0, err
	}
	begin := time.Now()
	if _, err := s.in.Write(append(req, '\n')); err != nil {
		return nil, 0, fmt.Errorf("send %s: %w", method, err)
	}
	for {
		line, err := s.out.ReadBytes('\n')
		took := time.Since(begin)
		if err != nil {
			if ctx.Err() != nil {
				return nil, took, ctx.Err()
			}
			return nil, took, fmt.Errorf("read the answer to %s: %w", method, err)
		}
		var head struct {
			ID    *int `json:"id"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
			Method string `json:"method"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return nil, took, fmt.Errorf("answer to %s: %w", method, err)
		}
		if head.Method != "" || head.ID == nil || *head.ID != s.id {
			continue
		}
		if head.Error != nil {
			return nil, took, fmt.Errorf("%s: JSON-RPC error %d: %s", method, head.Error.Code, head.Error.Message)
		}
		return line, took, nil
	}
}

func (s *searcher) send(msg any) error {
	raw, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = s.in.Write(append(raw, '\n'))
	return err
}

// stop closes the server's standard input, which ends it, and waits for
// it to exit, killing it if it has not after 10 s.
func stop(s *searcher, proc *exec.Cmd) {
	s.in.Close()
	exited := make(chan error, 1)
	go func() { exited <- proc.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		if err := proc.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			fmt.Fprintln(os.Stderr, "searchbench: kill the server:", err)
		}
		<-exited
	}
}
