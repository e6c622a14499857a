package docs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// OpenRegular opens the file name for reading, as a doc is opened: only a
// regular file, or a link to one. The type is checked before the open, so
// that a named pipe (which would wait for a writer) or a device (which may
// never end) is never opened, and again on the file opened, which does not
// wait where the system allows (openFlags), for a file swapped in
// between. Files that are not the docs but are read like them (the
// corpus's cache) are opened through it.
func OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	if info, err := os.Stat(name); err == nil && !info.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: errors.New(notRegular(info.Mode()))}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, nil, err
	case !info.Mode().IsRegular():
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: errors.New(notRegular(info.Mode()))}
	}
	return f, info, nil
}

// ErrTooLarge is the error of ReadRegular for a file larger than its cap.
var ErrTooLarge = errors.New("larger than its cap")

// ReadRegular reads the file name, opened by OpenRegular, to its end but
// never past maxBytes, as a doc is read: a file whose size says it is
// larger is refused before any read, and one that grows past the cap
// while it is read is refused once it does.
func ReadRegular(name string, maxBytes int64) ([]byte, error) {
	f, info, err := OpenRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > maxBytes {
		return nil, fmt.Errorf("%d bytes: %w of %d bytes", info.Size(), ErrTooLarge, maxBytes)
	}
	r := io.LimitReader(f, maxBytes+1)
	b := make([]byte, 0, info.Size()+1) // the size may have moved: read to the end
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(b)) > maxBytes {
		return nil, fmt.Errorf("grew past it while read: %w of %d bytes", ErrTooLarge, maxBytes)
	}
	return b, nil
}
