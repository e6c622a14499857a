package budget

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReport(t *testing.T) {
	b := New()
	open := int64(3)
	b.Define(Sessions, 10, func() int64 { return open })
	b.Define(Body, 4096, nil)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { b.Refuse(Sessions) })
	}
	wg.Wait()
	b.Refuse(Streams) // refused before it was defined: still counted
	b.Define(Streams, 5, nil)

	three := int64(3)
	want := []Usage{
		{Name: Body, Limit: 4096},
		{Name: Sessions, Limit: 10, Used: &three, Refused: 50},
		{Name: Streams, Limit: 5, Refused: 1},
	}
	if diff := cmp.Diff(want, b.Report()); diff != "" {
		t.Errorf("Report (-want +got):\n%s", diff)
	}
}

func TestNilCountsNothing(t *testing.T) {
	var b *Budgets
	b.Define(Body, 1, nil)
	b.Refuse(Body)
	if got := b.Report(); got != nil {
		t.Errorf("nil Budgets reported %v", got)
	}
}
