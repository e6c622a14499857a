// Package stdio is docs-mcp's stdio transport (docs-mcp --stdio): one MCP
// session over a pair of pipes, one JSON-RPC message per line. It is a
// peer of httpserver, the Streamable HTTP transport, and keeps the same
// contract: each line is parsed once (protocol.Parse) and the parse is
// handed on in the request's context (protocol.WithMessage), where
// mcpserver's refusals, revision and subscription checks read it; mcp-go
// then answers the line, which it parses again for itself (its
// MCPServer.HandleMessage takes bytes only).
package stdio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/transport"
)

// stdio serves one MCP session over a pair of pipes:
// mcp-go's server answers every message (MCPServer.HandleMessage); stdio
// reads the lines, runs each request on a goroutine of its own, and writes
// the answers. mcp-go's own stdio transport (server.StdioServer) does the
// same, but:
//
//   - it stops, and cancels the requests in flight, as soon as it reads end
//     of input: a client that writes its requests and closes its end of the
//     pipe (printf ... | docs-mcp --stdio) would lose the last answers.
//     stdio answers every request read first (see drain);
//   - it answers a request the client cancelled (notifications/cancelled,
//     which mcp-go passes on to the handler's context): stdio drops that
//     answer, as the protocol asks;
//   - it keeps every line it reads, however long, and copies it five
//     times. stdio reads a line longer than maxLine bytes (newline
//     included) to its end without keeping it, and answers it with a
//     JSON-RPC error naming the limit; any other line is copied once, into
//     a buffer of its own (twice while that grows), and parsed by mcp-go
//     from there;
//   - it answers a batch with a parse error and takes a request whose id is
//     null for a notification (see refuse);
//   - it writes each answer with json.Marshal, which checks and compacts
//     the bytes a result's MarshalJSON returned in a second pass over them.
//     stdio writes a tool call's result as mcp-go's MarshalJSON makes it
//     (see encode): for a page of 50 search matches (24 KB) that pass was
//     about 0.4 ms of CPU, a quarter of the answer's (docs/server/benchmarks.md).
type stdio struct {
	srv     *server.MCPServer
	log     *slog.Logger
	in      *bufio.Reader
	out     io.Writer
	maxLine int
	// refusal answers a request mcp-go would answer wrongly (nil: none;
	// see mcpserver.Server.Refusal).
	refusal func(context.Context, *protocol.Message) []byte
	session *stdioSession

	mu       sync.Mutex       // guards what follows, and writes to out
	inFlight map[string]*call // requests being answered, by idKey
	held     int              // bytes of their lines
	ended    *sync.Cond       // broadcast whenever a call ends
	calls    sync.WaitGroup   // their goroutines
}

// call is a request being answered.
type call struct {
	id        json.RawMessage
	cancelled bool // by the client: its answer is dropped
	listen    bool
}

// DefaultMaxLineBytes is the default longest stdio line (--max-line-bytes).
const DefaultMaxLineBytes = 16 << 20

// DrainTimeout bounds how long end of input waits for the answers to the
// requests already read.
const DrainTimeout = 30 * time.Second

// maxInFlight is the most requests answered at once, and heldLines the most
// lines' worth of bytes (heldLines times the longest line) they may hold:
// past either, stdio reads no more lines until a request is answered, and
// the client's writes wait in the pipe. The tool calls among them also wait
// their turn in the work queue (--max-concurrent-work, --max-client-work);
// these bound the goroutines and the memory held meanwhile.
const (
	maxInFlight = 256
	heldLines   = 4
)

// Serve serves parts' MCP server over stdin and stdout (the parts an HTTP
// server takes: stdio uses the MCP server, the refusals and the logger),
// lines of at most maxLine bytes, until end of input (once the requests
// read are answered), a read error, or ctx ends; the last two are not
// errors when ctx ended.
func Serve(ctx context.Context, parts transport.Parts, stdin io.Reader, stdout io.Writer, maxLine int) error {
	log := parts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &stdio{srv: parts.MCP, log: log, in: bufio.NewReaderSize(stdin, 64<<10), out: stdout, maxLine: maxLine,
		refusal: parts.Refusal, session: newStdioSession(), inFlight: map[string]*call{}}
	s.ended = sync.NewCond(&s.mu)
	err := s.serve(ctx)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("serve stdio: %w", err)
	}
	return nil // the caller logs why serving stopped
}

