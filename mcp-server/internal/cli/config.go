package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/httpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/skills"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/stdio"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/versions"
	"github.com/docs-mcp/docs-mcp/mcp-server/watch"
)

// config is everything the flags decide, checked. Each part's Config is
// filled here once, from flags whose defaults are that part's
// DefaultConfig(); run adds only what the flags do not decide (logger,
// budgets, metrics).
type config struct {
	Version      string
	Stdio        bool
	DataRoot     string // absolute
	LogLevel     slog.Level
	LogFormat    string
	PublicURL    string       // where clients reach the server (its wiki at /wiki/); empty: unknown
	MaxLineBytes int          // stdio mode
	UnknownEnv   []envWarning // DOCS_MCP_* variables no flag reads, warned of at start

	// Versions selects the release tags served beside the working tree
	// (--versions); nil: the working tree only.
	Versions *versions.Config

	Corpus corpus.Config    // the docs and how they are followed on disk
	MCP    mcpserver.Config // the MCP surface and its limits

	// HTTP mode (without --stdio): the transport's configuration, filled
	// from the flags once and handed to httpserver.New as it is (run adds
	// the parts: status, budgets, logger, metrics, token verifier).
	HTTP  httpserver.Config
	OAuth oauth.Config // resource-server mode (oauth.go); no issuer: off
}

// authTokenEnv holds the bearer token itself. It has no flag: a token on
// the command line would show in the process list.
const authTokenEnv = "DOCS_MCP_AUTH_TOKEN"

const minResultBytes = 1 << 10

// minMapBytes is the smallest budget of the map of the docs: room for its
// heading, the top folders' counts and the hooks' groups.
const minMapBytes = 1 << 10

