package wiki

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docs-mcp/docs-mcp/tools/internal/wiki/linkreport"
)

// A generation is one Hugo process that builds one tree (hugo build
// --watch) into its stage, a folder beside the site, and renders again only
// what an edit touches each time its watcher sees one: the page, the pages
// that show it (its folder's, its neighbours'), the home's outputs (the
// search pages, llms.txt). After each of Hugo's builds the watcher moves
// what Hugo wrote into the site (publish). A change Hugo cannot follow
// alone (a doc added, moved or removed, see structural) ends the
// generation and starts another, which builds the whole tree again.
type generation struct {
	tree   *Tree
	gen    string       // the generated files Hugo reads (config, data, folder pages, copies)
	stage  string       // Hugo's destination; emptied by every publish
	search *searchIndex // the site's search index; nil until the first build is in
	lists  *listsState  // what the last llms.txt and llms-full.txt were made of; the lists writer's once it runs
	// entries holds the pages' entries and the order of the lists (see
	// gather), beside the site: the last Hugo wrote of each.
	entries string
	cfg     string            // the generated config file
	data    []byte            // data/wiki.json as last written
	titles  map[string]string // each doc's and skill file's titleKey, by repository path (docs/x.md)
	ready   bool              // the first build is published
	start   time.Time
	builds  chan hugoBuild  // each build Hugo finishes
	exited  chan error      // Hugo's end; closed after
	ctx     context.Context // ends with the generation
	cancel  context.CancelFunc

	mu      sync.Mutex
	reports []linkreport.Report
	errors  []string

	// The lists writer (writeListsLater): the entries changed since it
	// last wrote, a wake-up when there are some, its end.
	listsMu   sync.Mutex
	listsDue  []entryChange
	listsWake chan struct{}
	listsDone chan struct{}

	// The tree's raw files (rawFiles) are copied into the stage while Hugo
	// builds, which writes no file of theirs: copied after, they took
	// 7.8 s of the 14.3 s from Hugo's end to the first page of cpp-docs's
	// preview. rawDone is closed when they are in, rawErr says how.
	rawDone chan struct{}
	rawErr  error
}

// hugoBuild is one build a generation's Hugo finished.
type hugoBuild struct {
	took    string              // Hugo's own figure, "1234 ms"
	reports []linkreport.Report // broken references the layouts reported
	errors  []string            // Hugo's error lines: the build failed
}

// hugoDone matches the line Hugo prints when a build with --watch is done:
// "Built in N ms" (the first), "Total in N ms" (an edit), "Rebuilt in N
// ms" (a change of config).
var hugoDone = regexp.MustCompile(`^(?:Built|Total|Rebuilt) in (\d+ ms)$`)

// startGeneration scans the tree, writes what Hugo reads of it and starts
// Hugo on it.
func (b *builder) startGeneration(ctx context.Context, poll time.Duration) (*generation, error) {
	params := b.params
	params.LiveSince = time.Now() // before the scan reads the dates
	tree, err := b.scan(ctx, b.opt.root(), "")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(b.out), 0o755); err != nil {
		return nil, err
	}
	g := &generation{tree: tree, start: time.Now(), builds: make(chan hugoBuild, 16), exited: make(chan error, 1), titles: map[string]string{}}
	for _, rel := range slices.Concat(prefixed("docs/", tree.Docs), prefixed(skillsFolder+"/", tree.Skills)) {
		text, err := os.ReadFile(filepath.Join(tree.Root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		g.titles[rel] = titleKey(text)
	}
	if g.gen, err = os.MkdirTemp("", "wiki-gen-*"); err != nil {
		return nil, err
	}
	if g.stage, err = os.MkdirTemp(filepath.Dir(b.out), "."+filepath.Base(b.out)+"-hugo-*"); err != nil {
		g.remove()
		return nil, err
	}
	if g.entries, err = b.entriesDir(); err != nil {
		g.remove()
		return nil, err
	}
	if g.cfg, err = tree.writeGenerated(g.gen, b.site, params); err != nil {
		g.remove()
		return nil, err
	}
	if g.data, err = os.ReadFile(filepath.Join(g.gen, "data", "wiki.json")); err != nil {
		g.remove()
		return nil, err
	}
	hctx, cancel := context.WithCancel(ctx)
	g.ctx, g.cancel = hctx, cancel
	g.rawDone = make(chan struct{})
	go func() {
		defer close(g.rawDone)
		g.rawErr = copyRawFiles(hctx, tree, g.stage)
	}()
	hugo := *b.hugo
	hugo.Live = true
	// Hugo polls rather than taking file events (inotify), which would
	// spare up to a poll's wait: an editor that saves by writing beside
	// the file and renaming over it gives Hugo a new file, on which it
	// renders every page again (all 53 of TestWatchEditRendersFew's tree,
	// tried on 2026-12-07), where a poll sees the file changed and renders
	// a few.
	go func() {
		_, err := hugo.Run(hctx, tree.pageCount(), g.line, "build", "--watch",
			"--poll", poll.String(),
			"--source", b.site,
			"--config", filepath.Join(b.site, "hugo.toml")+","+g.cfg,
			"--destination", g.stage,
			"--baseURL", b.opt.baseURL(),
			"--logLevel", "warn",
			"--printPathWarnings",
			"--noBuildLock",
		)
		if hctx.Err() != nil {
			err = nil
		} else if err == nil {
			err = errors.New("hugo ended")
		}
		g.exited <- err
		close(g.exited)
	}()
	return g, nil
}

// line takes one line of Hugo's output.
func (g *generation) line(line string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r, ok := linkreport.Parse(line); ok {
		g.reports = append(g.reports, r)
		return
	}
	if m := hugoDone.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
		g.builds <- hugoBuild{took: m[1], reports: g.reports, errors: g.errors}
		g.reports, g.errors = nil, nil
		return
	}
	if strings.HasPrefix(line, "ERROR") || strings.HasPrefix(line, "Error") || strings.HasPrefix(line, "WARN") {
		g.errors = append(g.errors, line)
	}
}

