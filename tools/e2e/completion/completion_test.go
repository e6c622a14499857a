// Package completion checks completion/complete with the official Go SDK's
// client against the docs-mcp binary, over stdio and Streamable HTTP, on
// this repository's docs and hook registry.
package completion

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

func TestCompletionGoSDK(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := mcptest.BuildDocsMCP(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "completion-test", Version: "1"}, nil)

	t.Run("stdio", func(t *testing.T) {
		cmd := exec.Command(bin, "--stdio", "--data-root", root, "--watch", "off")
		session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer session.Close()
		check(ctx, t, session)
	})

	t.Run("http", func(t *testing.T) {
		_, addr := mcptest.ServeHTTP(t, bin, "--data-root", root, "--watch", "off")
		session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer session.Close()
		check(ctx, t, session)
	})
}

// check completes a doc path, a hook name through hook://{name} and the
// prompt's hook argument, and the prompt's task.
func check(ctx context.Context, t *testing.T, s *mcp.ClientSession) {
	t.Helper()
	if s.InitializeResult() != nil && s.InitializeResult().Capabilities.Completions == nil {
		t.Error("the server does not advertise completions")
	}
	complete := func(ref *mcp.CompleteReference, name, value string) []string {
		res, err := s.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: name, Value: value}})
		if err != nil {
			t.Fatalf("complete %s %q: %v", name, value, err)
		}
		return res.Completion.Values
	}
	if got := complete(&mcp.CompleteReference{Type: "ref/resource", URI: "docs://{+path}"}, "path", "server/t"); !slices.Equal(got, []string{"server/tools.md"}) {
		t.Errorf("path server/t: %q, want server/tools.md", got)
	}
	if got := complete(&mcp.CompleteReference{Type: "ref/resource", URI: "docs://{+path}"}, "path", ""); len(got) == 0 || got[0] != "clients/" || !slices.Contains(got, "index.md") {
		t.Errorf("path from the top: %q, want folders first, then docs", got)
	}
	for _, ref := range []*mcp.CompleteReference{
		{Type: "ref/resource", URI: "hook://{name}"},
		{Type: "ref/prompt", Name: "mod_modding_context"},
	} {
		arg := "name"
		if ref.Type == "ref/prompt" {
			arg = "hook"
		}
		got := complete(ref, arg, "player.j")
		if !slices.Contains(got, "player.joined") || slices.ContainsFunc(got, func(v string) bool { return !strings.HasPrefix(v, "player.j") }) {
			t.Errorf("%s %s player.j: %q", ref.Type, arg, got)
		}
	}
	if got := complete(&mcp.CompleteReference{Type: "ref/prompt", Name: "mod_modding_context"}, "task", "add a hook"); !slices.Contains(got, "add a hook for crafting") {
		t.Errorf("task: %q", got)
	}
}
