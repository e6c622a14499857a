package httpserver

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
)

// TestWikiNotBuilt serves a page that says how to build the wiki, while
// MCP keeps working.
func TestWikiNotBuilt(t *testing.T) {
	f := newFixture(t, func(o *setup) { o.SiteDir = filepath.Join(t.TempDir(), "missing") })
	req, _ := http.NewRequest(http.MethodGet, f.http.URL+"/wiki/", nil)
	got := do(t, req)
	if ct := got.header.Get("Content-Type"); got.status != http.StatusServiceUnavailable || ct != "text/html; charset=utf-8" {
		t.Errorf("status %d, type %q; want 503 text/html", got.status, ct)
	}
	if body := string(got.body); !strings.Contains(body, "go run ./tools/cmd/wiki build") {
		t.Errorf("page does not say how to build the wiki:\n%s", body)
	}
	f.initialize(t, nil)
	if f.health(t).Wiki {
		t.Error("health says the wiki is present")
	}
}

// TestWikiOff checks that with NoWiki (--wiki=false) the wiki's paths
// answer 404 while MCP is served.
func TestWikiOff(t *testing.T) {
	f := newFixture(t, func(o *setup) { o.NoWiki = true })
	for _, path := range []string{"/", "/wiki", "/wiki/", "/wiki/index.html"} {
		req, _ := http.NewRequest(http.MethodGet, f.http.URL+path, nil)
		if got := do(t, req); got.status != http.StatusNotFound {
			t.Errorf("GET %s: %d; want 404", path, got.status)
		}
	}
	f.initialize(t, nil)
	if f.health(t).Wiki {
		t.Error("health says the wiki is served")
	}
}

func TestHealth(t *testing.T) {
	registry := filepath.Join("framework", "mod_hooks.json")
	tests := []struct {
		name     string
		opts     func(*setup)
		registry func(path string) error // changes the registry of a copy of testRoot
		want     Health
	}{
		{
			name: "serving",
			want: Health{Status: "ok", Version: "test", Docs: 2, Hooks: 2, Generation: 1, Watch: "off", Wiki: true, Sessions: 1},
		},
		{
			name:     "no registry",
			registry: os.Remove,
			want: Health{Status: "ok", Version: "test", Docs: 2, Hooks: -1, Generation: 1, Watch: "off", Wiki: true, Sessions: 1,
				HooksError: "not available: the hook registry is expected at framework/mod_hooks.json in the repository, and there is no such file"},
		},
		{
			name:     "broken registry",
			registry: func(path string) error { return os.WriteFile(path, []byte(`{"hooks": [`), 0o644) },
			want: Health{Status: "ok", Version: "test", Docs: 2, Hooks: -1, Generation: 1, Watch: "off", Wiki: true, Sessions: 1,
				HooksError: "not available: the hook registry framework/mod_hooks.json is invalid (1 problem); mod_hook_registry still returns it as it is:\n" +
					"  framework/mod_hooks.json:1:12: JSON syntax error: unexpected end of file: the JSON document is incomplete"},
		},
		{
			name: "stateless",
			opts: func(o *setup) { o.Stateless = true },
			want: Health{Status: "ok", Version: "test", Docs: 2, Hooks: 2, Generation: 1, Watch: "off", Wiki: true, Stateless: true},
		},
	}
	n := func(v int64) *int64 { return &v }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := filepath.Abs(testRoot)
			if err != nil {
				t.Fatal(err)
			}
			if tt.registry != nil {
				root = t.TempDir()
				if err := os.CopyFS(root, os.DirFS(testRoot)); err != nil {
					t.Fatal(err)
				}
				if err := tt.registry(filepath.Join(root, registry)); err != nil {
					t.Fatal(err)
				}
			}
			f := newFixtureIn(t, root, tt.opts)
			do(t, f.rpc(t, "", initializeBody))
			// Budgets as the fixture sets them (no listener here: no connections counted).
			def := DefaultConfig()
			tt.want.Budgets = []budget.Usage{
				{Name: budget.Body, Limit: def.MaxBodyBytes},
				{Name: budget.Connections, Limit: int64(def.MaxConnections), Used: n(0)},
				{Name: budget.Sessions, Limit: int64(def.MaxSessions), Used: n(1)},
				{Name: budget.Streams, Limit: int64(def.MaxStreams), Used: n(0)},
			}
			if tt.want.Stateless {
				tt.want.Budgets = slices.Delete(tt.want.Budgets, 2, 3)
			}
			if diff := cmp.Diff(tt.want, f.health(t)); diff != "" {
				t.Errorf("health (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHealthStopping answers 503 once shutdown has begun; HEAD works too.
func TestHealthStopping(t *testing.T) {
	f := newFixture(t, nil)
	head := func() int {
		req, _ := http.NewRequest(http.MethodHead, f.http.URL+"/health", nil)
		return do(t, req).status
	}
	before := head()
	f.srv.stopping.Store(true)
	got := []int{before, head()}
	if diff := cmp.Diff([]int{200, 503}, got); diff != "" {
		t.Errorf("HEAD /health before and during shutdown (-want +got):\n%s", diff)
	}
	if h := f.health(t); h.Status != "stopping" {
		t.Errorf("status %q, want stopping", h.Status)
	}
}
