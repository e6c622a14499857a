package wiki

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkBuild measures a whole build of the repository's docs with a
// compiled Hugo: the tree scan, `go tool hugo` starting, Hugo rendering with
// empty caches (every build uses fresh ones) and the swap into place.
//
//	go test -run '^$' -bench Build -benchtime 5x ./tools/internal/wiki/
func BenchmarkBuild(b *testing.B) {
	c := hugoOnce()
	if c.err != nil {
		b.Skipf("Hugo cannot be built or run: %v", c.err)
	}
	opt := Options{Repo: c.repo, Root: os.Getenv("WIKI_TEST_ROOT")} // empty: the repository
	out := filepath.Join(b.TempDir(), "wiki")
	var pages int
	for b.Loop() {
		res, err := Build(context.Background(), opt, out)
		if err != nil {
			b.Fatal(err)
		}
		pages = res.Pages
	}
	b.ReportMetric(float64(pages), "pages")
}
