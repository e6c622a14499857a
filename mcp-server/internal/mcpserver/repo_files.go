package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unicode/utf8"
)

// readRepoFile reads one of the repository files the server serves besides
// the docs. The paths come from the operator's configuration, never from a
// client. A missing file is errUnavailable, named by its expected path.
//
// Only a regular file is read: the type is checked before the open, since
// opening a named pipe would wait for a writer and hold the request (and
// the shutdown behind it).
func (s *Server) readRepoFile(path, what string) (string, error) {
	var b []byte
	info, err := os.Stat(path)
	if err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		err = &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%s, not a regular file", info.Mode().Type())}
	}
	if err == nil {
		b, err = os.ReadFile(path)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%w: %s is expected at %s in the repository, and there is no such file",
			errUnavailable, what, s.rel(path))
	case err != nil:
		if perr, ok := errors.AsType[*fs.PathError](err); ok {
			err = perr.Err // the absolute path stays out of every answer (and /health)
		}
		return "", fmt.Errorf("read %s: %w", s.rel(path), err)
	case !utf8.Valid(b):
		return "", fmt.Errorf("%w: %s at %s is not valid UTF-8 text", errUnavailable, what, s.rel(path))
	}
	return string(b), nil
}
