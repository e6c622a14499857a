package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// exampleMarker marks a fenced block of the docs as a runnable example: a
// word of its info string after the language, ```console run, as
// ```go fragment and ```go file=... mark Go blocks (CONTRIBUTING.md).
// GitHub and Hugo take the first word for the language and show nothing
// of the rest. Every other block of server output in the docs says it is
// an illustration.
const exampleMarker = "run"

// docRoot is the repository root as the docs write it; the test runs from
// the real root and writes it so in the output it compares.
const docRoot = "/home/you/docs-mcp"

// An example is a transcript: lines starting with "$ " are commands, the
// lines after each its expected output (stdout and stderr together, as a
// terminal shows them), then the exit status when it is not 0, as
// "[exit status N]". A command is docs-mcp, "go run ./mcp-server" or
// "go run ." after "cd mcp-server &&", or another go command (go test,
// go vet, go generate, go run of a package of this repository), with an
// optional "cd DIR &&" before it and optional NAME=value settings, its
// arguments in single quotes or plain, >/dev/null or 2>/dev/null at the
// end, and its standard input from printf '%s\n' 'line' ... | or none.
// The test runs each with the docs-mcp built from this checkout (and the
// go of the test), and compares the output after normalising what varies
// from run to run and machine to machine: times, durations, sizes and
// counts (any "=123" value, and every number of a JSON answer line, whose
// line numbers and counts follow the docs; go test's time or "(cached)"),
// the repository's path; then holds the counts and sizes of the log lines
// that the checkout's docs decide to the example's (staleFigures).
//
// The skills (skills/, see skillsDir) give commands that change files,
// as go generate does: their transcripts run in a scratch copy of the
// repository, one per skill file, and every number of their output is
// normalised, since the counts they show (hooks, bytes of the map) grow
// with the repository.
// Log lines are compared in any order (the server logs from several
// goroutines); a line added, removed or reworded fails, and the failure
// prints the output to paste into the doc.
//
// A server that reads stdin is given the lines, and its stdin is closed
// once every line of the expected output has appeared (or after
// linesTimeout), so that a start-up line added later shows up in the
// output instead of racing the end of input.
type example struct {
	file string // relative to the repository: docs/..., skills/...
	line int    // of the opening fence
	cmds []exampleCmd
}

type exampleCmd struct {
	line   string   // as written, without "$ "
	goTool bool     // a go command rather than docs-mcp
	dir    string   // relative to the repository root
	env    []string // NAME=value
	args   []string // after the program
	stdin  []string // lines
	quiet  []string // streams sent to /dev/null: ">" (stdout), "2>" (stderr)
	output []string // expected, as written
	status int
}

const linesTimeout = 30 * time.Second

// goTimeout bounds a go command of an example, which may build and test a
// module from a cold cache.
const goTimeout = 10 * time.Minute

