package mcpserver

import (
	"context"
	"path"
	"strings"
)

// The wiki's address, for links to the page and section of a doc: set
// once (Config.WikiURL, from --public-url), or per request by the HTTP
// transport when it serves the wiki itself (WithWikiURL), from the address
// the client reached.

type wikiURLKey struct{}

// WithWikiURL returns a context in which the wiki is at base (an absolute
// URL ending in /wiki/), unless Config.WikiURL says otherwise.
func WithWikiURL(ctx context.Context, base string) context.Context {
	return context.WithValue(ctx, wikiURLKey{}, base)
}

// wikiURL is where the wiki is for a request, or "" when unknown.
func (s *Server) wikiURL(ctx context.Context) string {
	if s.opts.WikiURL != "" {
		return s.opts.WikiURL
	}
	base, _ := ctx.Value(wikiURLKey{}).(string)
	return base
}

// wikiPage is a doc's page in the wiki, relative to its base URL, as the
// wiki's build names it (tools/internal/wiki: contentPath and pagePath):
// the path without .md, a folder's index.md its folder, in lower case as
// Hugo writes URLs, each segment escaped.
func wikiPage(docPath string) string {
	p := strings.TrimSuffix(docPath, path.Ext(docPath))
	if b := path.Base(p); b == "index" || b == "_index" {
		p = strings.TrimSuffix(p, b)
	}
	p = strings.Trim(strings.ToLower(p), "/")
	if p == "" {
		return ""
	}
	return strings.TrimPrefix(docURI(p), docScheme) + "/"
}
