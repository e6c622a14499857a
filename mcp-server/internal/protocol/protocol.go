// Package protocol is what docs-mcp's own code reads and writes of MCP's
// JSON-RPC messages, beside mcp-go, which speaks the protocol: a client
// message parsed once (Parse) for every check the transports make before
// mcp-go sees it, the JSON-RPC error responses those checks answer with
// (Error), and the request methods the server answers (Known), which
// bound the method label of the metrics.
//
// On the HTTP path the guard parses each POST body once and hands the
// message on in the request's context (WithMessage), where mcpserver's
// refusals and subscription checks find it (FromContext), through mcp-go,
// which parses the body again for itself: its handler takes bytes only.
package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Parse errors.
var (
	ErrBatch = errors.New("JSON-RPC batches are not supported: send one message per request")
	ErrParse = errors.New("not a JSON-RPC message")
)

// Message is what docs-mcp reads of a client's JSON-RPC message.
type Message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params Params          `json:"params"`
	// ParamsErr is set when params (or a field of it) has a shape these
	// fields cannot take; the checks then leave the message to mcp-go,
	// which answers it.
	ParamsErr error `json:"-"`
}

// Params are the params fields the checks read.
type Params struct {
	Meta *mcp.Meta `json:"_meta"` // on 2026-07-28, the protocol version of the request
	URI  string    `json:"uri"`   // resources/read, resources/subscribe, skills/get, resources/directory/read
	// Cursor is the page a list asks for: skills/list and
	// resources/directory/read, which docs-mcp answers itself.
	Cursor string `json:"cursor"`
	// Notifications are what a 2026-07-28 subscriptions/listen asks for.
	Notifications struct {
		ResourcesListChanged  bool     `json:"resourcesListChanged"`
		ResourceSubscriptions []string `json:"resourceSubscriptions"`
	} `json:"notifications"`
	RequestID json.RawMessage `json:"requestId"` // notifications/cancelled
}

// Parse reads one JSON-RPC message. A batch (a JSON array) is ErrBatch;
// anything that is not a JSON object with the fields' types is ErrParse.
func Parse(body []byte) (Message, error) {
	var m Message
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return m, ErrBatch
	}
	err := json.Unmarshal(body, &m)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && (typeErr.Field == "params" || strings.HasPrefix(typeErr.Field, "params.")) {
		m.ParamsErr, err = err, nil
	}
	if err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrParse, err)
	}
	return m, nil
}

// Method reads only the method of a JSON-RPC message: "" when it has
// none or is not a JSON object. It is for a check that concerns a few
// methods, so that it parses the rest of a message only when it is one of
// them.
func Method(body []byte) string {
	var m struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &m)
	return m.Method
}

// IsRequest reports whether the message expects an answer: it has an id,
// and the id is not null.
func (m *Message) IsRequest() bool {
	return len(m.ID) > 0 && string(m.ID) != "null"
}

// ProtocolVersion is the version a 2026-07-28 request states in its
// params._meta; "" for older revisions, which state theirs once, in
// initialize.
func (m *Message) ProtocolVersion() string {
	return m.Params.Meta.ProtocolVersion()
}

type messageKey struct{}

// WithMessage returns ctx carrying m, the message of the request ctx
// belongs to.
func WithMessage(ctx context.Context, m *Message) context.Context {
	return context.WithValue(ctx, messageKey{}, m)
}

// FromContext returns the message WithMessage put in ctx, or nil.
func FromContext(ctx context.Context) *Message {
	m, _ := ctx.Value(messageKey{}).(*Message)
	return m
}

// Error is a JSON-RPC error response to the request with id (null when
// id is empty), without a trailing newline; data is left out when nil.
func Error(id json.RawMessage, code int, message string, data any) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string                  `json:"jsonrpc"`
		ID      json.RawMessage         `json:"id"`
		Error   mcp.JSONRPCErrorDetails `json:"error"`
	}{mcp.JSONRPC_VERSION, id, mcp.NewJSONRPCErrorDetails(code, message, data)})
	return b
}

// Result is a JSON-RPC result response to the request with id, without
// a trailing newline.
func Result(id json.RawMessage, result any) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{mcp.JSONRPC_VERSION, id, result})
	return b
}

// methods are the request methods the server answers.
var methods = map[mcp.MCPMethod]bool{
	mcp.MethodInitialize:             true,
	mcp.MethodPing:                   true,
	mcp.MethodResourcesList:          true,
	mcp.MethodResourcesTemplatesList: true,
	mcp.MethodResourcesRead:          true,
	mcp.MethodResourcesSubscribe:     true,
	mcp.MethodResourcesUnsubscribe:   true,
	mcp.MethodPromptsList:            true,
	mcp.MethodPromptsGet:             true,
	mcp.MethodToolsList:              true,
	mcp.MethodToolsCall:              true,
	mcp.MethodSetLogLevel:            true,
	mcp.MethodCompletionComplete:     true,
	mcp.MethodServerDiscover:         true,
	mcp.MethodSubscriptionsListen:    true,
	// The Skills extension's, answered before mcp-go (mcpserver's
	// extensionAnswer).
	"skills/list":              true,
	"skills/get":               true,
	"resources/directory/read": true,
}

// Known reports whether method is a request method the server answers.
func Known(method string) bool { return methods[mcp.MCPMethod(method)] }
