package wiki

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b in one step. It fails with
// errors.ErrUnsupported where the file system cannot (EINVAL: overlay
// upper layers before Linux 5.x, some FUSE and network file systems).
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return errors.ErrUnsupported
	}
	return err
}
