package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
)

// maxMethodBytes is longer than every MCP method name (the longest,
// notifications/resources/list_changed, has 36 bytes): a longer one is
// unknown, and an answer names only this much of it.
const maxMethodBytes = 64

// Refusal answers a request that mcp-go would answer with the wrong error,
// or not at all, before it sees it; it returns nil for any other message.
// Both transports call it on each request (the stdio reader and the HTTP
// endpoint), and send what it returns, a JSON-RPC response, as the answer.
// It is the one place where the methods of the extensions mcp-go does not
// route enter (skills.go: skills/list, skills/get,
// resources/directory/read, answered on 2026-07-28 and refused on the
// earlier revisions); it refuses
//
//   - resources/subscribe to a URI the server does not list (on revisions
//     that have the method: on 2026-07-28 mcp-go answers it as removed), and a
//     subscriptions/listen whose resource subscriptions all name such URIs
//     and that asks for nothing else: invalid params (-32602), saying which
//     URIs (a refusal through mcp-go's hooks can only be -32600; a listen
//     with some known URIs is served, its acknowledgement naming those);
//   - a method name longer than any MCP method: method not found
//     (-32601), naming the method cut to its first maxMethodBytes bytes
//     (mcp-go's answer would echo all of it, up to the body limit);
//   - resources/read of a docs:// or docs-version:// URI that names no
//     doc (or no release), or of a URI of
//     a scheme the server does not serve: resource not found (-32002;
//     -32602 on 2026-07-28) with the URI in the error's data, and the
//     reason (for a doc, the nearest valid paths) beside the URI rather
//     than inside its quotes.
//
// It reads the message as the transport parsed it (protocol.Parse). For
// these requests it waits until the docs are loaded (as mcp-go's handlers
// would), or ctx ends.
func (s *Server) Refusal(ctx context.Context, m *protocol.Message) []byte {
	if !m.IsRequest() {
		return nil
	}
	if len(m.Method) > maxMethodBytes {
		msg := fmt.Sprintf("Method %s…[cut: %d bytes] not found", strings.ToValidUTF8(m.Method[:maxMethodBytes], ""), len(m.Method))
		return protocol.Error(m.ID, mcp.METHOD_NOT_FOUND, msg, nil)
	}
	if answer, ok := s.extensionAnswer(ctx, m); ok {
		return answer
	}
	if m.ParamsErr != nil {
		return nil
	}
	method := mcp.MCPMethod(m.Method)
	switch method {
	case mcp.MethodResourcesSubscribe, mcp.MethodSubscriptionsListen, mcp.MethodResourcesRead:
		if s.awaitDocs(ctx) != nil {
			return nil
		}
	}
	switch method {
	case mcp.MethodResourcesSubscribe:
		if mcp.IsModernProtocol(m.ProtocolVersion()) {
			return nil // removed on 2026-07-28: mcp-go says method not found
		}
		uri := m.Params.URI
		if _, unknown := s.subs.known(ctx, []string{uri}); len(unknown) > 0 {
			if len(uri) > maxURIBytes {
				s.opts.Budgets.Refuse(budget.Subscriptions) // a client trying the server's memory
				return protocol.Error(m.ID, mcp.INVALID_PARAMS, unknown[0].Error(), nil)
			}
			return protocol.Error(m.ID, mcp.INVALID_PARAMS, unknown[0].Error(), map[string]any{"uri": uri})
		}
	case mcp.MethodSubscriptionsListen:
		n := m.Params.Notifications
		if len(n.ResourceSubscriptions) == 0 || n.ResourcesListChanged {
			return nil
		}
		known, unknown := s.subs.known(ctx, n.ResourceSubscriptions)
		if len(known) > 0 {
			return nil
		}
		msg := fmt.Sprintf("%v; subscribe to URIs from resources/list", errNoSuchResource)
		if len(unknown) == 1 {
			msg = unknown[0].Error()
		}
		named := slices.DeleteFunc(n.ResourceSubscriptions, func(uri string) bool { return len(uri) > maxURIBytes })
		return protocol.Error(m.ID, mcp.INVALID_PARAMS, msg, map[string]any{"unknownUris": named})
	case mcp.MethodResourcesRead:
		uri := m.Params.URI
		var reason string
		switch {
		case isDocURI(uri):
			docPart, _ := cutFragment(uri) // a section's anchor is checked when it is read
			p, err := docPathOf(docPart)
			if err == nil {
				_, err = s.corpus.Snapshot().Doc(ctx, p)
			}
			if err == nil {
				return nil
			}
			reason = s.publicError(ctx, "reading "+uri, err).Error()
		case strings.HasPrefix(uri, versionScheme):
			// A release's doc: its handler answers it; a version or doc
			// it would not find is answered here, as a doc's is above
			// (a handler's error would be an internal error, -32603).
			_, _, _, err := s.versionedDoc(ctx, uri, false)
			if err == nil || errors.Is(err, release.ErrLoading) {
				return nil // the handler waits for a release loading, on the request's own time
			}
			reason = s.publicError(ctx, "reading "+uri, err).Error()
		case strings.HasPrefix(uri, skillScheme), strings.HasPrefix(uri, skillVersionScheme):
			_, err := s.skillFile(ctx, uri)
			if err == nil {
				return nil
			}
			reason = s.publicError(ctx, "reading "+uri, err).Error()
		case uri == mapURI, uri == AppURI, strings.HasPrefix(uri, hookScheme), strings.HasPrefix(uri, "repo://"):
			return nil // mcp-go's handlers answer these
		default:
			// No handler would match: mcp-go says so without the URI in
			// the error's data, which clients read (SEP-2164).
			reason = "docs-mcp serves docs://, docs-version://, skill://, skill-version://, repo:// and hook:// URIs, and its app " + AppURI
		}
		code := mcp.RESOURCE_NOT_FOUND
		if mcp.IsModernProtocol(m.ProtocolVersion()) {
			code = mcp.INVALID_PARAMS
		}
		msg := fmt.Sprintf("resource not found: %q: %s", uri, reason)
		return protocol.Error(m.ID, code, msg, map[string]any{"uri": uri})
	}
	return nil
}
