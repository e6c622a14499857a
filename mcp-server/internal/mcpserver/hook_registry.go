package mcpserver

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/release"
)

// HookRegistryInput are the arguments of mod_hook_registry.
type HookRegistryInput struct {
	Version string `json:"version,omitempty" jsonschema:"Read a release instead of the working tree: a tag as mod_list_versions lists it, or latest (the newest). Default: the working tree."`
}

func (in *HookRegistryInput) versions() []string { return []string{in.Version} }

// HookRegistryOutput is the result of mod_hook_registry.
type HookRegistryOutput struct {
	Path      string `json:"path" jsonschema:"Where the registry lives, relative to the repository root."`
	Bytes     int    `json:"bytes" jsonschema:"Size of the whole file in bytes."`
	Content   string `json:"content" jsonschema:"The file exactly as on disk, unparsed (even if it is not valid JSON)."`
	Truncated bool   `json:"truncated" jsonschema:"True when the file is larger than the size cap and content holds only its first lines; read the resource for all of it."`
}

func (s *Server) hookRegistryTool() server.ServerTool {
	return newTool(s, "mod_hook_registry", "Hook registry",
		"Return the framework's hook registry, framework/mod_hooks.json, exactly as it is on disk (raw JSON, not parsed): "+
			"every hook's name, kind, parameters and example.",
		s.hookRegistry)
}

func (s *Server) hookRegistry(ctx context.Context, in HookRegistryInput) (HookRegistryOutput, string, error) {
	content, err := s.registryText(ctx, in.Version)
	if err != nil {
		return HookRegistryOutput{}, "", err
	}
	out := HookRegistryOutput{Path: s.rel(s.registryPath()), Bytes: len(content), Content: content}
	if len(content) <= s.opts.MaxResultBytes {
		return out, content, nil
	}
	r, err := window(content, 1, 0, s.textBudget())
	if err != nil {
		return HookRegistryOutput{}, "", err
	}
	out.Content, out.Truncated = r.Content, true
	text := fmt.Sprintf("%s\n\n[%s is %d bytes, more than the %d-byte cap: only lines 1-%d of %d are shown; read the resource %s for the whole file]",
		r.Content, out.Path, out.Bytes, s.opts.MaxResultBytes, r.EndLine, r.TotalLines, registryURI)
	return out, text, nil
}

// registryText is the registry's text in a version: on disk for the
// working tree, from the objects for a release.
func (s *Server) registryText(ctx context.Context, version string) (string, error) {
	if version == "" || version == WorkingTree {
		return s.readRepoFile(s.registryPath(), "the hook registry")
	}
	rel, err := s.release(ctx, version)
	if err != nil {
		return "", err
	}
	if rel.Registry == nil {
		return "", s.noRegistry(rel)
	}
	return string(rel.Registry), nil
}

// noRegistry is the error of a release without a hook registry, or with
// one not served (a symlink, or larger than the cap).
func (s *Server) noRegistry(rel *release.Release) error {
	if rel.RegistryProblem != "" {
		return fmt.Errorf("%w: the %s of release %s is not served: %s", errUnavailable, s.rel(s.registryPath()), rel.Name, rel.RegistryProblem)
	}
	return fmt.Errorf("%w: release %s has no %s", errUnavailable, rel.Name, s.rel(s.registryPath()))
}
