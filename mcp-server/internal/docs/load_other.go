//go:build !linux || portable

// Built everywhere but Linux, and on Linux with -tags portable, under which
// .ci/run runs the tests again so that this code is tested too.

package docs

import (
	"io/fs"
	"os"
)

// openFlags are added to the flags of every open of a doc: nothing here,
// where the type check before the open is what keeps pipes out.
const openFlags = 0

// readDir lists the folder open as f (in sub) with the entries' types.
func readDir(f *os.File, sub *os.Root, _ *[]byte) ([]dirEntry, error) {
	entries, err := f.ReadDir(-1)
	out := make([]dirEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, dirEntry{name: e.Name(), typ: e.Type() & fs.ModeType})
	}
	return out, err
}

// readDocAt is Linux's shortcut for reading a file of a listed folder
// (load_linux.go); elsewhere readDoc reads every file.
func readDocAt(dirfd int, name, p string, maxBytes int64, buf *[]byte) (readResult, bool) {
	return readResult{}, false
}

// fstatAt is Linux's shortcut for stamping a file of a listed folder
// (load_linux.go); elsewhere stampAt stats it through the os.Root.
func fstatAt(int, string) (stamp, bool) { return stamp{}, false }
