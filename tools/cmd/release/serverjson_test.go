package main

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// TestServerJSON validates the repository's server.json, its entry for the
// MCP Registry, against the registry's published schema (vendored in
// testdata from https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json),
// formats asserted, and the rules the registry applies beyond the schema
// (registryRules), and checks it offers the stdio package.
func TestServerJSON(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	sch := compileSchema(t)
	f, err := os.Open(filepath.Join(root, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inst, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("server.json: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("server.json does not validate: %v", err)
	}
	b, _ := json.Marshal(inst)
	var s struct {
		Schema   string `json:"$schema"`
		Packages []struct {
			Transport struct{ Type string }
		}
		Remotes []struct{ Type string }
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	// No remote: the registry takes only https URLs on public hosts for
	// remotes, and no one runs a public docs-mcp for everyone; an
	// organisation's own instance is configured from the client docs.
	if s.Schema != schemaURL || len(s.Packages) != 1 || s.Packages[0].Transport.Type != "stdio" || len(s.Remotes) != 0 {
		t.Errorf("server.json: %+v, want the 2025-12-11 schema, a stdio package and no remote", s)
	}
	if problems := registryRules(serverJSON(t)); len(problems) > 0 {
		t.Errorf("the MCP Registry would refuse server.json:\n%s", strings.Join(problems, "\n"))
	}

	// The schema refuses what the registry refuses: the check can fail.
	for name, bad := range map[string]string{
		"no version":       `{"name": "io.github.docs-mcp/docs-mcp", "description": "x"}`,
		"bad name":         `{"name": "docs-mcp", "description": "x", "version": "1"}`,
		"latest":           `{"name": "a/b", "description": "x", "version": "1", "packages": [{"registryType": "oci", "identifier": "x", "version": "latest", "transport": {"type": "stdio"}}]}`,
		"long description": `{"name": "a/b", "version": "1", "description": "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789x"}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err == nil {
			t.Errorf("%s: the schema accepts %s", name, bad)
		}
	}
}

const schemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "server.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestReadmeInstallLinks decodes the README's "Add to VS Code" and "Add to
// Cursor" links: each installs the endpoint the compose file publishes.
func TestReadmeInstallLinks(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const endpoint = "http://127.0.0.1:3040/mcp"
	link := func(label string) *url.URL {
		_, rest, ok := strings.Cut(string(readme), "["+label+"](")
		target, _, _ := strings.Cut(rest, ")")
		u, err := url.Parse(target)
		if !ok || err != nil {
			t.Fatalf("README has no link %q: %v", label, err)
		}
		return u
	}

	vs := link("Add to VS Code")
	inner, err := url.Parse(vs.Query().Get("url"))
	if err != nil || vs.Host != "insiders.vscode.dev" || inner.Scheme != "vscode" || inner.Opaque != "mcp/install" {
		t.Fatalf("VS Code link %s: want a redirect to vscode:mcp/install (%v)", vs, err)
	}
	var vsConfig struct{ Name, Type, URL string }
	if err := json.Unmarshal([]byte(inner.RawQuery), &vsConfig); err != nil {
		q, _ := url.QueryUnescape(inner.RawQuery)
		if err := json.Unmarshal([]byte(q), &vsConfig); err != nil {
			t.Fatalf("VS Code config %q: %v", inner.RawQuery, err)
		}
	}
	if vsConfig != (struct{ Name, Type, URL string }{"docs-mcp", "http", endpoint}) {
		t.Errorf("VS Code installs %+v", vsConfig)
	}

	cur := link("Add to Cursor")
	raw, err := base64.StdEncoding.DecodeString(cur.Query().Get("config"))
	var curConfig struct{ URL string }
	if err == nil {
		err = json.Unmarshal(raw, &curConfig)
	}
	if cur.Scheme != "cursor" || cur.Host != "anysphere.cursor-deeplink" || cur.Path != "/mcp/install" || cur.Query().Get("name") != "docs-mcp" || err != nil || curConfig.URL != endpoint {
		t.Errorf("Cursor link %s installs %+v (%v)", cur, curConfig, err)
	}
	if !strings.Contains(string(readme), "claude mcp add --transport http docs-mcp "+endpoint) {
		t.Error("README lacks the Claude Code command for the endpoint")
	}
}
