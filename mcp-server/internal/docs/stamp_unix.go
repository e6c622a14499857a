//go:build unix

package docs

import (
	"io/fs"
	"syscall"
)

// inodeOf is the file's inode number.
func inodeOf(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
