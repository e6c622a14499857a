package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A Claude Desktop bundle (MCPB, formerly DXT) is a zip holding
// manifest.json and the server. The release writes one bundle per target,
// docs-mcp_VERSION_OS_ARCH.mcpb, holding that target's binary at its root:
// a manifest can pick a command per OS (platform_overrides) but not per
// CPU, and Go builds no universal binary, so one bundle cannot serve both
// arm64 and amd64 Macs. Opened in Claude Desktop, the bundle asks for the
// one thing the server cannot guess, the checkout whose docs it serves
// (user_config data_root, a directory; the binary serves a repository,
// unlike the container image, which carries its docs), and starts
//
//	${__dirname}/docs-mcp --stdio --data-root ${user_config.data_root}
//
// The manifest is version 0.3 of the format (server type "binary";
// 0.4 only adds "uv"), checked by the official mcpb validate in the
// release's test. It has no icon: the format wants a PNG, and the server's
// icon is an SVG. The Go standard library draws no SVG; oksvg (the Go SVG
// rasteriser, unreleased since 2022) drew it without the rounded corners
// and with unscaled strokes; rsvg-convert would make every release need a
// non-Go tool. Claude Desktop shows a default icon instead.
type mcpbManifest struct {
	ManifestVersion string                    `json:"manifest_version"`
	Name            string                    `json:"name"`
	DisplayName     string                    `json:"display_name"`
	Version         string                    `json:"version"`
	Description     string                    `json:"description"`
	LongDescription string                    `json:"long_description"`
	Author          mcpbAuthor                `json:"author"`
	Repository      mcpbRepository            `json:"repository"`
	Homepage        string                    `json:"homepage"`
	Server          mcpbServer                `json:"server"`
	UserConfig      map[string]mcpbUserOption `json:"user_config"`
	Compatibility   mcpbCompatibility         `json:"compatibility"`
	Keywords        []string                  `json:"keywords"`
}

type mcpbAuthor struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type mcpbRepository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

type mcpbServer struct {
	Type       string        `json:"type"`
	EntryPoint string        `json:"entry_point"`
	MCPConfig  mcpbMCPConfig `json:"mcp_config"`
}

type mcpbMCPConfig struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

type mcpbUserOption struct {
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

type mcpbCompatibility struct {
	Platforms []string `json:"platforms"`
}

const repoURL = "https://github.com/docs-mcp/docs-mcp"

// title is the server's title, as its initialize answer and server.json
// give it; the release's test checks that all three agree.
const title = "Modkit docs"

// bundlePlatforms are the GOOS values a bundle is written for: those
// Claude Desktop, the only client that opens .mcpb files, runs on (macOS
// and Windows; it has no Linux release). Linux users take the binary.
var bundlePlatforms = []string{"darwin", "windows"}

// manifest is the bundle manifest for one target's binary, stored in the
// bundle as entry.
func manifest(version, goos, entry string) mcpbManifest {
	platform := goos
	if goos == "windows" {
		platform = "win32" // Node's name for it, which the format uses
	}
	return mcpbManifest{
		ManifestVersion: "0.3",
		Name:            "docs-mcp",
		DisplayName:     title,
		// The format's versions are semantic versions; tags carry a v.
		Version:         strings.TrimPrefix(version, "v"),
		Description:     "Search and read the modkit docs and hook registry of a checkout.",
		LongDescription: "docs-mcp lets the assistant search and read the Markdown docs and the hook registry of the docs-mcp checkout you choose (the data root), and reads nothing outside it.",
		Author:          mcpbAuthor{Name: "docs-mcp", URL: repoURL},
		Repository:      mcpbRepository{Type: "git", URL: repoURL},
		Homepage:        repoURL,
		Server: mcpbServer{
			Type:       "binary",
			EntryPoint: entry,
			MCPConfig: mcpbMCPConfig{
				Command: "${__dirname}/" + entry,
				Args:    []string{"--stdio", "--data-root", "${user_config.data_root}"},
			},
		},
		UserConfig: map[string]mcpbUserOption{
			"data_root": {
				Type:        "directory",
				Title:       "Repository to serve",
				Description: "The checkout whose docs/ (and hooks) the server reads, e.g. your clone of the repository.",
				Required:    true,
			},
		},
		Compatibility: mcpbCompatibility{Platforms: []string{platform}},
		Keywords:      []string{"docs", "markdown", "search", "modding"},
	}
}

// bundle writes the .mcpb for the binary bin (built for goos) to path. Its
// entries carry the time mod, so the same release gives the same bytes.
func bundle(path, bin, version, goos string, mod time.Time) error {
	entry := "docs-mcp"
	if goos == "windows" {
		entry += ".exe"
	}
	m, err := json.MarshalIndent(manifest(version, goos, entry), "", "  ")
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	z := zip.NewWriter(f)
	w, err := z.CreateHeader(&zip.FileHeader{Name: "manifest.json", Method: zip.Deflate, Modified: mod})
	if err != nil {
		return err
	}
	if _, err := w.Write(append(m, '\n')); err != nil {
		return err
	}
	h := &zip.FileHeader{Name: entry, Method: zip.Deflate, Modified: mod}
	h.SetMode(0o755) // Unix permissions, so the unpacked binary can run
	if w, err = z.CreateHeader(h); err != nil {
		return err
	}
	src, err := os.Open(bin)
	if err != nil {
		return err
	}
	defer src.Close()
	if _, err := io.Copy(w, src); err != nil {
		return fmt.Errorf("bundle %s: %w", filepath.Base(bin), err)
	}
	if err := z.Close(); err != nil {
		return err
	}
	return f.Close()
}
