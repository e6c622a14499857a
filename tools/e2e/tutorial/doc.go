// Package tutorial holds the test of the mod tutorial in docs/modding. It
// has no code of its own: the test reads the pages in reading order (their
// front matter weight), then does what they tell a new mod author to do, in
// an empty folder next to a stand-in for their clone of this repository. It
// runs each ```sh block in one bash session, writes each quoted file
// (```go file=examples/welcome/...) where the page says to create it, and
// compares what each block prints with the ```text block that follows it
// (a block with none must print nothing). In the end the folder must hold
// the module examples/welcome, file for file (the Go files, go.mod but for
// its replace path, go.sum):
//
//	go test ./tools/e2e/tutorial
//
// Without bash the test says so and skips; with CI=true it fails instead.
package tutorial