// stop ends Hugo and removes the generation's folders.
func (g *generation) stop() {
	if g.cancel != nil {
		g.cancel()
		for range g.exited {
		}
		<-g.rawDone
		if g.listsDone != nil {
			<-g.listsDone
		}
	}
	g.remove()
}

func (g *generation) remove() {
	for _, d := range []string{g.gen, g.stage, g.entries} {
		if d != "" {
			os.RemoveAll(d)
		}
	}
}

// take moves what Hugo wrote since the last take out of the stage into a
// new folder beside it, and returns that folder. Hugo writes its next
// build into a new stage (it makes the folders it writes to).
func (g *generation) take() (string, error) {
	batch, err := os.MkdirTemp(filepath.Dir(g.stage), filepath.Base(g.stage)+"-")
	if err != nil {
		return "", err
	}
	if err := os.Remove(batch); err != nil {
		return "", err
	}
	if err := os.Rename(g.stage, batch); err != nil {
		return "", err
	}
	return batch, nil
}

// structural reports whether going from tree a to tree b changes more than
// the text of files Hugo already builds: docs, skills or other files
// added, moved or removed, a doc that Hugo now misreads or no longer does (Copied), the
// contribution guide added or removed, a redirect added, changed or
// removed (whose pages the first build writes). Hugo follows an edit; the
// rest starts a new generation.
func structural(a, b *Tree) bool {
	return !slices.Equal(a.Docs, b.Docs) || !slices.Equal(a.Files, b.Files) || !slices.Equal(a.Skills, b.Skills) ||
		!slices.Equal(a.Copied, b.Copied) || a.Contributing != b.Contributing || !slices.Equal(a.Redirects, b.Redirects)
}

// titleKey is what a doc's title is made from: its front matter and its
// first heading. The layouts keep each folder's navigation (the titles of
// its pages) for the whole of a Hugo run (layouts/_partials/memo.html), so
// a change of a title starts a new generation.
func titleKey(text []byte) string {
	n, _ := frontMatterLen(text)
	for line := range bytes.Lines(text[n:]) {
		if t := bytes.TrimSpace(line); bytes.HasPrefix(t, []byte("#")) {
			return string(text[:n]) + "\x00" + string(t)
		}
	}
	return string(text[:n])
}

// retitled reports whether one of the docs or skills changed (slash paths
// from the root) has a title other than the generation's, or cannot be
// read. A skill's front matter (its name and description) is also what the
// skills' generated page lists.
func (g *generation) retitled(changed []string) bool {
	for _, p := range changed {
		old, known := g.titles[p]
		if !known {
			continue
		}
		text, err := os.ReadFile(filepath.Join(g.tree.Root, filepath.FromSlash(p)))
		if err != nil || titleKey(text) != old {
			return true
		}
	}
	return false
}

// publishAll puts the first build of a generation in place of the site:
// the stage becomes the site, with the raw files of the tree, the redirect
// pages, the search index, the compressed copies and (for an absolute base
// URL) the sitemap, as Build makes them, swapped in whole.
func (b *builder) publishAll(g *generation) (*Result, error) {
	<-g.rawDone
	if g.rawErr != nil {
		return nil, g.rawErr
	}
	tmp, err := g.take()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // after the swap, the previous site
	res := &Result{Out: b.out}
	if g.lists, err = assemble(tmp, g.entries); err != nil {
		return nil, err
	}
	if err := b.redirectPages(g.tree, tmp, res); err != nil {
		return nil, err
	}
	idx, err := b.finish(tmp, res, nil)
	if err != nil {
		return nil, err
	}
	g.search = idx
	return res, nil
}

