//go:build race

package mcptest

// Race tells whether the tests run under the race detector (go test -race).
const Race = true
