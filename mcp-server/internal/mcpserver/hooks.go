package mcpserver

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
)

// hookCache holds the registry parsed from disk, parsed again only when the
// file's size or modification time changes.
type hookCache struct {
	mu       sync.Mutex
	size     int64
	modTime  time.Time
	reg      *registry.Registry
	problems []registry.Problem
}

// hooks returns the parsed registry, or an error saying why there is none:
// the file is missing, unreadable, or invalid (with its problems).
func (s *Server) hooks() (*registry.Registry, error) {
	path := s.registryPath()
	c := &s.hookCache
	c.mu.Lock()
	defer c.mu.Unlock()
	info, err := os.Stat(path)
	if err != nil || c.size != info.Size() || !c.modTime.Equal(info.ModTime()) || (c.reg == nil && c.problems == nil) {
		content, err := s.readRepoFile(path, "the hook registry")
		if err != nil {
			c.reg, c.problems, c.size, c.modTime = nil, nil, 0, time.Time{}
			return nil, err
		}
		c.reg, c.problems = registry.Check([]byte(content))
		if info != nil {
			c.size, c.modTime = info.Size(), info.ModTime()
		}
	}
	if len(c.problems) > 0 {
		return c.reg, invalidRegistryError(s.rel(path), c.problems)
	}
	return c.reg, nil
}

func invalidRegistryError(path string, problems []registry.Problem) error {
	const shown = 10
	var b strings.Builder
	for i, p := range problems {
		if i == shown {
			fmt.Fprintf(&b, "\n  … and %d more (run: go run ./tools/cmd/hooks check)", len(problems)-shown)
			break
		}
		fmt.Fprintf(&b, "\n  %s:%d:%d: %s", path, p.Line, p.Col, p.Message)
	}
	return fmt.Errorf("%w: the hook registry %s is invalid (%s); mod_hook_registry still returns it as it is:%s",
		errUnavailable, path, plural(len(problems), "problem", "problems"), b.String())
}

// HookMatch is a hook whose name, summary or description contains a search
// query.
type HookMatch struct {
	Name    string `json:"name" jsonschema:"Hook name; mod_get_hook gives the whole entry."`
	Kind    string `json:"kind" jsonschema:"event or filter."`
	Summary string `json:"summary" jsonschema:"One-line summary."`
	Field   string `json:"field" jsonschema:"Where the query was found: name, summary or description."`
}

// maxHookMatches bounds the hooks a doc search lists: a common word is
// in the text of most hooks, and the page's bytes go to the docs.
const maxHookMatches = 5

// matchHooks returns the hooks of version's registry matching ms, those matched by name first,
// then by summary, then by description, each in registry order, at most
// maxHookMatches, and how many more match; nothing when the registry is
// unavailable: a doc search does not fail for it. A hook matches when one
// of its fields holds every matcher's text.
func (s *Server) matchHooks(ctx context.Context, version string, ms []*search.Matcher) (out []HookMatch, more int) {
	reg, err := s.hooksIn(ctx, version)
	if reg == nil || err != nil {
		return nil, 0
	}
	byField := [3][]HookMatch{}
	for _, h := range reg.Hooks {
		for i, f := range []struct{ name, text string }{{"name", h.Name}, {"summary", h.Summary}, {"description", h.Description}} {
			if _, _, ok := indexAll(f.text, ms); ok {
				byField[i] = append(byField[i], HookMatch{Name: h.Name, Kind: string(h.Kind), Summary: h.Summary, Field: f.name})
				break
			}
		}
	}
	all := slices.Concat(byField[:]...)
	if len(all) > maxHookMatches {
		return all[:maxHookMatches], len(all) - maxHookMatches
	}
	return all, 0
}
