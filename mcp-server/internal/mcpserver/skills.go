package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/protocol"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/skills"
)

// The repository's skills (skills/, package skills, loaded and followed
// by a corpus of their own: Config.Skills), served as the MCP Skills
// extension has it (SEP-2640, io.modelcontextprotocol/skills): every file
// of a skill is the resource skill://PATH, PATH being its path under
// skills/ (skill://add-a-hook/SKILL.md), read with resources/read and
// subscribed to as any resource; skills/list and
// skills/get give each skill's front matter and files with their digests;
// resources/directory/read lists a folder of a skill, or of the docs
// (docs_directory.go). mcp-go has no
// handler for these three methods: they are answered before it sees them
// (extensionAnswer, through Refusal), on 2026-07-28, the revision that
// negotiates extensions, and refused on the others.

const (
	skillScheme   = "skill://"
	skillTemplate = skillScheme + "{+path}"
	// A release's skills (--versions), as docs-version:// has its docs:
	// skill-version://v1.2.0/add-a-hook/SKILL.md. skills/list lists the
	// working tree's; skills/get, resources/read and
	// resources/directory/read take a release's too.
	skillVersionScheme   = "skill-version://"
	skillVersionTemplate = skillVersionScheme + "{version}/{+path}"
	// SkillsExtension is the extension's identifier.
	SkillsExtension = "io.modelcontextprotocol/skills"

	methodSkillsList    = "skills/list"
	methodSkillsGet     = "skills/get"
	methodDirectoryRead = "resources/directory/read"

	directoryMIME = "inode/directory"
	// skillsPageSize bounds the entries of one skills/list page, and the
	// result's text is bounded as a tool's (MaxResultBytes), past its
	// first entry: an entry is never cut.
	skillsPageSize = 50
	// dirPageSize bounds the entries of one resources/directory/read page.
	dirPageSize = resourcePageSize
	// maxListedSkills bounds the skills resources/list names, on its first
	// page before the docs: skills/list has them all.
	maxListedSkills = resourcePageSize / 2
)

// skillsSettings are the extension's settings as server/discover declares
// them: resources/directory/read is answered.
var skillsSettings = map[string]any{"directoryRead": true}

// declareSkills adds the extension to server/discover's capabilities, the
// 2026-07-28 revision's; initialize, on the earlier revisions, does not
// declare it (mcp-go's WithExtensions would declare it on every revision,
// which negotiate no extensions before 2026-07-28).
func declareSkills(_ context.Context, _ any, _ *mcp.DiscoverRequest, res *mcp.DiscoverResult) {
	ext := make(map[string]any, len(res.Capabilities.Extensions)+1)
	for k, v := range res.Capabilities.Extensions {
		ext[k] = v
	}
	ext[SkillsExtension] = skillsSettings
	res.Capabilities.Extensions = ext
}

// skillURI is the URI of a file of the skills folder, given by its path
// there, each segment escaped as docURI escapes them.
func skillURI(rel string) string {
	return skillScheme + strings.TrimPrefix(docURI(rel), docScheme)
}

// skillSpace is the skills of one version: the working tree's (prefix
// skill://) or a release's (skill-version://VERSION/).
type skillSpace struct {
	cat    *skills.Catalogue
	prefix string
}

// uri is the URI of a file of the space, by its path in the skills folder.
func (sp skillSpace) uri(rel string) string {
	return sp.prefix + strings.TrimPrefix(docURI(rel), docScheme)
}

// skillSpaceOf is the space a skill:// or skill-version:// URI is in, and
// the URI as skill:// would spell it in that space; a release not served
// is an input error.
func (s *Server) skillSpaceOf(ctx context.Context, uri string) (skillSpace, string, error) {
	rest, ok := strings.CutPrefix(uri, skillVersionScheme)
	if !ok {
		c, err := s.workingSkills(ctx)
		return skillSpace{cat: c, prefix: skillScheme}, uri, err
	}
	escaped, p, _ := strings.Cut(rest, "/")
	version, err := url.PathUnescape(escaped)
	if err != nil || version == "" {
		return skillSpace{}, "", inputErrorf("%q names no release: give skill-version://{version}/{path}", clipURI(uri))
	}
	rel, err := s.release(ctx, version)
	if err != nil {
		return skillSpace{}, "", err
	}
	sp := skillSpace{cat: noSkills, prefix: skillVersionScheme + url.PathEscape(version) + "/"}
	if rel.Skills != nil {
		sp.cat = s.skillsOf(rel.Skills)
	}
	return sp, skillScheme + p, nil
}

