//go:build !unix

package mcptest

import "time"

// CPUTime is 0 where getrusage is missing: benchmarks then report 0
// cpu-ns/op and only wall time says anything.
func CPUTime() time.Duration { return 0 }
