package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

type config struct {
	Files, Runs, RgRuns, Limit, Searches, Edits int
	Spawns                                      int
	Seed                                        uint64
	Shape, Server, Corpus, Docs                 string
	ServerLog, LogLevel, CacheDir               string
	Queries                                     []string
	Cold, WaitIndex, SpawnCache                 bool
	Versions, Version                           string // the server's --versions; the searches' version argument
}

// cacheArgs are the server's cache flags: -cache-dir DIR, "off" for none,
// or "" for the server's default (the user's cache folder).
func (c config) cacheArgs() []string {
	switch c.CacheDir {
	case "":
		return nil
	case "off":
		return []string{"--no-cache"}
	}
	return []string{"--cache-dir", c.CacheDir}
}

// cacheUse says which cache the server was started with.
func (c config) cacheUse() string {
	switch c.CacheDir {
	case "":
		return "cache in the user's cache folder"
	case "off":
		return "no cache"
	}
	return "cache in " + c.CacheDir
}

// corpus is what gencorpus prints, or what -docs holds.
type corpus struct {
	Files   int     `json:"files"`
	Bytes   int64   `json:"bytes"`
	Seed    uint64  `json:"seed"`
	Shape   string  `json:"shape"`
	Queries []query `json:"queries"`
}

type query struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

