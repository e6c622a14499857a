package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestRun drives the real docs-mcp binary, serving this repository, with
// 20 sessions of initialize, search, read and DELETE, and checks the report:
// every session run, no errors, every operation measured, the server's
// memory read from /proc.
func TestRun(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "docs-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/docs-mcp/docs-mcp/mcp-server").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--data-root", root, "--listen", "127.0.0.1:0", "--log-format", "json", "--log-level", "info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "serving http" {
				addr <- line.Addr
			}
		}
	}()
	var url string
	select {
	case a := <-addr:
		url = "http://" + a + "/mcp"
	case <-time.After(time.Minute):
		t.Fatal("docs-mcp did not start serving")
	}

	var out bytes.Buffer
	cfg := config{url: url, sessions: 4, total: 20, calls: 2, query: "hook", protocol: "2025-06-18", pid: cmd.Process.Pid}
	if err := run(context.Background(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	t.Log("\n" + report)
	for _, want := range []string{
		`sessions=4 concurrent, 20 run`,
		`requests=120 errors=0 `,
		`(?m)^  initialize +n=20 +errors=0 p50=`,
		`(?m)^  search +n=40 +errors=0 p50=`,
		`(?m)^  read +n=40 +errors=0 p50=`,
		`(?m)^  delete +n=20 +errors=0 p50=`,
		`server memory: rss before=[0-9.]+MiB after=[0-9.]+MiB peak=[0-9.]+MiB`,
	} {
		if !regexp.MustCompile(want).MatchString(report) {
			t.Errorf("report lacks %q", want)
		}
	}
}