func flags() []cli.Flag {
	content, docsCfg, web := mcpserver.DefaultConfig(), corpus.DefaultConfig(), httpserver.DefaultConfig()
	work := content.Work
	return []cli.Flag{
		&cli.BoolFlag{Name: "stdio", EnvVars: []string{envName("stdio")},
			Usage: "speak MCP over standard input and output (the way MCP clients start local servers)"},
		&cli.StringFlag{Name: "data-root", EnvVars: []string{envName("data-root")}, DefaultText: "the nearest folder holding go.work, else the working directory",
			Usage: "the repository to serve: it holds the docs folder, the framework folder and CONTRIBUTING.md"},
		&cli.StringFlag{Name: "docs-dir", EnvVars: []string{envName("docs-dir")}, Value: "docs",
			Usage: "the docs folder, relative to the data root unless absolute"},
		&cli.StringFlag{Name: "versions", EnvVars: []string{envName("versions")},
			Usage: "serve the docs of these release tags beside the working tree, read from the git repository at the data root: a glob such as v*, several separated by commas, and :N to keep the newest N (v*:5); empty: the working tree only"},
		&cli.StringFlag{Name: "framework-dir", EnvVars: []string{envName("framework-dir")}, Value: "framework",
			Usage: "the folder holding mod_hooks.json, relative to the data root unless absolute"},
		&cli.IntFlag{Name: "max-result-bytes", EnvVars: []string{envName("max-result-bytes")}, Value: content.MaxResultBytes,
			Usage: "most bytes of text one tool result carries; longer results are cut on a line boundary and say how to continue (at least 1024)"},
		&cli.IntFlag{Name: "map-bytes", EnvVars: []string{envName("map-bytes")}, Value: content.MapBytes,
			Usage: "most bytes of the map of the docs (docs://map, the mod_modding_context prompt, docs-mcp index); a larger tree folds its deeper folders into counts (at least 1024)"},
		&cli.Int64Flag{Name: "max-doc-bytes", EnvVars: []string{envName("max-doc-bytes")}, Value: docsCfg.MaxDocBytes,
			Usage: "docs larger than this are skipped with a warning"},
		&cli.IntFlag{Name: "max-concurrent-work", EnvVars: []string{envName("max-concurrent-work")}, Value: work.Running, DefaultText: "the number of cores less one (at least 1)",
			Usage: "most tool calls and doc reads running at once; the others wait in a queue where clients take turns"},
		&cli.IntFlag{Name: "max-client-work", EnvVars: []string{envName("max-client-work")}, Value: work.PerClient,
			Usage: "most tool calls and doc reads of one client (an MCP session, else an address) running at once"},
		&cli.DurationFlag{Name: "work-queue-timeout", EnvVars: []string{envName("work-queue-timeout")}, Value: work.MaxWait,
			Usage: "longest wait of a request for its turn; past it the request gets a JSON-RPC error saying the server is busy"},
		&cli.StringFlag{Name: "watch", EnvVars: []string{envName("watch")}, Value: string(watch.Auto),
			Usage: "follow edits to the docs, the registry and CONTRIBUTING.md while running: auto (file events, polling where they cannot be used), poll, or off"},
		&cli.DurationFlag{Name: "watch-poll-interval", EnvVars: []string{envName("watch-poll-interval")}, Value: docsCfg.PollInterval,
			Usage: "with --watch poll (or auto falling back to it), how often every file's size and time are checked; in a git repository, also how often HEAD is read for the docs' last commits"},
		&cli.StringFlag{Name: "cache-dir", EnvVars: []string{envName("cache-dir")}, DefaultText: "docs-mcp in the user's cache folder ($XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on Windows)",
			Usage: "where the docs and their search index are kept between runs, one file per docs folder, so that a start on unchanged docs reads one file and builds no index; a cache that is damaged or of another build is ignored with a warning and written again"},
		&cli.BoolFlag{Name: "no-cache", EnvVars: []string{envName("no-cache")},
			Usage: "keep no cache: every start reads every doc and builds the search index"},
		&cli.BoolFlag{Name: "cache-read-only", EnvVars: []string{envName("cache-read-only")},
			Usage: "read the cache but never write it, for an image that ships the cache of its docs (docs-mcp cache) on a read-only file system; it is checked against the docs like any cache, and docs that differ from it are read again at every start"},
		&cli.StringFlag{Name: "log-level", EnvVars: []string{envName("log-level")}, Value: "info",
			Usage: "least severe log level written to stderr: debug, info, warn or error"},
		&cli.StringFlag{Name: "log-format", EnvVars: []string{envName("log-format")}, Value: "text",
			Usage: "log format: text or json"},
		&cli.StringFlag{Name: "public-url", EnvVars: []string{envName("public-url")}, DefaultText: "none: in HTTP mode, the address each client reached",
			Usage: "the URL where people and clients reach this server, e.g. https://docs.example.com: its wiki at /wiki/ is the websiteUrl given in initialize and where search hits link their sections (with --stdio, a wiki served elsewhere)"},
		&cli.IntFlag{Name: "max-line-bytes", EnvVars: []string{envName("max-line-bytes")}, Value: stdio.DefaultMaxLineBytes,
			Usage: "with --stdio, longest message line read from stdin (at least 4096); a longer one is answered with a JSON-RPC error and not read"},
		&cli.StringFlag{Name: "listen", EnvVars: []string{envName("listen")}, Value: web.Listen, Category: "HTTP mode",
			Usage: "address to serve HTTP on without --stdio: MCP at /mcp, /health and the wiki at /wiki/ (0.0.0.0:3000 in a container)"},
		&cli.BoolFlag{Name: "wiki", EnvVars: []string{envName("wiki")}, Value: true, Category: "HTTP mode",
			Usage: "serve the wiki under /wiki/ (and / leading there); --wiki=false answers 404 there, for docs only token holders may read (the wiki asks for no token)"},
		&cli.StringFlag{Name: "site-dir", EnvVars: []string{envName("site-dir")}, Value: web.SiteDir, Category: "HTTP mode",
			Usage: "the built wiki served under /wiki/; relative to the data root unless absolute"},
		&cli.DurationFlag{Name: "session-idle-timeout", EnvVars: []string{envName("session-idle-timeout")}, Value: web.SessionIdleTimeout, Category: "HTTP mode",
			Usage: "end an MCP session after this long without a request (an open GET stream keeps it alive)"},
		&cli.DurationFlag{Name: "session-init-timeout", EnvVars: []string{envName("session-init-timeout")}, Value: web.SessionInitTimeout, Category: "HTTP mode",
			Usage: "end an MCP session that has made no request since initialize after this long"},
		&cli.IntFlag{Name: "max-sessions", EnvVars: []string{envName("max-sessions")}, Value: web.MaxSessions, Category: "HTTP mode",
			Usage: "most live MCP sessions; at the cap a new session ends an idle one of the client address holding the most sessions, and initialize gets 503 only when every session is busy"},
		&cli.IntFlag{Name: "max-streams", EnvVars: []string{envName("max-streams")}, Value: web.MaxStreams, Category: "HTTP mode",
			Usage: "most open event streams (GET /mcp and subscriptions/listen together); past it a new stream gets 503"},
		&cli.Float64Flag{Name: "session-rate", EnvVars: []string{envName("session-rate")}, Value: web.SessionRate, Category: "HTTP mode",
			Usage: "new sessions a second one client may open (by address, see --trusted-proxies; and by subject with OAuth) once it has opened --session-burst at once; faster ones get 429 with Retry-After (0: any rate)"},
		&cli.IntFlag{Name: "session-burst", EnvVars: []string{envName("session-burst")}, DefaultText: "five seconds' worth of --session-rate (50)", Category: "HTTP mode",
			Usage: "new sessions one client may open at once before --session-rate applies: at least the sessions one address holds on a replica divided by the replicas left when it fails, so that all start again after a failover, and well under 80% of --max-sessions"},
		&cli.StringFlag{Name: "trusted-proxies", EnvVars: []string{envName("trusted-proxies")}, Category: "HTTP mode",
			Usage: "comma-separated CIDR prefixes or addresses of reverse proxies whose word on the client's address is taken: a PROXY protocol header (v1 or v2) they send, or the rightmost untrusted hop of their X-Forwarded-For; e.g. 10.0.0.0/8. Off by default: a client is the address its connection comes from"},
		&cli.IntFlag{Name: "max-session-streams", EnvVars: []string{envName("max-session-streams")}, Value: web.MaxSessionStreams, DefaultText: "half of --max-sessions", Category: "HTTP mode",
			Usage: "most sessions holding a GET stream (at most --max-sessions); a session with a stream cannot make room for a new session, so the others can; past it a new GET stream gets 503"},
		&cli.DurationFlag{Name: "stream-write-timeout", EnvVars: []string{envName("stream-write-timeout")}, Value: web.StreamWriteTimeout, Category: "HTTP mode",
			Usage: "end an event stream whose client takes no data for this long"},
		&cli.IntFlag{Name: "max-connections", EnvVars: []string{envName("max-connections")}, Value: web.MaxConnections, Category: "HTTP mode",
			Usage: "most open HTTP connections; past it a new connection closes the one that has waited longest without a request in progress (connected and silent, or idle between requests), and is closed itself only when every other is in a request"},
		&cli.IntFlag{Name: "max-subscriptions", EnvVars: []string{envName("max-subscriptions")}, Value: content.MaxSubscriptions,
			Usage: "most resources one session may subscribe to; only resources the server lists can be subscribed to"},
		&cli.IntFlag{Name: "max-queued-notifications", EnvVars: []string{envName("max-queued-notifications")}, Value: content.MaxQueued,
			Usage: "most resource-update notifications waiting for one session (1 to 100); past it further updates for that session are dropped"},
		&cli.BoolFlag{Name: "stateless", EnvVars: []string{envName("stateless")}, Category: "HTTP mode",
			Usage: "no MCP sessions: every POST stands alone and GET answers 405 (for several instances behind a load balancer)"},
		&cli.Int64Flag{Name: "max-body-bytes", EnvVars: []string{envName("max-body-bytes")}, Value: web.MaxBodyBytes, Category: "HTTP mode",
			Usage: "largest request body accepted on /mcp; larger ones get 413"},
		&cli.DurationFlag{Name: "body-timeout", EnvVars: []string{envName("body-timeout")}, Value: web.BodyTimeout, Category: "HTTP mode",
			Usage: "how long a request body may take to arrive; a slower one gets 408 and its connection is closed"},
		&cli.StringFlag{Name: "allowed-origins", EnvVars: []string{envName("allowed-origins")}, Category: "HTTP mode",
			Usage: "comma-separated browser origins allowed on /mcp besides the server's own, e.g. https://app.example.com (\"*\": any); requests without Origin always pass, others get 403"},
		&cli.StringFlag{Name: "auth-token-file", EnvVars: []string{envName("auth-token-file")}, Category: "HTTP mode",
			Usage: "file holding a bearer token that /mcp then requires (Authorization: Bearer TOKEN); or set the token itself in " + authTokenEnv + ". Off by default; /health and the wiki stay open"},
		&cli.DurationFlag{Name: "shutdown-timeout", EnvVars: []string{envName("shutdown-timeout")}, Value: web.ShutdownTimeout, Category: "HTTP mode",
			Usage: "on SIGINT or SIGTERM, how long requests in flight may take to finish"},
		&cli.DurationFlag{Name: "drain-delay", EnvVars: []string{envName("drain-delay")}, Value: web.DrainDelay, Category: "HTTP mode",
			Usage: "on SIGINT or SIGTERM, how long to go on serving with /health answering 503 \"stopping\" before closing the listener, so that a load balancer checking /health stops sending new work first (behind HAProxy or Kubernetes: a few health-check intervals, e.g. 5s)"},
		&cli.BoolFlag{Name: "version", Aliases: []string{"V"},
			Usage: "print the version and exit"},
	}
}

