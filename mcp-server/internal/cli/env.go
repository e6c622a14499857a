package cli

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// envPrefix starts every environment variable the server reads, and only
// those: the deployment files (compose.yaml, deploy/) name theirs
// DOCS_STACK_*, so that a DOCS_MCP_* the server does not know is a mistake
// worth a warning, not a setting meant for something else.
const envPrefix = "DOCS_MCP_"

// envHints name the setting meant by variables people write by analogy
// with other servers, or that deployment files used to read before they
// were renamed DOCS_STACK_*: names a spelling distance would not lead to.
var envHints = map[string]string{
	"DOCS_MCP_PORT":           "DOCS_MCP_LISTEN (host:port)",
	"DOCS_MCP_HOST":           "DOCS_MCP_LISTEN (host:port)",
	"DOCS_MCP_ADDR":           "DOCS_MCP_LISTEN (host:port)",
	"DOCS_MCP_ADDRESS":        "DOCS_MCP_LISTEN (host:port)",
	"DOCS_MCP_TOKEN":          "DOCS_MCP_AUTH_TOKEN",
	"DOCS_MCP_HOST_IP":        "DOCS_STACK_HOST_IP (compose.yaml reads it, not the server)",
	"DOCS_MCP_HOST_PORT":      "DOCS_STACK_HOST_PORT (compose.yaml reads it, not the server)",
	"DOCS_MCP_LIVE_HOST_PORT": "DOCS_STACK_LIVE_HOST_PORT (compose.yaml reads it, not the server)",
	"DOCS_MCP_VERSION":        "DOCS_STACK_VERSION (compose.yaml reads it, not the server)",
	"DOCS_MCP_IMAGE":          "DOCS_STACK_IMAGE (deploy/swarm/stack.yaml reads it, not the server)",
}

// unknownEnv lists the DOCS_MCP_* variables of environ that no flag reads
// (nor DOCS_MCP_AUTH_TOKEN), each with the nearest real one: the server
// would otherwise ignore a misspelt setting without a word, and serve with
// its default.
func unknownEnv(flags []cli.Flag, environ []string) []envWarning {
	known := []string{authTokenEnv}
	for _, f := range flags {
		if e, ok := f.(interface{ GetEnvVars() []string }); ok {
			known = append(known, e.GetEnvVars()...)
		}
	}
	var out []envWarning
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		// Empty is unset to urfave/cli as well.
		if value == "" || !strings.HasPrefix(name, envPrefix) || slices.Contains(known, name) {
			continue
		}
		nearest, ok := envHints[name]
		if !ok && cli.SuggestFlag != nil { // nil when built with urfave_cli_no_suggest
			flag := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(name, envPrefix), "_", "-"))
			nearest = envName(strings.TrimPrefix(cli.SuggestFlag(flags, flag, true), "--"))
		}
		out = append(out, envWarning{Name: name, Nearest: nearest})
	}
	return out
}

// envWarning is a variable the server does not read, and the one it
// probably stands for.
type envWarning struct{ Name, Nearest string }
