package search

import (
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/corpusgen"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
)

// costliestQuery matches no line, but each of its three-letter pieces is
// in almost every doc: the index cannot narrow it down, so every doc is
// read.
const costliestQuery = "the the the the the the the the"

var smallCorpus = sync.OnceValues(func() (*docs.Snapshot, error) {
	dir := filepath.Join(benchTempDir(), "small40k")
	if _, err := corpusgen.Generate(context.Background(), dir, corpusgen.Options{Seed: 1, Files: 40000, Shape: corpusgen.Small}); err != nil {
		return nil, err
	}
	return docs.Load(context.Background(), dir, docs.LoadOptions{})
})

// BenchmarkCostliestQuery is the costliest search of the generated tree of
// 40,000 small docs: whole, the walk through every candidate doc; call,
// what one call of the tool reads (CallBytes), and how many calls it takes
// to walk them all.
func BenchmarkCostliestQuery(b *testing.B) {
	snap, err := smallCorpus()
	if err != nil {
		b.Fatal(err)
	}
	p := Build(snap, nil) // what Find answers from
	<-p.Done()
	ix, err := p.Index()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("whole", func(b *testing.B) {
		cpu := mcptest.CPUTime()
		n := 0
		for b.Loop() {
			n = len(collect(ix.Matches(Query{Text: costliestQuery}, Position{}), 0))
		}
		b.ReportMetric(float64(mcptest.CPUTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(n), "matches")
	})
	b.Run("call", func(b *testing.B) {
		cpu := mcptest.CPUTime()
		calls := 0
		for b.Loop() {
			after := Position{}
			for calls = 1; ; calls++ {
				budget := Budget{Bytes: CallBytes}
				if n := len(collect(Find(context.Background(), snap, Query{Text: costliestQuery}, after, &budget), 0)); n != 0 {
					b.Fatalf("%d matches, want none", n)
				}
				if !budget.Stopped {
					break
				}
				after = budget.Resume
			}
		}
		b.ReportMetric(float64(mcptest.CPUTime()-cpu)/1e6/float64(b.N*calls), "cpu-ms/op")
		b.ReportMetric(float64(calls), "calls")
	})
}

// BenchmarkHandOver is what a short request meets while the costliest
// searches keep cores busy: the round trip of one byte over a loopback TCP
// connection to an echo goroutine (each end woken by the network poller,
// as a request's HTTP read and its answer are), while searchers goroutines
// loop the costliest query one call (CallBytes) at a time, as the work
// queue runs them: one per core, or one core left free (the queue's
// default, mcpserver.DefaultWorkLimits). Reports the round trip's p50, p95
// and max; the searchers' calls give their core to waiting goroutines
// every yieldBytes of text.
//
//	go test -run '^$' -bench HandOver -benchtime 400x ./mcp-server/internal/search
func BenchmarkHandOver(b *testing.B) {
	snap, err := smallCorpus()
	if err != nil {
		b.Fatal(err)
	}
	<-Build(snap, nil).Done()
	procs := runtime.GOMAXPROCS(0)
	for _, searchers := range []int{procs, max(procs-1, 1)} {
		b.Run(fmt.Sprintf("searchers=%d", searchers), func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer ln.Close()
			go func() {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close()
				io.Copy(c, c) // the echo
			}()
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()

			var stop atomic.Bool
			var wg sync.WaitGroup
			for range searchers {
				wg.Go(func() {
					after := Position{}
					for !stop.Load() {
						budget := Budget{Bytes: CallBytes}
						for range Find(context.Background(), snap, Query{Text: costliestQuery}, after, &budget) {
						}
						after = budget.Resume // Position{} again at the end
					}
				})
			}
			defer func() { stop.Store(true); wg.Wait() }()
			time.Sleep(50 * time.Millisecond) // the searchers under way

			var rtts []time.Duration
			buf := []byte{0}
			for b.Loop() {
				start := time.Now()
				if _, err := conn.Write(buf); err != nil {
					b.Fatal(err)
				}
				if _, err := io.ReadFull(conn, buf); err != nil {
					b.Fatal(err)
				}
				rtts = append(rtts, time.Since(start))
				time.Sleep(time.Millisecond) // a request now and then, not a flood
			}
			slices.Sort(rtts)
			at := func(q float64) float64 { return float64(rtts[int(q*float64(len(rtts)-1))].Microseconds()) }
			b.ReportMetric(at(0.5), "p50-µs")
			b.ReportMetric(at(0.95), "p95-µs")
			b.ReportMetric(at(1), "max-µs")
		})
	}
}
