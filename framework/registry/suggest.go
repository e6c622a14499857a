package registry

import (
	"cmp"
	"slices"
	"strings"
)

// Suggest returns up to n hook names close to name, closest first, for a
// "did you mean" hint; n <= 0 means no limit. It returns nothing for a name
// that is in the registry or for which nothing is close.
//
// Close means at most two edits (insertions, deletions, substitutions and
// swaps of adjacent letters, ignoring case; one edit for names of three or
// four letters, none for shorter ones), measured against the full
// name, against the name without its category ("joined" finds
// "player.joined"), and against the name without separators
// ("PlayerJoined" finds "player.joined"). A query of three or more letters
// that occurs inside a name also matches, after the edit-distance matches.
func (r *Registry) Suggest(name string, n int) []string {
	if _, ok := r.Lookup(name); ok {
		return nil
	}
	return nearest(name, r.Names(), n)
}

func nearest(query string, candidates []string, n int) []string {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil
	}
	// Edits allowed: none for very short names, where any edit makes another
	// word, then one, then two (cobra's default, and what people mistype).
	limit := 0
	switch n := len([]rune(squash(q))); {
	case n >= 5:
		limit = 2
	case n >= 3:
		limit = 1
	}
	type match struct {
		name  string
		score int
	}
	var matches []match
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		d := distance(q, lc)
		if _, suffix, ok := strings.Cut(lc, "."); ok && !strings.Contains(q, ".") {
			d = min(d, distance(q, suffix))
		}
		d = min(d, distance(squash(q), squash(lc)))
		switch {
		case d <= limit:
			matches = append(matches, match{c, d})
		case len(q) >= 3 && strings.Contains(squash(lc), squash(q)):
			matches = append(matches, match{c, limit + 1})
		}
	}
	slices.SortFunc(matches, func(a, b match) int {
		return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.name, b.name))
	})
	if n > 0 && len(matches) > n {
		matches = matches[:n]
	}
	out := make([]string, len(matches))
	for i, m := range matches {
		out[i] = m.name
	}
	return out
}

// squash drops the separators people vary: "Player_Joined" and
// "player.joined" both become "playerjoined".
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '.', '_', '-', ' ', ':', '/':
			return -1
		}
		return r
	}, s)
}

// distance is the optimal string alignment distance between a and b: the
// Levenshtein distance where swapping two adjacent runes costs one edit.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// Three rolling rows: two rows back (for swaps), previous, current.
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
