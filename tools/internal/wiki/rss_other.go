//go:build !unix

package wiki

import "os"

// peakRSS is not measured where the OS does not report it.
func peakRSS(*os.ProcessState) int64 { return 0 }