// configFrom checks the flags and the data root they name.
func configFrom(c *cli.Context) (config, error) {
	cfg := config{
		Stdio:        c.Bool("stdio"),
		LogFormat:    c.String("log-format"),
		MaxLineBytes: c.Int("max-line-bytes"),
		Corpus:       corpus.DefaultConfig(),
		MCP:          mcpserver.DefaultConfig(),
		UnknownEnv:   unknownEnv(c.App.Flags, os.Environ()),
	}
	cfg.Corpus.MaxDocBytes = c.Int64("max-doc-bytes")
	cfg.MCP.MaxResultBytes = c.Int("max-result-bytes")
	cfg.MCP.MapBytes = c.Int("map-bytes")
	cfg.MCP.MaxSubscriptions = c.Int("max-subscriptions")
	cfg.MCP.MaxQueued = c.Int("max-queued-notifications")
	cfg.MCP.Work = budget.WorkLimits{Running: c.Int("max-concurrent-work"), PerClient: c.Int("max-client-work"),
		MaxWait: c.Duration("work-queue-timeout")}
	if err := cfg.LogLevel.UnmarshalText([]byte(c.String("log-level"))); err != nil {
		return cfg, usagef("--log-level %q: use debug, info, warn or error", c.String("log-level"))
	}
	if cfg.LogFormat != "text" && cfg.LogFormat != "json" {
		return cfg, usagef("--log-format %q: use text or json", cfg.LogFormat)
	}
	if cfg.MCP.MaxResultBytes < minResultBytes {
		return cfg, usagef("--max-result-bytes %d is too small: use at least %d", cfg.MCP.MaxResultBytes, minResultBytes)
	}
	if cfg.MCP.MapBytes < minMapBytes {
		return cfg, usagef("--map-bytes %d is too small: use at least %d", cfg.MCP.MapBytes, minMapBytes)
	}
	if cfg.MCP.Work.Running < 1 {
		return cfg, usagef("--max-concurrent-work %d: use at least 1", cfg.MCP.Work.Running)
	}
	if cfg.MCP.Work.PerClient < 1 {
		return cfg, usagef("--max-client-work %d: use at least 1", cfg.MCP.Work.PerClient)
	}
	if cfg.MCP.Work.MaxWait < 10*time.Millisecond {
		return cfg, usagef("--work-queue-timeout %s: use at least 10ms", cfg.MCP.Work.MaxWait)
	}
	if cfg.MaxLineBytes < 4096 {
		return cfg, usagef("--max-line-bytes %d is too small: use at least 4096", cfg.MaxLineBytes)
	}
	if cfg.Corpus.MaxDocBytes < 1 {
		return cfg, usagef("--max-doc-bytes %d: use a positive size", cfg.Corpus.MaxDocBytes)
	}
	if cfg.MCP.MaxSubscriptions < 1 {
		return cfg, usagef("--max-subscriptions %d: use at least 1", cfg.MCP.MaxSubscriptions)
	}
	if cfg.MCP.MaxQueued < 1 || cfg.MCP.MaxQueued > mcpserver.DefaultMaxQueuedNotifications {
		return cfg, usagef("--max-queued-notifications %d: use 1 to %d (the queue mcp-go gives each session)", cfg.MCP.MaxQueued, mcpserver.DefaultMaxQueuedNotifications)
	}
	mode, err := watch.ParseMode(c.String("watch"))
	if err != nil {
		return cfg, usagef("--watch: %v", err)
	}
	cfg.Corpus.Watch = mode
	if cfg.Corpus.PollInterval = c.Duration("watch-poll-interval"); cfg.Corpus.PollInterval < 100*time.Millisecond {
		return cfg, usagef("--watch-poll-interval %s: use at least 100ms", cfg.Corpus.PollInterval)
	}

	if cfg.PublicURL, err = publicURL(c.String("public-url")); err != nil {
		return cfg, err
	}

	root, err := dataRoot(c.String("data-root"))
	if err != nil {
		return cfg, err
	}
	docsPath := under(root, c.String("docs-dir"))
	registry := filepath.Join(under(root, c.String("framework-dir")), "mod_hooks.json")
	contributing := filepath.Join(root, "CONTRIBUTING.md")
	if err := readableDir(docsPath); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return cfg, usagef("cannot read the docs folder %s: %v (make it, and every folder above it, readable by the user docs-mcp runs as)", docsPath, err)
		}
		return cfg, usagef("no docs folder at %s: %v (set --docs-dir, or --data-root to the repository)", docsPath, err)
	}
	cfg.DataRoot = root
	cfg.Corpus.DataRoot, cfg.Corpus.DocsPath, cfg.Corpus.Files = root, docsPath, []string{registry, contributing}
	if dir := cacheDir(c); !c.Bool("no-cache") && dir != "" { // else no cache
		cfg.Corpus.CacheFile = corpus.CacheFile(dir, docsPath)
		cfg.Corpus.CacheReadOnly = c.Bool("cache-read-only")
	}
	if text := c.String("versions"); text != "" {
		if cfg.Versions, err = versionsConfig(text, root, docsPath, registry, c.Int64("max-doc-bytes")); err != nil {
			return cfg, err
		}
	}
	cfg.MCP.DataRoot, cfg.MCP.RegistryPath, cfg.MCP.ContributingPath, cfg.MCP.DocsPath = root, registry, contributing, docsPath
	if cfg.PublicURL != "" {
		cfg.MCP.WikiURL = cfg.PublicURL + "/wiki/"
	}
	if cfg.Stdio {
		if given := httpFlags(c); len(given) > 0 {
			return cfg, usagef("%s: HTTP-mode flags, which --stdio does not use (nothing listens): leave them out, or leave out --stdio to serve HTTP", strings.Join(given, ", "))
		}
		return cfg, nil
	}
	return cfg, httpConfig(c, &cfg)
}

