package cli

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpus"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docsmap"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/mcpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/metrics"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/skills"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/transport"
)

// parts are what run serves: the corpus of the docs (with, when the data
// root is a repository, their history and the releases), the corpus of
// the skills, and the MCP server over them.
type parts struct {
	log      *slog.Logger
	dataRoot string
	corp     *corpus.Corpus
	skills   *corpus.Corpus    // nil without a skills folder
	git      *gitdocs.Repo     // nil outside a git repository
	ran      chan struct{}     // closed once the corpus's Run has returned, a failed load told (see start)
	srv      *mcpserver.Server // the MCP server
	metrics  *metrics.Metrics  // HTTP mode serves them at /metrics; nil over stdio
}

// build makes the parts of cfg, none started yet (see start).
func build(cfg config, log *slog.Logger) *parts {
	p := &parts{log: log, dataRoot: cfg.DataRoot, ran: make(chan struct{})}
	corpusCfg, opts := cfg.Corpus, cfg.MCP
	corpusCfg.Logger = log
	corpusCfg.Derive = append(corpusCfg.Derive, mcpserver.DeriveFolders, docsmap.Derive)
	opts.Version, opts.Logger, opts.Budgets = cfg.Version, log, budget.New()
	if !cfg.Stdio {
		p.metrics = metrics.New(cfg.Version)
		corpusCfg.Observer, opts.Tracer = p.metrics, p.metrics.Tracer()
	}
	p.openGit(cfg, &corpusCfg)
	p.corp = corpus.New(corpusCfg)
	if p.skills = skillsCorpus(log, cfg, p.corp); p.skills != nil {
		opts.Skills = p.skills
	}
	p.srv = mcpserver.New(opts, p.corp)
	return p
}

// openGit opens the data root as a git repository, when it is one: answers
// then tell each doc's last commit (and with cfg.Versions, releases are
// served); when it is not, they say nothing of it, and no error.
func (p *parts) openGit(cfg config, corpusCfg *corpus.Config) {
	git, err := gitdocs.Open(cfg.DataRoot)
	if err != nil {
		if !errors.Is(err, gitdocs.ErrNotRepository) {
			p.log.Warn("answers will not tell the docs' last commits", "err", err)
		}
		return
	}
	// For provenance, the corpus attaches each doc's blob id and keeps
	// their last commits at HEAD: no answer hashes a doc or walks history.
	p.git, corpusCfg.Git = git, git
	if cfg.Versions != nil {
		vc := *cfg.Versions
		vc.Logger = p.log
		corpusCfg.Versions = &vc // loaded in the corpus's run, stacked on its docs
	}
}

// start runs the parts' background work: the corpus (the docs loaded and
// followed on disk, their history followed at HEAD, the server told of
// each change; a failed load stops serving), the skills and the releases. A
// signal stops serving, not them: the requests in flight are answered
// while the server drains, and those sent before the docs were loaded
// wait for them. The function returned stops them all and waits for
// them, then closes the repository.
func (p *parts) start(ctx context.Context, stopServing context.CancelCauseFunc) (stop func()) {
	bg, stopBg := context.WithCancel(context.WithoutCancel(ctx))
	var done []<-chan struct{}
	goRun := func(ch chan struct{}, f func()) {
		done = append(done, ch)
		go func() {
			defer close(ch)
			f()
		}()
	}
	goRun(p.ran, func() {
		if err := p.corp.Run(bg, p.srv.Publish); err != nil {
			stopServing(loadError{err})
		}
	})
	if p.skills != nil {
		// The skills folder is loaded and followed as the docs are; a
		// folder that cannot be read leaves the server without skills.
		goRun(make(chan struct{}), func() {
			if err := p.skills.Run(bg, p.srv.PublishSkills); err != nil {
				p.log.Warn("no skills served", "path", filepath.Join(p.dataRoot, skills.Dir), "err", err)
			}
		})
	}
	return func() {
		stopBg()
		for _, ch := range done {
			<-ch
		}
		if p.git != nil {
			p.git.Close()
		}
	}
}

// served is what a transport serves of p, the same over stdio and HTTP
// (over stdio, metrics are nil).
func (p *parts) served() transport.Parts {
	return transport.Parts{
		MCP:         p.srv.MCP(),
		Budgets:     p.srv.Budgets(),
		Status:      p.srv.Status,
		Logger:      p.log,
		Metrics:     p.metrics,
		Refusal:     p.srv.Refusal,
		Work:        p.srv.Work(),
		WithWikiURL: mcpserver.WithWikiURL,
	}
}
