package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// checkBundle unpacks the release's bundle of the binary bin, as Claude
// Desktop does, and checks that its manifest names the binary it holds,
// that this binary is the released one and, on its own platform, starts
// (--version), and that the official mcpb validate accepts the unpacked
// bundle. It returns the manifest.
func checkBundle(t *testing.T, out, bin, version string) mcpbManifest {
	t.Helper()
	name := strings.TrimSuffix(bin, ".exe") + ".mcpb"
	z, err := zip.OpenReader(filepath.Join(out, name))
	if err != nil {
		t.Fatalf("the release has no bundle %s: %v", name, err)
	}
	defer z.Close()
	dir := t.TempDir()
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		unpack(t, f, dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatalf("bundle %s (entries %q): %v", name, names, err)
	}
	var m mcpbManifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	entry := filepath.Join(dir, filepath.FromSlash(m.Server.EntryPoint))
	if m.Server.MCPConfig.Command != "${__dirname}/"+m.Server.EntryPoint || len(names) != 2 {
		t.Errorf("bundle entries %q; the manifest runs %q, entry point %q", names, m.Server.MCPConfig.Command, m.Server.EntryPoint)
	}
	want, _ := sha256File(filepath.Join(out, bin))
	if got, err := sha256File(entry); err != nil || got != want {
		t.Errorf("the bundle's %s is not the released %s (sha256 %s, %v; want %s)", m.Server.EntryPoint, bin, got, err, want)
	}
	if strings.Contains(bin, "_"+runtime.GOOS+"_"+runtime.GOARCH) {
		if v, err := exec.Command(entry, "--version").Output(); err != nil || !strings.Contains(string(v), version) {
			t.Errorf("the bundle's %s --version: %q, %v; want %s", m.Server.EntryPoint, v, err, version)
		}
	}
	mcpbValidate(t, dir, true)
	return m
}

func unpack(t *testing.T, f *zip.File, dir string) {
	t.Helper()
	if !filepath.IsLocal(f.Name) {
		t.Fatalf("bundle entry %q is not a local path", f.Name)
	}
	r, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.FromSlash(f.Name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, f.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

// mcpbValidate runs the official mcpb validate (testdata/mcpb's pinned
// @anthropic-ai/mcpb) on the bundle folder dir and checks its verdict.
func mcpbValidate(t *testing.T, dir string, valid bool) {
	t.Helper()
	cli := filepath.Join("testdata", "mcpb")
	testenv.NodePackages(t, cli, "@anthropic-ai/mcpb", "the official mcpb validate checks the Claude Desktop bundle's manifest")
	cmd := exec.Command("npx", "--no-install", "mcpb", "validate", dir)
	cmd.Dir = cli
	out, err := cmd.CombinedOutput()
	if valid && (err != nil || !bytes.Contains(out, []byte("Manifest schema validation passes"))) {
		t.Errorf("mcpb validate %s: %v\n%s", dir, err, out)
	}
	if !valid && err == nil {
		t.Errorf("mcpb validate accepted a bad manifest in %s:\n%s", dir, out)
	}
}

// TestBundleManifests has mcpb validate check the manifest of every
// bundled OS (the release test builds one; the manifest depends on the OS
// alone), and refuse the mistakes a change could make.
func TestBundleManifests(t *testing.T) {
	for _, goos := range bundlePlatforms {
		target := goos
		entry := "docs-mcp"
		if goos == "windows" {
			entry += ".exe"
		}
		m := manifest("v1.2.3", goos, entry)
		if m.Version != "1.2.3" || len(m.Compatibility.Platforms) != 1 {
			t.Errorf("%s: version %q, platforms %q", target, m.Version, m.Compatibility.Platforms)
		}
		writeManifest(t, m, true)
	}
	bad := manifest("v1.2.3", "darwin", "docs-mcp")
	bad.Server.Type = "go"
	writeManifest(t, bad, false)
	bad = manifest("v1.2.3", "windows", "docs-mcp.exe")
	bad.Compatibility.Platforms = []string{"windows"} // the format says win32
	writeManifest(t, bad, false)
}

func writeManifest(t *testing.T, m mcpbManifest, valid bool) {
	t.Helper()
	dir := t.TempDir()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	mcpbValidate(t, dir, valid)
}
