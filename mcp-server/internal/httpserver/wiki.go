package httpserver

import (
	"context"
	"net/http"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/site"
)

// wikiContext tells an MCP request where the wiki is, as its client
// reached this server (Parts.WithWikiURL), while a site is built and
// served. The Host was checked (checkHost) before the request got here.
func (s *Server) wikiContext(ctx context.Context, r *http.Request) context.Context {
	if s.site == nil || !s.site.Present() {
		return ctx
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return s.parts.WithWikiURL(ctx, scheme+"://"+r.Host+site.Prefix)
}
