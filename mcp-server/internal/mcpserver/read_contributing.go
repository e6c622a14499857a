package mcpserver

import (
	"context"

	"github.com/mark3labs/mcp-go/server"
)

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
	return newTool(s, "mod_read_contributing", "Contribution guide",
		"Read CONTRIBUTING.md: this repository's conventions and workflow for changes. Cut at the size cap like mod_read_doc.",
		s.readContributing)
}

func (s *Server) readContributing(_ context.Context, in ReadContributingInput) (ReadContributingOutput, string, error) {
	content, err := s.readRepoFile(s.contributingPath(), "the contribution guide")
	if err != nil {
		return ReadContributingOutput{}, "", err
	}
	r, err := window(content, in.StartLine, in.EndLine, s.textBudget())
	if err != nil {
		return ReadContributingOutput{}, "", err
	}
	out := ReadContributingOutput{Path: s.rel(s.contributingPath()), LineRange: r}
	return out, r.text(out.Path), nil
}
