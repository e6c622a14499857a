// Package cli is the docs-mcp command line: flags (each with a DOCS_MCP_*
// environment variable), configuration checks, logging, and serving.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/docs-mcp/docs-mcp/mcp-server/buildinfo"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/httpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/skills"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/stdio"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/transport"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1 // the server failed while running
	exitUsage   = 2 // bad flags or configuration: nothing was served
)

// usageError is a mistake in the command line or the configuration.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// Main runs docs-mcp and returns its exit code. version is the build's
// version stamp; empty means: take it from the build information.
func Main(ctx context.Context, version string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if version == "" {
		version = buildinfo.Version()
	}
	app := newApp(version, stdin, stdout, stderr)
	err := app.RunContext(ctx, args)
	var uerr usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &uerr):
		fmt.Fprintf(stderr, "docs-mcp: %s\n", uerr.msg)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "docs-mcp: %v\n", err)
		return exitFailure
	}
}

func newApp(version string, stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:      "docs-mcp",
		Usage:     "serve the modkit docs, hook registry and contribution guide to MCP clients",
		UsageText: "docs-mcp --stdio [--data-root DIR] [options]\ndocs-mcp [--listen HOST:PORT] [--data-root DIR] [options]\ndocs-mcp healthcheck [--listen HOST:PORT]\ndocs-mcp index --write FILE | --check FILE\ndocs-mcp skills --write DIR | --check DIR\ndocs-mcp cache [--data-root DIR] [--cache-dir DIR]",
		Description: `docs-mcp is a Model Context Protocol server for the modkit repository. It lets an
assistant (Claude, VS Code, Cursor, ...) search and read docs/**/*.md, fetch the hook
registry framework/mod_hooks.json as it is on disk, read CONTRIBUTING.md and a short
overview of the repository, and use the prompt mod_modding_context.

With --stdio it speaks MCP over standard input and output: the MCP client starts it,
for example as "cd mcp-server && go run . --stdio --data-root ..". Standard output
carries only protocol messages; logs go to standard error.

Without --stdio it serves HTTP on --listen (default 127.0.0.1:3000): MCP Streamable
HTTP at /mcp (POST, GET for the event stream, DELETE to end a session), a JSON health
report at /health, and the static wiki from --site-dir under /wiki/ (/ leads there).
Sessions are tracked: unknown or ended ids get 404, idle ones expire, their number is
capped. Browser requests from other origins get 403 unless listed in --allowed-origins;
on loopback, a Host that is not localhost gets 403 (DNS rebinding). A bearer token is
optional (--auth-token-file or DOCS_MCP_AUTH_TOKEN). Each request is logged to stderr.

The data root is the repository to serve. Without --data-root it is the nearest
folder, from the working directory up, that holds go.work; without one, the working
directory itself. It must hold the docs folder; a missing registry or CONTRIBUTING.md
only makes the tools that need them answer an error naming the expected path.

Edits show without a restart: the server follows the docs folder (new folders included),
the registry and CONTRIBUTING.md with file events (--watch auto), or by looking every
--watch-poll-interval (--watch poll, and auto where file events cannot be used), re-reads
only the files that changed, and tells subscribed clients.

Every flag can also be set by the environment variable shown next to it; a DOCS_MCP_*
variable that is no flag's (nor DOCS_MCP_AUTH_TOKEN) is warned of at start, with the
setting it probably means.

Exit status: 0 when stdin closes or on SIGINT/SIGTERM (in HTTP mode once the
requests in flight have finished), 1 when serving failed or requests were still
running after --shutdown-timeout, 2 for bad flags or configuration (a missing data
root or docs folder, an unusable flag value).`,
		Version:         version,
		HideVersion:     true,
		HideHelpCommand: true,
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		Flags:           append(flags(), oauthFlags()...),
		Commands:        []*cli.Command{healthcheckCommand(stdout), indexCommand(stdout), skillsCommand(stdout, stderr), cacheCommand(stdout)},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return explainUsage(c.App.Flags, "docs-mcp", err)
		},
		ExitErrHandler: func(*cli.Context, error) {}, // Main maps errors to exit codes
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				fmt.Fprintf(stdout, "docs-mcp %s\n", version)
				return nil
			}
			if c.NArg() > 0 {
				return usagef("unexpected argument %q (see docs-mcp --help)", c.Args().First())
			}
			cfg, err := configFrom(c)
			if err != nil {
				return err
			}
			cfg.Version = version
			return run(c.Context, cfg, stdin, stdout, stderr)
		},
	}
}

