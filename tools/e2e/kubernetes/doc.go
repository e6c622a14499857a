// Package kubernetes holds the test of the Kubernetes manifests in
// deploy/kubernetes. No cluster runs here: every object is decoded strictly
// into its k8s.io/api type (an unknown field fails), and the objects are
// checked against each other and against Dockerfile.docs-mcp: selectors
// match labels, probes and Services point at real ports and paths, the
// image, port and user are the Dockerfile's. Run
//
//	go test ./tools/e2e/kubernetes
package kubernetes
