package mcptest

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// ServeHTTP runs the docs-mcp binary bin over HTTP on a free loopback port
// (--listen 127.0.0.1:0 --log-format json, then args) and returns the
// process and the address it serves on, read from its "serving http" log
// line. When the test ends it is stopped with SIGTERM and must exit 0
// within 30 seconds; its log is shown if the test failed.
func ServeHTTP(t testing.TB, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--listen", "127.0.0.1:0", "--log-format", "json"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start docs-mcp: %v", err)
	}
	var (
		log     Buffer
		addr    = make(chan string, 1)
		exited  = make(chan struct{}) // closed when the process ended, with waitErr set
		waitErr error
		served  bool // a server that never served is reported below, not on stopping
	)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.Write(append(sc.Bytes(), '\n'))
			var rec struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "serving http" {
				select {
				case addr <- rec.Addr:
				default: // a second listener: the first is the answer
				}
			}
		}
		waitErr = cmd.Wait() // once the pipe is read to its end, as Wait closes it
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
			if waitErr != nil && served {
				t.Errorf("docs-mcp exited with %v on SIGTERM", waitErr)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Error("docs-mcp did not stop within 30s of SIGTERM")
		}
		if t.Failed() {
			t.Logf("docs-mcp log:\n%s", log.String())
		}
	})
	select {
	case a := <-addr:
		served = true
		return cmd, a
	case <-exited:
		t.Fatalf("docs-mcp exited before serving: %v", waitErr)
	case <-time.After(Deadline):
		t.Fatalf("docs-mcp did not say where it serves within %s", Deadline)
	}
	return nil, ""
}
