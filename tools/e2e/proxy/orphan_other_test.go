//go:build !linux

package proxy

import "os/exec"

// dieWithTest does nothing here: only Linux has a parent-death signal.
func dieWithTest(cmd *exec.Cmd) {}