// httpFlags lists the HTTP-mode flags given on the command line: set, but
// not by their variables (f.IsSet: urfave/cli took the variable; given
// both ways, a flag passes for the variable's). With --stdio they ask what the run cannot do, since
// nothing listens, and configFrom refuses them. The same settings in the
// environment are ignored without a word: the environment is shared by
// both modes (the image sets DOCS_MCP_LISTEN for HTTP and is run with
// --stdio too; an MCP client starts the stdio command in its user's
// environment), and over stdio there is nothing they would guard or
// shape: no port is opened, and only the client that started the process
// talks to it.
func httpFlags(c *cli.Context) []string {
	var given []string
	for _, f := range c.App.Flags {
		cf, ok := f.(cli.CategorizableFlag)
		if !ok || !strings.HasPrefix(cf.GetCategory(), "HTTP mode") {
			continue
		}
		name := f.Names()[0]
		if c.IsSet(name) && !f.IsSet() {
			given = append(given, "--"+name)
		}
	}
	return given
}

// cacheDir is the cache's folder: --cache-dir, else docs-mcp in the
// user's cache folder, else "" (there is none to use).
func cacheDir(c *cli.Context) string {
	dir := c.String("cache-dir")
	if base, err := os.UserCacheDir(); dir == "" && err == nil {
		dir = filepath.Join(base, "docs-mcp")
	}
	return dir
}

