package mcptest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ProcCPU is the CPU time (user and system) process pid has used, from
// /proc/PID/stat (Linux), in its clock ticks of 10 ms.
func ProcCPU(pid int) (time.Duration, error) {
	f, err := ProcStat(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	var ticks int64
	for _, v := range f[11:13] { // utime and stime
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// ProcStat reads a process's or a thread's stat file (Linux: /proc/PID/stat,
// /proc/PID/task/TID/stat) and returns its fields after the command name,
// which is in parentheses and may hold spaces: the state is the first of
// them, utime the 12th, nice the 17th. It fails when there are fewer than
// the 17.
func ProcStat(path string) ([]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(f) < 17 {
		return nil, fmt.Errorf("%s: %d fields after the command", path, len(f))
	}
	return f, nil
}

// ProcMemory is a memory field of /proc/PID/status (Linux), such as VmRSS
// or VmHWM, in bytes.
func ProcMemory(pid int, field string) (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(raw)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
