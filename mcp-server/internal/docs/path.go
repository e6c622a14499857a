package docs

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrInvalidPath is wrapped by every refusal of a client-supplied path.
var ErrInvalidPath = errors.New("invalid doc path")

// ErrNotFound is wrapped when a well-formed path names no doc.
var ErrNotFound = errors.New("doc not found")

// CleanPath checks a path sent by a client and returns it in canonical form:
// relative, slash-separated, without "." segments or a trailing slash.
//
// Refused, each with a reason: the empty path, NUL bytes, backslashes,
// absolute paths, drive letters and ".." segments. A path that passes names a
// location inside the docs root by construction; symlinks are handled by the
// loader, which reads through os.Root and so never sees a file outside it.
//
// A path may also be given as ShowPath writes it into text: quoted, with
// its control characters escaped.
func CleanPath(p string) (string, error) {
	p = unshow(p)
	// The drive-letter check looks at the cleaned path, so that "./C:" is
	// refused like "C:" (a fuzzing find: accepting it made CleanPath
	// accept a path that its own result would fail).
	clean := path.Clean(p)
	reason := ""
	switch {
	case p == "":
		reason = "it is empty"
	case strings.ContainsRune(p, 0):
		reason = "it contains a NUL byte"
	case strings.ContainsRune(p, '\\'):
		reason = `it contains a backslash; use "/" between folders`
	case strings.HasPrefix(p, "/"):
		reason = "it is absolute; give a path relative to docs/, like server/tools.md"
	case len(clean) >= 2 && clean[1] == ':' && isASCIILetter(clean[0]):
		reason = "it starts with a drive letter; give a path relative to docs/"
	case hasDotDot(p):
		reason = `it contains a ".." segment; paths stay inside docs/`
	}
	if reason != "" {
		return "", fmt.Errorf("%w %q: %s", ErrInvalidPath, p, reason)
	}
	if clean == "." {
		return "", fmt.Errorf("%w %q: it names the docs folder itself, not a doc", ErrInvalidPath, p)
	}
	return clean, nil
}

// CleanPrefix checks a path prefix used as a filter. Unlike CleanPath it
// accepts the empty prefix (everything) and keeps a trailing slash, which
// narrows "guide/" to the folder while "guide" also matches "guide.md".
func CleanPrefix(p string) (string, error) {
	p = unshow(p)
	if p == "" || p == "." || p == "./" {
		return "", nil
	}
	trailing := strings.HasSuffix(p, "/")
	clean, err := CleanPath(p)
	if err != nil {
		return "", err
	}
	if trailing {
		clean += "/"
	}
	return clean, nil
}

// ShowPath is how a doc path (or a folder's) is written into text that
// people and assistants read: tool answers, the map of the docs,
// AGENTS.md. A path is written as it is unless it holds a character that
// is not printable (a newline, a tab, an escape, a bidirectional
// control, ...), is not valid UTF-8, or starts with a double quote; then
// it is quoted and escaped as strconv.Quote does, so that a file's name
// cannot break a line of that text or forge one (such as the marker lines
// that enclose the map in AGENTS.md). Structured results carry paths as
// they are; CleanPath takes a path written either way.
func ShowPath(p string) string {
	if utf8.ValidString(p) && !strings.HasPrefix(p, `"`) && !strings.ContainsFunc(p, notPrintable) {
		return p
	}
	return strconv.Quote(p)
}

func notPrintable(r rune) bool { return !strconv.IsPrint(r) }

// unshow returns the path that ShowPath wrote as s when it quoted one, else
// s. No path is ambiguous: every quoted form holds a backslash (each
// character it escapes, and the quote it starts with, gets one), which no
// doc path does.
func unshow(s string) string {
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	if p, err := strconv.Unquote(s); err == nil && ShowPath(p) == s {
		return p
	}
	return s
}

func hasDotDot(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// FromOS turns rel, a path relative to the docs folder as this system
// spells it (the watcher's events, a folder listing's names), into the doc
// path clients use. ok is false when no client could name it.
func FromOS(rel string) (p string, ok bool) { return fromOS(rel, filepath.Separator) }

// fromOS is FromOS on a system whose separator is sep. On Windows, "\"
// between folders becomes "/". Where sep is "/", a "\" is part of a name,
// and CleanPath refuses every path with one: such a file is no doc.
func fromOS(rel string, sep byte) (string, bool) {
	if sep != '/' {
		rel = strings.ReplaceAll(rel, string(sep), "/")
	}
	return rel, !strings.ContainsRune(rel, '\\')
}

// backslashReason is why a file or folder with a "\" in its name is left out.
const backslashReason = "a backslash in its name: no client can name it (doc paths take / between folders)"
