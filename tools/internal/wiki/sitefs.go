package wiki

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/wikistyle"
)

// siteFiles are the site's sources (layouts, assets, hugo.toml) built into
// the command, for a wiki command run outside a docs-mcp checkout (an
// installed binary building another repository's docs).
//
//go:embed all:site
var siteFiles embed.FS

// HugoVersion is the Hugo release tools/hugo/go.mod pins, the one the
// layouts are written for.
const HugoVersion = "v0.165.0"

// IsCheckout reports whether dir is a docs-mcp checkout the wiki can be
// built from: it holds the site's sources and the module pinning Hugo.
func IsCheckout(dir string) bool {
	return fileExists(filepath.Join(dir, "tools", "internal", "wiki", "site", "hugo.toml")) &&
		fileExists(filepath.Join(dir, "tools", "hugo", "go.mod"))
}

// siteSources is the folder holding the site's sources: the checkout's
// (Options.Repo), else the ones built into the command, written once into
// a folder of the user's cache named by their hash.
func (o Options) siteSources() (string, error) {
	if o.Repo != "" {
		return o.siteDir(), nil
	}
	return extractSite(siteFiles)
}

// extractSite writes the files of fsys's site/, and the stylesheet, into a folder named by their
// hash under the user's cache (else, or when it cannot be written, the temporary folder) and returns it;
// an earlier extraction of the same files is reused. The folder is written
// beside its place and renamed in, so a reader never sees half of it.
func extractSite(fsys fs.FS) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(fsys, "site", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("site sources: %w", err)
	}
	fmt.Fprintf(h, "%s\x00%d\x00", wikistyle.Path, len(wikistyle.CSS))
	h.Write([]byte(wikistyle.CSS))
	// The user's cache, else (none, or not writable: a read-only container
	// whose home is not a volume) the temporary folder.
	var bases []string
	if base, err := os.UserCacheDir(); err == nil {
		bases = append(bases, base)
	}
	bases = append(bases, os.TempDir())
	var parent, dir string
	for _, base := range bases {
		parent = filepath.Join(base, "docs-mcp-wiki")
		dir = filepath.Join(parent, "site-"+hex.EncodeToString(h.Sum(nil))[:16])
		if fileExists(filepath.Join(dir, "hugo.toml")) {
			return dir, nil
		}
		if err = os.MkdirAll(parent, 0o755); err == nil {
			break
		}
	}
	if err != nil {
		return "", fmt.Errorf("site sources: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".site-*")
	if err != nil {
		return "", fmt.Errorf("site sources: %w", err)
	}
	defer os.RemoveAll(tmp) // left only when the rename failed
	sub, err := fs.Sub(fsys, "site")
	if err != nil {
		return "", fmt.Errorf("site sources: %w", err)
	}
	if err := os.CopyFS(tmp, sub); err != nil {
		return "", fmt.Errorf("site sources: write %s: %w", tmp, err)
	}
	// The stylesheet lives in the mcp-server module (wikistyle), which a
	// checkout's build mounts in its place (Tree.config).
	if err := os.WriteFile(filepath.Join(tmp, "assets", "css", "wiki.css"), []byte(wikistyle.CSS), 0o644); err != nil {
		return "", fmt.Errorf("site sources: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("site sources: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if fileExists(filepath.Join(dir, "hugo.toml")) {
			return dir, nil // another build put the same files there first
		}
		return "", fmt.Errorf("site sources: %w", err)
	}
	return dir, nil
}

// hugo is the Hugo a build runs: -hugo's executable, else the checkout's
// pinned Go tool, else (outside a checkout) the hugo on the PATH.
func (o Options) hugo() (*Hugo, error) {
	h := &Hugo{Binary: o.Hugo, Progress: o.progress()}
	switch {
	case o.Hugo != "":
	case o.Repo != "":
		h.ModDir = filepath.Join(o.Repo, "tools", "hugo")
	default:
		bin, err := exec.LookPath("hugo")
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("no docs-mcp checkout here to run the pinned Hugo from, and no hugo on the PATH: pass -hugo FILE, a Hugo %s executable (go install github.com/gohugoio/hugo@%s), or run the command from a docs-mcp checkout with -root", HugoVersion, HugoVersion)
		}
		if err != nil {
			return nil, fmt.Errorf("find hugo: %w", err)
		}
		h.Binary = bin
	}
	return h, nil
}

// checkHugoVersion warns when Hugo's version line names another release
// than the one the layouts are written for.
func checkHugoVersion(o Options, line string) {
	if !strings.Contains(line, HugoVersion+" ") && !strings.HasSuffix(line, HugoVersion) {
		fmt.Fprintf(o.progress(), "wiki: warning: the layouts are written for Hugo %s; %s may build them differently or fail\n", HugoVersion, line)
	}
}