// serve reads and answers messages until end of input (then answers what
// it read first), a read error, or ctx ends.
func (s *stdio) serve(ctx context.Context) error {
	base := ctx // without the session: the refusals' checks run before mcp-go's
	ctx, stop := context.WithCancel(ctx)
	defer func() {
		stop() // ends the listens, and whatever the drain did not wait for
		s.calls.Wait()
	}()
	if err := s.srv.RegisterSession(ctx, s.session); err != nil {
		return fmt.Errorf("register the stdio session: %w", err)
	}
	defer s.srv.UnregisterSession(context.WithoutCancel(ctx), s.session.SessionID())
	ctx = s.srv.WithContext(ctx, s.session)
	defer context.AfterFunc(ctx, s.wake)() // see dispatch's wait
	go s.notify(ctx)

	lines := make(chan lineRead)
	go s.readLines(ctx, lines)
	for {
		var l lineRead
		select {
		case l = <-lines:
		case <-ctx.Done():
			return ctx.Err()
		}
		if l.tooLong {
			s.write(lineTooLong(s.maxLine))
		}
		if len(l.line) > 0 {
			s.dispatch(base, ctx, l.line)
		}
		if l.err != nil {
			if errors.Is(l.err, io.EOF) {
				s.drain(ctx)
				return nil
			}
			return l.err
		}
	}
}

type lineRead struct {
	line    []byte
	tooLong bool
	err     error
}

// readLines reads lines until an error, handing each to serve. Reading
// blocks in the pipe, which ctx cannot interrupt: serve stops waiting for
// it when ctx ends, and the process exits.
func (s *stdio) readLines(ctx context.Context, lines chan<- lineRead) {
	for {
		var l lineRead
		l.line, l.tooLong, l.err = s.readLine()
		if len(l.line) > 0 && l.line[len(l.line)-1] != '\n' {
			l.line = append(l.line, '\n') // end of input cut the last line short
		}
		select {
		case lines <- l:
		case <-ctx.Done():
			return
		}
		if l.err != nil {
			return
		}
	}
}

// readLine reads the next line into a buffer of its own. A line longer
// than s.maxLine is read to its end but not kept: tooLong, and no line.
func (s *stdio) readLine() (line []byte, tooLong bool, err error) {
	for {
		frag, err := s.in.ReadSlice('\n')
		if !tooLong && len(line)+len(frag) > s.maxLine {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, frag...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}

// dispatch answers one line: a refused one at once, a request on a
// goroutine of its own (a listen lasts the session; a tool call may wait
// its turn), anything else (notifications, lines that are not JSON) in
// order, before the next line is read. base is ctx without the session.
func (s *stdio) dispatch(base, ctx context.Context, line []byte) {
	msg, perr := protocol.Parse(line) // the one parse for every check here
	refusal := refuse(line, &msg, perr)
	if refusal == nil && perr == nil && s.refusal != nil {
		if r := s.refusal(base, &msg); r != nil {
			refusal = append(r, '\n')
		}
	}
	if refusal != nil {
		s.write(refusal)
		return
	}
	if perr == nil {
		// The one parse, handed on: mcpserver's subscription check reads
		// it from the context, as over HTTP.
		ctx = protocol.WithMessage(ctx, &msg)
	}
	if perr != nil || !msg.IsRequest() {
		if perr == nil && msg.Method == string(mcp.MethodNotificationCancelled) {
			s.cancel(idKey(msg.Params.RequestID))
		}
		s.answer(ctx, nil, line)
		return
	}
	id := idKey(msg.ID)
	c := &call{id: msg.ID, listen: msg.Method == string(mcp.MethodSubscriptionsListen)}
	s.mu.Lock()
	for ctx.Err() == nil && (len(s.inFlight) >= maxInFlight || s.held+len(line) > heldLines*s.maxLine) {
		s.ended.Wait()
	}
	s.inFlight[id] = c
	s.held += len(line)
	s.mu.Unlock()
	s.calls.Go(func() {
		defer func() {
			s.mu.Lock()
			if s.inFlight[id] == c {
				delete(s.inFlight, id)
			}
			s.held -= len(line)
			s.ended.Broadcast()
			s.mu.Unlock()
		}()
		s.answer(ctx, c, line)
	})
}

// answer has mcp-go answer line, and writes the answer unless c (the
// request's call, nil for a notification) was cancelled by the client
// meanwhile. A handler's panic is answered as an internal error.
func (s *stdio) answer(ctx context.Context, c *call, line []byte) {
	var resp mcp.JSONRPCMessage
	func() {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("panic answering a stdio message", "panic", r)
				if c != nil {
					resp = mcp.NewJSONRPCError(mcp.NewRequestId(c.id), mcp.INTERNAL_ERROR, fmt.Sprint("internal error: ", r), nil)
				}
			}
		}()
		resp = s.srv.HandleMessage(ctx, line)
	}()
	if resp == nil {
		return
	}
	if c != nil {
		s.mu.Lock()
		cancelled := c.cancelled
		s.mu.Unlock()
		if cancelled {
			return
		}
	}
	out, err := encode(resp)
	if err != nil {
		s.log.Error("cannot encode an answer", "err", err)
		return
	}
	s.write(out)
}

