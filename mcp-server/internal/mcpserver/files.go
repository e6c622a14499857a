package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// readRepoFile reads one of the repository files the server serves besides
// the docs. The paths come from the operator's configuration, never from a
// client. A missing file is errUnavailable, named by its expected path.
func (s *Server) readRepoFile(path, what string) (string, error) {
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%w: %s is expected at %s in the repository, and there is no such file",
			errUnavailable, what, s.rel(path))
	case err != nil:
		return "", fmt.Errorf("read %s: %w", s.rel(path), err)
	case !utf8.Valid(b):
		return "", fmt.Errorf("%w: %s at %s is not valid UTF-8 text", errUnavailable, what, s.rel(path))
	}
	return string(b), nil
}

// HookRegistryOutput is the result of mod_hook_registry.
type HookRegistryOutput struct {
	Path      string `json:"path" jsonschema:"Where the registry lives, relative to the repository root."`
	Bytes     int    `json:"bytes" jsonschema:"Size of the whole file in bytes."`
	Content   string `json:"content" jsonschema:"The file exactly as on disk, unparsed (even if it is not valid JSON)."`
	Truncated bool   `json:"truncated" jsonschema:"True when the file is larger than the size cap and content holds only its first lines; read the resource for all of it."`
}

func (s *Server) hookRegistryTool() server.ServerTool {
	return server.ServerTool{
		Tool: readOnlyTool("mod_hook_registry", "Hook registry",
			"Return the framework's hook registry, framework/mod_hooks.json, exactly as it is on disk (raw JSON, not parsed): "+
				"every hook's name, kind, parameters and example.",
			mcp.WithInputSchema[struct{}](),
			mcp.WithOutputSchema[HookRegistryOutput](),
		),
		Handler: handle(s, "mod_hook_registry", s.hookRegistry),
	}
}

func (s *Server) hookRegistry(context.Context, struct{}) (HookRegistryOutput, string, error) {
	content, err := s.readRepoFile(s.registryPath(), "the hook registry")
	if err != nil {
		return HookRegistryOutput{}, "", err
	}
	out := HookRegistryOutput{Path: s.rel(s.registryPath()), Bytes: len(content), Content: content}
	if len(content) <= s.opts.MaxResultBytes {
		return out, content, nil
	}
	r, err := window(docs.SplitLines(content), 1, 0, s.opts.MaxResultBytes)
	if err != nil {
		return HookRegistryOutput{}, "", err
	}
	out.Content, out.Truncated = r.Content, true
	text := fmt.Sprintf("%s\n\n[%s is %d bytes, more than the %d-byte cap: only lines 1-%d of %d are shown; read the resource %s for the whole file]",
		r.Content, out.Path, out.Bytes, s.opts.MaxResultBytes, r.EndLine, r.TotalLines, registryURI)
	return out, text, nil
}

// ReadContributingInput are the arguments of mod_read_contributing.
type ReadContributingInput struct {
	StartLine int `json:"start_line,omitempty" jsonschema:"First line to return (1-based). Default 1."`
	EndLine   int `json:"end_line,omitempty" jsonschema:"Last line to return (1-based, inclusive). Default: the last line."`
}

// ReadContributingOutput is the result of mod_read_contributing.
type ReadContributingOutput struct {
	Path string `json:"path" jsonschema:"Where the guide lives, relative to the repository root."`
	LineRange
}

func (s *Server) readContributingTool() server.ServerTool {
	return server.ServerTool{
		Tool: readOnlyTool("mod_read_contributing", "Contribution guide",
			"Read CONTRIBUTING.md: this repository's conventions and workflow for changes. Cut at the size cap like mod_read_doc.",
			mcp.WithInputSchema[ReadContributingInput](),
			mcp.WithOutputSchema[ReadContributingOutput](),
		),
		Handler: handle(s, "mod_read_contributing", s.readContributing),
	}
}

func (s *Server) readContributing(_ context.Context, in ReadContributingInput) (ReadContributingOutput, string, error) {
	content, err := s.readRepoFile(s.contributingPath(), "the contribution guide")
	if err != nil {
		return ReadContributingOutput{}, "", err
	}
	r, err := window(docs.SplitLines(content), in.StartLine, in.EndLine, s.opts.MaxResultBytes)
	if err != nil {
		return ReadContributingOutput{}, "", err
	}
	out := ReadContributingOutput{Path: s.rel(s.contributingPath()), LineRange: r}
	return out, r.text(out.Path), nil
}
