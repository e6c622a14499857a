package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// options are the command's flags.
type options struct {
	Version string   // a release tag, v0.1.0; empty: a development build named by git
	Out     string   // the folder written to
	Replace bool     // empty Out first; else it must be empty or new
	Targets []string // GOOS/GOARCH pairs
}

// releaseTag is a release version: v and a semantic version.
var releaseTag = regexp.MustCompile(`^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// run builds the release opt asks for, and reports each step to w.
func run(opt options, w io.Writer) error {
	root, err := repo.Root(".")
	if err != nil {
		return err
	}
	version, out, targets := opt.Version, opt.Out, opt.Targets
	if version == "" {
		version = gitVersion(root)
	} else if err := checkTag(root, version); err != nil {
		return err
	}
	if strings.ContainsAny(version, " /\\") {
		return fmt.Errorf("version %q: no spaces or slashes", version)
	}
	if err := prepareOut(out, version, opt.Replace); err != nil {
		return err
	}
	mod, err := time.Parse(time.RFC3339, created())
	if err != nil {
		return err
	}
	var bins, bundles []string
	for _, t := range targets {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(t), "/")
		if !ok || goos == "" || goarch == "" {
			return fmt.Errorf("target %q: want GOOS/GOARCH, e.g. linux/amd64", t)
		}
		name := fmt.Sprintf("docs-mcp_%s_%s_%s", version, goos, goarch)
		if goos == "windows" {
			name += ".exe"
		}
		start := time.Now()
		if err := build(root, filepath.Join(out, name), goos, goarch, version); err != nil {
			return err
		}
		fmt.Fprintf(w, "built %s (%s)\n", name, time.Since(start).Round(time.Millisecond))
		bins = append(bins, name)
		if !slices.Contains(bundlePlatforms, goos) {
			continue
		}
		mcpb := fmt.Sprintf("docs-mcp_%s_%s_%s.mcpb", version, goos, goarch)
		if err := bundle(filepath.Join(out, mcpb), filepath.Join(out, name), version, goos, mod); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", mcpb)
		bundles = append(bundles, mcpb)
	}
	sbomName := fmt.Sprintf("docs-mcp_%s.spdx.json", version)
	sbom, err := spdx(out, bins, version)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, sbomName), sbom, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", sbomName)
	// Every file of the release is checked by one command (sha256sum -c).
	sums, err := checksums(out, append(append(slices.Clone(bins), bundles...), sbomName))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote SHA256SUMS\n")

	// Run the binary this machine can run: it must print its version.
	native := fmt.Sprintf("docs-mcp_%s_%s_%s", version, runtime.GOOS, runtime.GOARCH)
	if runtime.GOOS == "windows" {
		native += ".exe"
	}
	if !slices.Contains(bins, native) {
		fmt.Fprintf(w, "ran nothing: no binary for %s/%s\n", runtime.GOOS, runtime.GOARCH)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := exec.CommandContext(ctx, filepath.Join(out, native), "--version").Output()
	if err != nil {
		return fmt.Errorf("run %s --version: %w", native, err)
	}
	if !strings.Contains(string(got), version) {
		return fmt.Errorf("%s --version printed %q, not the version %s", native, strings.TrimSpace(string(got)), version)
	}
	fmt.Fprintf(w, "ran %s --version: %s\n", native, strings.TrimSpace(string(got)))
	return nil
}

// checkTag checks a release version: a tag such as v0.1.0, naming the
// version server.json gives (without the v, as the MCP Registry and the
// bundle format write it), so that the binaries, the bundles and the
// registry entry of one release agree.
func checkTag(root, version string) error {
	if !releaseTag.MatchString(version) {
		return fmt.Errorf("-version %q: a release version is a tag like v0.1.0, with the v (server.json and the bundles carry it without)", version)
	}
	b, err := os.ReadFile(filepath.Join(root, "server.json"))
	if err != nil {
		return err
	}
	var entry struct{ Version string }
	if err := json.Unmarshal(b, &entry); err != nil {
		return fmt.Errorf("server.json: %w", err)
	}
	if "v"+entry.Version != version {
		return fmt.Errorf("-version %s: server.json gives version %q; set it, and the image tag in its OCI package, to %q first", version, entry.Version, strings.TrimPrefix(version, "v"))
	}
	return nil
}

// prepareOut makes out ready for a release: new or empty, or emptied when
// replace is set. A folder holding files is refused, so that building the
// next version into the same -out does not delete the last one unasked.
func prepareOut(out, version string, replace bool) error {
	if replace {
		if err := os.RemoveAll(out); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("-out %s is not empty (it holds %s, ...): give a new folder, e.g. -out %s, or -replace to empty it first",
			out, entries[0].Name(), filepath.Join(out, version))
	}
	return os.MkdirAll(out, 0o755)
}

// build compiles ./mcp-server for one target: static, without local paths,
// stamped with the version.
func build(root, out, goos, goarch, version string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", abs, "./mcp-server")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build %s/%s: %w\n%s", goos, goarch, err, msg)
	}
	return nil
}

// gitVersion is what git describes the checkout as, or "dev".
func gitVersion(root string) string {
	cmd := exec.Command("git", "describe", "--tags", "--always", "--dirty")
	cmd.Dir = root
	if b, err := cmd.Output(); err == nil && len(bytes.TrimSpace(b)) > 0 {
		return string(bytes.TrimSpace(b))
	}
	return "dev"
}

// checksums is a SHA256SUMS file of the binaries in dir.
func checksums(dir string, names []string) (string, error) {
	var b strings.Builder
	for _, n := range names {
		sum, err := sha256File(filepath.Join(dir, n))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, n)
	}
	return b.String(), nil
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// SPDX 2.3 JSON, the parts a release needs: one package per binary (with
// its checksum), one per Go module built into any of them (with its
// version and go.sum hash), and what contains what.
type spdxDoc struct {
	SPDXVersion       string         `json:"spdxVersion"`
	DataLicense       string         `json:"dataLicense"`
	SPDXID            string         `json:"SPDXID"`
	Name              string         `json:"name"`
	DocumentNamespace string         `json:"documentNamespace"`
	CreationInfo      spdxCreation   `json:"creationInfo"`
	Packages          []spdxPackage  `json:"packages"`
	Relationships     []spdxRelation `json:"relationships"`
}

type spdxCreation struct {
	Created  string   `json:"created"`
	Creators []string `json:"creators"`
}

type spdxPackage struct {
	Name             string         `json:"name"`
	SPDXID           string         `json:"SPDXID"`
	VersionInfo      string         `json:"versionInfo,omitempty"`
	DownloadLocation string         `json:"downloadLocation"`
	FilesAnalyzed    bool           `json:"filesAnalyzed"`
	Checksums        []spdxChecksum `json:"checksums,omitempty"`
	ExternalRefs     []spdxRef      `json:"externalRefs,omitempty"`
	Comment          string         `json:"comment,omitempty"`
}

type spdxChecksum struct {
	Algorithm string `json:"algorithm"`
	Value     string `json:"checksumValue"`
}

type spdxRef struct {
	Category string `json:"referenceCategory"`
	Type     string `json:"referenceType"`
	Locator  string `json:"referenceLocator"`
}

type spdxRelation struct {
	Element string `json:"spdxElementId"`
	Type    string `json:"relationshipType"`
	Related string `json:"relatedSpdxElement"`
}

// spdx describes the binaries in dir from their build information. The
// document's time is the commit's time when SOURCE_DATE_EPOCH is unset
// (the same checkout gives the same document), else that epoch.
func spdx(dir string, names []string, version string) ([]byte, error) {
	doc := spdxDoc{
		SPDXVersion: "SPDX-2.3", DataLicense: "CC0-1.0", SPDXID: "SPDXRef-DOCUMENT",
		Name:              "docs-mcp " + version,
		DocumentNamespace: "https://github.com/docs-mcp/docs-mcp/releases/" + version + "/spdx",
		CreationInfo:      spdxCreation{Created: created(), Creators: []string{"Tool: docs-mcp tools/cmd/release"}},
	}
	modules := map[string]string{} // module@version -> its SPDX id
	for i, n := range names {
		info, err := buildinfo.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, fmt.Errorf("build information of %s: %w", n, err)
		}
		sum, err := sha256File(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		id := fmt.Sprintf("SPDXRef-binary-%d", i)
		var settings []string
		for _, s := range info.Settings {
			if s.Key == "GOOS" || s.Key == "GOARCH" || s.Key == "CGO_ENABLED" || s.Key == "-trimpath" {
				settings = append(settings, s.Key+"="+s.Value)
			}
		}
		doc.Packages = append(doc.Packages, spdxPackage{
			Name: n, SPDXID: id, VersionInfo: version, DownloadLocation: "NOASSERTION",
			Checksums: []spdxChecksum{{Algorithm: "SHA256", Value: sum}},
			Comment:   fmt.Sprintf("%s built with %s (%s) from %s", info.Path, info.GoVersion, strings.Join(settings, " "), info.Main.Path),
		})
		doc.Relationships = append(doc.Relationships, spdxRelation{"SPDXRef-DOCUMENT", "DESCRIBES", id})
		deps := append([]*module{{Path: "stdlib", Version: info.GoVersion}}, modulesOf(info)...)
		for _, m := range deps {
			key := m.Path + "@" + m.Version
			mid, ok := modules[key]
			if !ok {
				mid = fmt.Sprintf("SPDXRef-module-%d", len(modules))
				modules[key] = mid
				p := spdxPackage{
					Name: m.Path, SPDXID: mid, VersionInfo: m.Version, DownloadLocation: "NOASSERTION",
					ExternalRefs: []spdxRef{{"PACKAGE-MANAGER", "purl", purl(m.Path, m.Version)}},
				}
				if m.Sum != "" {
					p.Comment = "go.sum " + m.Sum
				}
				doc.Packages = append(doc.Packages, p)
			}
			doc.Relationships = append(doc.Relationships, spdxRelation{id, "CONTAINS", mid})
		}
	}
	return json.MarshalIndent(doc, "", "  ")
}

// module is a Go module of a binary's build information, replaced
// modules resolved to what was built.
type module struct{ Path, Version, Sum string }

func modulesOf(info *buildinfo.BuildInfo) []*module {
	var out []*module
	for _, d := range info.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		out = append(out, &module{Path: d.Path, Version: d.Version, Sum: d.Sum})
	}
	return out
}

// purl is a Go module's package URL (pkg:golang/PATH@VERSION).
func purl(path, version string) string {
	if path == "stdlib" {
		return "pkg:golang/stdlib@" + version
	}
	return "pkg:golang/" + path + "@" + version
}

func created() string {
	if e := os.Getenv("SOURCE_DATE_EPOCH"); e != "" {
		var sec int64
		if _, err := fmt.Sscan(e, &sec); err == nil {
			return time.Unix(sec, 0).UTC().Format(time.RFC3339)
		}
	}
	if b, err := exec.Command("git", "log", "-1", "--format=%cI").Output(); err == nil {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(b))); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	return time.Now().UTC().Format(time.RFC3339)
}
