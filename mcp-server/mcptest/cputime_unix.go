//go:build unix

package mcptest

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time the process has used (user and system): on a
// machine shared with other jobs a benchmark's cost per op is better told
// by it than by wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
