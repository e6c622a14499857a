package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// TestBackgroundThreadEnds checks that asBackground lowers the priority of
// its goroutine's thread only, and that the thread ends with the goroutine
// rather than going back to the runtime's pool at that priority, where it
// would run requests.
func TestBackgroundThreadEnds(t *testing.T) {
	type result struct {
		tid, nice int
		err       error
	}
	run := func() result {
		ran := make(chan result)
		go func() {
			asBackground()
			tid := syscall.Gettid()
			nice, err := niceOf(tid)
			ran <- result{tid, nice, err}
		}()
		return <-ran
	}
	r := run()
	if r.tid == os.Getpid() {
		// The goroutine ran on the main thread, which the runtime parks
		// for good rather than ends. It runs nothing else, and the next
		// goroutine cannot land there.
		r = run()
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.nice != backgroundNice {
		t.Fatalf("the background thread runs at nice %d, want %d", r.nice, backgroundNice)
	}
	if nice, err := niceOf(syscall.Gettid()); err != nil || nice != 0 {
		t.Fatalf("the test's own thread runs at nice %d (%v), want 0", nice, err)
	}
	// The runtime ends a locked thread soon after its goroutine returns.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := os.Stat(fmt.Sprintf("/proc/self/task/%d", r.tid))
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("thread %d, at nice %d, still runs 10 s after its goroutine ended (%v)", r.tid, backgroundNice, err)
		}
	}
}

// niceOf reads a thread of this process's niceness from /proc.
func niceOf(tid int) (int, error) {
	f, err := mcptest.ProcStat(fmt.Sprintf("/proc/self/task/%d/stat", tid))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(f[16])
}