// publicURL checks --public-url: an absolute http or https URL with
// nothing after its path, returned without a trailing slash.
func publicURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", usagef("--public-url %q: want an http or https URL such as https://docs.example.com", s)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}

// httpConfig checks the flags of HTTP mode and fills cfg.HTTP with them.
func httpConfig(c *cli.Context, root *config) error {
	cfg := &root.HTTP
	*cfg = httpserver.DefaultConfig()
	cfg.Listen = c.String("listen")
	cfg.SessionIdleTimeout = c.Duration("session-idle-timeout")
	cfg.SessionInitTimeout = c.Duration("session-init-timeout")
	cfg.MaxSessions = c.Int("max-sessions")
	cfg.MaxSessionStreams = httpserver.DefaultSessionStreams(cfg.MaxSessions)
	if c.IsSet("max-session-streams") {
		cfg.MaxSessionStreams = c.Int("max-session-streams")
	}
	cfg.SessionRate = c.Float64("session-rate")
	cfg.SessionBurst = httpserver.DefaultSessionBurst(cfg.SessionRate)
	if c.IsSet("session-burst") {
		cfg.SessionBurst = c.Int("session-burst")
	}
	proxies, err := httpserver.ParseTrustedProxies(c.String("trusted-proxies"))
	if err != nil {
		return usagef("--trusted-proxies: %v: want CIDR prefixes or addresses, e.g. 10.0.0.0/8,192.168.1.7", err)
	}
	cfg.TrustedProxies = proxies
	cfg.MaxStreams = c.Int("max-streams")
	cfg.StreamWriteTimeout = c.Duration("stream-write-timeout")
	cfg.MaxConnections = c.Int("max-connections")
	cfg.Stateless = c.Bool("stateless")
	cfg.MaxBodyBytes = c.Int64("max-body-bytes")
	cfg.BodyTimeout = c.Duration("body-timeout")
	cfg.ShutdownTimeout = c.Duration("shutdown-timeout")
	cfg.DrainDelay = c.Duration("drain-delay")
	cfg.NoWiki = !c.Bool("wiki")

	if err := checkListen(cfg.Listen); err != nil {
		return err
	}
	if cfg.SessionIdleTimeout < time.Second {
		return usagef("--session-idle-timeout %s: use at least 1s", cfg.SessionIdleTimeout)
	}
	if cfg.MaxSessions < 1 {
		return usagef("--max-sessions %d: use at least 1", cfg.MaxSessions)
	}
	if cfg.MaxSessionStreams < 1 || cfg.MaxSessionStreams > cfg.MaxSessions {
		return usagef("--max-session-streams %d: use 1 to --max-sessions (%d)", cfg.MaxSessionStreams, cfg.MaxSessions)
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"session-init-timeout", cfg.SessionInitTimeout}, {"stream-write-timeout", cfg.StreamWriteTimeout}, {"body-timeout", cfg.BodyTimeout}} {
		if d.v < time.Second {
			return usagef("--%s %s: use at least 1s", d.flag, d.v)
		}
	}
	if cfg.SessionRate < 0 {
		return usagef("--session-rate %g: use 0 (any rate) or a positive number", cfg.SessionRate)
	}
	if cfg.SessionBurst < 1 {
		return usagef("--session-burst %d: use at least 1 (--session-rate 0 takes any rate)", cfg.SessionBurst)
	}
	if cfg.MaxStreams < 1 {
		return usagef("--max-streams %d: use at least 1", cfg.MaxStreams)
	}
	if cfg.MaxConnections < 2 {
		return usagef("--max-connections %d: use at least 2", cfg.MaxConnections)
	}
	if cfg.MaxBodyBytes < minBodyBytes {
		return usagef("--max-body-bytes %d is too small: use at least %d", cfg.MaxBodyBytes, minBodyBytes)
	}
	if cfg.ShutdownTimeout <= 0 {
		return usagef("--shutdown-timeout %s: use a positive duration", cfg.ShutdownTimeout)
	}
	if cfg.DrainDelay < 0 {
		return usagef("--drain-delay %s: use zero or a positive duration", cfg.DrainDelay)
	}
	for o := range strings.SplitSeq(c.String("allowed-origins"), ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if u, err := url.Parse(o); o != "*" && (err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/")) {
			return usagef("--allowed-origins: %q is not an origin: want scheme://host[:port], e.g. https://app.example.com", o)
		}
		cfg.AllowedOrigins = append(cfg.AllowedOrigins, o)
	}

	cfg.SiteDir = under(root.DataRoot, c.String("site-dir"))

	token, err := authToken(c.String("auth-token-file"))
	if err != nil {
		return err
	}
	cfg.AuthToken = token
	return oauthConfig(c, root)
}

