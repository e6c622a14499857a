//go:build !linux || portable

// Built everywhere but Linux, and on Linux with -tags portable, under which
// .ci/run runs the tests again so that this code is tested too.

package watch

// remoteFS reports whether dir lies on a network file system. Only Linux
// is checked; elsewhere --watch poll is the way to say so.
func remoteFS(string) (string, bool) { return "", false }
