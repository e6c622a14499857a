package docs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// hugoAnchors numbers repeated anchors as Hugo's idFactory (and
// goldmark's) does: for every repeat, the numbers from 1 until one is
// free. It is the reference Anchors must agree with; it costs n²/2 tries
// for n identical headings, so it is run on small docs only.
func hugoAnchors(headings []Heading) []string {
	out := make([]string, len(headings))
	taken := map[string]bool{}
	for i, h := range headings {
		a := Anchor(h.Text)
		if taken[a] {
			for n := 1; ; n++ {
				if c := a + "-" + strconv.Itoa(n); !taken[c] {
					a = c
					break
				}
			}
		}
		taken[a] = true
		out[i] = a
	}
	return out
}

// TestAnchorsAsHugoNumbersThem: on random docs whose headings collide in
// every way a repeat number can (a heading "x 1" or "x-1" before, between
// and after repeats of "x", a repeat of "x-1" itself), the anchors are
// Hugo's, each one once.
func TestAnchorsAsHugoNumbersThem(t *testing.T) {
	texts := []string{"x", "X", "x 1", "x-1", "x 2", "x-1-1", "x 1 1", "x-10", "x 3", "y", "y-1", "!!!", "heading", "heading 1"}
	rng := rand.New(rand.NewPCG(35, 1))
	for doc := range 3000 {
		hs := make([]Heading, rng.IntN(60))
		for i := range hs {
			hs[i] = Heading{Line: i + 1, Level: 2, Text: texts[rng.IntN(len(texts))]}
		}
		got, want := Anchors(hs), hugoAnchors(hs)
		if diff := cmp.Diff(want, got); diff != "" {
			var list []string
			for _, h := range hs {
				list = append(list, h.Text)
			}
			t.Fatalf("doc %d, headings %q: anchors (-hugo +got):\n%s", doc, list, diff)
		}
		assertUnique(t, got)
	}
}

func assertUnique(t *testing.T, anchors []string) {
	t.Helper()
	seen := make(map[string]int, len(anchors))
	for i, a := range anchors {
		if j, ok := seen[a]; ok {
			t.Fatalf("headings %d and %d both have the anchor %q", j, i, a)
		}
		seen[a] = i
	}
}

// sameHeadings is a doc of "# Same" and n times "## Remarks" with a line
// of text under each.
func sameHeadings(n int) string {
	var b strings.Builder
	b.WriteString("# Same\n")
	for i := range n {
		fmt.Fprintf(&b, "## Remarks\nremark %d\n", i)
	}
	return b.String()
}

// TestManyIdenticalHeadings: a doc of 100,000 identical headings gets the
// anchors Hugo gives them (remarks, remarks-1, …, each once), its
// sections end where the next begins, and a line deep in it has its
// trail and anchor.
func TestManyIdenticalHeadings(t *testing.T) {
	const n = 100_000
	text := sameHeadings(n)
	o, err := OutlineOf(t.Context(), "same.md", text)
	if err != nil {
		t.Fatal(err)
	}
	secs := o.Sections()
	if len(secs) != n+1 {
		t.Fatalf("%d sections, want %d", len(secs), n+1)
	}
	anchors := make([]string, len(secs))
	for i, s := range secs {
		anchors[i] = s.Anchor
	}
	assertUnique(t, anchors)
	for i, want := range map[int]string{0: "same", 1: "remarks", 2: "remarks-1", n: "remarks-" + strconv.Itoa(n-1)} {
		if anchors[i] != want {
			t.Errorf("heading %d has the anchor %q, want %q", i, anchors[i], want)
		}
	}
	if s := secs[0]; s.EndLine != 2*n+1 {
		t.Errorf("# Same ends at line %d, want %d", s.EndLine, 2*n+1)
	}
	if s := secs[500]; s.Line != 2*500 || s.EndLine != 2*500+1 {
		t.Errorf("section 500 spans lines %d-%d, want %d-%d", s.Line, s.EndLine, 1000, 1001)
	}
	trail, anchor := o.Section(2 * n) // the heading of the last remark
	if diff := cmp.Diff([]string{"Same", "Remarks"}, trail); diff != "" || anchor != "remarks-"+strconv.Itoa(n-1) {
		t.Errorf("the last heading's trail and anchor: %q #%s", trail, anchor)
	}
	s, ok, err := o.Find(t.Context(), "remarks-77777")
	if err != nil || !ok || s.Line != 2*77778 {
		t.Errorf("Find(remarks-77777) = line %d, %v, %v; want line %d", s.Line, ok, err, 2*77778)
	}
}

// TestAnchorsLinear: numbering n identical headings allocates a few
// strings per heading, not one per number tried (Hugo's way tries
// n²/2 numbers: 8 million for these 4,000 headings). Counting
// allocations, not time, keeps the test exact on a loaded machine.
func TestAnchorsLinear(t *testing.T) {
	const n = 4_000
	hs := make([]Heading, n)
	for i := range hs {
		hs[i] = Heading{Line: i + 1, Level: 2, Text: "Remarks"}
	}
	allocs := testing.AllocsPerRun(1, func() { assertUnique(t, Anchors(hs)) })
	if allocs > 10*n {
		t.Errorf("anchors of %d identical headings took %.0f allocations, want at most %d", n, allocs, 10*n)
	}
}

// TestOutlineKept: a doc with many headings has its outline made as it is
// read and keeps it, holding no part of the text; a small doc's outline
// is made for each caller, and not for one whose context has ended.
func TestOutlineKept(t *testing.T) {
	ctx := t.Context()
	text := sameHeadings(keptHeadings)
	big := parse("big.md", 0, text)
	if big.outline == nil {
		t.Fatalf("a doc of %d headings was read without its outline", keptHeadings+1)
	}
	first, err := big.Outline(ctx, text)
	if err != nil || first != big.outline {
		t.Fatalf("the outline of a doc of %d headings was made again (%v)", keptHeadings+1, err)
	}
	for _, s := range first.Sections() {
		if sameMemory(text, s.Text) {
			t.Fatalf("the kept outline's heading %q points into the text it was read from", s.Text)
		}
	}
	small := parse("small.md", 0, sameHeadings(keptHeadings-2))
	if small.outline != nil {
		t.Errorf("a doc of %d headings kept its outline", keptHeadings-1)
	}
	if o, err := small.Outline(ctx, small.Text()); err != nil || len(o.Sections()) != keptHeadings-1 {
		t.Errorf("the outline of a small doc: %v", err)
	}

	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := small.Outline(done, small.Text()); err == nil {
		t.Error("an outline was made for a request whose context had ended")
	}
	if _, _, err := first.Find(done, "no such section"); err == nil {
		t.Error("a section was looked for for a request whose context had ended")
	}
}

// sameMemory reports whether sub's bytes lie inside s's.
func sameMemory(s, sub string) bool {
	if len(sub) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	p := uintptr(unsafe.Pointer(unsafe.StringData(sub)))
	return start <= p && p < start+uintptr(len(s))
}

// BenchmarkOutlineManyHeadings is the cost a doc of 100,000 identical
// headings had on every request before its outline was kept (see
// Doc.Outline): outlining it once.
func BenchmarkOutlineManyHeadings(b *testing.B) {
	text := sameHeadings(100_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := OutlineOf(b.Context(), "same.md", text); err != nil {
			b.Fatal(err)
		}
	}
}
