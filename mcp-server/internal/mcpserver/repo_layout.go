package mcpserver

import (
	"context"
	_ "embed"

	"github.com/mark3labs/mcp-go/server"
)

// layout is the fixed overview of the monorepo. It is embedded, so it
// describes the repository this binary was built from.
//
//go:embed layout.md
var layout string

// RepoLayoutOutput is the result of mod_repo_layout.
type RepoLayoutOutput struct {
	Layout string `json:"layout" jsonschema:"A short overview of the monorepo, as Markdown."`
}

func (s *Server) repoLayoutTool() server.ServerTool {
	return newTool(s, "mod_repo_layout", "Repository layout",
		"A short fixed overview of this monorepo: its modules and folders, where docs and hooks live, how to run and test.",
		func(context.Context, struct{}) (RepoLayoutOutput, string, error) {
			return RepoLayoutOutput{Layout: layout}, layout, nil
		})
}