// skillPath is the path in the skills folder a skill:// URI names: the
// URI's path, unescaped. A URI with a query or fragment, or a trailing
// slash, names none.
func skillPath(uri string) (string, bool) {
	raw, ok := strings.CutPrefix(uri, skillScheme)
	if !ok || raw == "" || strings.ContainsAny(raw, "?#") || strings.HasSuffix(raw, "/") {
		return "", false
	}
	p, err := url.PathUnescape(raw)
	if err != nil || p != path.Clean(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "../") || p == ".." {
		return "", false
	}
	return p, true
}

// skillsOf is the catalogue of a snapshot's skills; a skill that is not
// served is logged, once per catalogue.
func (s *Server) skillsOf(snap *docs.Snapshot) *skills.Catalogue {
	c := skills.Of(snap)
	if len(c.Problems) > 0 {
		s.skillProblems.once(c, func() {
			for _, p := range c.Problems {
				s.log.Warn("skill not served", "path", p.Path, "err", p.Err)
			}
		})
	}
	return c
}

// loggedOnce runs a function once per catalogue, for the last few.
type loggedOnce struct {
	mu   sync.Mutex
	seen []*skills.Catalogue
}

func (l *loggedOnce) once(c *skills.Catalogue, f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if slices.Contains(l.seen, c) {
		return
	}
	l.seen = append(l.seen, c)
	if len(l.seen) > 4 {
		l.seen = l.seen[1:]
	}
	f()
}

// noSkills is the catalogue of a server without a skills folder.
var noSkills = skills.Build(nil)

// workingSkills is the catalogue of the skills folder, once it is loaded
// (noSkills without one, or when it could not be loaded).
func (s *Server) workingSkills(ctx context.Context) (*skills.Catalogue, error) {
	sc := s.opts.Skills
	if sc == nil {
		return noSkills, nil
	}
	select {
	case <-sc.Opened():
	case <-sc.Stopped():
		select {
		case <-sc.Opened():
		default:
			return noSkills, nil // the corpus logged why
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.skillsOf(sc.Snapshot()), nil
}

// skillResources are the resources/list entries of the skills' SKILL.md,
// named and described by their front matter, as the extension asks.
func skillResources(c *skills.Catalogue) []mcp.Resource {
	out := make([]mcp.Resource, 0, min(len(c.Skills), maxListedSkills))
	for _, sk := range c.Skills[:min(len(c.Skills), maxListedSkills)] {
		out = append(out, mcp.NewResource(skillURI(sk.Path+"/"+skills.FileName), sk.Name,
			mcp.WithResourceDescription(sk.Description), mcp.WithMIMEType("text/markdown")))
	}
	return out
}

// addSkillVersionTemplate serves every file of a release's skill by its
// skill-version:// URI (--versions).
func (s *Server) addSkillVersionTemplate(m *server.MCPServer) {
	m.AddResourceTemplate(
		mcp.NewResourceTemplate(skillVersionTemplate, "skill-version",
			mcp.WithTemplateTitle("A file of a release's skill"),
			mcp.WithTemplateDescription("A file of a skill as a release tag has it (or latest), e.g. skill-version://latest/add-a-hook/SKILL.md; skills/get gives its entry."),
			mcp.WithTemplateMIMEType("text/markdown"),
		),
		s.readSkillResource,
	)
}

// addSkillTemplate serves every file of a skill by its skill:// URI.
func (s *Server) addSkillTemplate(m *server.MCPServer) {
	m.AddResourceTemplate(
		mcp.NewResourceTemplate(skillTemplate, "skill",
			mcp.WithTemplateTitle("A file of a skill"),
			mcp.WithTemplateDescription("A file of one of the repository's skills (skills/, Agent Skills), by its path there, e.g. skill://add-a-hook/SKILL.md; skills/list lists the skills with their files."),
			mcp.WithTemplateMIMEType("text/markdown"),
		),
		s.readSkillResource,
	)
}

// readSkillResource serves skill://PATH: a file of a served skill, as its
// digest was made of it. Refusal has answered a URI that names none.
func (s *Server) readSkillResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	f, err := s.skillFile(ctx, req.Params.URI)
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/markdown", Text: f.Text}}, nil
}

// skillFile is the file of a served skill that uri names (skill://, or
// skill-version:// for a release's).
func (s *Server) skillFile(ctx context.Context, uri string) (*skills.File, error) {
	sp, inSpace, err := s.skillSpaceOf(ctx, uri)
	if err != nil {
		return nil, err
	}
	c := sp.cat
	p, ok := skillPath(inSpace)
	if !ok {
		return nil, inputErrorf("%q is not the URI of a skill's file (skill://NAME/SKILL.md, skill://NAME/FILE)", clipURI(uri))
	}
	f, ok := c.File(p)
	if !ok {
		return nil, inputErrorf("no skill serves this file; skills/list lists the %d skills served and their files", len(c.Skills))
	}
	return f, nil
}

// skillEntry is a skill as skills/list and skills/get give it.
type skillEntry struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   []skillResource `json:"resources"`
}

type skillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int    `json:"size"`
}

func (sp skillSpace) entryOf(sk *skills.Skill) skillEntry {
	e := skillEntry{URI: sp.uri(sk.Path + "/" + skills.FileName), Frontmatter: sk.Frontmatter}
	for _, f := range sk.Files {
		e.Resources = append(e.Resources, skillResource{URI: sp.uri(f.Path), Digest: f.Digest, Size: f.Size})
	}
	return e
}

// cacheable is what every 2026-07-28 result of the extension carries: the
// result type, cache hints as the docs' but for the skills folder (no
// folder: nothing changes), and the server's name.
type cacheable struct {
	ResultType mcp.ResultType `json:"resultType"`
	TTLMs      int64          `json:"ttlMs"`
	CacheScope string         `json:"cacheScope"`
	Meta       map[string]any `json:"_meta"`
}

func (s *Server) cacheable() cacheable {
	ttl := maxDocsTTL
	if s.opts.Skills != nil {
		ttl = ttlOf(s.opts.Skills)
	}
	return s.cacheableFor(ttl)
}

// cacheableFor is cacheable with the hints of another folder's results:
// a folder of the docs is kept as long as the docs' results.
func (s *Server) cacheableFor(ttl time.Duration) cacheable {
	return cacheable{ResultType: mcp.ResultTypeComplete, TTLMs: ttl.Milliseconds(), CacheScope: string(mcp.CacheScopePrivate),
		Meta: map[string]any{mcp.MetaKeyServerInfo: mcp.Implementation{Name: "docs-mcp", Version: s.opts.Version}}}
}

