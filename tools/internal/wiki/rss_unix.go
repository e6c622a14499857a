//go:build unix

package wiki

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the largest resident set of a finished process and the
// processes it waited for (go tool runs Hugo as its child), in bytes.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there, kilobytes elsewhere
	}
	return int64(ru.Maxrss) * 1024
}
