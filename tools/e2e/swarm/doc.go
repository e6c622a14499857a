// Package swarm holds the end-to-end test of the Docker Swarm stack
// (deploy/swarm: three docs-mcp replicas behind HAProxy, with Prometheus)
// on a real Docker engine. It has no code of its own: run
//
//	go test ./tools/e2e/swarm
//
// It builds the stack's three images once, initialises a single-node swarm
// only if none is active, deploys the stack under a name of its own on free
// host ports, drives it with tools/cmd/loadtest through HAProxy (a replica
// killed in one run, a rolling update in another), asks Prometheus for the
// requests it counted over all replicas, and removes everything it made:
// the stack, its network, configs and volume, the images, and the swarm if
// it made one. On a machine without Docker the test says so and skips;
// with CI=true a missing engine is a failure (.ci/run installs one first).
package swarm