func run(ctx context.Context, cfg config, log *slog.Logger) error {
	root, err := repo.Root(".")
	if err != nil {
		return fmt.Errorf("run searchbench inside the repository: %w", err)
	}
	work, err := os.MkdirTemp("", "searchbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	var (
		c       corpus
		docsDir string
		args    []string
	)
	if cfg.Docs != "" {
		docsDir, err = filepath.Abs(cfg.Docs)
		if err != nil {
			return err
		}
		if c, err = measureDocs(docsDir); err != nil {
			return err
		}
		if len(cfg.Queries) == 0 {
			// The generator's query kinds, from an empty corpus of it.
			empty, _, err := generate(ctx, root, filepath.Join(work, "empty"), config{Shape: "pages"})
			if err != nil {
				return err
			}
			c.Queries = empty.Queries
		}
		// The data root holds no registry or CONTRIBUTING.md: the tools
		// that need them say so, which searching does not.
		args = []string{"--data-root", work, "--docs-dir", docsDir}
	} else {
		dataRoot := cfg.Corpus
		if dataRoot == "" {
			dataRoot = work
		}
		if c, err = corpusIn(ctx, root, dataRoot, cfg, log); err != nil {
			return err
		}
		docsDir = filepath.Join(dataRoot, "docs")
		args = []string{"--data-root", dataRoot}
	}
	if cfg.Versions != "" {
		args = append(args, "--versions", cfg.Versions)
	}
	if len(cfg.Queries) > 0 {
		c.Queries = nil
		for _, q := range cfg.Queries {
			c.Queries = append(c.Queries, query{Kind: "given", Text: q})
		}
	}
	if len(c.Queries) == 0 {
		return errors.New("no queries: pass -query")
	}
	bin := cfg.Server
	if bin == "" {
		bin = filepath.Join(work, "docs-mcp")
		log.Info("building the server", "out", bin)
		if err := goCmd(ctx, root, nil, "build", "-o", bin, "./mcp-server"); err != nil {
			return fmt.Errorf("build server: %w", err)
		}
	}
	if _, err := exec.LookPath("rg"); err != nil {
		return fmt.Errorf("ripgrep (rg) is not installed: apt-get install -y ripgrep")
	}
	if cfg.Spawns > 0 {
		fmt.Printf("corpus: %d files, %d bytes (%.1f MB), shape %s, seed %d, docs %s\n", c.Files, c.Bytes, float64(c.Bytes)/1e6, c.Shape, c.Seed, docsDir)
		fmt.Printf("load average at start: %s\n", loadAverage())
		if err := spawnBench(ctx, bin, args, docsDir, c, cfg, work); err != nil {
			return err
		}
		fmt.Printf("load average at end: %s\n", loadAverage())
		return nil
	}
	if cfg.Cold {
		if err := dropCaches(); err != nil {
			return err
		}
	}

	// Start-up: process start to initialize answered, then to the first search.
	logs := newLogWatch()
	var serverLog io.Writer = logs
	if cfg.ServerLog != "" {
		f, err := os.Create(cfg.ServerLog)
		if err != nil {
			return fmt.Errorf("server log: %w", err)
		}
		defer f.Close()
		serverLog = io.MultiWriter(logs, f)
	}
	start := time.Now()
	args = append(args, cfg.cacheArgs()...)
	cl, proc, err := startServer(ctx, bin, append(args, "--stdio", "--log-format", "json", "--log-level", cfg.LogLevel), serverLog)
	if err != nil {
		return err
	}
	cl.version = cfg.Version
	defer stop(cl, proc)
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // see searcher
	if err := cl.initialize(ctx); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	initDone := time.Since(start)
	firstMatches, firstCalls, _, err := cl.search(ctx, c.Queries[0].Text, cfg.Limit)
	if err != nil {
		return fmt.Errorf("first search: %w", err)
	}
	firstSearch := time.Since(start)

	// The start-up window: the first query, searched again and again from
	// the first answer until the server logs that the index is built
	// (searches are answered meanwhile, from the segments built so far).
	indexBuild := "not logged"
	var window timings
	if cfg.WaitIndex {
		deadline := time.After(2 * time.Minute)
	wait:
		for {
			select {
			case d := <-logs.indexBuilt:
				indexBuild = d.Round(time.Millisecond).String()
				break wait
			case <-deadline:
				return errors.New("the server logged no \"search index built\" within 2 minutes (use -wait-index=false for a server without an index)")
			default:
			}
			_, _, t, err := cl.search(ctx, c.Queries[0].Text, cfg.Limit)
			if err != nil {
				return fmt.Errorf("search while the index builds: %w", err)
			}
			window.add(t)
		}
	}
	pid := proc.Process.Pid
	// The server settles its memory once the start-up is over (it returns
	// the scratch of the load and the build to the system) and logs it:
	// measure after that. A server that does not log it is measured after
	// a minute.
	select {
	case <-logs.settled:
	case <-time.After(time.Minute):
	}
	perCorpus := func(b int64) string {
		return fmt.Sprintf("%.1f MB (%.2f× corpus)", float64(b)/1e6, float64(b)/float64(c.Bytes))
	}
	// resident splits VmRSS in two: RssAnon, the memory the process made
	// (the docs, their index and ranking, the runtime's own), which grows
	// with the tree, and RssFile, the pages of the program's file it has
	// touched, about the same whatever the tree.
	resident := func() string {
		rss, _ := mcptest.ProcMemory(pid, "VmRSS")
		anon, _ := mcptest.ProcMemory(pid, "RssAnon")
		file, _ := mcptest.ProcMemory(pid, "RssFile")
		return fmt.Sprintf("VmRSS %s: RssAnon %s, RssFile %.1f MB", perCorpus(rss), perCorpus(anon), float64(file)/1e6)
	}
	idle := resident()

	cache := "warm"
	if cfg.Cold {
		cache = "cold (dropped before start)"
	}
	fmt.Printf("corpus: %d files, %d bytes (%.1f MB), shape %s, seed %d, docs %s\n", c.Files, c.Bytes, float64(c.Bytes)/1e6, c.Shape, c.Seed, docsDir)
	fmt.Printf("load average at start: %s\n", loadAverage())
	fmt.Printf("start-up, page cache %s, %s: initialize answered after %v, first search (%q) answered whole after %v from the spawn, in %d %s, %d matches (docs loaded in %s per the server log)\n",
		cache, cfg.cacheUse(), initDone.Round(time.Millisecond), c.Queries[0].Text, firstSearch.Round(time.Millisecond), firstCalls, plural(firstCalls, "call"), firstMatches, logs.loaded())
	fmt.Printf("index build (server log): %s\n", indexBuild)
	if len(window.roundTrip) > 0 {
		fmt.Printf("while the index built: %d searches for %q, round trip p50 %s, p95 %s; whole call p50 %s, p95 %s\n",
			len(window.roundTrip), c.Queries[0].Text, ms(percentile(window.roundTrip, 50)), ms(percentile(window.roundTrip, 95)),
			ms(percentile(window.call, 50)), ms(percentile(window.call, 95)))
	}
	fmt.Printf("memory after start-up (index built): %s\n", idle)

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintf(tw, "query kind\tquery\tmatches (limit %d)\tcalls\tround trip p50\tround trip p95\twhole call p50\twhole call p95\tserver CPU / search\trg p50\trg lines\trg p50 / round trip p50\t\n", cfg.Limit)
	for _, q := range c.Queries {
		cpu0, err := mcptest.ProcCPU(pid)
		if err != nil {
			return err
		}
		n, calls, t, err := timeSearch(ctx, cl, q.Text, cfg)
		if err != nil {
			return fmt.Errorf("search %q: %w", q.Text, err)
		}
		cpu1, err := mcptest.ProcCPU(pid)
		if err != nil {
			return err
		}
		rt50 := percentile(t.roundTrip, 50)
		fmt.Fprintf(tw, "%s\t%q\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t", q.Kind, q.Text, n, calls, ms(rt50), ms(percentile(t.roundTrip, 95)),
			ms(percentile(t.call, 50)), ms(percentile(t.call, 95)), ms((cpu1-cpu0)/time.Duration(cfg.Runs+1)))
		if cfg.RgRuns == 0 {
			fmt.Fprintf(tw, "-\t-\t-\t\n")
			continue
		}
		rg50, lines, err := timeRipgrep(ctx, docsDir, q.Text, cfg.RgRuns)
		if err != nil {
			return fmt.Errorf("rg %q: %w", q.Text, err)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f×\t\n", ms(rg50), lines, float64(rg50)/float64(rt50))
	}
	tw.Flush()
	for i := range cfg.Searches {
		if _, _, _, err := cl.search(ctx, c.Queries[i%len(c.Queries)].Text, cfg.Limit); err != nil {
			return err
		}
	}
	hwm, _ := mcptest.ProcMemory(pid, "VmHWM")
	fmt.Printf("memory after the timed searches and %d more: %s; peak VmHWM %s\n", cfg.Searches, resident(), perCorpus(hwm))

	if cfg.Edits > 0 {
		p50, p95, doc, err := timeEdits(ctx, cl, docsDir, cfg.Edits)
		if err != nil {
			return fmt.Errorf("edit to searchable: %w", err)
		}
		fmt.Printf("edit to searchable (%d edits of %s): p50 %s, p95 %s\n", cfg.Edits, doc, ms(p50), ms(p95))
	}
	if cfg.Cold && cfg.RgRuns > 0 {
		// The floor a cold start stands on: one rg over the same files,
		// from a cold page cache too.
		if err := dropCaches(); err != nil {
			return err
		}
		rg, _, err := timeRipgrep(ctx, docsDir, c.Queries[0].Text, 1)
		if err != nil {
			return fmt.Errorf("rg: %w", err)
		}
		fmt.Printf("rg -F -i %q over the same files, page cache cold: %s\n", c.Queries[0].Text, ms(rg))
	}
	fmt.Printf("load average at end: %s\n", loadAverage())
	return nil
}

// dropCaches empties the kernel's page cache, dentries and inodes, so that
// the server reads the corpus from the disk.
func dropCaches() error {
	if err := exec.Command("sync").Run(); err != nil {
		return fmt.Errorf("sync before dropping caches: %w", err)
	}
	if err := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0); err != nil {
		return fmt.Errorf("-cold: cannot drop the page cache (needs root): %w", err)
	}
	return nil
}

