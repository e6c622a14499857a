package proxy

import (
	"os/exec"
	"syscall"
)

// dieWithTest has the kernel send cmd SIGTERM when the test process dies
// without running its cleanups (killed, or panicking on -timeout), so
// neither nginx nor docs-mcp outlives it.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
