package mcpserver

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// usingTools is the prompt's part on the tools. It is tested against the
// registered tools (TestToolsAreDescribed).
//
//go:embed using_tools.md
var usingTools string

// Bounds of the prompt's parts, so that it stays pasteable into any chat.
const (
	maxConventionsBytes = 2 << 10
	maxTaskBytes        = 1 << 10
)

func (s *Server) moddingContextPrompt() (mcp.Prompt, server.PromptHandlerFunc) {
	prompt := mcp.NewPrompt(moddingContextName,
		mcp.WithPromptTitle("Modkit repository context"),
		mcp.WithPromptDescription("Compact context for a task in this repository: layout, conventions, where docs and hooks live, the doc titles, and how to use this server's tools."),
		mcp.WithArgument("task", mcp.ArgumentDescription("What you are about to do, e.g. \"add a hook for crafting\". Optional.")),
		mcp.WithArgument("hook", mcp.ArgumentDescription("A hook the task is about, e.g. player.joined: its registry entry is included. Optional.")),
	)
	return prompt, func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		text := s.moddingContext(req.Params.Arguments["task"], req.Params.Arguments["hook"])
		return &mcp.GetPromptResult{
			Description: "Context for working in the modkit repository",
			Messages:    []mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)}},
		}, nil
	}
}

// moddingContextName is the prompt's name.
const moddingContextName = "mod_modding_context"

func (s *Server) moddingContext(task, hook string) string {
	var b strings.Builder
	b.WriteString("You are working in the modkit repository: a Go modding framework (hooks that mods handle) and the docs-mcp server that serves its documentation.\n\n")
	if task = strings.TrimSpace(task); task != "" {
		fmt.Fprintf(&b, "## Task\n\n%s\n\n", clip(task, maxTaskBytes))
	}
	if hook = strings.TrimSpace(hook); hook != "" {
		fmt.Fprintf(&b, "## Hook %s\n\n%s\n", clip(hook, maxTaskBytes), s.hookEntry(hook))
	}
	b.WriteString(strings.Replace(layout, "# Repository layout", "## Layout", 1))
	b.WriteString("\n## Conventions (from CONTRIBUTING.md)\n\n")
	b.WriteString(s.conventions())
	b.WriteString("\n")
	text, _ := s.docsMap() // the same text as docs://map
	b.WriteString(text)
	b.WriteString("\n" + usingTools)
	return b.String()
}

// hookEntry is a hook's registry entry as mod_get_hook gives it, or a line
// saying why there is none.
func (s *Server) hookEntry(name string) string {
	_, text, err := s.getHook(context.Background(), GetHookInput{Name: name})
	if err != nil {
		return fmt.Sprintf("(%v)\n", s.publicError(context.Background(), "reading the hook registry", err))
	}
	return text
}

// conventions returns the "Conventions" section of CONTRIBUTING.md, or a
// line saying why there is none.
func (s *Server) conventions() string {
	text, err := s.readRepoFile(s.contributingPath(), "the contribution guide")
	if err != nil {
		return fmt.Sprintf("(unavailable: %v)\n", s.publicError(context.Background(), "reading the contribution guide", err))
	}
	var section []string
	in := false
	for _, line := range docs.SplitLines(text) {
		if strings.HasPrefix(line, "## ") {
			if in {
				break
			}
			in = strings.EqualFold(strings.TrimSpace(line[3:]), "conventions")
			continue
		}
		if in {
			section = append(section, line)
		}
	}
	if len(section) == 0 {
		return "(CONTRIBUTING.md has no \"## Conventions\" section; read it with mod_read_contributing)\n"
	}
	return clip(strings.TrimSpace(strings.Join(section, "\n")), maxConventionsBytes) + "\n"
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:runeStart(s, n)] + " …[cut]"
}
