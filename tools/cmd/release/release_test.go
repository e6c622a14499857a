package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestRelease builds the release for this machine's platform and checks
// what a user checks: the binary runs and prints its version (run does),
// SHA256SUMS holds its checksum and its bundle's, the Claude Desktop
// bundle holds it and passes mcpb validate, and the SBOM lists it and the
// modules built into it.
func TestRelease(t *testing.T) {
	out := t.TempDir()
	target := runtime.GOOS + "/" + runtime.GOARCH
	var log strings.Builder
	if err := run("v0.0.0-test", out, []string{target}, &log); err != nil {
		t.Fatalf("release: %v\n%s", err, log.String())
	}
	name := fmt.Sprintf("docs-mcp_v0.0.0-test_%s_%s", runtime.GOOS, runtime.GOARCH)
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if !strings.Contains(log.String(), "ran "+name+" --version: ") {
		t.Errorf("the binary was not run:\n%s", log.String())
	}
	sum, err := sha256File(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	bundle := fmt.Sprintf("docs-mcp_v0.0.0-test_%s_%s.mcpb", runtime.GOOS, runtime.GOARCH)
	bundleSum, err := sha256File(filepath.Join(out, bundle))
	if err != nil {
		t.Fatal(err)
	}
	wantSums := sum + "  " + name + "\n" + bundleSum + "  " + bundle + "\n"
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil || string(sums) != wantSums {
		t.Errorf("SHA256SUMS = %q (%v), want %q", sums, err, wantSums)
	}
	checkBundle(t, out, name, "v0.0.0-test")
	b, err := os.ReadFile(filepath.Join(out, "docs-mcp_v0.0.0-test.spdx.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc spdxDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
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

func TestReleaseRefusesBadInput(t *testing.T) {
	for _, tt := range []struct {
		version string
		targets []string
		want    string
	}{
		{"v1 2", []string{"linux/amd64"}, "no spaces or slashes"},
		{"v1", []string{"linux"}, `target "linux": want GOOS/GOARCH`},
	} {
		if err := run(tt.version, t.TempDir(), tt.targets, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q, %q) = %v, want %q", tt.version, tt.targets, err, tt.want)
		}
	}
}
