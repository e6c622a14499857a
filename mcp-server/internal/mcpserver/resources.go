package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
)

const (
	docScheme        = "docs://"
	docTemplate      = docScheme + "{+path}"
	hookScheme       = "hook://"
	hookTemplate     = hookScheme + "{name}"
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

// addResources lists the three repository files as resources, with a
// template through which a client reads any doc by URI. The docs are
// listed by listDocs, from the snapshot served.
func (s *Server) addResources(m *server.MCPServer) {
	resources := []server.ServerResource{
		s.mapResource(),
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
		mcp.NewResourceTemplate(docTemplate, "doc",
			mcp.WithTemplateTitle("A doc by path"),
			mcp.WithTemplateDescription("Any doc under docs/, by its path relative to docs/, e.g. docs://server/tools.md; docs://server/tools.md#mod_read_doc is one section."),
			mcp.WithTemplateMIMEType("text/markdown"),
		),
		s.readDocResource,
	)
	if s.corpus.ServesReleases() { // with --versions only
		s.addVersionTemplate(m)
		s.addSkillVersionTemplate(m)
	}
	if s.opts.Skills != nil { // a data root with a skills folder
		s.addSkillTemplate(m)
	}
	m.AddResourceTemplate(
		mcp.NewResourceTemplate(hookTemplate, "hook",
			mcp.WithTemplateTitle("A hook by name"),
			mcp.WithTemplateDescription("One hook of the registry as JSON, as mod_get_hook gives it, e.g. hook://player.joined."),
			mcp.WithTemplateMIMEType("application/json"),
		),
		s.readHookResource,
	)
}

// readHookResource serves hook://{name}: the hook's registry entry as JSON.
// resolveHookURI has made sure the hook exists.
func (s *Server) readHookResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	out, _, err := s.getHook(ctx, GetHookInput{Name: strings.TrimPrefix(req.Params.URI, hookScheme)})
	if err != nil {
		return nil, err
	}
	text, err := json.MarshalIndent(out.Hook, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode hook: %w", err)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: string(text) + "\n"}}, nil
}

// resolveHookURI makes a hook:// URI that names no hook match nothing,
// with the reason (and the nearest names) in it, as resolveDocURI does
// for docs: the answer is then "resource not found", not an internal
// error.
func (s *Server) resolveHookURI(ctx context.Context, req *mcp.ReadResourceRequest) {
	name, ok := strings.CutPrefix(req.Params.URI, hookScheme)
	if !ok {
		return
	}
	if _, _, err := s.getHook(ctx, GetHookInput{Name: name}); err != nil {
		req.Params.URI = fmt.Sprintf("%s (%v)", req.Params.URI, s.publicError(ctx, "reading "+req.Params.URI, err))
	}
}

// listDocs completes a page of resources/list with the docs, in path
// order, after the repository files that mcp-go lists on the first page.
//
// mcp-go is not given the docs as resources: it would keep about 290 bytes
// for each (11 MB at 40,000 docs, a third of their text) and sort them all
// for every page it lists. Here a page costs its own size. The cursor is
// the path of the last doc listed, in base64 as mcp-go's own cursors are:
// mcp-go decodes it before this hook runs, and refuses one that is not
// base64 with -32602.
func (s *Server) listDocs(ctx context.Context, _ any, req *mcp.ListResourcesRequest, res *mcp.ListResourcesResult) {
	snap := s.corpus.Snapshot()
	if snap == nil {
		return // the request was cancelled while the docs loaded
	}
	start := 0
	if c := req.Params.Cursor; c != "" {
		after, _ := base64.StdEncoding.DecodeString(string(c))
		start = snap.From(string(after) + "\x00") // the first path after it
		res.Resources = res.Resources[:0]         // the repository files came on the first page
	} else if sk, err := s.workingSkills(ctx); err == nil {
		// The skills' SKILL.md, named and described by their front
		// matter, on the first page too (skills.go).
		res.Resources = append(res.Resources, skillResources(sk)...)
	}
	all := snap.Docs()
	end := min(len(all), start+max(0, resourcePageSize-len(res.Resources)))
	var buf []byte // each doc's text, decoded for its title
	hist := s.history()
	for _, d := range all[start:end] {
		res.Resources = append(res.Resources, s.docListing(hist, d, &buf))
	}
	s.docsCacheHints(ctx, &res.CacheableResult)
	res.NextCursor = ""
	if end < len(all) {
		res.NextCursor = mcp.Cursor(base64.StdEncoding.EncodeToString([]byte(all[end-1].Path)))
	}
}

// docListing is a doc of the working tree as resources/list and
// resources/directory/read list it: its URI and title and, when its text
// is committed, lastModified, the commit's date. A doc with edits not
// committed has none: its listing does not change with every edit (see
// docResource). buf is reused to decode the docs' text.
func (s *Server) docListing(hist *gitdocs.History, d *docs.Doc, buf *[]byte) mcp.Resource {
	text, _ := d.TextIn(buf)
	r := docResource(d.Path, docs.Title(d.Path, text))
	if c, uncommitted, ok := s.docCommit(hist, d); ok && !uncommitted {
		r.Annotations = &mcp.Annotations{LastModified: c.Date.UTC().Format(time.RFC3339)}
	}
	return r
}

// docResource is the listing of one doc. It carries the path and title but
// no size: a size would change with every edit, and a changed listing
// tells every client that the list changed, which an edit is not. Sizes
// come with mod_list_doc_paths.
func docResource(path, title string) mcp.Resource {
	uri := docURI(path)
	return mcp.NewResource(uri, uri, mcp.WithResourceTitle(title), mcp.WithMIMEType("text/markdown"))
}

// readDocResource serves docs://{path} and docs://{path}#{anchor}, one
// section of a doc (resolveDocURI has checked both). mcp-go reports a
// handler's error as a JSON-RPC internal error (-32603); the message says
// what was wrong.
func (s *Server) readDocResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	uri := req.Params.URI
	docPart, frag := cutFragment(uri)
	p, err := docPathOf(docPart)
	if err != nil {
		return nil, err
	}
	var (
		text string
		prov *Provenance
	)
	if werr := s.work.Do(ctx, clientOf(ctx), func() {
		var d *docs.Doc
		if d, err = s.corpus.Snapshot().Doc(ctx, p); err != nil {
			return
		}
		text = docText(d)
		if hist := s.history(); hist != nil {
			prov = s.provenance(hist, d)
		}
		if frag != "" {
			// The section is found within the client's turn of work too.
			var sec docs.Section
			if sec, err = section(ctx, d, text, frag); err == nil {
				lines := docs.SplitLines(text)[sec.Line-1 : sec.EndLine]
				text = strings.Join(lines, "\n") + "\n"
			}
		}
	}); werr != nil {
		return nil, werr
	}
	if err != nil {
		return nil, err
	}
	contents := mcp.TextResourceContents{URI: uri, MIMEType: "text/markdown", Text: text}
	if prov != nil {
		// Contents carry no annotations in MCP; the provenance rides in
		// _meta, as the tools give it.
		contents.Meta = map[string]any{"provenance": prov}
	}
	return []mcp.ResourceContents{contents}, nil
}

