package mcpserver

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

const (
	docScheme        = "docs://"
	registryURI      = "repo://framework/mod_hooks.json"
	contributingURI  = "repo://CONTRIBUTING.md"
	layoutURI        = "repo://layout"
	resourcePageSize = 500
)

// docURI returns the resource URI of a doc: docs:// and its path, each
// segment percent-encoded where a URI needs it (spaces, %, #, ?).
func docURI(p string) string {
	if !needsEscape(p) {
		return docScheme + p // most paths: one allocation, no split
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return docScheme + strings.Join(segs, "/")
}

// needsEscape reports whether a path holds a byte that url.PathEscape
// would change in one of its segments: anything but ASCII letters, digits
// and -._~ (and the slashes between segments).
func needsEscape(p string) bool {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
		default:
			return true
		}
	}
	return false
}

// docResources lists every doc of snap as a resource.
func (s *Server) docResources(snap *docs.Snapshot) []server.ServerResource {
	out := make([]server.ServerResource, 0, len(snap.Docs()))
	for _, d := range snap.Docs() {
		out = append(out, s.docResource(d))
	}
	return out
}

// addResources lists the three repository files as resources, with a
// template so that a client can read any doc by URI. The docs themselves
// are listed by Open, once they are loaded.
func (s *Server) addResources(m *server.MCPServer) {
	resources := []server.ServerResource{
		server.ServerResource{
			Resource: mcp.NewResource(registryURI, registryURI,
				mcp.WithResourceTitle("Hook registry (framework/mod_hooks.json)"),
				mcp.WithResourceDescription("Every hook of the framework: name, kind, parameters, example. Raw JSON."),
				mcp.WithMIMEType("application/json")),
			Handler: s.fileResource(s.registryPath(), "the hook registry", "application/json"),
		},
		server.ServerResource{
			Resource: mcp.NewResource(contributingURI, contributingURI,
				mcp.WithResourceTitle("Contribution guide (CONTRIBUTING.md)"),
				mcp.WithMIMEType("text/markdown")),
			Handler: s.fileResource(s.contributingPath(), "the contribution guide", "text/markdown"),
		},
		server.ServerResource{
			Resource: mcp.NewResource(layoutURI, layoutURI,
				mcp.WithResourceTitle("Repository layout"),
				mcp.WithMIMEType("text/markdown")),
			Handler: func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/markdown", Text: layout}}, nil
			},
		},
	}
	m.SetResources(resources...)
	m.AddResourceTemplate(
		mcp.NewResourceTemplate(docScheme+"{+path}", "doc",
			mcp.WithTemplateTitle("A doc by path"),
			mcp.WithTemplateDescription("Any doc under docs/, by its path relative to docs/, e.g. docs://server/tools.md."),
			mcp.WithTemplateMIMEType("text/markdown"),
		),
		s.readDocResource,
	)
}

// docResource is the listing of one doc. It carries the path and title but
// no size: a size would change with every edit, and re-listing a doc makes
// mcp-go tell every client that the list changed, which an edit is not.
// Sizes come with mod_list_doc_paths.
func (s *Server) docResource(d *docs.Doc) server.ServerResource {
	uri := docURI(d.Path)
	return server.ServerResource{
		Resource: mcp.NewResource(uri, uri,
			mcp.WithResourceTitle(d.Title),
			mcp.WithMIMEType("text/markdown"),
		),
		Handler: s.readDocResource,
	}
}

// readDocResource serves docs://{path}. mcp-go reports a handler's error as
// a JSON-RPC internal error (-32603); the message says what was wrong.
func (s *Server) readDocResource(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	uri := req.Params.URI
	p, err := docPathOf(uri)
	if err != nil {
		return nil, err
	}
	d, err := s.store.Snapshot().Doc(p)
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "text/markdown", Text: docText(d)}}, nil
}

func (s *Server) fileResource(path, what, mime string) server.ResourceHandlerFunc {
	return func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		text, err := s.readRepoFile(path, what)
		if err != nil {
			return nil, err
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: mime, Text: text}}, nil
	}
}

// docText is a doc's text with normalised line endings: each line ends in
// "\n".
func docText(d *docs.Doc) string {
	switch {
	case d.Text == "":
		return ""
	case !strings.Contains(d.Text, "\r"):
		if strings.HasSuffix(d.Text, "\n") {
			return d.Text // as held: no copy
		}
		return d.Text + "\n"
	}
	var b strings.Builder
	b.Grow(len(d.Text) + 1)
	for _, line := range d.Lines() {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// docPathOf is the doc path a docs:// URI names; docURI spells it back.
func docPathOf(uri string) (string, error) {
	raw, ok := strings.CutPrefix(uri, docScheme)
	if !ok {
		return "", inputErrorf("%q is not a docs:// URI", uri)
	}
	p, err := url.PathUnescape(raw)
	if err != nil {
		return "", inputErrorf("bad escape in %q: %v", uri, err)
	}
	return p, nil
}

// serves reports whether uri names a resource the server lists: one of the
// repository files, or a doc in the snapshot served (once there is one).
func (s *Server) serves(ctx context.Context, uri string) bool {
	switch uri {
	case registryURI, contributingURI, layoutURI:
		return true
	}
	p, err := docPathOf(uri)
	if err != nil || s.awaitDocs(ctx) != nil {
		return false
	}
	_, ok := s.store.Snapshot().Lookup(p)
	return ok
}

// resolveDocURI spells the docs:// URI of a resources/read the way the
// server lists it, before mcp-go looks it up, so that the listed resource
// serves it. For a URI that names no doc it makes sure nothing matches:
// mcp-go answers "resource not found" (-32002, or -32602 in 2026-07-28) only
// when no resource and no template matches, and any error from a handler
// is an internal error (-32603). A URI with a space matches neither the
// template nor a listing, and mcp-go quotes it in its answer, so the reason
// and the nearest valid paths ride in it.
func (s *Server) resolveDocURI(ctx context.Context, req *mcp.ReadResourceRequest) {
	uri := req.Params.URI
	if !strings.HasPrefix(uri, docScheme) || s.awaitDocs(ctx) != nil {
		return
	}
	p, err := docPathOf(uri)
	if err == nil {
		var d *docs.Doc
		if d, err = s.store.Snapshot().Doc(p); err == nil {
			req.Params.URI = docURI(d.Path)
			return
		}
	}
	req.Params.URI = fmt.Sprintf("%s (%v)", uri, s.publicError(ctx, "reading "+uri, err))
}