func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// measureDocs describes an existing folder: its Markdown files and their
// bytes, as the server counts them (*.md in any case).
func measureDocs(dir string) (corpus, error) {
	c := corpus{Shape: "given folder"}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.EqualFold(filepath.Ext(p), ".md") {
			info, err := d.Info()
			if err != nil {
				return err
			}
			c.Files++
			c.Bytes += info.Size()
		}
		return nil
	})
	if err != nil {
		return c, fmt.Errorf("measure %s: %w", dir, err)
	}
	if c.Files == 0 {
		return c, fmt.Errorf("no Markdown files in %s", dir)
	}
	return c, nil
}

// timeEdits appends a line holding a new word to a doc, and times how long
// until a search finds it; the doc is written back as it was at the end.
func timeEdits(ctx context.Context, cl *searcher, docsDir string, n int) (p50, p95 time.Duration, rel string, err error) {
	target, err := editTarget(docsDir)
	if err != nil {
		return 0, 0, "", err
	}
	rel, _ = filepath.Rel(docsDir, target)
	orig, err := os.ReadFile(target)
	if err != nil {
		return 0, 0, rel, err
	}
	defer func() {
		if werr := os.WriteFile(target, orig, 0o644); werr != nil && err == nil {
			err = fmt.Errorf("put %s back: %w", target, werr)
		}
	}()
	times := make([]time.Duration, n)
	for i := range times {
		word := fmt.Sprintf("searchbenchedit%dx%d", os.Getpid(), i)
		text := append(append([]byte{}, orig...), []byte("\n"+word+"\n")...)
		begin := time.Now()
		if err := os.WriteFile(target, text, 0o644); err != nil {
			return 0, 0, rel, err
		}
		for {
			found, _, _, err := cl.search(ctx, word, 1)
			if err != nil {
				return 0, 0, rel, err
			}
			if found > 0 {
				break
			}
			if time.Since(begin) > 30*time.Second {
				return 0, 0, rel, fmt.Errorf("%q not found 30 s after writing it into %s", word, target)
			}
			time.Sleep(2 * time.Millisecond)
		}
		times[i] = time.Since(begin)
		time.Sleep(100 * time.Millisecond) // let the next edit be a batch of its own
	}
	return percentile(times, 50), percentile(times, 95), rel, nil
}

