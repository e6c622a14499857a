package docs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// DefaultMaxDocBytes is the default size above which a file is skipped.
const DefaultMaxDocBytes = 16 << 20

// LoadOptions tunes Load.
type LoadOptions struct {
	MaxDocBytes int64        // files larger than this are skipped; 0 means DefaultMaxDocBytes
	Generation  uint64       // the generation of the new snapshot
	Logger      *slog.Logger // warnings about skipped files; nil discards them
}

// withDefaults fills in the options left zero.
func (o LoadOptions) withDefaults() LoadOptions {
	if o.MaxDocBytes <= 0 {
		o.MaxDocBytes = DefaultMaxDocBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Load reads every *.md file under dir into a new Snapshot.
//
// Files are read through an os.Root opened on dir, so a symlink that leads
// outside dir is never followed. Symlinked folders are not descended into
// (real trees link folders to their siblings, which would double the
// corpus and can loop); a symlinked file that stays inside dir is read.
// Folders named .git and node_modules are skipped. A file that cannot be
// read, is not valid UTF-8 or is larger than MaxDocBytes is skipped with a
// warning; only a dir that cannot be opened or walked is an error.
//
// The cost follows the bytes more than the files: folders are listed and
// files read by several workers at once (files wait on the disk when the
// page cache is cold), each file is opened relative to its folder (one
// system call, where a path through the os.Root costs one per folder on
// the way), and read into the worker's buffer, so that its text is one
// allocation of its exact size.
func Load(ctx context.Context, dir string, opts LoadOptions) (*Snapshot, error) {
	opts = opts.withDefaults()
	log := opts.Logger
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open docs folder: %w", err)
	}
	defer root.Close()

	began := time.Now()
	kept, _, skipped, err := walkTree(ctx, root, opts.MaxDocBytes, false)
	if err != nil {
		return nil, fmt.Errorf("walk docs folder %s: %w", dir, err)
	}
	markRacy(kept, began)
	for _, s := range skipped {
		log.Warn("skipped doc", "path", s.Path, "reason", s.Reason)
	}
	snap := newSnapshot(opts.Generation, kept, skipped)
	// The dictionary is drawn from the docs in path order, not in the
	// order the workers read them: the same tree compresses the same way.
	snap.codec = newCodec(snap.docs)
	snap.codec.pack(snap.docs)
	return snap, nil
}

// loadWorkers is how many folders and files Load reads at once: more than
// the cores, since a read from a cold page cache waits on the disk.
func loadWorkers() int { return min(4*runtime.GOMAXPROCS(0), 16) }

// filesPerJob is how many files of one folder a worker reads in one job,
// so that a folder of thousands of files is shared among the workers.
const filesPerJob = 64

// loadJob is a folder to list (names nil) or files of a listed folder to
// read.
type loadJob struct {
	dir    string   // slash path of the folder, "." for the root
	folder *folder  // the listed folder, for files
	names  []string // file names in the folder
}

// folder is an open folder whose files are being read. When it was
// opened for them (owned), the last job to finish with it closes it.
type folder struct {
	root  *os.Root
	dir   *os.File // the folder itself, kept open for readDocAt; nil for a link's folder
	fd    int      // dir's descriptor, -1 without dir
	owned bool
	jobs  atomic.Int32
}

func (f *folder) done() {
	if f.jobs.Add(-1) == 0 {
		f.close()
	}
}

func (f *folder) close() {
	if f.dir != nil {
		f.dir.Close()
	}
	if f.owned {
		f.root.Close()
	}
}

// walkTree lists the tree under root on loadWorkers workers and reads
// each Markdown file into a doc, or with stampsOnly only stamps it (one
// stat a file, for a rescan of every file: see Update): the same files,
// found the same way, either way.
func walkTree(ctx context.Context, root *os.Root, maxBytes int64, stampsOnly bool) ([]*Doc, []file, []Skipped, error) {
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		queue   = []loadJob{{dir: "."}}
		pending = 1 // jobs queued or running
		docs    []*Doc
		files   []file
		skipped []Skipped
		failed  error // listing the root failed
	)
	push := func(jobs ...loadJob) {
		mu.Lock()
		queue = append(queue, jobs...)
		pending += len(jobs)
		mu.Unlock()
		cond.Broadcast()
	}
	var wg sync.WaitGroup
	for range loadWorkers() {
		wg.Go(func() {
			var (
				buf     []byte
				myDocs  []*Doc
				myFiles []file
				mySkips []Skipped
			)
			defer func() {
				mu.Lock()
				docs = append(docs, myDocs...)
				files = append(files, myFiles...)
				skipped = append(skipped, mySkips...)
				mu.Unlock()
			}()
			for {
				mu.Lock()
				for len(queue) == 0 && pending > 0 {
					cond.Wait()
				}
				if pending == 0 {
					mu.Unlock()
					return
				}
				job := queue[len(queue)-1]
				queue = queue[:len(queue)-1]
				mu.Unlock()

				switch {
				case ctx.Err() != nil:
					if job.folder != nil {
						job.folder.done()
					}
				case job.folder == nil:
					jobs, skips, err := listFolder(root, job.dir, &buf)
					if err != nil && job.dir == "." {
						mu.Lock()
						failed = err
						mu.Unlock()
					}
					mySkips = append(mySkips, skips...)
					push(jobs...)
				default:
					for _, name := range job.names {
						p := path.Join(job.dir, name)
						if stampsOnly {
							if st, ok := stampAt(job.folder, name); ok {
								myFiles = append(myFiles, file{path: p, stamp: st})
							}
							continue
						}
						r, ok := readDocAt(job.folder.fd, name, p, maxBytes, &buf)
						if !ok {
							r = readDoc(job.folder.root, name, p, maxBytes, &buf)
						}
						if r.doc != nil {
							myDocs = append(myDocs, r.doc)
						} else if !r.gone {
							mySkips = append(mySkips, r.skip)
						}
					}
					job.folder.done()
				}

				mu.Lock()
				pending--
				last := pending == 0
				mu.Unlock()
				if last {
					cond.Broadcast()
				}
			}
		})
	}
	wg.Wait()
	if failed != nil {
		return nil, nil, nil, failed
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	return docs, files, skipped, nil
}

// stampAt stamps the file name of a listed folder (or, in a folder of a
// symlink's job, the path it names through root, following the link): ok
// is false when it is gone.
func stampAt(f *folder, name string) (stamp, bool) {
	if st, ok := fstatAt(f.fd, name); ok {
		return st, true
	}
	info, err := f.root.Stat(name)
	if err != nil {
		return stamp{}, false
	}
	return stampOf(info), true
}

// dirEntry is a name in a folder and its type (the fs.ModeType bits).
type dirEntry struct {
	name string
	typ  fs.FileMode
}

// listFolder lists one folder (buf is the worker's scratch buffer): its subfolders become jobs to list, its
// Markdown files jobs to read. A symlinked Markdown file is read through
// root when it leads to a regular file inside it; a symlinked folder is
// not descended into.
func listFolder(root *os.Root, dir string, buf *[]byte) ([]loadJob, []Skipped, error) {
	sub := root
	if dir != "." {
		var err error
		if sub, err = root.OpenRoot(dir); err != nil {
			return nil, []Skipped{{Path: dir, Reason: trimPathError(err)}}, err
		}
	}
	f, err := sub.Open(".")
	var entries []dirEntry
	if err == nil {
		if entries, err = readDir(f, sub, buf); err != nil {
			f.Close()
		}
	}
	if err != nil {
		if sub != root {
			sub.Close()
		}
		return nil, []Skipped{{Path: dir, Reason: trimPathError(err)}}, err
	}
	var (
		jobs    []loadJob
		skipped []Skipped
		names   []string
	)
	for _, e := range entries {
		name := e.name
		p := path.Join(dir, name)
		if _, ok := FromOS(name); !ok {
			if e.typ.IsDir() || isMarkdown(name) {
				skipped = append(skipped, Skipped{Path: p, Reason: backslashReason})
			}
			continue
		}
		switch t := e.typ; {
		case t.IsDir():
			if !IgnoredName(name) {
				jobs = append(jobs, loadJob{dir: p})
			}
		case !isMarkdown(name):
		case t&fs.ModeSymlink != 0:
			info, err := root.Stat(p) // follows the link, but only inside root
			switch {
			case err != nil:
				skipped = append(skipped, Skipped{Path: p, Reason: "symlink leads outside the docs folder or nowhere"})
			case info.Mode().IsRegular():
				link := &folder{root: root, fd: -1} // not owned: root stays open
				link.jobs.Store(1)
				jobs = append(jobs, loadJob{dir: ".", folder: link, names: []string{p}})
			case !info.IsDir():
				skipped = append(skipped, Skipped{Path: p, Reason: notRegular(info.Mode())})
			}
		case t.IsRegular():
			names = append(names, name)
		default:
			skipped = append(skipped, Skipped{Path: p, Reason: notRegular(t)})
		}
	}
	fd := &folder{root: sub, dir: f, fd: int(f.Fd()), owned: sub != root}
	fd.jobs.Store(int32((len(names) + filesPerJob - 1) / filesPerJob))
	for len(names) > 0 {
		n := min(len(names), filesPerJob)
		jobs = append(jobs, loadJob{dir: dir, folder: fd, names: names[:n]})
		names = names[n:]
	}
	if fd.jobs.Load() == 0 {
		fd.close() // no files here
	}
	return jobs, skipped, nil
}

// file is a Markdown file found by a walk.
type file struct {
	path  string
	stamp stamp // zero unless the walk was asked for stamps
}

// listMarkdown walks root from start (a slash path, "." for all of it) and
// returns the Markdown files to read, and the symlinks it refused to follow.
// With stamps, each file's size and modification time come too (one stat
// per file), so that a rescan can tell which files changed.
func listMarkdown(ctx context.Context, root *os.Root, start string, stamps bool) ([]file, []Skipped, error) {
	var (
		files   []file
		skipped []Skipped
	)
	err := fs.WalkDir(root.FS(), start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			skipped = append(skipped, Skipped{Path: p, Reason: trimPathError(err)})
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, ok := FromOS(d.Name()); !ok {
			if d.IsDir() || isMarkdown(p) {
				skipped = append(skipped, Skipped{Path: p, Reason: backslashReason})
			}
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != "." && IgnoredName(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !isMarkdown(p) {
			return nil
		}
		var info fs.FileInfo
		if d.Type()&fs.ModeSymlink != 0 {
			info, err = root.Stat(p) // follows the link, but only inside root
			switch {
			case err != nil:
				skipped = append(skipped, Skipped{Path: p, Reason: "symlink leads outside the docs folder or nowhere"})
				return nil
			case info.IsDir():
				return nil
			case !info.Mode().IsRegular():
				skipped = append(skipped, Skipped{Path: p, Reason: notRegular(info.Mode())})
				return nil
			}
		} else if !d.Type().IsRegular() {
			skipped = append(skipped, Skipped{Path: p, Reason: notRegular(d.Type())})
			return nil
		}
		f := file{path: p}
		if stamps {
			if info == nil {
				if info, err = d.Info(); err != nil {
					return nil // gone since the folder was read
				}
			}
			f.stamp = stampOf(info)
		}
		files = append(files, f)
		return nil
	})
	return files, skipped, err
}

// IgnoredName reports whether a folder is left out of the corpus: version
// control internals and installed dependencies.
func IgnoredName(name string) bool { return name == ".git" || name == "node_modules" }

// IgnoredPath reports whether a slash path lies in a folder left out of the
// corpus.
func IgnoredPath(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if IgnoredName(seg) {
			return true
		}
	}
	return false
}

func isMarkdown(p string) bool {
	return len(p) > 3 && strings.EqualFold(p[len(p)-3:], ".md")
}

// readResult is what reading one file gave: a doc, or the reason it was
// skipped, or the news that it no longer exists.
type readResult struct {
	doc  *Doc
	skip Skipped
	gone bool // removed (or renamed away) before it could be read
}

// readAll reads paths (slash paths from root) in parallel; results[i] is
// for paths[i].
func readAll(ctx context.Context, root *os.Root, paths []string, maxBytes int64) ([]readResult, error) {
	results := make([]readResult, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(1, len(paths))) {
		wg.Go(func() {
			var buf []byte
			for i := range next {
				results[i] = readDoc(root, paths[i], paths[i], maxBytes, &buf)
			}
		})
	}
	for i := range paths {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return results, ctx.Err()
}

// readDoc reads and parses one file: name in root, whose doc path is p. buf
// is the caller's scratch buffer, kept from one file to the next: the
// doc's text is one allocation of its exact size.
func readDoc(root *os.Root, name, p string, maxBytes int64, buf *[]byte) readResult {
	skip := func(format string, args ...any) readResult {
		return readResult{skip: Skipped{Path: p, Reason: fmt.Sprintf(format, args...)}}
	}
	// Only a regular file is opened: opening a named pipe waits for a
	// writer (and would hold up the load or the reload behind it), and a
	// device may never end. The check comes first, and the open does not
	// wait where the system allows (openFlags), for a file swapped in
	// between.
	if info, err := root.Stat(name); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		return skip("%s", notRegular(info.Mode()))
	}
	f, err := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return readResult{gone: true}
	case err != nil:
		if isLink(root, name) {
			return skip("symlink leads outside the docs folder or nowhere")
		}
		return skip("cannot open: %s", trimPathError(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return skip("cannot stat: %s", trimPathError(err))
	}
	switch {
	case info.IsDir():
		return readResult{gone: true} // a folder now has the name
	case !info.Mode().IsRegular():
		return skip("%s", notRegular(info.Mode()))
	}
	st := stampOf(info)
	if info.Size() > maxBytes {
		r := skip("larger than the %d-byte cap (%d bytes)", maxBytes, info.Size())
		r.skip.stamp = st
		return r
	}
	// Read to the end, not by the size from Stat (the file may be growing
	// while we read it), but never past the cap.
	b := (*buf)[:0]
	if want := int(info.Size()) + 512; cap(b) < want {
		b = make([]byte, 0, want)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > maxBytes {
			*buf = b
			return skip("larger than the %d-byte cap", maxBytes)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			*buf = b
			return skip("cannot read: %s", trimPathError(err))
		}
	}
	*buf = b
	return docOf(p, b, st)
}

// docOf makes the doc at p of the bytes read from the file, or says why it
// is skipped.
func docOf(p string, b []byte, st stamp) readResult {
	if !utf8.Valid(b) {
		return readResult{skip: Skipped{Path: p, Reason: "not valid UTF-8", stamp: st}}
	}
	d := parse(p, int64(len(b)), string(b))
	d.stamp = st
	return readResult{doc: d}
}

// isLink reports whether p is a symbolic link.
func isLink(root *os.Root, p string) bool {
	info, err := root.Lstat(p)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

func trimPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// notRegular is the reason a file that is not a regular file is skipped:
// a named pipe, a socket or a device is never opened.
func notRegular(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe, not a regular file: never opened"
	case mode&fs.ModeSocket != 0:
		return "a socket, not a regular file: never opened"
	case mode&fs.ModeDevice != 0:
		return "a device, not a regular file: never opened"
	}
	return "not a regular file: never opened"
}
