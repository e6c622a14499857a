package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// TestRelease builds the release of server.json's version for this
// machine's platform and for Windows, and checks what a user checks: the
// binary runs and prints its version (run does), SHA256SUMS covers every
// file of the release (binaries, bundles, SBOM) and nothing else, a Claude
// Desktop bundle is written for Windows (Claude Desktop's platforms) and
// not for Linux, it holds the released binary and passes mcpb validate,
// its display name is the title the server gives in initialize, and the
// SBOM lists each binary and the modules built into it.
func TestRelease(t *testing.T) {
	out := t.TempDir()
	version := "v" + serverJSON(t).Version
	native := runtime.GOOS + "/" + runtime.GOARCH
	want := []string{native}
	if runtime.GOOS != "windows" {
		want = append(want, "windows/amd64")
	}
	var log strings.Builder
	if err := run(options{Version: version, Out: out, Targets: want}, &log); err != nil {
		t.Fatalf("release: %v\n%s", err, log.String())
	}
	binName := func(goos, goarch string) string {
		name := fmt.Sprintf("docs-mcp_%s_%s_%s", version, goos, goarch)
		if goos == "windows" {
			name += ".exe"
		}
		return name
	}
	name := binName(runtime.GOOS, runtime.GOARCH)
	if !strings.Contains(log.String(), "ran "+name+" --version: ") {
		t.Errorf("the binary was not run:\n%s", log.String())
	}

	var files, bundled []string
	for _, target := range want {
		goos, goarch, _ := strings.Cut(target, "/")
		files = append(files, binName(goos, goarch))
		if slices.Contains(bundlePlatforms, goos) {
			bundled = append(bundled, binName(goos, goarch))
			files = append(files, fmt.Sprintf("docs-mcp_%s_%s_%s.mcpb", version, goos, goarch))
		}
	}
	files = append(files, "docs-mcp_"+version+".spdx.json")
	var wantSums strings.Builder
	for _, f := range files {
		sum, err := sha256File(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&wantSums, "%s  %s\n", sum, f)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil || string(sums) != wantSums.String() {
		t.Errorf("SHA256SUMS = %q (%v), want %q", sums, err, wantSums.String())
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != len(files)+1 {
		t.Errorf("the release holds %d files, want %d: %v", len(entries), len(files)+1, entries)
	}
	if runtime.GOOS == "linux" && len(bundled) != 1 {
		t.Errorf("bundled %q; want the Windows binary only (no Claude Desktop for Linux)", bundled)
	}
	for _, bin := range bundled {
		m := checkBundle(t, out, bin, version)
		if got := serverTitle(t, filepath.Join(out, name)); m.DisplayName != got {
			t.Errorf("the bundle's display_name is %q, the server's title %q", m.DisplayName, got)
		}
	}

	b, err := os.ReadFile(filepath.Join(out, "docs-mcp_"+version+".spdx.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc spdxDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	sum, _ := sha256File(filepath.Join(out, name))
	var names []string
	for _, p := range doc.Packages {
		names = append(names, p.Name)
		if p.Name == name && (len(p.Checksums) != 1 || p.Checksums[0].Value != sum) {
			t.Errorf("the SBOM's checksum of %s is %+v, want %s", name, p.Checksums, sum)
		}
	}
	for _, want := range []string{name, "github.com/mark3labs/mcp-go", "github.com/urfave/cli/v2", "stdlib"} {
		if !slices.Contains(names, want) {
			t.Errorf("the SBOM has no package %s: %q", want, names)
		}
	}
	if doc.SPDXVersion != "SPDX-2.3" || len(doc.Relationships) < len(doc.Packages) {
		t.Errorf("SBOM: version %q, %d relationships for %d packages", doc.SPDXVersion, len(doc.Relationships), len(doc.Packages))
	}
}

// serverTitle starts the binary over stdio, as a client does, and returns
// the title its initialize answer gives.
func serverTitle(t *testing.T, bin string) string {
	t.Helper()
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.NewStdioMCPClient(bin, nil, "--stdio", "--data-root", root, "--watch", "off")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var req mcp.InitializeRequest
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "release-test", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize %s: %v", bin, err)
	}
	return res.ServerInfo.Title
}

func TestReleaseRefusesBadInput(t *testing.T) {
	version := "v" + serverJSON(t).Version
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "docs-mcp_v0.0.1_linux_amd64"), []byte("an earlier release"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		opt  options
		want string
	}{
		{options{Version: "v1 2", Targets: []string{"linux/amd64"}}, `-version "v1 2": a release version is a tag like v0.1.0, with the v (server.json and the bundles carry it without)`},
		{options{Version: version, Targets: []string{"linux"}}, `target "linux": want GOOS/GOARCH, e.g. linux/amd64`},
		{options{Version: strings.TrimPrefix(version, "v"), Targets: []string{"linux/amd64"}},
			fmt.Sprintf(`-version %q: a release version is a tag like v0.1.0, with the v (server.json and the bundles carry it without)`, strings.TrimPrefix(version, "v"))},
		{options{Version: "v9.9.9", Targets: []string{"linux/amd64"}},
			fmt.Sprintf(`-version v9.9.9: server.json gives version %q; set it, and the image tag in its OCI package, to "9.9.9" first`, strings.TrimPrefix(version, "v"))},
		{options{Version: version, Out: full, Targets: []string{"linux/amd64"}},
			fmt.Sprintf("-out %s is not empty (it holds docs-mcp_v0.0.1_linux_amd64, ...): give a new folder, e.g. -out %s, or -replace to empty it first", full, filepath.Join(full, version))},
	} {
		if tt.opt.Out == "" {
			tt.opt.Out = t.TempDir()
		}
		if err := run(tt.opt, &strings.Builder{}); err == nil || err.Error() != tt.want {
			t.Errorf("run(%+v) = %v, want %q", tt.opt, err, tt.want)
		}
	}
	// Refused, the earlier release is still there.
	if b, err := os.ReadFile(filepath.Join(full, "docs-mcp_v0.0.1_linux_amd64")); err != nil || string(b) != "an earlier release" {
		t.Errorf("the earlier release in -out: %q, %v", b, err)
	}
}

// TestReleaseReplace checks that -replace empties -out first.
func TestReleaseReplace(t *testing.T) {
	out := t.TempDir()
	stale := filepath.Join(out, "docs-mcp_v0.0.1_linux_amd64")
	if err := os.WriteFile(stale, []byte("an earlier release"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := prepareOut(out, "v0.1.0", true); err != nil {
		t.Fatal(err)
	}
	if entries, err := os.ReadDir(out); err != nil || len(entries) != 0 {
		t.Errorf("-replace left %v (%v)", entries, err)
	}
}
