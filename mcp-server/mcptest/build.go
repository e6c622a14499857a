package mcptest

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// BuildDocsMCP builds the docs-mcp server of the repository at root into
// dir, as the docs tell readers to, and returns the binary's path.
func BuildDocsMCP(root, dir string) (string, error) {
	bin := filepath.Join(dir, "docs-mcp")
	cmd := exec.Command("go", "build", "-o", bin, "./mcp-server")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./mcp-server: %w\n%s", err, out)
	}
	return bin, nil
}
