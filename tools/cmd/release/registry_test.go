package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// registryEntry is what the MCP Registry's semantic rules read of a
// server.json.
type registryEntry struct {
	Name       string
	Title      string
	Version    string
	WebsiteURL string `json:"websiteUrl"`
	Repository struct{ URL, Source, Subfolder string }
	Packages   []struct {
		RegistryType    string `json:"registryType"`
		Identifier      string
		Version         string
		RegistryBaseURL string `json:"registryBaseUrl"`
		FileSHA256      string `json:"fileSha256"`
		Transport       struct{ Type, URL string }
	}
	Remotes []struct {
		Type      string
		URL       string
		Variables map[string]struct {
			Default    string
			IsRequired bool `json:"isRequired"`
		}
	}
}

// serverJSON reads the repository's server.json.
func serverJSON(t *testing.T) registryEntry {
	t.Helper()
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e registryEntry
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("server.json: %v", err)
	}
	return e
}

var (
	serverName  = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9.-]*[a-zA-Z0-9]/[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$`)
	githubRepo  = regexp.MustCompile(`^https?://(www\.)?github\.com/[\w.-]+/[\w.-]+/?$`)
	versionLike = regexp.MustCompile(`^\s*(\^|~|>=|<=|>|<|=)|\|\||\s-\s|(^|\.)(x|X|\*)(\.|$|-)`)
	templateVar = regexp.MustCompile(`\{([^}]+)\}`)
	ociRef      = regexp.MustCompile(`^([a-z0-9.-]+(:\d+)?)/([a-z0-9._/-]+):([\w][\w.-]{0,127})$`)
)

// registryRules checks the rules the MCP Registry applies on publish
// beyond its JSON schema (github.com/modelcontextprotocol/registry,
// internal/validators: validators.go, utils.go, registries/oci.go, as of
// the 2025-12-11 schema), and returns each one broken. The schema test
// cannot see these: a remote's URL is a bare uri-template there, while
// the registry wants https, no loopback host, and every {variable}
// defined; an OCI package's version belongs in its identifier's tag.
// The label check (the image carries io.modelcontextprotocol.server.name
// equal to Name) needs the built image: TestDockerfileLabel checks the
// Dockerfile, and tools/e2e/container the image.
func registryRules(e registryEntry) []string {
	var out []string
	bad := func(s string) { out = append(out, s) }
	if !serverName.MatchString(e.Name) {
		bad("name " + e.Name + ": want namespace/name, e.g. io.github.owner/server")
	}
	if e.Version == "latest" || versionLike.MatchString(e.Version) {
		bad("version " + e.Version + ": want one specific version, not latest or a range")
	}
	if e.Title != "" && strings.TrimSpace(e.Title) == "" {
		bad("title is only white space")
	}
	if e.Repository.Source == "github" && !githubRepo.MatchString(e.Repository.URL) {
		bad("repository.url " + e.Repository.URL + ": not a GitHub repository URL")
	}
	if sub := e.Repository.Subfolder; sub != "" && (strings.HasPrefix(sub, "/") || strings.HasSuffix(sub, "/") || !filepath.IsLocal(sub)) {
		bad("repository.subfolder " + sub + ": want a relative path inside the repository")
	}
	if e.WebsiteURL != "" && !strings.HasPrefix(e.WebsiteURL, "https://") {
		bad("websiteUrl " + e.WebsiteURL + ": want https")
	}
	for _, p := range e.Packages {
		if strings.Contains(p.Identifier, " ") {
			bad("package " + p.Identifier + ": spaces in the identifier")
		}
		if p.Transport.Type == "stdio" && p.Transport.URL != "" {
			bad("package " + p.Identifier + ": a stdio transport has no url")
		}
		if p.RegistryType != "oci" {
			continue
		}
		if p.Version != "" || p.RegistryBaseURL != "" || p.FileSHA256 != "" {
			bad("package " + p.Identifier + ": an OCI package has no version, registryBaseUrl or fileSha256; the tag in the identifier is its version")
		}
		m := ociRef.FindStringSubmatch(p.Identifier)
		switch {
		case m == nil:
			bad("package " + p.Identifier + ": want registry/owner/image:tag")
		case m[1] != "docker.io" && m[1] != "ghcr.io" && !strings.HasSuffix(m[1], ".pkg.dev"):
			bad("package " + p.Identifier + ": the registry takes images from docker.io, ghcr.io and *.pkg.dev only")
		case m[4] != e.Version:
			bad("package " + p.Identifier + ": its tag is not the server's version " + e.Version)
		}
	}
	for _, r := range e.Remotes {
		if r.Type != "streamable-http" && r.Type != "sse" {
			bad("remote type " + r.Type + ": want streamable-http or sse")
		}
		for _, v := range templateVar.FindAllStringSubmatch(r.URL, -1) {
			if _, ok := r.Variables[v[1]]; !ok {
				bad("remote " + r.URL + ": {" + v[1] + "} is not among its variables")
			}
		}
		u, err := url.Parse(templateVar.ReplaceAllString(r.URL, "placeholder"))
		if err != nil || u.Scheme != "https" || u.Host == "" {
			bad("remote " + r.URL + ": want an absolute https URL")
			continue
		}
		if h := u.Hostname(); h == "localhost" || h == "127.0.0.1" || strings.HasSuffix(h, ".localhost") {
			bad("remote " + r.URL + ": a loopback host is no remote")
		}
		for name, v := range r.Variables {
			if d, err := url.Parse(v.Default); v.Default != "" && err == nil && isLoopback(d.Hostname()+v.Default) {
				bad("remote variable " + name + ": its default " + v.Default + " is a loopback address, which a public entry cannot offer")
			}
		}
	}
	return out
}

