package gitdocs

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// BlobID is the id of a file's git blob: two files with the same BlobID
// hold the same bytes. The fs.FileInfo of a file of a tag's tree gives it
// as Sys(). It is 20 bytes, not hex: a release's load names 40,000 files
// by it, and hex strings were a quarter of what the load allocated.
type BlobID [20]byte

// String is the id in hex, as git writes it.
func (id BlobID) String() string { return hex.EncodeToString(id[:]) }

// BlobIDOf is the BlobID git gives a file holding data, so that a file on
// disk can be matched with a tag's blob without reading the blob.
func BlobIDOf(data []byte) BlobID {
	return BlobID(plumbing.ComputeHash(plumbing.BlobObject, data))
}

// FileBlobID is the BlobID of the file of size bytes a doc's text was read
// from: the text's, or, when the file is longer by a byte order mark's
// three bytes (the loader drops the mark), that of the mark and the text.
// ok is false when size is neither.
func FileBlobID(text []byte, size int64) (id BlobID, ok bool) {
	const bom = "\ufeff"
	switch size {
	case int64(len(text)):
		return BlobIDOf(text), true
	case int64(len(bom) + len(text)):
		h := plumbing.NewHasher(plumbing.BlobObject, size)
		h.Write([]byte(bom))
		h.Write(text)
		return BlobID(h.Sum()), true
	}
	return BlobID{}, false
}

// treeFS is a commit's tree as an fs.FS. Every look-up takes the repo's
// mutex, which guards dirs too.
type treeFS struct {
	repo *Repo
	root *object.Tree
	mod  time.Time
	// dirs are the folders decoded so far, by path: a walk of the tree
	// decodes each folder once (go-git's Tree.Tree decodes a folder's
	// parents again for each path; listing 40,000 docs took a third less).
	dirs map[string]*object.Tree
}

var (
	_ fs.ReadDirFS  = (*treeFS)(nil)
	_ fs.ReadFileFS = (*treeFS)(nil)
	_ fs.StatFS     = (*treeFS)(nil)
	_ fs.ReadLinkFS = (*treeFS)(nil)
)