// cutFragment splits a docs:// URI at its fragment, the anchor of a
// section (a '#' in a path is escaped as %23, see docURI). The fragment
// is returned unescaped.
func cutFragment(uri string) (string, string) {
	before, frag, ok := strings.Cut(uri, "#")
	if !ok {
		return uri, ""
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	return before, frag
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
	text := d.Text()
	switch {
	case text == "":
		return ""
	case !strings.Contains(text, "\r"):
		if strings.HasSuffix(text, "\n") {
			return text // as decoded: no copy
		}
		return text + "\n"
	}
	var b strings.Builder
	b.Grow(len(text) + 1)
	for _, line := range docs.Lines(text) {
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

// serves reports whether uri names a resource the server lists or a
// template makes: one of the repository files, a hook of the registry
// (hook://), a doc in the snapshot served (once there is one), or a doc of
// a release served (docs-version://).
func (s *Server) serves(ctx context.Context, uri string) bool {
	switch uri {
	case registryURI, contributingURI, layoutURI, mapURI, AppURI:
		return true
	}
	if name, ok := strings.CutPrefix(uri, hookScheme); ok {
		_, _, err := s.getHook(ctx, GetHookInput{Name: name})
		return err == nil
	}
	if strings.HasPrefix(uri, versionScheme) {
		// Without waiting for a release loading (this check runs before
		// the request is handed on): a doc of a tag being loaded is taken
		// as served, as far as can be told yet.
		_, _, frag, err := s.versionedDoc(ctx, uri, false)
		return (err == nil || errors.Is(err, release.ErrLoading)) && frag == ""
	}
	if strings.HasPrefix(uri, skillScheme) || strings.HasPrefix(uri, skillVersionScheme) {
		_, err := s.skillFile(ctx, uri)
		return err == nil
	}
	p, err := docPathOf(uri)
	if err != nil || s.awaitDocs(ctx) != nil {
		return false
	}
	_, ok := s.corpus.Snapshot().Lookup(p)
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
	if !isDocURI(uri) || s.awaitDocs(ctx) != nil {
		return
	}
	docPart, frag := cutFragment(uri)
	p, err := docPathOf(docPart)
	if err == nil {
		var d *docs.Doc
		if d, err = s.corpus.Snapshot().Doc(ctx, p); err == nil {
			if frag == "" {
				req.Params.URI = docURI(d.Path)
				return
			}
			var sec docs.Section
			if sec, err = section(ctx, d, d.Text(), frag); err == nil {
				req.Params.URI = docURI(d.Path) + "#" + sec.Anchor
				return
			}
		}
	}
	req.Params.URI = fmt.Sprintf("%s (%v)", uri, s.publicError(ctx, "reading "+uri, err))
}