// isLoopback reports whether s names a loopback host.
func isLoopback(s string) bool {
	return strings.Contains(s, "localhost") || strings.Contains(s, "127.0.0.1") || strings.Contains(s, "[::1]")
}

// TestRegistryRulesRefuse feeds registryRules the mistakes server.json had
// or could have: each must be refused, so the check on the real file can
// fail.
func TestRegistryRulesRefuse(t *testing.T) {
	good := func() registryEntry {
		var e registryEntry
		if err := json.Unmarshal([]byte(`{"name": "io.github.owner/server", "version": "1.0.0",
			"repository": {"url": "https://github.com/o/s", "source": "github"},
			"packages": [{"registryType": "oci", "identifier": "ghcr.io/o/s:1.0.0", "transport": {"type": "stdio"}}],
			"remotes": [{"type": "streamable-http", "url": "https://{host}/mcp", "variables": {"host": {"isRequired": true}}}]}`), &e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	if p := registryRules(good()); len(p) > 0 {
		t.Fatalf("a good entry is refused: %q", p)
	}
	for name, change := range map[string]func(*registryEntry){
		"loopback default (server.json before)": func(e *registryEntry) {
			e.Remotes[0].URL = "{base_url}/mcp"
			e.Remotes[0].Variables = map[string]struct {
				Default    string
				IsRequired bool `json:"isRequired"`
			}{"base_url": {Default: "http://127.0.0.1:3040"}}
		},
		"http remote":            func(e *registryEntry) { e.Remotes[0].URL = "http://docs.example.com/mcp" },
		"localhost remote":       func(e *registryEntry) { e.Remotes[0].URL = "https://localhost/mcp" },
		"undefined variable":     func(e *registryEntry) { e.Remotes[0].URL = "https://{server}/mcp" },
		"OCI version field":      func(e *registryEntry) { e.Packages[0].Version = "1.0.0" },
		"OCI tag not the server": func(e *registryEntry) { e.Packages[0].Identifier = "ghcr.io/o/s:0.9.0" },
		"OCI without tag":        func(e *registryEntry) { e.Packages[0].Identifier = "ghcr.io/o/s" },
		"OCI registry":           func(e *registryEntry) { e.Packages[0].Identifier = "quay.io/o/s:1.0.0" },
		"range version":          func(e *registryEntry) { e.Version = "^1.0.0" },
		"latest":                 func(e *registryEntry) { e.Version = "latest" },
		"two slashes":            func(e *registryEntry) { e.Name = "io.github.owner/server/x" },
		"repository":             func(e *registryEntry) { e.Repository.URL = "https://example.com/o/s" },
	} {
		e := good()
		change(&e)
		if p := registryRules(e); len(p) == 0 {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestDockerfileLabel checks that the image server.json names carries the
// label the registry checks: the final stage of Dockerfile.docs-mcp (the
// image published) sets io.modelcontextprotocol.server.name to
// server.json's name. tools/e2e/container checks the built image too.
func TestDockerfileLabel(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "Dockerfile.docs-mcp"))
	if err != nil {
		t.Fatal(err)
	}
	stages := strings.Split(string(b), "\nFROM ")
	last := stages[len(stages)-1]
	want := `LABEL io.modelcontextprotocol.server.name="` + serverJSON(t).Name + `"`
	if !strings.Contains(last, "\n"+want+"\n") {
		t.Errorf("the final stage of Dockerfile.docs-mcp lacks %s", want)
	}
}

// TestTitle checks that server.json's title is the server's, which the
// bundles show (the release test compares it with a running server's).
func TestTitle(t *testing.T) {
	if got := serverJSON(t).Title; got != title {
		t.Errorf("server.json's title is %q, the bundles' %q", got, title)
	}
}
