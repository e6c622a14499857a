package docs

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// Nearest returns up to n doc paths that look most like p: the same file
// name in another folder first, then the smallest edit distance.
func (s *Snapshot) Nearest(p string, n int) []string {
	type scored struct {
		path  string
		score int
	}
	want := strings.ToLower(p)
	wantBase := path.Base(want)
	// levenshtein gives up at 64 edits, which bounds the work per path.
	scores := make([]scored, 0, len(s.docs))
	for _, d := range s.docs {
		got := strings.ToLower(d.Path)
		score := 0
		switch {
		case path.Base(got) == wantBase:
			score = 0
		case strings.Contains(got, strings.TrimSuffix(wantBase, ".md")):
			score = 1 + levenshtein(want, got, 64)
		default:
			score = 2 + levenshtein(want, got, 64)
		}
		scores = append(scores, scored{d.Path, score})
	}
	slices.SortFunc(scores, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.score, b.score), strings.Compare(a.path, b.path))
	})
	out := make([]string, 0, n)
	for _, sc := range scores[:min(n, len(scores))] {
		out = append(out, sc.path)
	}
	return out
}

// levenshtein returns the edit distance between a and b in bytes, or limit
// when it is at least limit.
func levenshtein(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
