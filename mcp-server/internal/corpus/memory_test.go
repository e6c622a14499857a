package corpus

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// gogc is the collector's target now, read without setting it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// TestCollectorTarget checks the memory policy: after the start-up on a
// small tree, the collector lets at least minGarbageBytes of garbage grow
// (far more than steadyGCPercent of a small heap); once the tree has grown
// to tens of MB, the target follows it down to about steadyGCPercent; and
// GOGC, when set, is left alone.
func TestCollectorTarget(t *testing.T) {
	mcptest.SkipUnderRace(t, "its subject is the collector's target as the tree grows to 40 MB, not concurrency")
	defer debug.SetGCPercent(debug.SetGCPercent(100))

	t.Run("GOGC set", func(t *testing.T) {
		t.Setenv("GOGC", "50")
		debug.SetGCPercent(50)
		c := New(repo(t))
		run(t, c)
		mcptest.Closed(t, c.Settled(), "the end of the start-up")
		if got := gogc(); got != 50 {
			t.Fatalf("GOGC=50, and the target is %d after the start-up", got)
		}
	})

	t.Run("follows the tree", func(t *testing.T) {
		t.Setenv("GOGC", "")
		cfg := repo(t)
		c := New(cfg)
		run(t, c)
		mcptest.Closed(t, c.Settled(), "the end of the start-up")
		if got, least := gogc(), 2*steadyGCPercent; got < least {
			t.Fatalf("the target after the start-up on a small tree is %d, want at least %d (at least %d bytes of garbage)", got, least, minGarbageBytes)
		}
		// 40 MB of text that hardly compresses: the docs alone are then
		// over ten times minGarbageBytes.
		rng := rand.New(rand.NewPCG(1, 2))
		raw := make([]byte, 750<<10)
		for i := range 40 {
			for j := range raw {
				raw[j] = byte(rng.Uint32())
			}
			text := fmt.Sprintf("# Big %d\n\n%s\n", i, base64.StdEncoding.EncodeToString(raw))
			if err := os.WriteFile(filepath.Join(cfg.DocsPath, fmt.Sprintf("big-%02d.md", i)), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for deadline := time.Now().Add(mcptest.Deadline); gogc() > 2*steadyGCPercent; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the target is still %d %s after the tree grew to 40 MB, want at most %d", gogc(), mcptest.Deadline, 2*steadyGCPercent)
			}
		}
	})

	if got, want := gcPercent(1<<30), steadyGCPercent; got != want {
		t.Errorf("gcPercent of a 1 GiB heap is %d, want %d", got, want)
	}
}
