package mcpserver

import (
	"context"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docsmap"
)

// mapURI is the map of the docs. No doc's URI can be it: every doc path
// ends in .md.
const mapURI = docScheme + "map"

// isDocURI reports whether uri names a doc (or a section of one): a
// docs:// URI other than the map's.
func isDocURI(uri string) bool { return strings.HasPrefix(uri, docScheme) && uri != mapURI }

// mapCache is the map last written, with what it was written from: the
// snapshot (whose entries docsmap derives once) and the parsed registry
// (hookCache keeps the same one until the file changes). The map is
// written again only when one of them changed.
type mapCache struct {
	mu   sync.Mutex
	snap *docs.Snapshot
	reg  *registry.Registry
	text string
}

// docsMap returns the map of the docs served now and of the hook registry
// (without hooks when the registry is unavailable), and whether it differs
// from the map written before it.
func (s *Server) docsMap() (text string, changed bool) {
	snap := s.corpus.Snapshot()
	reg, err := s.hooks()
	if err != nil {
		reg = nil // an invalid registry: the docs' map all the same
	}
	c := &s.mapCache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap == snap && c.reg == reg && c.text != "" {
		return c.text, false
	}
	text = docsmap.Render(docsmap.Of(snap), docsmap.HooksOf(reg), s.opts.MapBytes)
	changed = text != c.text
	c.snap, c.reg, c.text = snap, reg, text
	return text, changed
}

// written reports whether a map was written: a client read it.
func (c *mapCache) written() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.text != ""
}

// mapResource is docs://map.
func (s *Server) mapResource() server.ServerResource {
	return server.ServerResource{
		Resource: mcp.NewResource(mapURI, mapURI,
			mcp.WithResourceTitle("Map of the docs"),
			mcp.WithResourceDescription("Every doc's path, title, first sentence and section anchors, by folder (on a tree too large for that, each folder by its full path with its count and the docs that stand for it), and the hooks by group, in a few KB: keep it in view and read the one section you need. Subscribe to hear when it changes."),
			mcp.WithMIMEType("text/markdown")),
		Handler: func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			text, _ := s.docsMap()
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/markdown", Text: text}}, nil
		},
	}
}
