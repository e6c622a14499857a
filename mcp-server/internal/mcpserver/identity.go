package mcpserver

import (
	"context"
	_ "embed"
	"encoding/base64"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The server's identity in initialize (and in every 2026-07-28 result's
// serverInfo): its icon, the wiki as its website, and the cache hints
// 2026-07-28 results carry.

// icon is the docs-mcp icon, the wiki's favicon too.
//
//go:embed icon.svg
var icon []byte

// iconURI is the icon as a data: URI, so that a client has it over stdio
// and without reaching any host.
var iconURI = "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(icon)

// Cache hints (ttlMs) for 2026-07-28 results. Tools, the prompt and the
// templates are fixed for the life of the process, so their lists may be
// kept an hour. Docs change with the snapshot: a list or read of them may
// be kept a tenth of the time the current snapshot has been served (the
// heuristic HTTP caches use with Last-Modified, RFC 9111 4.2.2), at most
// maxDocsTTL, and not at all just after a change; with --watch off the
// snapshot never changes, so maxDocsTTL. repo:// and hook:// reads come
// from disk at every call: no caching. A client that listens for
// resources/list_changed and resources/updated learns of a change at
// once whatever the hint.
const (
	fixedTTL   = time.Hour
	maxDocsTTL = 5 * time.Minute
)

func (s *Server) identityOptions() []server.ServerOption {
	opts := []server.ServerOption{
		server.WithIcons(mcp.Icon{Src: s.iconSrc(), MIMEType: "image/svg+xml", Sizes: []string{"any"}}),
		server.WithCacheHints(0, mcp.CacheScopePrivate),
	}
	for _, m := range []mcp.MCPMethod{mcp.MethodToolsList, mcp.MethodPromptsList, mcp.MethodResourcesTemplatesList, mcp.MethodServerDiscover} {
		opts = append(opts, server.WithMethodCacheHints(m, fixedTTL.Milliseconds(), mcp.CacheScopePrivate))
	}
	if s.opts.WikiURL != "" {
		opts = append(opts, server.WithWebsiteURL(s.opts.WikiURL))
	}
	return opts
}

// iconSrc is where a client gets the icon: the wiki's favicon.svg (the
// same file) when the wiki's URL is known, else the icon itself as a data
// URI, the only way to it over stdio.
func (s *Server) iconSrc() string {
	if s.opts.WikiURL != "" {
		return s.opts.WikiURL + "favicon.svg"
	}
	return iconURI
}

// shortServerInfo names the server on a 2026-07-28 result other than
// server/discover's. The revision asks a server to identify itself in
// every result's _meta, and mcp-go stamps there the whole identity, the
// icon included (about 1 KB as a data URI, on every answer, a search for
// an absent word too); name and version identify it, and server/discover
// and initialize give the rest. mcp-go keeps a serverInfo a hook has set.
func (s *Server) shortServerInfo(ctx context.Context, _ any, method mcp.MCPMethod, _ any, result any) {
	if method == mcp.MethodServerDiscover || method == mcp.MethodInitialize {
		return
	}
	if info := server.RequestProtocolInfoFromContext(ctx); info == nil || !info.Modern {
		return
	}
	if r, ok := result.(mcp.ResultMetadata); ok {
		if meta := r.EnsureResultMeta(); meta != nil && meta.ServerInfo() == nil {
			meta.SetServerInfo(mcp.Implementation{Name: "docs-mcp", Version: s.opts.Version})
		}
	}
}

// identityHooks give initialize the wiki as the client reached it (when
// no public URL is set), 2026-07-28 results a short serverInfo, and docs
// results their cache hints.
func (s *Server) identityHooks(h *server.Hooks) {
	h.AddOnSuccess(s.shortServerInfo)
	h.AddAfterInitialize(func(ctx context.Context, _ any, _ *mcp.InitializeRequest, res *mcp.InitializeResult) {
		if res.ServerInfo.WebsiteURL == "" {
			res.ServerInfo.WebsiteURL = s.wikiURL(ctx)
		}
	})
	h.AddAfterReadResource(func(ctx context.Context, _ any, req *mcp.ReadResourceRequest, res *mcp.ReadResourceResult) {
		switch {
		case strings.HasPrefix(req.Params.URI, docScheme):
			s.docsCacheHints(ctx, &res.CacheableResult)
		case (strings.HasPrefix(req.Params.URI, skillScheme) || strings.HasPrefix(req.Params.URI, skillVersionScheme)) && server.IsModernRequest(ctx):
			c := s.cacheable()
			res.SetCacheHints(c.TTLMs, mcp.CacheScope(c.CacheScope))
		}
	})
}

// docsCacheHints sets a docs result's hints, for a 2026-07-28 request only
// (mcp-go leaves the results of earlier versions as they were, and so do
// we).
func (s *Server) docsCacheHints(ctx context.Context, res *mcp.CacheableResult) {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		res.SetCacheHints(s.docsTTL().Milliseconds(), mcp.CacheScopePrivate)
	}
}

// docsTTL is how long a result about the docs may be kept (see fixedTTL).
func (s *Server) docsTTL() time.Duration { return ttlOf(s.corpus) }

// ttlOf is how long a result about c's files may be kept (see fixedTTL):
// the docs', or the skills' (skills.go).
func ttlOf(c Corpus) time.Duration {
	if !c.Follows() {
		return maxDocsTTL
	}
	since := c.ServedSince()
	if since.IsZero() {
		return 0
	}
	age := time.Since(since)
	return min(maxDocsTTL, max(0, age/10)).Truncate(time.Second)
}
