//go:build linux && !portable

package watch

import "syscall"

// remoteFS reports whether dir lies on a network or user-space file system,
// where inotify sees only the changes made through this machine's kernel,
// and names it.
func remoteFS(dir string) (string, bool) {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return "", false
	}
	// Magic numbers from statfs(2) and linux/magic.h.
	switch uint32(st.Type) {
	case 0x6969:
		return "nfs", true
	case 0x517b:
		return "smb", true
	case 0xff534d42:
		return "cifs", true
	case 0xfe534d42:
		return "smb2", true
	case 0x01021997:
		return "9p", true
	case 0x65735546:
		return "fuse", true
	case 0x00c36400:
		return "ceph", true
	case 0x5346414f, 0x6b414653:
		return "afs", true
	case 0x0bd00bd0:
		return "lustre", true
	}
	return "", false
}
