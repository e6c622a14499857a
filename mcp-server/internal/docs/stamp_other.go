//go:build !unix

package docs

import "io/fs"

// inodeOf is 0: the system gives no inode number in a file's information,
// and a stamp is then its size and time alone.
func inodeOf(fs.FileInfo) uint64 { return 0 }
