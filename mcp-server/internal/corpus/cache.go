package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/buildinfo"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/search"
)

// The cache keeps what a start-up computes, the docs as held (compressed)
// and their search index, in one file per docs folder, so that the next
// start on an unchanged tree reads one file instead of every doc and
// builds no index. It is validated, never trusted, as git validates its
// index:
//
//   - The file is written whole to a temporary name and renamed into
//     place, so a reader sees an old file or a new one, never half of one;
//     two servers on one docs folder (two stdio sessions) may both write
//     it, and the last rename wins.
//   - It starts with a magic, a format version and a key (the build's
//     version, the docs folder, the size cap of a doc) and ends with a
//     CRC-32C of everything before: a file that is missing, foreign,
//     truncated, flipped or written by another build is ignored with one
//     warning, and rebuilt.
//   - Its docs are not served as they are: the start-up makes them true to
//     the disk by a rescan (docs.Update with Changes.All), which reads again
//     every file whose size, modification time or inode moved, and every
//     file that was modified too close to its read to be trusted by those
//     ("racily clean", see docs.markRacy); the index build that follows
//     reuses the saved segments whose docs were not read again. So a cache
//     can make a start fast, never an answer wrong.
//
// The index of a search is data derived from the docs (see search.layout):
// a build whose index differs refuses the saved one as foreign.

// cacheMagic starts every cache file; cacheVersion follows it, and changes
// with the file's layout.
const (
	cacheMagic   = "docs-mcp cache\n"
	cacheVersion = 1
)

// CacheFile is where the cache of the docs folder docsPath lives in dir:
// one file per docs folder, named by a hash of its absolute path.
func CacheFile(dir, docsPath string) string {
	sum := sha256.Sum256([]byte(docsPath))
	return filepath.Join(dir, "docs-"+hex.EncodeToString(sum[:8])+".cache")
}

// errNoCache says that there is no cache file to read: the first start on
// a docs folder, which is no fault.
var errNoCache = errors.New("no cache file")

// cacheKey is what a cache file must have been written for: this build, this
// docs folder, this size cap.
func (c *Corpus) cacheKey() []byte {
	return fmt.Appendf(nil, "%s\x00%s\x00%d", buildinfo.Version(), c.cfg.DocsPath, c.cfg.MaxDocBytes)
}

// readCache reads the cache file, at most maxBytes of it: the snapshot it
// saved (at generation 1), with its index restored, or why it cannot be
// used (errNoCache when there is none). The file is opened and read as a
// doc is (docs.ReadRegular): a named pipe, a device or a link to one is
// refused unopened, and a file larger than maxBytes unread.
func (c *Corpus) readCache(maxBytes int64) (*docs.Snapshot, error) {
	data, err := docs.ReadRegular(c.cfg.CacheFile, maxBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errNoCache
	case errors.Is(err, docs.ErrTooLarge):
		return nil, fmt.Errorf("%w: more than a cache of these docs can hold", err)
	case err != nil:
		return nil, err
	}
	body, err := c.openCache(data)
	if err != nil {
		return nil, err
	}
	if len(body) < 8 || binary.LittleEndian.Uint64(body) > uint64(len(body)-8) {
		return nil, errors.New("its docs are cut short")
	}
	n := 8 + int(binary.LittleEndian.Uint64(body))
	snap, err := docs.DecodeSnapshot(body[8:n], 1)
	if err != nil {
		return nil, err
	}
	ix, err := search.DecodeIndex(body[n:], snap)
	if err != nil {
		return nil, err
	}
	search.Restore(snap, ix)
	return snap, nil
}

// cacheBound is the most bytes a cache file of the docs listed in l may
// hold: cacheBytesPerByte for every byte of their text, their paths and
// cacheBytesPerFile for each, and cacheBaseBytes. A file larger is not
// read (a sparse file of gigabytes, or one that grows as it is read).
func cacheBound(l *docs.Listing) int64 {
	files, bytes, pathBytes := l.Size()
	return cacheBaseBytes + cacheBytesPerByte*bytes + pathBytes + cacheBytesPerFile*int64(files)
}

// The cache's bound (see cacheBound) leaves room for more than the caches
// measured: per byte of the docs' text, 0.52 on cpp-docs (45 MB), 0.60 on
// 40,000 generated small docs, 0.83 on this repository's docs, 1.17 on
// base64 of random bytes and 1.5 on random CJK text, which compress
// worst; 258 bytes a file on 3,000 docs of a few bytes with 225-byte paths.
const (
	cacheBytesPerByte = 4
	cacheBytesPerFile = 512
	cacheBaseBytes    = 1 << 20
)