// publish moves what a later build of Hugo wrote into the site, each file
// in one step (written beside its place, then renamed over it), with its
// compressed copies. The pages go first, so that an edit shows in its page
// as soon as it can; the pages' entries Hugo wrote again (gather) then
// update the search index, and the lists writer is told to write the lists
// of every page again (writeListsLater).
func (b *builder) publish(g *generation) (published, error) {
	var p published
	start := time.Now()
	batch, err := g.take()
	if err != nil {
		return p, err
	}
	defer os.RemoveAll(batch)
	changed, err := gather(batch, g.entries, false)
	if err != nil {
		return p, err
	}
	if err := b.compress(batch, nil); err != nil {
		return p, err
	}
	p.files, err = moveInto(batch, b.out, nil)
	p.pages = time.Since(start)
	if err != nil || len(changed) == 0 {
		return p, err
	}
	start = time.Now()
	m, err := g.search.update(b.out, changed, b.compress)
	if errors.Is(err, errWholeIndex) {
		m, err = 0, b.indexSearch(g, batch)
	}
	p.files += m
	p.index = time.Since(start)
	if err != nil {
		return p, err
	}
	g.listsMu.Lock()
	g.listsDue = append(g.listsDue, changed...)
	g.listsMu.Unlock()
	select {
	case g.listsWake <- struct{}{}:
	default: // it will see them
	}
	return p, nil
}

// writeListsLater starts the lists writer of g, which writes llms.txt and
// llms-full.txt again after edits, in the background, once no edit has come
// for listsQuiet, one write at a time: with its compressed copies,
// llms-full.txt (every doc's text, 45 MB on cpp-docs) took 2.8 to 5.5 s an
// edit, and the next edit's page waited for it. It ends with ctx, after
// the write under way.
func (b *builder) writeListsLater(ctx context.Context, g *generation) {
	g.listsWake, g.listsDone = make(chan struct{}, 1), make(chan struct{})
	go func() {
		defer close(g.listsDone)
		for {
			select {
			case <-ctx.Done():
				return
			case <-g.listsWake:
			}
		quiet:
			for {
				select {
				case <-ctx.Done():
					return
				case <-g.listsWake:
				case <-time.After(listsQuiet):
					break quiet
				}
			}
			g.listsMu.Lock()
			due := g.listsDue
			g.listsDue = nil
			g.listsMu.Unlock()
			if err := b.writeSiteLists(g, due); err != nil {
				fmt.Fprintf(b.opt.progress(), "wiki: error: write llms.txt: %v (the last one stays served)\n", err)
				g.lists = nil // written whole next time
			}
		}
	}()
}

// listsQuiet is how long the lists writer waits for more edits: a burst of
// saves is written once, and the write does not take a core from Hugo
// while it renders the next save.
const listsQuiet = time.Second

