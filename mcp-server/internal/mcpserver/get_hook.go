package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/framework/registry"
)

// GetHookInput are the arguments of mod_get_hook.
type GetHookInput struct {
	Name    string `json:"name" jsonschema:"Exact hook name, category.snake_case, e.g. player.joined."`
	Version string `json:"version,omitempty" jsonschema:"Read a release instead of the working tree: a tag as mod_list_versions lists it, or latest (the newest). Default: the working tree."`
}

func (in *GetHookInput) versions() []string { return []string{in.Version} }

// GetHookOutput is the result of mod_get_hook.
type GetHookOutput struct {
	Hook registry.Hook `json:"hook" jsonschema:"The hook as declared in framework/mod_hooks.json."`
}

func (s *Server) getHookTool() server.ServerTool {
	return newTool(s, "mod_get_hook", "Get a hook",
		"One hook from the registry as structured data: kind, summary, description, parameters, return value, "+
			"since-version, deprecation and an example. A near-miss name answers with the closest names.",
		s.getHook)
}

func (s *Server) getHook(ctx context.Context, in GetHookInput) (GetHookOutput, string, error) {
	if strings.TrimSpace(in.Name) == "" {
		return GetHookOutput{}, "", inputErrorf("name is empty; give a hook name such as player.joined (mod_hook_registry lists them all)")
	}
	reg, err := s.hooksIn(ctx, in.Version)
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

// hooksIn is the parsed registry of a version (see hooks).
func (s *Server) hooksIn(ctx context.Context, version string) (*registry.Registry, error) {
	if version == "" || version == WorkingTree {
		return s.hooks()
	}
	rel, err := s.release(ctx, version)
	if err != nil {
		return nil, err
	}
	if rel.Registry == nil {
		return nil, s.noRegistry(rel)
	}
	// Checked once, as the release loaded, and let go with it (a cache
	// here, keyed by release, kept every release a client had asked of,
	// and all it held, after its tag was gone).
	reg, problems := rel.Checked, rel.Problems
	if len(problems) > 0 {
		return reg, invalidRegistryError(rel.Name+":"+s.rel(s.registryPath()), problems)
	}
	return reg, nil
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
