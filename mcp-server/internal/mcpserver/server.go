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
	"cmp"
	"context"
	_ "embed"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mark3labs/mcp-go/tracing"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/status"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// DefaultMaxResultBytes bounds the text one tool call returns.
const DefaultMaxResultBytes = 64 << 10

// Options configures the server.
type Options struct {
	Version          string
	DataRoot         string // absolute path of the repository served
	DocsPath         string // absolute path of the docs folder, read again as it changes (Run)
	MaxDocBytes      int64  // docs larger than this are skipped; 0 means docs.DefaultMaxDocBytes
	RegistryPath     string // absolute path of mod_hooks.json
	ContributingPath string // absolute path of CONTRIBUTING.md
	MaxResultBytes   int    // 0 means DefaultMaxResultBytes
	// WikiURL is where the wiki is served, an absolute URL ending in
	// /wiki/ (from --public-url): search hits link to their sections
	// there, and initialize gives it as websiteUrl. Empty: per request,
	// where the HTTP transport says (WithWikiURL), else no links.
	WikiURL string
	Logger  *slog.Logger

	// How Run follows the docs folder, the registry and CONTRIBUTING.md.
	Watch             watch.Mode
	WatchPollInterval time.Duration // 0 means watch.DefaultPollInterval

	Observer Observer // measures requests, reloads and index builds; nil: nothing is measured

	MaxSubscriptions int             // resources one session may subscribe to; 0 means DefaultMaxSubscriptions
	MaxQueued        int             // notifications waiting for one session; 0 means DefaultMaxQueuedNotifications
	Budgets          *budget.Budgets // where refusals are counted; nil means a set of its own

	// Work limits the tool calls and doc reads running at once, in all and
	// per client, and how long one waits for its turn (see budget.Queue);
	// zero fields take DefaultWorkLimits'.
	Work budget.WorkLimits
}

// DefaultWorkLimits are the work queue's defaults (budget's).
func DefaultWorkLimits() budget.WorkLimits { return budget.DefaultWorkLimits() }

// Observer measures the server (metrics.Metrics is one): every request
// through mcp-go's tracing hooks, and how long reloads and search-index
// builds take.
type Observer interface {
	Tracer() tracing.Tracer
	ObserveReload(time.Duration)
	ObserveIndexBuild(time.Duration)
}

// Server holds what the MCP handlers share.
type Server struct {
	opts      Options
	store     *docs.Store
	log       *slog.Logger
	hookCache hookCache
	mcp       *server.MCPServer
	subs      *subscriptions
	work      *budget.Queue  // tool calls and doc reads take turns here
	watcher   *watch.Watcher // follows the files on disk while Run runs
	applyMu   sync.Mutex     // held while a batch of changes is applied

	servedSince atomic.Int64 // when the snapshot served was put in the store, Unix nanoseconds (docsTTL)

	opened   chan struct{} // closed once the server has its docs (Open)
	openOnce sync.Once

	// beforeLoad, when set, runs just before Run loads the docs (tests
	// hold the load back with it to see what the server does meanwhile).
	beforeLoad func(context.Context)
}

// New returns a server that has no docs yet. Serve its MCP() at once, and
// call Run to load the docs and follow them on disk: until they are there,
// requests for docs wait for them. (Tests hand over docs loaded already
// with Open.)
func New(opts Options) *Server {
	if opts.MaxResultBytes <= 0 {
		opts.MaxResultBytes = DefaultMaxResultBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.MaxSubscriptions <= 0 {
		opts.MaxSubscriptions = DefaultMaxSubscriptions
	}
	if opts.MaxQueued <= 0 || opts.MaxQueued > DefaultMaxQueuedNotifications {
		opts.MaxQueued = DefaultMaxQueuedNotifications
	}
	if opts.Budgets == nil {
		opts.Budgets = budget.New()
	}
	opts.Budgets.Define(budget.Notifications, int64(opts.MaxQueued), nil)
	def := DefaultWorkLimits()
	opts.Work.Running = cmp.Or(opts.Work.Running, def.Running)
	opts.Work.PerClient = cmp.Or(opts.Work.PerClient, def.PerClient)
	opts.Work.MaxWait = cmp.Or(opts.Work.MaxWait, def.MaxWait)
	s := &Server{opts: opts, store: docs.NewStore(nil), log: opts.Logger, opened: make(chan struct{}),
		work: budget.NewQueue(opts.Work, opts.Budgets)}
	s.subs = newSubscriptions(opts.MaxSubscriptions, s.serves, opts.Budgets, opts.Logger)
	s.watcher = watch.New(watch.Options{
		Mode:         opts.Watch,
		Dir:          opts.DocsPath,
		Files:        []string{opts.RegistryPath, opts.ContributingPath},
		PollInterval: opts.WatchPollInterval,
		Logger:       opts.Logger,
	})
	hooks := &server.Hooks{}
	s.subs.hook(hooks)
	hooks.AddBeforeReadResource(func(ctx context.Context, _ any, req *mcp.ReadResourceRequest) {
		s.resolveDocURI(ctx, req)
		s.resolveHookURI(ctx, req)
	})
	waits := s.waitForDocs(hooks)
	hooks.AddAfterListResources(s.listDocs)
	s.identityHooks(hooks)

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
		server.WithLogger(opts.Logger),
		server.WithHooks(hooks),
		// Outermost: errors from the docs wait are made public too.
		server.WithResourceHandlerMiddleware(s.publicResourceErrors),
	}, append(waits, s.identityOptions()...)...)
	if opts.Observer != nil {
		options = append(options, server.WithTracer(opts.Observer.Tracer()))
	}
	mcp := server.NewMCPServer("docs-mcp", opts.Version, options...)
	s.mcp = mcp
	mcp.AddTools(s.tools()...)
	mcp.AddPrompt(s.moddingContextPrompt())
	s.addResources(mcp)
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

// Status reports what the server serves (the transport adds its part).
// The registry is read through the
// same cache as mod_get_hook, so an edit shows at once.
func (s *Server) Status() status.Status {
	st := status.Status{Watch: string(s.watcher.Method())}
	if snap := s.store.Snapshot(); snap != nil {
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