// checkListen checks a --listen address: host:port, the port a number
// from 0 to 65535 (0: any free port) or a service name such as http.
func checkListen(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--listen %q: want host:port, e.g. 127.0.0.1:3000 or 0.0.0.0:3000", addr)
	}
	if number.MatchString(port) {
		if n, err := strconv.ParseInt(port, 10, 32); err != nil || n < 0 || n > 65535 {
			return usagef("--listen %q: port %s is out of range: use a port from 1 to 65535, e.g. 127.0.0.1:3000", addr, port)
		}
	}
	return nil
}

var number = regexp.MustCompile(`^[-+]?[0-9]+$`)

// minBodyBytes keeps --max-body-bytes above the size of ordinary requests.
const minBodyBytes = 1 << 10

// authToken reads the bearer token from a file or DOCS_MCP_AUTH_TOKEN; at
// most one may be set. Surrounding white space (a trailing newline) is
// dropped.
func authToken(file string) (string, error) {
	env, inEnv := os.LookupEnv(authTokenEnv)
	switch {
	case file != "" && inEnv:
		return "", usagef("both --auth-token-file and %s are set: use one", authTokenEnv)
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return "", usagef("--auth-token-file: %v", err)
		}
		token := strings.TrimSpace(string(data))
		if token == "" {
			return "", usagef("--auth-token-file %s is empty", file)
		}
		return token, nil
	case inEnv:
		token := strings.TrimSpace(env)
		if token == "" {
			return "", usagef("%s is set but empty: unset it to turn auth off", authTokenEnv)
		}
		return token, nil
	}
	return "", nil
}