// TestDocsExamples runs every example the docs mark runnable.
func TestDocsExamples(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	examples := append(readExamples(t, root, "docs"), readExamples(t, root, skillsDir)...)
	if len(examples) < 4 { // getting-started, configuration (2), tools
		t.Fatalf("found %d runnable examples in docs/; the start-up log, a flag error and a tool answer at least are fenced ```console %s", len(examples), exampleMarker)
	}
	bin, err := mcptest.BuildDocsMCP(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	goCache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	run := runner{bin: bin, goCache: strings.TrimSpace(string(goCache))}
	// Each skill file's transcripts run in a fresh copy of the repository,
	// always at the same path: go's build cache keys a package on its
	// folder, so there the copies' go commands reuse what the first one
	// compiled (at a path of its own, each copy compiled the repository's
	// packages again).
	scratch := filepath.Join(t.TempDir(), "repository")
	copied := "" // the skill file the scratch copy is for
	for _, ex := range examples {
		t.Run(fmt.Sprintf("%s:%d", ex.file, ex.line), func(t *testing.T) {
			dir, skill := root, strings.HasPrefix(ex.file, skillsDir)
			if skill {
				if copied != ex.file {
					copyRepository(t, root, scratch)
					copied = ex.file
				}
				dir = scratch
			}
			for _, c := range ex.cmds {
				got, status := run.example(t, dir, c)
				want := normalise(c.output, docRoot)
				have := normalise(got, dir)
				if skill {
					want, have = normaliseCounts(want), normaliseCounts(have)
				}
				if d := cmp.Diff(sorted(want), sorted(have)); d != "" || status != c.status {
					t.Errorf("%s:%d: $ %s\nexit status %d (want %d); lines, normalised and sorted (-doc +real):\n%s\nthe real output, to paste into the doc:\n%s",
						ex.file, ex.line, c.line, status, c.status, d, strings.Join(withRoot(got, dir), "\n"))
				} else if stale := staleFigures(c.output, got, dir); !skill && len(stale) > 0 {
					t.Errorf("%s:%d: $ %s\nthe figures of this checkout's docs are no longer those of the doc: %s\nthe real output, to paste into the doc:\n%s",
						ex.file, ex.line, c.line, strings.Join(stale, ", "), strings.Join(withRoot(got, dir), "\n"))
				}
			}
		})
	}
}

// readExamples parses every marked block under the folder dir of the
// repository at root.
func readExamples(t *testing.T, root, dir string) []example {
	t.Helper()
	var out []example
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		lines := strings.Split(string(b), "\n")
		inFence := false
		for i, l := range lines {
			if !strings.HasPrefix(l, "```") {
				continue
			}
			if inFence = !inFence; !inFence {
				continue // a closing fence
			}
			if info := strings.Fields(strings.TrimPrefix(l, "```")); len(info) < 2 || !slices.Contains(info[1:], exampleMarker) {
				continue
			}
			var body []string // up to the closing fence, which the loop then passes
			for _, l := range lines[i+1:] {
				if strings.HasPrefix(l, "```") {
					break
				}
				body = append(body, l)
			}
			ex, err := parseExample(body)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", rel, i+1, err)
			}
			ex.file, ex.line = filepath.ToSlash(rel), i+1
			out = append(out, ex)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var exitLine = regexp.MustCompile(`^\[exit status (\d+)\]$`)

func parseExample(body []string) (example, error) {
	var ex example
	for _, l := range body {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			c, err := parseCommand(cmd)
			if err != nil {
				return ex, err
			}
			ex.cmds = append(ex.cmds, c)
			continue
		}
		if len(ex.cmds) == 0 {
			return ex, errors.New("an example starts with a \"$ \" command")
		}
		c := &ex.cmds[len(ex.cmds)-1]
		if m := exitLine.FindStringSubmatch(l); m != nil {
			fmt.Sscan(m[1], &c.status)
			continue
		}
		if l != "" {
			c.output = append(c.output, l)
		}
	}
	if len(ex.cmds) == 0 {
		return ex, errors.New("no \"$ \" command")
	}
	return ex, nil
}

// parseCommand reads the small shell the examples use (see example).
func parseCommand(line string) (exampleCmd, error) {
	c := exampleCmd{line: line}
	words, err := shellWords(line)
	if err != nil {
		return c, err
	}
	if len(words) >= 3 && words[0] == "cd" && words[2] == "&&" {
		c.dir, words = words[1], words[3:]
	}
	if len(words) >= 2 && words[0] == "printf" && words[1] == `%s\n` {
		i := slices.Index(words, "|")
		if i < 0 {
			return c, errors.New("printf without | into docs-mcp")
		}
		c.stdin, words = words[2:i], words[i+1:]
	}
	for len(words) > 0 && (words[len(words)-1] == ">/dev/null" || words[len(words)-1] == "2>/dev/null") {
		c.quiet, words = append(c.quiet, strings.TrimSuffix(words[len(words)-1], "/dev/null")), words[:len(words)-1]
	}
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		c.env, words = append(c.env, words[0]), words[1:]
	}
	switch {
	case len(words) >= 1 && words[0] == "docs-mcp":
		c.args = words[1:]
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && (words[2] == "./mcp-server" || (words[2] == "." && c.dir == "mcp-server")):
		c.args = words[3:]
	case len(words) >= 3 && words[0] == "go" && slices.Contains(goCommands, words[1]) && !slices.Contains(words, "|"):
		c.goTool, c.args = true, words[1:]
	default:
		return c, fmt.Errorf("$ %s: not a docs-mcp command the test can run", line)
	}
	return c, nil
}