// run serves the corpus, over stdio or HTTP, until the client leaves or a
// signal arrives. It answers at once: the docs load in the background
// (corpus's Run), and requests that need them wait for them.
func run(ctx context.Context, cfg config, stdin io.Reader, stdout, stderr io.Writer) error {
	log := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	for _, w := range cfg.UnknownEnv {
		log.Warn("no such setting; ignored", "env", w.Name, "did_you_mean", w.Nearest)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	p := build(cfg, log)
	// A failed load of the docs stops serving; a signal stops serving,
	// not the corpus (see parts.start).
	serveCtx, stopServing := context.WithCancelCause(ctx)
	defer stopServing(nil)
	defer p.start(ctx, stopServing)()

	var err error
	if cfg.Stdio {
		err = serveStdio(ctx, serveCtx, cfg, p, stdin, stdout)
	} else {
		err = serveHTTP(serveCtx, log, cfg, p.served())
	}
	var failed loadError
	if ctx.Err() == nil && errors.As(context.Cause(serveCtx), &failed) {
		return failed.err // the docs could not be loaded
	}
	return err
}

// serveStdio serves p over stdin and stdout until stdin closes or
// serveCtx ends.
func serveStdio(ctx, serveCtx context.Context, cfg config, p *parts, stdin io.Reader, stdout io.Writer) error {
	err := stdio.Serve(serveCtx, p.served(), stdin, stdout, cfg.MaxLineBytes)
	// Stdin may close before the docs are loaded (a client that sent
	// nothing, or "docs-mcp --stdio </dev/null" as a check of the set-up):
	// the exit status still says whether they could be.
	select {
	case <-p.corp.Opened():
	case <-p.ran:
	case <-ctx.Done():
	}
	p.log.Info("stopped", "reason", stopReason(serveCtx))
	return err
}

// skillsCorpus is the corpus of the data root's skills folder (skills/,
// served by the Skills extension), followed as the docs are; nil when the
// data root has none. It logs warnings only: its start-up is the docs',
// and it ends once theirs has (so that the memory settles once, after
// the docs).
func skillsCorpus(log *slog.Logger, cfg config, docs *corpus.Corpus) *corpus.Corpus {
	dir := filepath.Join(cfg.DataRoot, skills.Dir)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	sc := corpus.DefaultConfig()
	sc.DataRoot, sc.DocsPath = cfg.DataRoot, dir
	sc.MaxDocBytes, sc.Watch, sc.PollInterval = cfg.Corpus.MaxDocBytes, cfg.Corpus.Watch, cfg.Corpus.PollInterval
	sc.Logger = slog.New(warnings{log.Handler()}).With("corpus", "skills")
	sc.StartupWork = []<-chan struct{}{docs.Settled()}
	return corpus.New(sc)
}

// warnings passes a handler the records of level warning and above.
type warnings struct{ slog.Handler }

func (w warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.Handler.Enabled(ctx, l)
}
func (w warnings) WithAttrs(a []slog.Attr) slog.Handler { return warnings{w.Handler.WithAttrs(a)} }
func (w warnings) WithGroup(n string) slog.Handler      { return warnings{w.Handler.WithGroup(n)} }

// loadError ends serving when the docs could not be loaded: there is
// nothing to serve.
type loadError struct{ err error }

func (e loadError) Error() string { return e.err.Error() }

// serveHTTP serves parts over HTTP (cfg.HTTP), with an OAuth verifier
// when cfg.OAuth asks for one, until ctx ends.
func serveHTTP(ctx context.Context, log *slog.Logger, cfg config, parts transport.Parts) error {
	web := cfg.HTTP
	web.Version = cfg.Version
	verifier, err := tokenVerifier(ctx, log, cfg.OAuth)
	if err != nil {
		return err
	}
	parts.OAuth = verifier
	srv := httpserver.New(web, parts)

	ln, err := new(net.ListenConfig).Listen(ctx, "tcp", web.Listen)
	if err != nil {
		return listenHint(err)
	}
	addr := ln.Addr().String()
	base := reachable(addr, cfg.PublicURL)
	log.Info("serving http", "addr", addr, "mcp", base+"/mcp", "wiki", base+"/wiki/",
		"site_dir", web.SiteDir, "stateless", web.Stateless, "auth", web.AuthToken != "" || verifier != nil, "oauth_issuer", cfg.OAuth.Issuer,
		"allowed_origins", strings.Join(web.AllowedOrigins, ","))
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	log.Info("stopped", "reason", stopReason(ctx))
	return nil
}

// stopReason says why serving stopped, for the last log line: ctx is the
// serving context, which a signal or a failed load ends.
func stopReason(ctx context.Context) string {
	var failed loadError
	switch {
	case errors.As(context.Cause(ctx), &failed):
		return "the docs could not be loaded"
	case ctx.Err() != nil:
		return "signal"
	}
	return "stdin closed"
}

// reachable is the base URL the start-up log names for clients: the
// public URL when one is set (a container knows only its own port, not
// the one published on the host), else the listening address, with an
// unspecified host (0.0.0.0, or :: which Go listens on for both families)
// replaced by 127.0.0.1, which a client on the same machine reaches.
func reachable(addr, publicURL string) string {
	if publicURL != "" {
		return publicURL
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// newLogger logs to w, every value capped (see capped).
func newLogger(w io.Writer, level slog.Level, format string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(capped{slog.NewJSONHandler(w, opts)})
	}
	return slog.New(capped{slog.NewTextHandler(w, opts)})
}

// envName is the environment variable of a flag: --data-root is
// DOCS_MCP_DATA_ROOT.
func envName(flag string) string {
	return "DOCS_MCP_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}