// writeSiteLists writes llms.txt and llms-full.txt into the site after the
// entries changed, with their compressed copies, each in one step; but
// llms-full.txt gets a gzip copy only (its Brotli copy, removed, was most of
// the write's CPU: Brotli 5 is about four times gzip's).
func (b *builder) writeSiteLists(g *generation, changed []entryChange) error {
	lists, err := os.MkdirTemp(filepath.Dir(b.out), "."+filepath.Base(b.out)+"-lists-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(lists)
	if g.lists, err = writeLists(g.entries, lists, g.lists, filepath.Join(b.out, fullFile), changed, nil); err != nil {
		return err
	}
	c := newCompressor()
	for _, f := range []string{llmsFile, fullFile} {
		p := filepath.Join(lists, f)
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.Size() < compressMin {
			continue
		}
		if f == fullFile {
			err = c.gzip(p)
		} else {
			err = c.file(p)
		}
		if err != nil {
			return err
		}
	}
	_, err = moveInto(lists, b.out, nil)
	return err
}

// published is what publish did: the files it put in the site, and how
// long the pages and the search index took.
type published struct {
	files        int
	pages, index time.Duration
}

func (p published) String() string {
	s := fmt.Sprintf("pages in %s", p.pages.Round(time.Millisecond))
	if p.index > 0 {
		s += fmt.Sprintf(", search index in %s", p.index.Round(time.Millisecond))
	}
	return s
}

// indexSearch writes the search index of g's entries whole in dir and
// puts it in the site in place of the one before (searchIndex.replace).
func (b *builder) indexSearch(g *generation, dir string) error {
	if err := writeSearchPages(g.entries, dir); err != nil {
		return err
	}
	idx, err := writeSearchIndex(dir)
	if err != nil {
		return err
	}
	from := filepath.Join(dir, searchDir)
	if err := b.compress(from, nil); err != nil {
		return err
	}
	if err := idx.replace(b.out, from, g.search); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	g.search = idx
	return nil
}

// moveInto moves every file under from to the same path under to, each
// renamed over the one there, a file's compressed copies before it; a
// compressible file without them (too small now) has the old ones in to
// removed, which would be stale. The entries right under from that leave
// names are left out.
func moveInto(from, to string, leave func(name string) bool) (int, error) {
	n := 0
	move := func(p, dst string) error {
		if err := os.Chmod(p, 0o644); err != nil {
			return err
		}
		return os.Rename(p, dst)
	}
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != from && filepath.Dir(p) == from && leave != nil && leave(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if ext := filepath.Ext(p); (ext == ".gz" || ext == ".br") && (!pathExists(p) || pathExists(strings.TrimSuffix(p, ext))) {
			return nil // moved with its file
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if compressible[strings.ToLower(filepath.Ext(p))] {
			for _, z := range []string{".br", ".gz"} {
				err := move(p+z, dst+z)
				if errors.Is(err, fs.ErrNotExist) {
					err = os.Remove(dst + z)
				}
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
		}
		if err := move(p, dst); err != nil {
			return err
		}
		n++
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("publish: %w", err)
	}
	return n, nil
}

// rawFile is a file of the tree that the site holds as it is.
type rawFile struct{ src, dst string } // by slash path: in the tree, in the site

// rawFiles are the files a build publishes as they are (its static mounts):
// every file under docs/ at its path (the Markdown twins of the pages and
// the images and attachments they use), and CONTRIBUTING.md as
// contributing.md.
func rawFiles(t *Tree) []rawFile {
	var out []rawFile
	for _, f := range slices.Concat(t.Docs, t.Files) {
		out = append(out, rawFile{"docs/" + f, f})
	}
	if t.Contributing {
		out = append(out, rawFile{"CONTRIBUTING.md", "contributing.md"})
	}
	return out
}

// copyRawFiles copies t's raw files (rawFiles) into the folder dir, on all
// cores, until ctx ends.
func copyRawFiles(ctx context.Context, t *Tree, dir string) error {
	raw := make(chan rawFile)
	go func() {
		defer close(raw)
		for _, f := range rawFiles(t) {
			select {
			case raw <- f:
			case <-ctx.Done():
				return
			}
		}
	}()
	err := onCores(raw, func() func(rawFile) error {
		return func(f rawFile) error {
			return copyFile(filepath.Join(t.Root, filepath.FromSlash(f.src)), filepath.Join(dir, filepath.FromSlash(f.dst)))
		}
	})
	if err != nil {
		return fmt.Errorf("copy the tree's files: %w", err)
	}
	return ctx.Err()
}

// rawSite is where the site holds the tree's file rel (a slash path from
// the tree's root) as it is, false for a file it does not.
func rawSite(rel string) (string, bool) {
	if d, ok := strings.CutPrefix(rel, "docs/"); ok {
		return d, true
	}
	if rel == "CONTRIBUTING.md" {
		return "contributing.md", true
	}
	return "", false
}

// copyRaw puts the tree's files rel (slash paths from the root) into the
// site as they are now, with their compressed copies, each in one step; a
// file gone from the tree is removed from the site.
func (b *builder) copyRaw(root string, rels []string) error {
	batch, err := os.MkdirTemp(filepath.Dir(b.out), "."+filepath.Base(b.out)+"-raw-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(batch)
	for _, rel := range rels {
		dst, ok := rawSite(rel)
		if !ok {
			continue
		}
		err := copyFile(filepath.Join(root, filepath.FromSlash(rel)), filepath.Join(batch, filepath.FromSlash(dst)))
		if errors.Is(err, fs.ErrNotExist) {
			site := filepath.Join(b.out, filepath.FromSlash(dst))
			for _, p := range []string{site, site + ".gz", site + ".br"} {
				if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
			continue
		}
		if err != nil {
			return err
		}
	}
	if err := b.compress(batch, nil); err != nil {
		return err
	}
	_, err = moveInto(batch, b.out, nil)
	return err
}

// copyFile copies the regular file src to dst, making dst's folder.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

func pathExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// prefixed is each of names after prefix.
func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}