// goCommands are the go commands an example may run.
var goCommands = []string{"run", "test", "vet", "generate", "build"}

// shellWords splits a command line into words: plain, or in single
// quotes (no escapes inside, as in sh).
func shellWords(s string) ([]string, error) {
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '\'' {
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unclosed quote in %q", s)
			}
			words, s = append(words, s[1:end+1]), s[end+2:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		words, s = append(words, s[:end]), s[end:]
	}
	return words, nil
}

// runner runs the commands of the examples.
type runner struct {
	bin     string // docs-mcp, built from this checkout
	goCache string // the contributor's Go build cache
}

// example runs c from the repository at root and returns its output lines
// and exit status.
func (r runner) example(t *testing.T, root string, c exampleCmd) ([]string, int) {
	t.Helper()
	bin, timeout := r.bin, 2*linesTimeout
	if c.goTool {
		bin, timeout = "go", goTimeout // from the PATH, as a contributor's
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, c.args...)
	// A process the command leaves behind (the go command may start one
	// for its telemetry) would hold the output open: once the command
	// exits, its output is read for this long, then closed.
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = filepath.Join(root, c.dir)
	if filepath.IsAbs(c.dir) {
		cmd.Dir = c.dir
	}
	for _, kv := range os.Environ() { // the examples show the defaults
		if !strings.HasPrefix(kv, "DOCS_MCP_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// The cache folder of a first start, as a newcomer's: empty. Not the
	// go command's build cache, which lies under it by default: with an
	// empty one every go command of an example compiled the standard
	// library and every module again (minutes of CPU each), where a
	// contributor's go reuses what it built before.
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+filepath.Join(t.TempDir(), ".cache"))
	if c.goTool {
		cmd.Env = append(cmd.Env, "GOCACHE="+r.goCache)
	}
	cmd.Env = append(cmd.Env, c.env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if slices.Contains(c.quiet, ">") {
		cmd.Stdout = nil
	}
	if slices.Contains(c.quiet, "2>") {
		cmd.Stderr = nil
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, l := range c.stdin {
		io.WriteString(stdin, l+"\n")
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait(); w.Close() }()

	// The stop line comes only once the input ends: the rest first.
	var want []string
	for _, l := range normalise(c.output, docRoot) {
		if !strings.Contains(l, "msg=stopped") {
			want = append(want, l)
		}
	}
	var got []string
	deadline := time.After(linesTimeout)
	closed := false
	closeStdin := func() {
		if !closed {
			stdin.Close()
			closed = true
		}
	}
read:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				break read
			}
			got = append(got, l)
			if !closed && covers(normalise(got, root), want) {
				closeStdin()
			}
		case <-deadline: // a line the doc expects did not come: end, and show what did
			closeStdin()
			deadline = nil
		}
	}
	closeStdin()
	err = <-waitErr
	var exit *exec.ExitError
	switch {
	case err == nil:
		return got, 0
	case errors.As(err, &exit):
		return got, exit.ExitCode()
	}
	t.Fatalf("$ %s: %v", c.line, err)
	return nil, 0
}

// covers reports whether got holds every line of want (as many times).
func covers(got, want []string) bool {
	left := slices.Clone(got)
	for _, w := range want {
		i := slices.Index(left, w)
		if i < 0 {
			return false
		}
		left = slices.Delete(left, i, i+1)
	}
	return true
}

