// Package mcpserver exposes the docs corpus, the hook registry and the
// contribution guide as MCP tools, resources and a prompt, on top of
// mcp-go's protocol server.
//
// Every tool is read-only and returns structuredContent (described by an
// output schema) with a readable text copy. User mistakes come back as tool
// errors (isError) that say what was wrong and what to do instead; protocol
// errors are left to protocol faults.
package mcpserver

import (
	"context"
	_ "embed"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mark3labs/mcp-go/tracing"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docsmap"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/status"
)

// DefaultMaxResultBytes bounds the text one tool call returns.
const DefaultMaxResultBytes = 64 << 10

// Config configures the server. Start from DefaultConfig and set the
// paths; New uses it as given.
type Config struct {
	Version          string
	DataRoot         string // absolute path of the repository served
	RegistryPath     string // absolute path of mod_hooks.json
	ContributingPath string // absolute path of CONTRIBUTING.md
	DocsPath         string // absolute path of the docs folder, to find its docs in Git
	// Skills is the corpus of the repository's skills folder (skills/),
	// served by the Skills extension (skills.go); nil: no skills. Hand
	// it its changes with PublishSkills.
	Skills         Corpus
	MaxResultBytes int // the most text one tool call returns
	MapBytes       int // the most text of the map of the docs (docs://map, the prompt)
	// WikiURL is where the wiki is served, an absolute URL ending in
	// /wiki/ (from --public-url): search hits link to their sections
	// there, and initialize gives it as websiteUrl. Empty: per request,
	// where the HTTP transport says (WithWikiURL), else no links.
	WikiURL string
	Logger  *slog.Logger

	Tracer tracing.Tracer // measures every request (metrics.Metrics's Tracer); nil: nothing is measured

	MaxSubscriptions int             // resources one session may subscribe to
	MaxQueued        int             // notifications waiting for one session, at most DefaultMaxQueuedNotifications
	Budgets          *budget.Budgets // where refusals are counted

	// Work limits the tool calls and doc reads running at once, in all and
	// per client, and how long one waits for its turn (see budget.Queue).
	Work budget.WorkLimits
}

// DefaultConfig is the configuration with every default, and a set of
// budgets of its own.
func DefaultConfig() Config {
	return Config{
		MaxResultBytes:   DefaultMaxResultBytes,
		MapBytes:         docsmap.DefaultBytes,
		Logger:           slog.New(slog.DiscardHandler),
		MaxSubscriptions: DefaultMaxSubscriptions,
		MaxQueued:        DefaultMaxQueuedNotifications,
		Budgets:          budget.New(),
		Work:             DefaultWorkLimits(),
	}
}

// DefaultWorkLimits are the work queue's defaults (budget's).
func DefaultWorkLimits() budget.WorkLimits { return budget.DefaultWorkLimits() }

// Corpus is where the server's docs come from: package corpus's Corpus,
// which loads them and keeps them in step with the disk. The server reads
// its snapshots and hears of its changes through Publish; it knows nothing
// of files on disk.
type Corpus interface {
	Snapshot() *docs.Snapshot // the docs served now; nil until Opened is closed
	Opened() <-chan struct{}  // closed once there are docs
	Stopped() <-chan struct{} // closed once no docs will come that have not come already
	ServedSince() time.Time   // when the snapshot served was put in place
	Follows() bool            // whether changes on disk are followed at all
	Watching() string         // how: fsnotify, poll, or off
	// BlobID is the git blob id the corpus attached to d, a doc of snap
	// (corpus.DeriveBlobIDs); ok is false when it attached none (yet).
	BlobID(snap *docs.Snapshot, d *docs.Doc) (id gitdocs.BlobID, ok bool)
	// BlobIDsMade is closed once snap's blob ids are made; ok is true when
	// they are (or snap will have none).
	BlobIDsMade(snap *docs.Snapshot) (made <-chan struct{}, ok bool)
	// History is the last commit of each doc at HEAD, as the corpus last
	// walked it (corpus.FollowHistory): nil outside a repository, and
	// until it is walked. Its paths begin with DocsDir.
	History() *gitdocs.History
	HistoryWalked() <-chan struct{} // closed once History is walked at start (at once outside a repository)
	DocsDir() string                // the docs folder relative to the repository's root
	// The release tags served beside the working tree (--versions), which
	// the tools' version argument names, loaded and followed by the
	// corpus (corpus.Corpus's methods of the same names).
	ServesReleases() bool
	Release(name string) (*release.Release, error)
	AwaitRelease(ctx context.Context, name string) (*release.Release, error)
	ReleaseList() []*release.Release
	ReleaseStatus() release.Status
	ReleaseSelector() string
	// Changes compares two versions (nil: the working tree), two releases
	// once and then from what the corpus kept.
	Changes(from, to *release.Release) (*gitdocs.Diff, error)
}

// Server holds what the MCP handlers share.
type Server struct {
	opts      Config
	corpus    Corpus
	log       *slog.Logger
	hookCache hookCache
	mapCache  mapCache
	mcp       *server.MCPServer
	subs      *subscriptions
	work      *budget.Queue // tool calls and doc reads take turns here
	// skillProblems logs the skills not served once per catalogue.
	skillProblems loggedOnce
}

