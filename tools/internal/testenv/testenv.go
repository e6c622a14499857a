// Package testenv holds what the end-to-end tests ask of the machine they
// run on: a Docker engine, a free port.
package testenv

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
)

// RequireDocker skips the test without a Docker engine and Compose v2,
// except with CI=true, where that is a failure (.ci/run installs them).
func RequireDocker(t testing.TB) {
	t.Helper()
	out, err := exec.Command("docker", "compose", "version").CombinedOutput()
	if err == nil {
		out, err = exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput()
	}
	if err != nil {
		msg := fmt.Sprintf("no Docker engine with Compose v2 here (%v: %s); ../shared/container/setup.sh installs one", err, bytes.TrimSpace(out))
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
