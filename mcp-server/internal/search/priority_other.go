//go:build !linux

package search

// asBackground does nothing where a thread's own priority cannot be set
// apart from its process's (see priority_linux.go).
func asBackground() {}