// entry finds name's tree entry; the root is a zero entry with the
// root tree's mode.
func (t *treeFS) entry(op, name string) (object.TreeEntry, error) {
	if !fs.ValidPath(name) {
		return object.TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return object.TreeEntry{Name: ".", Mode: filemode.Dir, Hash: t.root.Hash}, nil
	}
	parent, err := t.dir(path.Dir(name))
	if err != nil {
		return object.TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	e, ok := find(parent, path.Base(name))
	if !ok {
		return object.TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return e, nil
}

// dir is the folder at name (a valid path), decoded once.
func (t *treeFS) dir(name string) (*object.Tree, error) {
	if name == "." {
		return t.root, nil
	}
	if d := t.dirs[name]; d != nil {
		return d, nil
	}
	parent, err := t.dir(path.Dir(name))
	if err != nil {
		return nil, err
	}
	e, ok := find(parent, path.Base(name))
	if !ok || e.Mode != filemode.Dir {
		return nil, fs.ErrNotExist
	}
	d, err := object.GetTree(t.repo.repo.Storer, e.Hash)
	if err != nil {
		return nil, err
	}
	if t.dirs == nil {
		t.dirs = map[string]*object.Tree{}
	}
	t.dirs[name] = d
	return d, nil
}

// find looks name up among a folder's entries, which are in git's order:
// as a file, then as a folder (whose name sorts as if it ended in a slash).
func find(tree *object.Tree, name string) (object.TreeEntry, bool) {
	for _, mode := range []filemode.FileMode{filemode.Regular, filemode.Dir} {
		want := object.TreeEntry{Name: name, Mode: mode}
		i, found := slices.BinarySearchFunc(tree.Entries, want, gitOrder)
		if found {
			return tree.Entries[i], true
		}
	}
	return object.TreeEntry{}, false
}

func (t *treeFS) Stat(name string) (fs.FileInfo, error) {
	t.repo.mu.Lock()
	defer t.repo.mu.Unlock()
	e, err := t.entry("stat", name)
	if err != nil {
		return nil, err
	}
	return t.info(e)
}

// info describes an entry; a blob's size is read from the object header.
func (t *treeFS) info(e object.TreeEntry) (fileInfo, error) {
	fi := fileInfo{name: e.Name, mode: e.Mode, mod: t.mod, id: BlobID(e.Hash)}
	if e.Mode.IsFile() {
		size, err := t.repo.repo.Storer.EncodedObjectSize(e.Hash) // the header's, not the blob read whole
		if err != nil {
			return fileInfo{}, &fs.PathError{Op: "stat", Path: e.Name, Err: err}
		}
		fi.size = size
	}
	return fi, nil
}

func (t *treeFS) ReadFile(name string) ([]byte, error) {
	t.repo.mu.Lock()
	defer t.repo.mu.Unlock()
	e, err := t.entry("read", name)
	if err != nil {
		return nil, err
	}
	return t.read(name, e)
}

func (t *treeFS) read(name string, e object.TreeEntry) ([]byte, error) {
	switch {
	case e.Mode == filemode.Dir:
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	case !e.Mode.IsRegular():
		// A symlink or a submodule: not followed (see Repo.FS).
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	return t.blob("read", name, e)
}

// blob reads entry e's blob whole.
func (t *treeFS) blob(op, name string, e object.TreeEntry) ([]byte, error) {
	b, err := object.GetBlob(t.repo.repo.Storer, e.Hash)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	rc, err := b.Reader()
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	defer rc.Close()
	data := make([]byte, b.Size)
	if _, err := io.ReadFull(rc, data); err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return data, nil
}

// ReadLink returns the target of the symbolic link name as git stores it
// (the link's blob), e.g. "../CODE_OF_CONDUCT.md". The file system follows
// no link itself: a caller that does decides where one may lead.
func (t *treeFS) ReadLink(name string) (string, error) {
	t.repo.mu.Lock()
	defer t.repo.mu.Unlock()
	e, err := t.entry("readlink", name)
	if err != nil {
		return "", err
	}
	if e.Mode != filemode.Symlink {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: errors.New("not a symbolic link")}
	}
	target, err := t.blob("readlink", name, e)
	if err != nil {
		return "", err
	}
	return string(target), nil
}

// Lstat is Stat, which follows no link either.
func (t *treeFS) Lstat(name string) (fs.FileInfo, error) { return t.Stat(name) }

func (t *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	t.repo.mu.Lock()
	defer t.repo.mu.Unlock()
	return t.readDir(name)
}

func (t *treeFS) readDir(name string) ([]fs.DirEntry, error) {
	e, err := t.entry("readdir", name)
	if err != nil {
		return nil, err
	}
	if e.Mode != filemode.Dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	sub, err := t.dir(name)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	out := make([]fs.DirEntry, 0, len(sub.Entries))
	for _, e := range sub.Entries {
		out = append(out, dirEntry{t: t, e: e})
	}
	// git sorts a folder "a" as "a/", fs.ReadDir promises plain name order.
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

func (t *treeFS) Open(name string) (fs.File, error) {
	t.repo.mu.Lock()
	defer t.repo.mu.Unlock()
	e, err := t.entry("open", name)
	if err != nil {
		return nil, err
	}
	fi, err := t.info(e)
	if err != nil {
		return nil, err
	}
	fi.name = path.Base(name)
	if e.Mode == filemode.Dir {
		entries, err := t.readDir(name)
		if err != nil {
			return nil, err
		}
		return &dirFile{info: fi, entries: entries}, nil
	}
	data, err := t.read(name, e)
	if err != nil {
		return nil, err
	}
	return &file{info: fi, Reader: bytes.NewReader(data)}, nil
}

// fileInfo describes a tree entry.
type fileInfo struct {
	name string
	size int64
	mode filemode.FileMode
	mod  time.Time
	id   BlobID
}

func (fi fileInfo) Name() string       { return fi.name }
func (fi fileInfo) Size() int64        { return fi.size }
func (fi fileInfo) ModTime() time.Time { return fi.mod }
func (fi fileInfo) IsDir() bool        { return fi.mode == filemode.Dir }
func (fi fileInfo) Sys() any           { return fi.id }
func (fi fileInfo) Mode() fs.FileMode {
	switch fi.mode {
	case filemode.Dir:
		return fs.ModeDir | 0o555
	case filemode.Symlink:
		return fs.ModeSymlink | 0o777
	case filemode.Executable:
		return 0o555
	case filemode.Regular, filemode.Deprecated:
		return 0o444
	}
	return fs.ModeIrregular // a submodule
}

// dirEntry is a folder's entry; Info reads the blob's size only if asked.
type dirEntry struct {
	t *treeFS
	e object.TreeEntry
}

func (d dirEntry) Name() string      { return d.e.Name }
func (d dirEntry) IsDir() bool       { return d.e.Mode == filemode.Dir }
func (d dirEntry) Type() fs.FileMode { return fileInfo{mode: d.e.Mode}.Mode().Type() }
func (d dirEntry) Info() (fs.FileInfo, error) {
	d.t.repo.mu.Lock()
	defer d.t.repo.mu.Unlock()
	return d.t.info(d.e)
}

// file is an open file: its bytes are read when it is opened.
type file struct {
	info fileInfo
	*bytes.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

// dirFile is an open folder.
type dirFile struct {
	info    fileInfo
	entries []fs.DirEntry
	off     int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Close() error               { return nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: errors.New("is a directory")}
}

func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	d.off += len(rest)
	return rest, nil
}

// BlobOf returns the BlobID of a file listed by a tag's tree (the entries
// fs.ReadDir and fs.WalkDir give), without reading anything; ok is false
// for an entry of another file system, or a folder.
func BlobOf(e fs.DirEntry) (id BlobID, ok bool) {
	d, ok := e.(dirEntry)
	if !ok || d.e.Mode == filemode.Dir {
		return BlobID{}, false
	}
	return BlobID(d.e.Hash), true
}