// openCache checks a cache file's frame (magic, version, key, checksum)
// and returns what it holds.
func (c *Corpus) openCache(data []byte) ([]byte, error) {
	head := len(cacheMagic) + 1
	if len(data) < head+4 || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, errors.New("not a cache file of this server")
	}
	if v := data[len(cacheMagic)]; v != cacheVersion {
		return nil, fmt.Errorf("written in format %d, this build reads %d", v, cacheVersion)
	}
	end := len(data) - 4
	if crc32.Checksum(data[:end], castagnoli) != binary.LittleEndian.Uint32(data[end:]) {
		return nil, errors.New("its checksum does not match: truncated or damaged")
	}
	rest := data[head:end]
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > uint64(len(rest)-k) {
		return nil, errors.New("its key is cut short")
	}
	if key := rest[k : k+int(n)]; !bytes.Equal(key, c.cacheKey()) {
		return nil, fmt.Errorf("written by another build or for another docs folder (%q)", bytes.ReplaceAll(key, []byte{0}, []byte(", ")))
	}
	return rest[k+int(n):], nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteCache loads the docs of cfg, builds their search index and writes
// the cache file cfg names, as a start-up does, and returns the file's
// size and how many docs it holds. The file and a folder it makes are
// readable by all: an image writes its cache as root at build time for a
// server that runs as another user, with CacheReadOnly.
func WriteCache(ctx context.Context, cfg Config) (size, held int, err error) {
	if cfg.CacheFile == "" {
		return 0, 0, errors.New("no cache file to write")
	}
	snap, err := docs.Load(ctx, cfg.DocsPath, docs.LoadOptions{MaxDocBytes: cfg.MaxDocBytes, Generation: 1, Logger: cfg.Logger})
	if err != nil {
		return 0, 0, fmt.Errorf("load docs: %w", err)
	}
	ix, err := search.NewIndex(snap)
	if err != nil {
		return 0, 0, fmt.Errorf("index docs: %w", err)
	}
	c := New(cfg)
	n, err := c.writeCache(snap, ix, 0o644)
	if err != nil {
		return 0, 0, fmt.Errorf("write the docs cache: %w", err)
	}
	return n, len(snap.Docs()), nil
}

// writeCache saves snap and its index (which must be built) in the cache
// file, through a temporary file renamed into place, with the permissions
// perm; a folder it makes is open to those who may read the file.
func (c *Corpus) writeCache(snap *docs.Snapshot, ix *search.Index, perm fs.FileMode) (int, error) {
	data := append([]byte(cacheMagic), cacheVersion)
	key := c.cacheKey()
	data = binary.AppendUvarint(data, uint64(len(key)))
	data = append(data, key...)
	// The snapshot's length comes first, set once it is encoded.
	at := len(data)
	data = snap.AppendBinary(binary.LittleEndian.AppendUint64(data, 0))
	binary.LittleEndian.PutUint64(data[at:], uint64(len(data)-at-8))
	data = ix.AppendBinary(data)
	data = binary.LittleEndian.AppendUint32(data, crc32.Checksum(data, castagnoli))

	dir := filepath.Dir(c.cfg.CacheFile)
	dirPerm := fs.FileMode(0o700)
	if perm&0o044 != 0 {
		dirPerm = 0o755
	}
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return 0, err
	}
	f, err := os.CreateTemp(dir, filepath.Base(c.cfg.CacheFile)+".*.tmp")
	if err != nil {
		return 0, err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), c.cfg.CacheFile)
	}
	if err != nil {
		os.Remove(f.Name())
		return 0, err
	}
	prune(dir, c.cfg.CacheFile)
	return len(data), nil
}

// prune removes, from the cache folder dir, the cache files of docs
// folders that are gone (a checkout deleted, a test's temporary tree) and
// temporary files left by a write that died, so that the folder does not
// grow with every tree ever served. It reads only the start of each file.
func prune(dir, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case p == keep || !strings.HasPrefix(e.Name(), "docs-"):
		case strings.HasSuffix(e.Name(), ".tmp"):
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				os.Remove(p)
			}
		case strings.HasSuffix(e.Name(), ".cache"):
			if docsPath, ok := cachedFolder(p); ok {
				if _, err := os.Stat(docsPath); errors.Is(err, fs.ErrNotExist) {
					os.Remove(p)
				}
			}
		}
	}
}

// cachedFolder reads the docs folder a cache file was written for from its
// key (see cacheKey).
func cachedFolder(file string) (string, bool) {
	f, _, err := docs.OpenRegular(file) // a named pipe here must not hold up the write
	if err != nil {
		return "", false
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(head, []byte(cacheMagic)) || len(head) < len(cacheMagic)+1 {
		return "", false
	}
	rest := head[len(cacheMagic)+1:]
	size, k := binary.Uvarint(rest)
	if k <= 0 || size > uint64(len(rest)-k) {
		return "", false
	}
	parts := bytes.Split(rest[k:k+int(size)], []byte{0})
	if len(parts) != 3 || !filepath.IsAbs(string(parts[1])) {
		return "", false
	}
	return string(parts[1]), true
}
