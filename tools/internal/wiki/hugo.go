package wiki

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// Hugo runs the Hugo pinned in tools/hugo/go.mod as a Go tool:
// GOWORK=off go -C tools/hugo tool hugo ... (the Go build cache keeps the
// compiled binary, so only the first run compiles it), or a Hugo binary
// built from it beforehand, where there is no Go toolchain (the live wiki's
// container image).
type Hugo struct {
	ModDir   string    // tools/hugo, the module with the tool directive
	Binary   string    // a Hugo executable to run instead of the Go tool; empty means the Go tool
	Progress io.Writer // where the user reads what is happening
	// SlowAfter is how long Version may take before the user is told Hugo is
	// probably being compiled; zero means 10 seconds (a cached Hugo answers
	// in about one).
	SlowAfter time.Duration
	// Live says Hugo keeps running (build --watch): it keeps what it needs
	// to render an edit again, and gets the heap for it (hugoLiveHeapPerPage).
	Live bool
}

// command is Hugo with args, its memory bounded for a site of pages
// pages (zero when it builds none).
func (h *Hugo) command(ctx context.Context, pages int, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if h.Binary != "" {
		cmd = exec.CommandContext(ctx, h.Binary, args...)
		cmd.Env = os.Environ()
	} else {
		cmd = exec.CommandContext(ctx, "go", append([]string{"-C", h.ModDir, "tool", "hugo"}, args...)...)
		cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
	}
	perPage := int64(hugoHeapPerPage)
	if h.Live {
		perPage = hugoLiveHeapPerPage
	}
	cmd.Env = withMemoryBounds(cmd.Env, pages, perPage)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// Hugo's memory, unless the environment sets it: by default Hugo lets its
// caches grow to a quarter of the machine's memory and Go's collector lets
// the heap double between collections, which took a 10,000-page build to
// 1.85 GB resident on a 23 GB machine (2.77 GB on a real tree). A quarter
// of a gigabyte of caches and a soft heap limit of 768 MiB keep such a
// build under 1 GB for a few percent more CPU. The limit grows with the
// site, 48 KiB a page past 16,000 pages: Hugo holds about 28 KiB a page
// that it cannot free, and a limit under twice that has the collector run
// without end (40,000 pages built in 6 min 34 s under 768 MiB).
const (
	hugoMemoryLimit = "0.25"    // HUGO_MEMORYLIMIT, in gigabytes: Hugo's caches
	hugoGoMemLimit  = 768 << 20 // GOMEMLIMIT, the Go runtime's soft limit, in bytes: the least
	hugoHeapPerPage = 48 << 10  // what GOMEMLIMIT grows by for each page
	// A Hugo that keeps running keeps every page's dependencies for the
	// next edit: on 9,753 real docs, under the build's 768 MiB it sat at
	// 805 MB resident with the collector running without end, rendering
	// two pages a second, and had not finished after 10 minutes (a build
	// of the same tree takes under one).
	hugoLiveHeapPerPage = 160 << 10
)

// withMemoryBounds adds the memory bounds for a site of pages pages to env
// where it has none.
func withMemoryBounds(env []string, pages int, perPage int64) []string {
	has := func(name string) bool {
		return slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	}
	if !has("HUGO_MEMORYLIMIT") {
		env = append(env, "HUGO_MEMORYLIMIT="+hugoMemoryLimit)
	}
	if !has("GOMEMLIMIT") {
		env = append(env, fmt.Sprintf("GOMEMLIMIT=%dMiB", max(hugoGoMemLimit, int64(pages)*perPage)>>20))
	}
	return env
}

// Version makes sure Hugo is compiled and returns its version line. When the
// Go build cache does not hold it yet, compiling takes minutes: the user is
// told so instead of staring at a silent terminal.
func (h *Hugo) Version(ctx context.Context) (string, error) {
	slow := h.SlowAfter
	if slow == 0 {
		slow = 10 * time.Second
	}
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-done:
		case <-time.After(slow):
			fmt.Fprintf(h.Progress, "wiki: Hugo has not answered after %s: the go command is probably compiling it from tools/hugo/go.mod (the first run takes several minutes; later runs reuse the Go build cache)…\n", slow)
		}
	}()
	var out bytes.Buffer
	cmd := h.command(ctx, 0, "version")
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	close(done)
	wg.Wait()
	if err != nil && h.Binary != "" {
		return "", fmt.Errorf("run Hugo (%s version): %w\n%s", h.Binary, err, strings.TrimSpace(out.String()))
	}
	if err != nil {
		return "", fmt.Errorf("compile Hugo (GOWORK=off go -C %s tool hugo version): %w\n%s", h.ModDir, err, strings.TrimSpace(out.String()))
	}
	v := strings.TrimSpace(out.String())
	if d := time.Since(start); d > slow {
		fmt.Fprintf(h.Progress, "wiki: Hugo ready after %s\n", d.Round(time.Second))
	}
	return v, nil
}

// Usage is what a finished Hugo run used, counting the go command that
// started it.
type Usage struct {
	CPU     time.Duration // user and system time
	PeakRSS int64         // the largest resident set in bytes; 0 where the OS does not say
}

// Run runs Hugo with args on a site of pages pages (which bounds its
// memory), passing each line it prints to line (stdout and stderr both;
// Hugo logs to either). The error says how Hugo ended.
func (h *Hugo) Run(ctx context.Context, pages int, line func(string), args ...string) (Usage, error) {
	cmd := h.command(ctx, pages, args...)
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = pw
	scanDone := make(chan struct{})
	go func() {
		defer close(scanDone)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
		for sc.Scan() {
			line(sc.Text())
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	err := cmd.Start()
	if err == nil {
		err = cmd.Wait()
	}
	pw.Close()
	<-scanDone
	var use Usage
	if ps := cmd.ProcessState; ps != nil {
		use = Usage{CPU: ps.UserTime() + ps.SystemTime(), PeakRSS: peakRSS(ps)}
	}
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && ctx.Err() == nil {
			return use, fmt.Errorf("hugo %s: exit status %d", args[0], exit.ExitCode())
		}
		return use, fmt.Errorf("hugo %s: %w", args[0], err)
	}
	return use, nil
}