// dataRoot resolves the data root: the flag when given, else the nearest
// folder holding go.work from the working directory up, else the working
// directory.
func dataRoot(flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", usagef("data root %q: %v", flag, err)
		}
		if err := isDir(abs); errors.Is(err, fs.ErrPermission) {
			return "", usagef("cannot read the data root %s: %v (make it, and every folder above it, readable by the user docs-mcp runs as)", abs, err)
		} else if err != nil {
			return "", usagef("data root %s: %v (set --data-root to the repository that holds the docs folder, or leave it out to serve the nearest folder holding go.work)", abs, err)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", usagef("find the data root: %v (set --data-root)", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return wd, nil
		}
	}
}

// under resolves a folder flag: relative to the data root unless absolute.
func under(root, dir string) string {
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(root, dir)
}

// readableDir checks that path is a folder whose entries can be listed:
// the load reads it at once, and a folder that cannot be read is a mistake
// in the set-up, better told before serving than after.
func readableDir(path string) error {
	if err := isDir(path); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err == nil {
		_, err = f.Readdirnames(1)
		f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) { // EOF: an empty folder
		var perr *fs.PathError
		if errors.As(err, &perr) {
			return perr.Err // the path is in the message already
		}
		return err
	}
	return nil
}

func isDir(path string) error {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("it does not exist")
	case err != nil:
		var perr *fs.PathError
		if errors.As(err, &perr) {
			return perr.Err // the path is in the message already
		}
		return err
	case !info.IsDir():
		return fmt.Errorf("it is not a folder")
	}
	return nil
}

// versionsConfig checks --versions: a valid selector, and a data root that
// is a git repository holding the docs folder.
func versionsConfig(text, root, docsPath, registry string, maxDocBytes int64) (*versions.Config, error) {
	sel, err := gitdocs.ParseSelector(text)
	if err != nil {
		return nil, usagef("--versions: %v", err)
	}
	repo, err := gitdocs.Open(root)
	if err != nil {
		return nil, usagef("--versions %s: the data root %s must be a git repository: %v", text, root, err)
	}
	repo.Close()
	rel := func(p string) string {
		r, err := filepath.Rel(root, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "" // outside the repository: no release has it
		}
		return filepath.ToSlash(r)
	}
	docsDir := rel(docsPath)
	if docsDir == "" {
		return nil, usagef("--versions %s: the docs folder %s is outside the repository %s", text, docsPath, root)
	}
	return &versions.Config{Selector: sel, DocsDir: docsDir, RegistryPath: rel(registry), ContributingPath: "CONTRIBUTING.md",
		SkillsDir: skills.Dir, MaxDocBytes: maxDocBytes}, nil
}