// New returns a server of c's docs, configured by cfg. Serve its MCP() at
// once: until c has its docs, requests for them wait for them. Hand it
// c's changes with Publish.
func New(cfg Config, c Corpus) *Server {
	cfg.Budgets.Define(budget.Notifications, int64(cfg.MaxQueued), nil)
	s := &Server{opts: cfg, corpus: c, log: cfg.Logger, work: budget.NewQueue(cfg.Work, cfg.Budgets)}
	s.subs = newSubscriptions(cfg.MaxSubscriptions, s.serves, cfg.Budgets, cfg.Logger)
	hooks := &server.Hooks{}
	s.subs.hook(hooks)
	hooks.AddBeforeReadResource(func(ctx context.Context, _ any, req *mcp.ReadResourceRequest) {
		s.resolveDocURI(ctx, req)
		s.resolveHookURI(ctx, req)
	})
	waits := s.waitForDocs(hooks)
	hooks.AddAfterListResources(s.listDocs)
	s.identityHooks(hooks)
	hooks.AddAfterDiscover(declareSkills)
	hooks.AddAfterDiscover(declareApps)

	options := append([]server.ServerOption{
		server.WithTitle("Modkit docs"),
		server.WithDescription("Search and read the modkit framework's documentation, hook registry and contribution guide."),
		server.WithInstructions(strings.TrimSpace(instructions)),
		server.WithToolCapabilities(false),
		// subscribe: notifications/resources/updated for changed docs and
		// files; listChanged: notifications/resources/list_changed when
		// docs come and go (see Publish).
		server.WithResourceCapabilities(true, true),
		server.WithPromptCapabilities(false),
		// completion/complete: doc paths, hook names, the prompt's
		// arguments (completion.go).
		server.WithCompletions(),
		server.WithPromptCompletionProvider(s),
		server.WithResourceCompletionProvider(s),
		server.WithPaginationLimit(resourcePageSize),
		server.WithRecovery(),
		server.WithResourceRecovery(),
		server.WithLogger(cfg.Logger),
		server.WithHooks(hooks),
		// Outermost: errors from the docs wait are made public too.
		server.WithResourceHandlerMiddleware(s.publicResourceErrors),
	}, append(waits, s.identityOptions()...)...)
	if cfg.Tracer != nil {
		options = append(options, server.WithTracer(cfg.Tracer))
	}
	mcp := server.NewMCPServer("docs-mcp", cfg.Version, options...)
	s.mcp = mcp
	mcp.AddTools(s.tools()...)
	mcp.AddPrompt(s.moddingContextPrompt())
	s.addResources(mcp)
	s.addApp(mcp)
	return s
}

// textBudget is the room a tool result's content may take: the size cap
// less what its closing lines (where it was cut, how to continue) need, so
// that the whole text stays within the cap.
func (s *Server) textBudget() int {
	return s.opts.MaxResultBytes - min(trailerBytes, s.opts.MaxResultBytes/4)
}

// trailerBytes is the room kept for a result's closing lines: a line
// range, or a cursor (which grows with the path it points after) and the
// words around it.
const trailerBytes = 1 << 10

// MCP returns the protocol server, for a transport to serve.
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// Budgets returns the budgets the server counts its refusals in, for the
// transport to add its own and report them all.
func (s *Server) Budgets() *budget.Budgets { return s.opts.Budgets }

// Work is the fair queue tool calls and doc reads take turns in; the HTTP
// transport parses large request bodies in it too, so that their cost
// counts in the client's share.
func (s *Server) Work() *budget.Queue { return s.work }

// Status reports what the server serves (the transport adds its part).
// The registry is read through the
// same cache as mod_get_hook, so an edit shows at once.
func (s *Server) Status() status.Status {
	st := status.Status{Watch: s.corpus.Watching()}
	if snap := s.corpus.Snapshot(); snap != nil {
		st.Loaded, st.Docs, st.Generation = true, len(snap.Docs()), snap.Generation()
	}
	// An invalid registry that still decodes is counted: mod_hook_registry
	// serves it, and mod_get_hook says what is wrong with it.
	if reg, err := s.hooks(); reg != nil {
		st.Hooks = len(reg.Hooks)
	} else {
		st.Hooks, st.HooksError = -1, err.Error()
	}
	return st
}

// registryPath and contributingPath are the two files read from disk on
// every call, so that edits show without a restart.
func (s *Server) registryPath() string     { return s.opts.RegistryPath }
func (s *Server) contributingPath() string { return s.opts.ContributingPath }

// rel names a path the way users see it in the repository: relative to the
// data root. A file configured outside the data root is named by its base
// name only, so that errors do not show clients the server's file system.
func (s *Server) rel(path string) string {
	r, err := filepath.Rel(s.opts.DataRoot, path)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return filepath.Base(path)
	}
	return filepath.ToSlash(r)
}

// instructions tell a client how to use the tools; initialize sends them.
// They are tested against the registered tools (TestToolsAreDescribed).
//
//go:embed instructions.md
var instructions string
