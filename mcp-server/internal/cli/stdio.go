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
)

// drainTimeout bounds how long end of input waits for the answers to the
// requests already read.
const drainTimeout = 30 * time.Second

// answered lets end of input wait for the responses still owed.
//
// mcp-go's stdio server stops, and cancels the requests in flight, as soon
// as it reads EOF. A client that writes its requests and closes its end of
// the pipe (printf ... | docs-mcp --stdio) would then lose the last answers.
// answered stands between the server and both pipes: it counts the requests
// read and the responses written, and holds EOF back until they are equal.
//
// It also caps the length of a line (maxLine bytes, newline included): a
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

	mu      sync.Mutex // guards owed and changed, and writes to out
	owed    int
	changed chan struct{} // closed and replaced whenever owed drops
}

// DefaultMaxLineBytes is the default longest stdio line (--max-line-bytes).
const DefaultMaxLineBytes = 16 << 20

// keptLineBuffer is the largest line buffer kept for the next line.
const keptLineBuffer = 1 << 20

func newAnswered(ctx context.Context, in io.Reader, out io.Writer, maxLine int) *answered {
	return &answered{ctx: ctx, in: bufio.NewReader(in), out: out, maxLine: maxLine, changed: make(chan struct{})}
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
		if refusal := refuse(line); refusal != nil {
			// Answered here; mcp-go never sees the line.
			if werr := a.reply(refusal); werr != nil {
				return 0, werr
			}
			line = nil
		} else if len(line) > 0 && expectsResponse(line) {
			a.add(1)
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
	n, err := a.out.Write(p)
	a.mu.Unlock()
	if isResponse(p) {
		a.add(-1)
	}
	return n, err
}

func (a *answered) add(d int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.owed = max(0, a.owed+d)
	if d < 0 {
		close(a.changed)
		a.changed = make(chan struct{})
	}
}

// wait blocks until every request read has its response, the context ends,
// or drainTimeout passes.
func (a *answered) wait() {
	timeout := time.NewTimer(drainTimeout)
	defer timeout.Stop()
	for {
		a.mu.Lock()
		owed, changed := a.owed, a.changed
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

// envelope holds the fields that tell JSON-RPC message kinds apart.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// expectsResponse reports whether the server answers a line from the
// client: a request (method and id) or anything it cannot parse as a
// message (it answers those with an error).
func expectsResponse(line []byte) bool {
	var e envelope
	if json.Unmarshal(line, &e) != nil {
		return true
	}
	return e.Method != "" && e.ID != nil && !bytes.Equal(e.ID, []byte("null"))
}

// refuse returns the answer to a line that mcp-go would answer wrongly:
// a batch (MCP has none: mcp-go says parse error) and a request whose id
// is null (JSON-RPC's Invalid Request: mcp-go takes it for a notification
// and says nothing). It returns nil for any other line.
func refuse(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	var message string
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[' && json.Valid(trimmed):
		message = "JSON-RPC batches are not supported: send one message per line"
	default:
		var e envelope
		if json.Unmarshal(trimmed, &e) != nil || e.Method == "" || !bytes.Equal(e.ID, []byte("null")) {
			return nil
		}
		message = "a request's id must be a string or a number, not null"
	}
	return invalidRequest(message)
}

// lineTooLong is the answer to a line longer than the cap: its id is not
// known, since the line is not read.
func lineTooLong(maxLine int) []byte {
	return invalidRequest(fmt.Sprintf("the message is longer than the %d-byte limit of one line (--max-line-bytes); it was not read", maxLine))
}

func invalidRequest(message string) []byte {
	b, _ := json.Marshal(message)
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":%s}}`+"\n", b)
}

// isResponse reports whether a line written by the server answers a request:
// it has an id (null for a parse error) and no method.
func isResponse(line []byte) bool {
	var e envelope
	return json.Unmarshal(line, &e) == nil && e.ID != nil && e.Method == ""
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
