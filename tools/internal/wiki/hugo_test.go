package wiki

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWithMemoryBounds: Hugo gets the bounds on its memory, its heap's
// growing with the site past 16,000 pages, unless the environment sets its
// own, which wins.
func TestWithMemoryBounds(t *testing.T) {
	for _, tc := range []struct {
		env   []string
		pages int
		want  []string
	}{
		{[]string{"PATH=/bin"}, 10_000, []string{"PATH=/bin", "HUGO_MEMORYLIMIT=" + hugoMemoryLimit, "GOMEMLIMIT=768MiB"}},
		{[]string{"PATH=/bin"}, 40_000, []string{"PATH=/bin", "HUGO_MEMORYLIMIT=" + hugoMemoryLimit, "GOMEMLIMIT=1875MiB"}},
		{[]string{"GOMEMLIMIT=3GiB"}, 40_000, []string{"GOMEMLIMIT=3GiB", "HUGO_MEMORYLIMIT=" + hugoMemoryLimit}},
		{[]string{"HUGO_MEMORYLIMIT=2", "GOMEMLIMIT=off"}, 0, []string{"HUGO_MEMORYLIMIT=2", "GOMEMLIMIT=off"}},
		{[]string{"GOMEMLIMITX=1"}, 0, []string{"GOMEMLIMITX=1", "HUGO_MEMORYLIMIT=" + hugoMemoryLimit, "GOMEMLIMIT=768MiB"}},
	} {
		if diff := cmp.Diff(tc.want, withMemoryBounds(tc.env, tc.pages, hugoHeapPerPage)); diff != "" {
			t.Errorf("withMemoryBounds(%q, %d) (-want +got):\n%s", tc.env, tc.pages, diff)
		}
	}
}