// extensionAnswer answers a request for a method of the Skills extension
// (ok), which mcp-go would answer "method not found": on 2026-07-28, the
// result or a JSON-RPC error; on an earlier revision, which negotiates no
// extension, method not found with the reason. A 2026-07-28 request that
// mcp-go would refuse whatever its method (an unsupported version, no
// client capabilities in _meta) is left to it (nil, true is never
// returned: ok false then).
func (s *Server) extensionAnswer(ctx context.Context, m *protocol.Message) (answer []byte, ok bool) {
	switch m.Method {
	case methodSkillsList, methodSkillsGet, methodDirectoryRead:
	default:
		return nil, false
	}
	v := m.ProtocolVersion()
	if !mcp.IsModernProtocol(v) {
		msg := fmt.Sprintf("Method %s not found: it belongs to the %s extension, which docs-mcp offers on protocol revision %s (server/discover declares it), not on the revision this session initialized", m.Method, SkillsExtension, mcp.ProtocolVersion20260728)
		return protocol.Error(m.ID, mcp.METHOD_NOT_FOUND, msg, nil), true
	}
	if !mcp.IsValidProtocolVersion(v) || m.Params.Meta.ClientCapabilities() == nil {
		return nil, false // mcp-go says what is wrong with the request
	}
	if m.ParamsErr != nil {
		return protocol.Error(m.ID, mcp.INVALID_PARAMS, fmt.Sprintf("invalid params of %s: %v", m.Method, m.ParamsErr), nil), true
	}
	var (
		result any
		err    error
	)
	switch m.Method {
	case methodSkillsList:
		result, err = s.listSkills(ctx, m.Params.Cursor)
	case methodSkillsGet:
		result, err = s.getSkill(ctx, m.Params.URI)
	case methodDirectoryRead:
		result, err = s.readDirectory(ctx, m.Params.URI, m.Params.Cursor)
	}
	if err != nil {
		code := mcp.INTERNAL_ERROR
		if isClientMistake(err) {
			code = mcp.INVALID_PARAMS
		}
		var data any
		if m.Params.URI != "" && len(m.Params.URI) <= maxURIBytes {
			data = map[string]any{"uri": m.Params.URI}
		}
		return protocol.Error(m.ID, code, s.publicError(ctx, m.Method, err).Error(), data), true
	}
	return protocol.Result(m.ID, result), true
}

type listSkillsResult struct {
	cacheable
	Skills     []skillEntry `json:"skills"`
	NextCursor string       `json:"nextCursor,omitempty"`
}

// listSkills is a page of skills/list: the skills in path order, from the
// one after cursor (the last path of the previous page, in base64), at
// most skillsPageSize of them and, past the first, MaxResultBytes of JSON.
func (s *Server) listSkills(ctx context.Context, cursor string) (listSkillsResult, error) {
	res := listSkillsResult{cacheable: s.cacheable(), Skills: []skillEntry{}}
	c, err := s.workingSkills(ctx)
	if err != nil {
		return res, err
	}
	start := 0
	if cursor != "" {
		after, err := base64.StdEncoding.DecodeString(cursor)
		if err != nil {
			return res, fmt.Errorf("%w: %q is not a cursor skills/list gave", errBadCursor, cursor)
		}
		start, _ = slices.BinarySearchFunc(c.Skills, string(after)+"\x00", func(sk *skills.Skill, p string) int { return strings.Compare(sk.Path, p) })
	}
	size := 0
	for i := start; i < len(c.Skills); i++ {
		e := skillSpace{cat: c, prefix: skillScheme}.entryOf(c.Skills[i])
		b, _ := json.Marshal(e)
		if len(res.Skills) == skillsPageSize || (len(res.Skills) > 0 && size+len(b) > s.opts.MaxResultBytes) {
			res.NextCursor = base64.StdEncoding.EncodeToString([]byte(c.Skills[i-1].Path))
			break
		}
		res.Skills = append(res.Skills, e)
		size += len(b)
	}
	return res, nil
}

type getSkillResult struct {
	cacheable
	Skill skillEntry `json:"skill"`
}

// getSkill is skills/get: the entry of the skill whose SKILL.md uri is,
// the working tree's or a release's.
func (s *Server) getSkill(ctx context.Context, uri string) (getSkillResult, error) {
	res := getSkillResult{cacheable: s.cacheable()}
	sp, inSpace, err := s.skillSpaceOf(ctx, uri)
	if err != nil {
		return res, err
	}
	c := sp.cat
	p, ok := skillPath(inSpace)
	if folder, isSkill := strings.CutSuffix(p, "/"+skills.FileName); ok && isSkill {
		if sk, served := c.Get(folder); served {
			res.Skill = sp.entryOf(sk)
			return res, nil
		}
	}
	return res, inputErrorf("no skill is served at %s; a skill's URI is skill://NAME/SKILL.md, and skills/list lists the %d served", clipURI(uri), len(c.Skills))
}

type readDirectoryResult struct {
	cacheable
	Resources  []mcp.Resource `json:"resources"`
	NextCursor string         `json:"nextCursor,omitempty"`
}

