//go:build unix

package search

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system): on a
// machine shared with other jobs it says what a build costs better than
// wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
