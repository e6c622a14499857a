package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
)

// drainTimeout bounds how long end of input waits for the answers to the
// requests already read.
const drainTimeout = 30 * time.Second

// answered lets end of input wait for the responses still owed.
//
// mcp-go's stdio server stops, and cancels the requests in flight, as soon
// as it reads EOF. A client that writes its requests and closes its end of
// the pipe (printf ... | docs-mcp --stdio) would then lose the last answers.
// answered stands between the server and both pipes: it notes the requests
// read and the responses written, and holds EOF back until every request
// has its answer. A subscriptions/listen is not waited for: it lasts until
// the session ends, which EOF is, and mcp-go answers it then.
//
// It also keeps a promise mcp-go does not: a request the client cancelled
// (notifications/cancelled) gets no response.
//
// And it caps the length of a line (maxLine bytes, newline included): a
// longer one is read to its end without being kept, and answered with a
// JSON-RPC error naming the limit; mcp-go never sees it. A line is read
// into one buffer, reused for the next line unless it grew past
// keptLineBuffer: the line is copied once here, and once more by mcp-go.
type answered struct {
	ctx     context.Context
	in      *bufio.Reader
	out     io.Writer
	maxLine int
	line    []byte // the buffer of the line being passed on
	pending []byte // the rest of that line, not yet passed on
	// refusal answers a request mcp-go would answer wrongly (nil: none;
	// see mcpserver.Server.Refusal).
	refusal func(context.Context, *protocol.Message) []byte

	mu        sync.Mutex      // guards what follows, and writes to out
	open      map[string]bool // ids of requests read and not answered -> whether it is a listen
	cancelled map[string]bool // ids of open requests the client cancelled
	unparsed  int             // lines that are not JSON, owed a parse error (id null)
	changed   chan struct{}   // closed and replaced whenever a request is answered
}

// DefaultMaxLineBytes is the default longest stdio line (--max-line-bytes).
const DefaultMaxLineBytes = 16 << 20

// keptLineBuffer is the largest line buffer kept for the next line.
const keptLineBuffer = 1 << 20

func newAnswered(ctx context.Context, in io.Reader, out io.Writer, maxLine int, refusal func(context.Context, *protocol.Message) []byte) *answered {
	return &answered{ctx: ctx, in: bufio.NewReader(in), out: out, maxLine: maxLine, refusal: refusal,
		open: map[string]bool{}, cancelled: map[string]bool{}, changed: make(chan struct{})}
}

// readLine reads the next line into a.line. A line longer than a.maxLine
// is read to its end but not kept: tooLong, and an empty line.
func (a *answered) readLine() (line []byte, tooLong bool, err error) {
	if cap(a.line) > keptLineBuffer {
		a.line = nil
	}
	line = a.line[:0]
	for {
		frag, err := a.in.ReadSlice('\n')
		if !tooLong && len(line)+len(frag) > a.maxLine {
			tooLong, line = true, line[:0]
		}
		if !tooLong {
			line = append(line, frag...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			a.line = line
			return line, tooLong, err
		}
	}
}

// Reader returns the input side, to hand to the server.
func (a *answered) Reader() io.Reader { return readerFunc(a.read) }

// Writer returns the output side, to hand to the server.
func (a *answered) Writer() io.Writer { return writerFunc(a.write) }

func (a *answered) read(p []byte) (int, error) {
	for len(a.pending) == 0 {
		line, tooLong, err := a.readLine()
		if tooLong {
			if werr := a.reply(lineTooLong(a.maxLine)); werr != nil {
				return 0, werr
			}
		}
		if len(line) > 0 && line[len(line)-1] != '\n' {
			// End of input cut the last line short. mcp-go drops a line
			// that ends at EOF without a newline, and its request would
			// never be answered: end the line for it.
			line = append(line, '\n')
		}
		// The one parse of the line, for every check here.
		msg, perr := protocol.Parse(line)
		refusal := refuse(line, &msg, perr)
		if refusal == nil && a.refusal != nil && perr == nil {
			if r := a.refusal(a.ctx, &msg); r != nil {
				refusal = append(r, '\n')
			}
		}
		if refusal != nil {
			// Answered here; mcp-go never sees the line.
			if werr := a.reply(refusal); werr != nil {
				return 0, werr
			}
			line = nil
		} else if len(line) > 0 {
			a.note(line, &msg, perr)
		}
		a.pending = line
		if err != nil && len(line) == 0 {
			if errors.Is(err, io.EOF) {
				a.wait()
			}
			return 0, err
		}
	}
	n := copy(p, a.pending)
	a.pending = a.pending[n:]
	return n, nil
}

// reply writes an answer of answered's own.
func (a *answered) reply(msg []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err := a.out.Write(msg)
	return err
}

func (a *answered) write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id, ok := responseID(p); ok {
		cancelled := a.cancelled[id]
		delete(a.cancelled, id)
		delete(a.open, id)
		if id == "" {
			a.unparsed = max(0, a.unparsed-1)
		}
		close(a.changed)
		a.changed = make(chan struct{})
		if cancelled {
			return len(p), nil
		}
	}
	return a.out.Write(p)
}

// note records a line read from the client (parsed as msg, or not: err):
// a request to answer, or the cancellation of one.
func (a *answered) note(line []byte, msg *protocol.Message, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case err != nil && len(bytes.TrimSpace(line)) > 0:
		a.unparsed++ // mcp-go answers it with a parse error
	case msg.Method != "" && msg.IsRequest():
		a.open[idKey(msg.ID)] = msg.Method == string(mcp.MethodSubscriptionsListen)
	case msg.Method == string(mcp.MethodNotificationCancelled):
		if _, open := a.open[idKey(msg.Params.RequestID)]; open {
			a.cancelled[idKey(msg.Params.RequestID)] = true
		}
	}
}

// owedLocked returns the number of answers end of input waits for: those
// of every request but listens.
func (a *answered) owedLocked() int {
	n := a.unparsed
	for _, listen := range a.open {
		if !listen {
			n++
		}
	}
	return n
}

// wait blocks until every request read has its response, the context ends,
// or drainTimeout passes.
func (a *answered) wait() {
	timeout := time.NewTimer(drainTimeout)
	defer timeout.Stop()
	for {
		a.mu.Lock()
		owed, changed := a.owedLocked(), a.changed
		a.mu.Unlock()
		if owed == 0 {
			return
		}
		select {
		case <-changed:
		case <-a.ctx.Done():
			return
		case <-timeout.C:
			return
		}
	}
}

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

// responseID reports whether a line written by the server answers a
// request (it has an id, null for a parse error, and no method), and the
// request's id.
//
// It reads the line's keys in order and stops at a result or an error
// once the id is known: mcp-go writes the id first, so the result (a page
// of search matches is tens of KB) is not read at all, where decoding the
// whole line read it twice: about 0.6 ms of CPU for a page of 50 search
// matches on a loaded 2-core machine (docs/server/architecture.md). A
// message with a result or an error is a response (JSON-RPC gives one no
// method).
func responseID(line []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	var id json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok || key == "method" {
			return "", false
		}
		if (key == "result" || key == "error") && id != nil {
			return idKey(id), true
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", false
		}
		if key == "id" {
			id = v
		}
	}
	if _, err := dec.Token(); err != nil || id == nil {
		return "", false
	}
	return idKey(id), true
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
