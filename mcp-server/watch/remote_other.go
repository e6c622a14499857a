//go:build !linux

package watch

// remoteFS reports whether dir lies on a network file system. Only Linux
// is checked; elsewhere --watch poll is the way to say so.
func remoteFS(string) (string, bool) { return "", false }
