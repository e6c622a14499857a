package search

import (
	"runtime"
	"syscall"
)

// backgroundNice is the niceness of the threads that build an index. CFS
// weighs a thread at nice 10 about a tenth of one at 0, so a request that
// wakes while a build holds a core takes the core at once rather than
// sharing it: on 40,000 small docs, the p95 of searches answered during
// the first build fell from 4.6–7.7 ms to 3.9–5.3 ms, and the build took
// 1.4–1.7 s where it took 1.1–1.5 s (docs/server/benchmarks.md).
const backgroundNice = 10

// asBackground runs the calling goroutine, until it exits, on an OS thread
// of its own at a lower scheduling priority than the threads that answer
// requests. The goroutine must not unlock the thread: when it exits, the Go
// runtime ends the locked thread (or, for the process's main thread, parks
// it for good), so the priority never passes on to other work. Lowering a thread's own priority needs no privilege; should it fail
// anyway, the work runs at the usual priority.
func asBackground() {
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), backgroundNice)
}