// editTarget picks the doc to edit: the first regular Markdown file in
// walk order.
func editTarget(dir string) (string, error) {
	var found string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.EqualFold(filepath.Ext(p), ".md") {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	if err == nil && found == "" {
		err = fmt.Errorf("no Markdown file in %s to edit", dir)
	}
	return found, err
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/1e6) }

// timeSearch runs one warm-up search and cfg.Runs timed ones, each until
// its answer is complete (see searcher.search): the times are of whole
// answers, and calls is how many calls one took.
func timeSearch(ctx context.Context, cl *searcher, text string, cfg config) (matches, calls int, ts timings, err error) {
	if _, _, _, err := cl.search(ctx, text, cfg.Limit); err != nil {
		return 0, 0, ts, err
	}
	for range cfg.Runs {
		n, k, t, err := cl.search(ctx, text, cfg.Limit)
		if err != nil {
			return 0, 0, ts, err
		}
		matches, calls = n, k
		ts.add(t)
	}
	return matches, calls, ts, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// timeRipgrep runs rg -F -i on dir (hidden files included and no ignore
// files, so that it reads the files the server serves), reading all of its
// output, and returns the p50 and the number of matching lines.
func timeRipgrep(ctx context.Context, dir, text string, runs int) (time.Duration, int, error) {
	times := make([]time.Duration, runs)
	lines := 0
	for i := range times {
		cmd := exec.CommandContext(ctx, "rg", "-F", "-i", "--hidden", "--no-ignore", "--", text, dir)
		var count lineCounter
		cmd.Stdout = &count
		t := time.Now()
		err := cmd.Run()
		times[i] = time.Since(t)
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: no match
			return 0, 0, err
		}
		lines = int(count)
	}
	return percentile(times, 50), lines, nil
}

