package wiki

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestLinkIdentical: files with the same bytes are stored once (one inode,
// every name reading them), files that differ in a byte or are empty stay
// their own.
func TestLinkIdentical(t *testing.T) {
	dir := t.TempDir()
	img := "\x89PNG the same image in every version"
	mcptest.WriteTree(t, dir, map[string]string{
		"img/logo.png":         img,
		"v1.0.0/img/logo.png":  img,
		"v2.0.0/img/logo.png":  img,
		"v2.0.0/img/other.png": img[:len(img)-1] + "!",
		"a.txt":                "",
		"v1.0.0/a.txt":         "",
	})
	linked, saved, err := linkIdentical(dir)
	if err != nil {
		t.Fatal(err)
	}
	if linked != 2 || saved != int64(2*len(img)) {
		t.Errorf("linkIdentical = %d files, %d bytes saved; want 2 files, %d bytes", linked, saved, 2*len(img))
	}
	stat := func(name string) os.FileInfo {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	for _, name := range []string{"v1.0.0/img/logo.png", "v2.0.0/img/logo.png"} {
		if !os.SameFile(stat("img/logo.png"), stat(name)) {
			t.Errorf("%s is not stored once with img/logo.png", name)
		}
		if got := mcptest.ReadFile(t, filepath.Join(dir, name)); got != img {
			t.Errorf("%s reads %q, want %q", name, got, img)
		}
	}
	if os.SameFile(stat("img/logo.png"), stat("v2.0.0/img/other.png")) {
		t.Error("v2.0.0/img/other.png, which differs in its last byte, was linked to img/logo.png")
	}
	if os.SameFile(stat("a.txt"), stat("v1.0.0/a.txt")) {
		t.Error("empty files were linked")
	}
}
