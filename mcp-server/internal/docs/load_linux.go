//go:build linux && !portable

package docs

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// readDir lists the folder open as f (in sub) with the entries' types,
// from getdents64 itself: os.File.ReadDir stats every entry of a folder
// opened through an os.Root (one system call per file). Only an entry
// whose type the file system does not say is looked at with Lstat. scratch
// is the caller's buffer, kept from one folder to the next.
func readDir(f *os.File, sub *os.Root, scratch *[]byte) ([]dirEntry, error) {
	fd := int(f.Fd())
	if cap(*scratch) < 32<<10 {
		*scratch = make([]byte, 32<<10)
	}
	var (
		out []dirEntry
		buf = (*scratch)[:cap(*scratch)]
	)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return out, &fs.PathError{Op: "readdirent", Path: f.Name(), Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		// struct linux_dirent64: ino u64, off s64, reclen u16, type u8,
		// name (NUL-terminated).
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ, raw := b[18], b[19:reclen]
			b = b[reclen:]
			for i, c := range raw {
				if c == 0 {
					raw = raw[:i]
					break
				}
			}
			name := string(raw)
			if name == "." || name == ".." {
				continue
			}
			e := dirEntry{name: name}
			switch typ {
			case syscall.DT_DIR:
				e.typ = fs.ModeDir
			case syscall.DT_FIFO:
				e.typ = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				e.typ = fs.ModeSocket
			case syscall.DT_CHR, syscall.DT_BLK:
				e.typ = fs.ModeDevice
			case syscall.DT_REG:
			case syscall.DT_LNK:
				e.typ = fs.ModeSymlink
			case syscall.DT_UNKNOWN:
				info, err := sub.Lstat(name)
				if err != nil {
					continue // gone since the folder was read
				}
				e.typ = info.Mode().Type()
			default:
				e.typ = fs.ModeIrregular
			}
			out = append(out, e)
		}
	}
}

// readDocAt reads the file name in the folder open as dirfd with plain system calls:
// openat (with O_NOFOLLOW, and name is one path element, so it stays in the
// folder, which the os.Root opened), fstat, read to the end, close. That
// is five calls a file where os.Root's Open and os.File take eleven
// (fcntl, the poller, a stat of the path). It reports false when the file
// needs the careful path (readDoc): a symlink, or anything unexpected,
// whose reason readDoc then gives.
func readDocAt(dirfd int, name, p string, maxBytes int64, buf *[]byte) (readResult, bool) {
	if dirfd < 0 {
		return readResult{}, false
	}
	fd, err := openat(dirfd, name)
	if err != nil {
		return readResult{}, false
	}
	defer syscall.Close(fd)
	var sys syscall.Stat_t
	if err := fstat(fd, &sys); err != nil || sys.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return readResult{}, false
	}
	st := stamp{size: sys.Size, mod: sys.Mtim.Nano(), ino: uint64(sys.Ino)}
	if sys.Size > maxBytes {
		return readResult{skip: Skipped{Path: p, Reason: fmt.Sprintf("larger than the %d-byte cap (%d bytes)", maxBytes, sys.Size), stamp: st}}, true
	}
	b := (*buf)[:0]
	if want := int(sys.Size) + 512; cap(b) < want {
		b = make([]byte, 0, want)
	}
	defer func() { *buf = b }()
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow
		}
		n, err := read(fd, b[len(b):cap(b)])
		if err != nil {
			return readResult{}, false
		}
		b = b[:len(b)+n]
		if int64(len(b)) > maxBytes {
			return readResult{skip: Skipped{Path: p, Reason: fmt.Sprintf("larger than the %d-byte cap", maxBytes)}}, true
		}
		if n == 0 {
			break
		}
	}
	return docOf(p, b, st), true
}

// openFlags are added to the flags of every open of a doc: a named pipe
// swapped in after its check does not hold the open up.
const openFlags = syscall.O_NONBLOCK

func openat(dirfd int, name string) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func fstat(fd int, st *syscall.Stat_t) error {
	for {
		if err := syscall.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

func read(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// fstatAt stamps the file name in the folder open as dirfd with one
// fstatat, not following a symlink (the walk stats a link's target through
// the os.Root). It reports false when that is not possible.
func fstatAt(dirfd int, name string) (stamp, bool) {
	if dirfd < 0 {
		return stamp{}, false
	}
	var sys unix.Stat_t
	for {
		err := unix.Fstatat(dirfd, name, &sys, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return stamp{}, false
		}
		return stamp{size: sys.Size, mod: sys.Mtim.Nano(), ino: sys.Ino}, true
	}
}
