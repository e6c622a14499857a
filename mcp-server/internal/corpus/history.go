package corpus

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
)

// History is the last commit of each doc at HEAD (gitdocs.LastCommits over
// the docs folder, its paths relative to the repository's root), as the
// corpus last walked it: nil without Config.Git, and until the first walk
// is over (HistoryWalked). A request reads it and never walks the history
// itself.
func (c *Corpus) History() *gitdocs.History { return c.hist.Load() }

// HistoryWalked is closed once History holds the first walk, or
// FollowHistory returned without one; at once without Config.Git.
func (c *Corpus) HistoryWalked() <-chan struct{} { return c.walked }

// DocsDir is the docs folder relative to the repository's root,
// slash-separated, as History's paths begin: "" when it is not inside
// Config.DataRoot.
func (c *Corpus) DocsDir() string { return c.docsDir }

// docsDirOf is cfg's docs folder relative to its data root, slash-separated:
// "" when it is not inside it.
func docsDirOf(cfg Config) string {
	rel, err := filepath.Rel(cfg.DataRoot, cfg.DocsPath)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// FollowHistory keeps History in step with HEAD until ctx ends: it walks
// the history at once, then reads HEAD (two small files) every poll
// interval and walks again when HEAD moved, a commit or a checkout made
// whether or not the docs changed. The history walked is kept until the
// next walk is over, so an answer always reads a whole one; a HEAD or a
// history that cannot be read is logged once and the last one kept.
// HistoryWalked is closed once the first walk is over, or ctx ended
// first. Run calls it when Config.Git is set; a corpus opened without Run
// (a test) may run it itself. Without Config.Git it returns at once.
func (c *Corpus) FollowHistory(ctx context.Context) {
	defer c.walkedOnce.Do(func() { close(c.walked) })
	if c.cfg.Git == nil || c.docsDir == "" {
		return
	}
	t := time.NewTicker(c.cfg.PollInterval)
	defer t.Stop()
	var failing string // the error last logged
	for {
		if err := c.walkHistory(); err != nil && err.Error() != failing {
			failing = err.Error()
			c.log.Warn("provenance: cannot read the history; answers tell the last read, or no commit", "err", err)
		} else if err == nil {
			failing = ""
		}
		c.walkedOnce.Do(func() { close(c.walked) })
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// walkHistory walks the history again when HEAD is not where the history
// held was walked from.
func (c *Corpus) walkHistory() error {
	head, err := c.cfg.Git.Head()
	if err != nil {
		return err
	}
	if h := c.hist.Load(); h != nil && h.Head == head {
		return nil
	}
	began := time.Now()
	h, err := c.cfg.Git.LastCommits(c.docsDir)
	if err != nil {
		return err
	}
	c.hist.Store(h)
	c.log.Debug("provenance: history walked", "head", h.Head, "docs", h.Files(), "took", time.Since(began))
	return nil
}