// cancel notes that the client cancelled a request (notifications/cancelled),
// if it is being answered: its answer is dropped. mcp-go, which the
// notification goes on to, ends the handler's context.
func (s *stdio) cancel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.inFlight[id]; ok {
		c.cancelled = true
	}
}

// drain waits, at end of input, until every request read but the listens
// (which last the session) is answered, ctx ends, or DrainTimeout passes.
func (s *stdio) drain(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, DrainTimeout)
	defer cancel()
	defer context.AfterFunc(ctx, s.wake)()
	s.mu.Lock()
	defer s.mu.Unlock()
	for ctx.Err() == nil && s.owedLocked() {
		s.ended.Wait()
	}
}

// owedLocked reports whether a request other than a listen is being
// answered.
func (s *stdio) owedLocked() bool {
	for _, c := range s.inFlight {
		if !c.listen {
			return true
		}
	}
	return false
}

// wake wakes whatever waits for a call to end, so that it looks at its
// context again.
func (s *stdio) wake() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended.Broadcast()
}

// notify writes the notifications mcp-go sends the session until ctx ends.
func (s *stdio) notify(ctx context.Context) {
	for {
		select {
		case n := <-s.session.notifications:
			out, err := encode(n)
			if err != nil {
				s.log.Error("cannot encode a notification", "err", err)
				continue
			}
			s.write(out)
		case <-ctx.Done():
			return
		}
	}
}

// write writes one line of the protocol.
func (s *stdio) write(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.out.Write(line); err != nil {
		s.log.Debug("cannot write to standard output", "err", err)
	}
}

// encode spells a message as one line. A tool call's result is written as
// mcp-go's CallToolResult.MarshalJSON makes it, with json.Marshal: already
// compact, valid JSON without a line break. json.Marshal of the whole
// response would check and compact those bytes once more.
func encode(msg mcp.JSONRPCMessage) ([]byte, error) {
	if resp, ok := msg.(mcp.JSONRPCResponse); ok {
		var result []byte
		var err error
		switch r := resp.Result.(type) {
		case mcp.CallToolResult:
			result, err = r.MarshalJSON()
		case *mcp.CallToolResult:
			result, err = r.MarshalJSON()
		}
		if err != nil {
			return nil, err
		}
		if result != nil {
			id, err := json.Marshal(resp.ID)
			if err != nil {
				return nil, err
			}
			out := make([]byte, 0, len(result)+len(id)+32)
			out = append(append(out, `{"jsonrpc":"2.0","id":`...), id...)
			out = append(append(out, `,"result":`...), result...)
			return append(out, "}\n"...), nil
		}
	}
	out, err := json.Marshal(msg)
	return append(out, '\n'), err
}

// stdioSession is the one session of a stdio server.
type stdioSession struct {
	notifications chan mcp.JSONRPCNotification
	initialized   atomic.Bool
}

func newStdioSession() *stdioSession {
	return &stdioSession{notifications: make(chan mcp.JSONRPCNotification, 100)}
}

func (s *stdioSession) SessionID() string { return "stdio" }

func (s *stdioSession) NotificationChannel() chan<- mcp.JSONRPCNotification {
	return s.notifications
}

func (s *stdioSession) Initialize()       { s.initialized.Store(true) }
func (s *stdioSession) Initialized() bool { return s.initialized.Load() }

// idKey spells a JSON-RPC id the same way whether it was read from the
// client or written by mcp-go (1.0 and 1 are one id; null and a missing
// id are "").
func idKey(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil || v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// refuse returns the answer to a line (parsed as msg, or not: err) that
// mcp-go would answer wrongly: a batch (MCP has none: mcp-go says parse
// error) and a request whose id is null (JSON-RPC's Invalid Request:
// mcp-go takes it for a notification and says nothing). It returns nil for
// any other line.
func refuse(line []byte, msg *protocol.Message, err error) []byte {
	switch {
	case errors.Is(err, protocol.ErrBatch) && json.Valid(line):
		return invalidRequest("JSON-RPC batches are not supported: send one message per line")
	case err == nil && msg.Method != "" && string(msg.ID) == "null":
		return invalidRequest("a request's id must be a string or a number, not null")
	}
	return nil
}

// lineTooLong is the answer to a line longer than the cap: its id is not
// known, since the line is not read.
func lineTooLong(maxLine int) []byte {
	return invalidRequest(fmt.Sprintf("the message is longer than the %d-byte limit of one line (--max-line-bytes); it was not read", maxLine))
}

func invalidRequest(message string) []byte {
	return append(protocol.Error(nil, mcp.INVALID_REQUEST, message, nil), '\n')
}