type lineCounter int

func (c *lineCounter) Write(p []byte) (int, error) {
	*c += lineCounter(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

func percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// corpusIn returns the corpus in dataRoot: the one a previous run left there
// (its description is in corpus.json), or a new one generated into
// dataRoot/docs.
func corpusIn(ctx context.Context, root, dataRoot string, cfg config, log *slog.Logger) (corpus, error) {
	desc := filepath.Join(dataRoot, "corpus.json")
	if raw, err := os.ReadFile(desc); err == nil {
		var c corpus
		if err := json.Unmarshal(raw, &c); err != nil {
			return corpus{}, fmt.Errorf("read %s: %w", desc, err)
		}
		if c.Shape == "" {
			c.Shape = "pages" // written before shapes existed
		}
		if c.Files != cfg.Files || c.Seed != cfg.Seed || c.Shape != cfg.Shape {
			return corpus{}, fmt.Errorf("%s holds %d files of shape %s, seed %d, not %d of shape %s, seed %d: use another -corpus folder",
				dataRoot, c.Files, c.Shape, c.Seed, cfg.Files, cfg.Shape, cfg.Seed)
		}
		log.Info("reusing corpus", "files", c.Files, "seed", c.Seed, "data_root", dataRoot)
		return c, nil
	}
	log.Info("generating corpus", "files", cfg.Files, "shape", cfg.Shape, "seed", cfg.Seed, "data_root", dataRoot)
	c, raw, err := generate(ctx, root, filepath.Join(dataRoot, "docs"), cfg)
	if err != nil {
		return corpus{}, err
	}
	if err := os.WriteFile(desc, raw, 0o644); err != nil {
		return corpus{}, fmt.Errorf("save corpus description: %w", err)
	}
	return c, nil
}

func generate(ctx context.Context, root, dir string, cfg config) (corpus, []byte, error) {
	var out bytes.Buffer
	if err := goCmd(ctx, root, &out, "run", "./mcp-server/cmd/gencorpus",
		"-files", strconv.Itoa(cfg.Files), "-shape", cfg.Shape, "-seed", strconv.FormatUint(cfg.Seed, 10), "-out", dir); err != nil {
		return corpus{}, nil, fmt.Errorf("generate corpus: %w", err)
	}
	var c corpus
	if err := json.Unmarshal(out.Bytes(), &c); err != nil {
		return corpus{}, nil, fmt.Errorf("read gencorpus output: %w", err)
	}
	return c, out.Bytes(), nil
}

func goCmd(ctx context.Context, dir string, stdout io.Writer, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Stdout = stdout
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

// logWatch reads the server's JSON log lines and reports the index build.
type logWatch struct {
	mu         sync.Mutex
	buf        []byte
	indexBuilt chan time.Duration
	settled    chan struct{} // closed at the server's "memory settled"
	loadTime   time.Duration // from "docs loaded"; 0 until logged
}

// loaded is the load time the server logged, or "not logged".
func (w *logWatch) loaded() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.loadTime == 0 {
		return "not logged"
	}
	return w.loadTime.Round(time.Millisecond).String()
}

func newLogWatch() *logWatch {
	return &logWatch{indexBuilt: make(chan time.Duration, 1), settled: make(chan struct{})}
}

func (w *logWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.line(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}

func (w *logWatch) line(l []byte) {
	var rec struct {
		Msg      string  `json:"msg"`
		Duration float64 `json:"duration"` // slog's JSON handler writes nanoseconds
	}
	if json.Unmarshal(l, &rec) != nil {
		return
	}
	if rec.Msg == "docs loaded" {
		w.loadTime = time.Duration(rec.Duration)
	}
	if rec.Msg == "memory settled" {
		select {
		case <-w.settled:
		default:
			close(w.settled)
		}
	}
	if rec.Msg == "search index built" {
		select {
		case w.indexBuilt <- time.Duration(rec.Duration):
		default:
		}
	}
}
