package mcpserver

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

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

// GetHookInput are the arguments of mod_get_hook.
type GetHookInput struct {
	Name string `json:"name" jsonschema:"Exact hook name, category.snake_case, e.g. player.joined."`
}

// GetHookOutput is the result of mod_get_hook.
type GetHookOutput struct {
	Hook registry.Hook `json:"hook" jsonschema:"The hook as declared in framework/mod_hooks.json."`
}

func (s *Server) getHookTool() server.ServerTool {
	return server.ServerTool{
		Tool: readOnlyTool("mod_get_hook", "Get a hook",
			"One hook from the registry as structured data: kind, summary, description, parameters, return value, "+
				"since-version, deprecation and an example. A near-miss name answers with the closest names.",
			mcp.WithInputSchema[GetHookInput](),
			mcp.WithOutputSchema[GetHookOutput](),
		),
		Handler: handle(s, "mod_get_hook", s.getHook),
	}
}

func (s *Server) getHook(_ context.Context, in GetHookInput) (GetHookOutput, string, error) {
	if strings.TrimSpace(in.Name) == "" {
		return GetHookOutput{}, "", inputErrorf("name is empty; give a hook name such as player.joined (mod_hook_registry lists them all)")
	}
	reg, err := s.hooks()
	if err != nil {
		return GetHookOutput{}, "", err
	}
	h, ok := reg.Lookup(in.Name)
	if !ok {
		msg := fmt.Sprintf("no hook is named %q", in.Name)
		if near := reg.Suggest(in.Name, 3); len(near) > 0 {
			msg += "; did you mean " + strings.Join(near, ", ") + "?"
		} else {
			msg += "; mod_hook_registry lists every hook"
		}
		return GetHookOutput{}, "", fmt.Errorf("%w: %s", errInput, msg)
	}
	return GetHookOutput{Hook: *h}, hookText(h), nil
}

func hookText(h *registry.Hook) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s", h.Name, h.Kind)
	if h.Cancellable {
		b.WriteString(", cancellable")
	}
	fmt.Fprintf(&b, ", since %s)\n%s\n", h.Since, h.Summary)
	if h.Deprecated != nil {
		fmt.Fprintf(&b, "Deprecated since %s: use %s. %s\n", h.Deprecated.Since, h.Deprecated.Replacement, h.Deprecated.Reason)
	}
	if h.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", h.Description)
	}
	if len(h.Params) > 0 {
		b.WriteString("\nParameters:\n")
		for _, p := range h.Params {
			fmt.Fprintf(&b, "- %s %s: %s\n", p.Name, p.Type, p.Description)
		}
	}
	if h.Returns != nil {
		fmt.Fprintf(&b, "\nReturns %s: %s\n", h.Returns.Type, h.Returns.Description)
	}
	if h.Example != "" {
		fmt.Fprintf(&b, "\nExample:\n%s\n", h.Example)
	}
	return b.String()
}

// HookMatch is a hook whose name, summary or description contains a search
// query.
type HookMatch struct {
	Name    string `json:"name" jsonschema:"Hook name; mod_get_hook gives the whole entry."`
	Kind    string `json:"kind" jsonschema:"event or filter."`
	Summary string `json:"summary" jsonschema:"One-line summary."`
	Field   string `json:"field" jsonschema:"Where the query was found: name, summary or description."`
}

const maxHookMatches = 10

// matchHooks returns the hooks matching q in registry order, or nothing when
// the registry is unavailable: a doc search does not fail for it.
func (s *Server) matchHooks(q search.Query) []HookMatch {
	reg, err := s.hooks()
	if reg == nil || err != nil {
		return nil
	}
	m := search.NewMatcher(q.Text, q.CaseSensitive)
	var out []HookMatch
	for _, h := range reg.Hooks {
		for _, f := range []struct{ name, text string }{{"name", h.Name}, {"summary", h.Summary}, {"description", h.Description}} {
			if off, _ := m.Index(f.text); off >= 0 {
				out = append(out, HookMatch{Name: h.Name, Kind: string(h.Kind), Summary: h.Summary, Field: f.name})
				break
			}
		}
		if len(out) == maxHookMatches {
			break
		}
	}
	return out
}