// readDirectory is resources/directory/read of a folder of a skill
// (skill://add-a-hook, skill://add-a-hook/references): its files and
// folders (inode/directory), in name order, from the one after cursor
// (the last name of the previous page, in base64); or of a folder of the
// docs (docs_directory.go).
func (s *Server) readDirectory(ctx context.Context, uri, cursor string) (readDirectoryResult, error) {
	if isDocsFolderURI(uri) {
		return s.readDocsDirectory(ctx, uri, cursor)
	}
	res := readDirectoryResult{cacheable: s.cacheable(), Resources: []mcp.Resource{}}
	sp, inSpace, err := s.skillSpaceOf(ctx, uri)
	if err != nil {
		return res, err
	}
	c := sp.cat
	p, ok := skillPath(inSpace)
	var children []skills.Child
	if ok {
		children, ok = c.Dir(p)
	}
	if !ok {
		return res, inputErrorf("%s is not a directory resource: resources/directory/read reads the folder of a skill (skill://NAME) or a folder in it, and the docs' folders (docs://, docs://NAME)", clipURI(uri))
	}
	start := 0
	if cursor != "" {
		after, err := base64.StdEncoding.DecodeString(cursor)
		if err != nil {
			return res, fmt.Errorf("%w: %q is not a cursor resources/directory/read gave", errBadCursor, cursor)
		}
		start, _ = slices.BinarySearchFunc(children, string(after)+"\x00", func(ch skills.Child, name string) int { return strings.Compare(ch.Name, name) })
	}
	end := min(len(children), start+dirPageSize)
	for _, ch := range children[start:end] {
		mime := "text/markdown"
		if ch.Folder {
			mime = directoryMIME
		}
		res.Resources = append(res.Resources, mcp.NewResource(sp.uri(ch.Path), ch.Name, mcp.WithMIMEType(mime)))
	}
	if end < len(children) {
		res.NextCursor = base64.StdEncoding.EncodeToString([]byte(children[end-1].Name))
	}
	return res, nil
}

// isClientMistake reports whether err is the client's to fix: invalid
// params, rather than an internal error.
func isClientMistake(err error) bool {
	return errors.Is(err, errInput) || errors.Is(err, errBadCursor)
}

// clipURI is a URI as an error message names it: at most maxMethodBytes
// bytes of it.
func clipURI(uri string) string {
	if len(uri) <= maxMethodBytes {
		return uri
	}
	return strings.ToValidUTF8(uri[:maxMethodBytes], "") + "…"
}

// PublishSkills tells clients what a change of the skills folder means
// for them (the skills' corpus runs with it, as the docs' runs with
// Publish): notifications/resources/updated to the subscribers of each
// file changed, added or removed, and of the SKILL.md of each skill it
// belongs to (whose entry, the digests, changed with it); and
// notifications/resources/list_changed when the skills' listing in
// resources/list changed (a skill came or went, or its name or
// description changed).
func (s *Server) PublishSkills(c docs.Change) {
	if c.Diff.Empty() || c.Prev == nil || c.Next == nil {
		return
	}
	before, after := s.skillsOf(c.Prev), s.skillsOf(c.Next)
	var touched []string
	seen := map[string]bool{}
	add := func(uri string) {
		if !seen[uri] {
			seen[uri] = true
			touched = append(touched, uri)
		}
	}
	for _, paths := range [][]string{c.Diff.Added, c.Diff.Changed, c.Diff.Removed} {
		for _, p := range paths {
			for _, cat := range []*skills.Catalogue{before, after} {
				if _, ok := cat.File(p); !ok {
					continue
				}
				add(skillURI(p))
				for _, sk := range cat.Skills {
					if strings.HasPrefix(p, sk.Path+"/") {
						add(skillURI(sk.Path + "/" + skills.FileName))
					}
				}
			}
		}
	}
	listed := !slices.EqualFunc(skillResources(before), skillResources(after), func(a, b mcp.Resource) bool {
		return a.URI == b.URI && a.Name == b.Name && a.Description == b.Description
	})
	deliveries := s.subs.deliveries(listed, touched)
	s.log.Debug("publish skills", "touched", len(touched), "listed", listed, "notifications", len(deliveries))
	for _, d := range deliveries {
		s.deliver(d)
	}
}
