package wiki

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWithMemoryBounds: Hugo gets the bounds on its memory unless the
// environment sets its own, which wins.
func TestWithMemoryBounds(t *testing.T) {
	for _, tc := range []struct {
		env, want []string
	}{
		{[]string{"PATH=/bin"}, []string{"PATH=/bin", "HUGO_MEMORYLIMIT=" + hugoMemoryLimit, "GOMEMLIMIT=" + hugoGoMemLimit}},
		{[]string{"GOMEMLIMIT=3GiB"}, []string{"GOMEMLIMIT=3GiB", "HUGO_MEMORYLIMIT=" + hugoMemoryLimit}},
		{[]string{"HUGO_MEMORYLIMIT=2", "GOMEMLIMIT=off"}, []string{"HUGO_MEMORYLIMIT=2", "GOMEMLIMIT=off"}},
		{[]string{"GOMEMLIMITX=1"}, []string{"GOMEMLIMITX=1", "HUGO_MEMORYLIMIT=" + hugoMemoryLimit, "GOMEMLIMIT=" + hugoGoMemLimit}},
	} {
		if diff := cmp.Diff(tc.want, withMemoryBounds(tc.env)); diff != "" {
			t.Errorf("withMemoryBounds(%q) (-want +got):\n%s", tc.env, diff)
		}
	}
}
