// Package container holds the end-to-end test of the combined container
// (Dockerfile.docs-mcp and compose.yaml at the repository root) on a real
// Docker engine. It has no code of its own: run
//
//	go test ./tools/e2e/container
//
// On a machine without Docker the test says so and skips; with CI=true a
// missing engine is a failure (.ci/run installs one first).
package container