var (
	cacheDir = regexp.MustCompile(`path=\S*/\.cache/docs-mcp/docs-[0-9a-f]{16}\.cache`)
	logTime  = regexp.MustCompile(`^time=\S+ `)
	// Numbers as the logger writes them, exponents included: slog
	// formats a float64 with strconv's 'g' rule, so a request under 100 µs
	// logs duration_s=8.9699e-05; and a duration as time.Duration.String
	// does, so one of a minute or more is 1m30.5s
	// (TestNormaliseLoggerNumbers).
	duration = regexp.MustCompile(`=(\d+(\.\d+)?(ns|µs|us|ms|s|m|h))+\b`)
	number   = regexp.MustCompile(`=-?\d+(\.\d+)?([eE][-+]?\d+)?\b`)
	anyNum   = regexp.MustCompile(`\b\d+(\.\d+)?([eE][-+]?\d+)?\b`)
	commitID = regexp.MustCompile(`(commit":"|commit )[0-9a-f]{7}\b`)        // a doc's last commit (provenance)
	goTest   = regexp.MustCompile(`^(ok\s+\S+\s+)(\(cached\)|\d+(\.\d+)?s)`) // go test's time, or (cached)
	dateTime = regexp.MustCompile(`"date":"[^"]*"`)                          // and its date
)

// The figures of a log line that the checkout's docs decide, not the
// machine or the moment: normalise lets every number pass, and these are
// then held to the example's, so that its figures cannot go stale unseen.
// A count must be the example's; a size within a quarter of it, so that
// an edit of a doc does not fail the example, but the docs growing by a
// quarter does.
var (
	countKeys = []string{"docs", "skipped", "folders", "generation", "reused_docs"}
	sizeKeys  = []string{"text_bytes", "held_bytes", "index_bytes", "corpus_bytes", "bytes"}
	figure    = regexp.MustCompile(`\b([a-z_]+)=(\d+)\b`)
)

// staleFigures compares the counts and sizes of want's log lines (as the
// doc has them) with those of the same lines of got (the lines that
// normalise the same), and says which no longer hold.
func staleFigures(want, got []string, root string) []string {
	wn, gn := normalise(want, docRoot), normalise(got, root)
	used := make([]bool, len(got))
	var stale []string
	for i, w := range want {
		j := slices.IndexFunc(gn, func(g string) bool { return g == wn[i] })
		for j >= 0 && used[j] {
			k := slices.Index(gn[j+1:], wn[i])
			if k < 0 {
				j = -1
				break
			}
			j += k + 1
		}
		if j < 0 || strings.HasPrefix(w, "{") {
			continue
		}
		used[j] = true
		have := map[string]int{}
		for _, m := range figure.FindAllStringSubmatch(got[j], -1) {
			have[m[1]], _ = strconv.Atoi(m[2])
		}
		for _, m := range figure.FindAllStringSubmatch(w, -1) {
			key, was := m[1], 0
			was, _ = strconv.Atoi(m[2])
			now, ok := have[key]
			switch {
			case !ok:
			case slices.Contains(countKeys, key) && now != was,
				slices.Contains(sizeKeys, key) && 4*max(now-was, was-now) > was:
				stale = append(stale, fmt.Sprintf("%s=%d (now %d)", key, was, now))
			}
		}
	}
	return stale
}

// normalise makes lines comparable across runs: the repository at root
// written as docRoot, and times, durations, numbers and the cache file's
// path (a temporary folder's, named by a hash of the docs folder's path)
// replaced, and the short ids of the commits that answers name.
func normalise(lines []string, root string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range withRoot(lines, root) {
		l = logTime.ReplaceAllString(l, "time=T ")
		l = cacheDir.ReplaceAllString(l, "path=CACHE")
		l = duration.ReplaceAllString(l, "=D")
		l = number.ReplaceAllString(l, "=N")
		l = commitID.ReplaceAllString(l, "${1}C")
		l = dateTime.ReplaceAllString(l, `"date":"D"`)
		l = goTest.ReplaceAllString(l, "${1}T")
		if strings.HasPrefix(l, "{") { // a JSON-RPC answer: line numbers and counts follow the docs
			l = anyNum.ReplaceAllString(l, "N")
		}
		out = append(out, l)
	}
	return out
}

// normaliseCounts replaces every number of normalised lines: a skill's
// transcript shows counts and sizes that grow with the repository.
func normaliseCounts(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = anyNum.ReplaceAllString(l, "N")
	}
	return out
}

// copyRepository copies the repository at root, without its hidden
// folders (.git among them) and installed node modules, to dst, removing
// what dst held: a skill's commands may change files.
func copyRepository(t *testing.T, root, dst string) {
	t.Helper()
	if err := os.RemoveAll(dst); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel == "." {
			return os.Mkdir(dst, 0o755)
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case !d.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copy the repository: %v", err)
	}
}

func withRoot(lines []string, root string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.ReplaceAll(l, root, docRoot)
	}
	return out
}

func sorted(lines []string) []string {
	return slices.Sorted(slices.Values(lines))
}

// TestNormaliseNumbers holds the patterns to every way the logger writes a
// number: an example's log line compares equal whether its request took
// 0.0003 s or 89 µs (slog writes 8.9699e-05 then; the pattern without an
// exponent failed the example about one run in seven).
func TestNormaliseNumbers(t *testing.T) {
	want := normalise([]string{"level=INFO msg=mcp.request duration_s=0.000307226 outcome=ok"}, "/r")
	for _, v := range []string{"8.9699e-05", "1e-06", "12", "0.5", "1.5E+02"} {
		got := normalise([]string{"level=INFO msg=mcp.request duration_s=" + v + " outcome=ok"}, "/r")
		if !slices.Equal(got, want) {
			t.Errorf("duration_s=%s normalises to %q, want %q", v, got, want)
		}
	}
	if got := normalise([]string{`{"id":2,"size":7.5e-05}`}, "/r"); got[0] != `{"id":N,"size":N}` {
		t.Errorf("a JSON answer's number with an exponent normalises to %q", got[0])
	}
}

// TestNormaliseLoggerNumbers feeds normalise what the server's logger
// writes, rather than a list of cases: slog's text handler writes a float
// with strconv's 'g' rule (an exponent below 1e-4 and from 1e21 on) and a
// duration as time.Duration.String does (1m30s from a minute on), so each
// magnitude a run's timing can give is logged through it, and every line
// must normalise as the first does. A log line of an example then
// compares equal however long its request took.
func TestNormaliseLoggerNumbers(t *testing.T) {
	var b strings.Builder
	log := slog.New(slog.NewTextHandler(&b, nil))
	line := func(seconds float64, d time.Duration, n int64) string {
		b.Reset()
		log.Info("mcp.request", "duration_s", seconds, "duration", d, "bytes", n, "outcome", "ok")
		return strings.TrimSuffix(b.String(), "\n")
	}
	var lines []string
	for e := -12; e <= 22; e++ {
		for _, m := range []float64{1, 1.5, 8.9699, 9.999999} {
			lines = append(lines, line(m*math.Pow10(e), time.Second, 1))
		}
	}
	for d := time.Duration(1); d < 1000*time.Hour; d = d*7 + d/3 {
		lines = append(lines, line(1, d, 1), line(1, d+d/10, 1))
	}
	for n := int64(0); n < math.MaxInt64/10; n = n*10 + 7 {
		lines = append(lines, line(1, time.Second, n))
	}
	want := normalise(lines[:1], "/r")[0]
	for _, l := range lines {
		if got := normalise([]string{l}, "/r")[0]; got != want {
			t.Errorf("%s\nnormalises to %s\nwant %s", l, got, want)
		}
	}
}
