package wiki

import (
	"context"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkVersionsSize builds a repository with its release tags and
// states the size rule of a versioned build: the site takes no more than
// 1.5 times its largest version plus the changed files, the bytes of each
// version's files that differ from (or are missing in) the next newer one,
// which is what a store of differences would hold. Files identical across
// versions are stored once (linkIdentical), and a page whose doc and
// navigation did not change is the same file in every version
// (relativeLinks, versions.json). It reports the room the site takes, its
// largest version, the changed files, and how much of those are each
// version's search index and llms texts (made from all its docs, so new
// in every version that changed any).
//
//	WIKI_VERSIONS_ROOT=path/to/urfave-cli WIKI_VERSIONS='v*:47' \
//	  go test -run '^$' -bench VersionsSize -benchtime 1x -timeout 30m ./tools/internal/wiki/
//
// It needs WIKI_VERSIONS_ROOT, the top of a git work tree with tags
// (TestVersions checks the test repository's pages one by one).
func BenchmarkVersionsSize(b *testing.B) {
	c := hugoOnce()
	if c.err != nil {
		b.Skipf("Hugo cannot be built or run: %v", c.err)
	}
	root, selector := os.Getenv("WIKI_VERSIONS_ROOT"), os.Getenv("WIKI_VERSIONS")
	if root == "" {
		b.Skip("WIKI_VERSIONS_ROOT names no repository to build")
	}
	if selector == "" {
		selector = "v*"
	}
	versions, err := Releases(root, selector)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "wiki")
	var res *Result
	for b.Loop() {
		res, err = Build(context.Background(), Options{Repo: c.repo, Root: root, Versions: versions, Progress: io.Discard}, out)
		if err != nil {
			b.Fatal(err)
		}
	}
	var names []string
	for _, v := range versions {
		names = append(names, v.Name)
	}
	sizes, err := versionSizes(out, names)
	if err != nil {
		b.Fatal(err)
	}
	mb := func(n int64) float64 { return float64(n) / 1e6 }
	b.ReportMetric(mb(res.Bytes), "site-MB")
	b.ReportMetric(mb(sizes.largest), "largest-MB")
	b.ReportMetric(mb(sizes.changed), "changed-MB")
	b.ReportMetric(mb(sizes.aggregates), "changed-index-llms-MB")
	b.ReportMetric(float64(len(versions)+1), "versions")
	if limit := sizes.largest*3/2 + sizes.changed; res.Bytes > limit {
		b.Errorf("the site takes %.1f MB, more than 1.5 × its largest version (%.1f MB) + the changed files (%.1f MB) = %.1f MB",
			mb(res.Bytes), mb(sizes.largest), mb(sizes.changed), mb(limit))
	}
}

// siteSizes are the sizes versionSizes measures, in bytes.
type siteSizes struct {
	largest    int64 // the files of the largest version
	changed    int64 // each older version's files that differ from the next newer one's
	aggregates int64 // of changed: the search indexes and llms texts
}

// versionSizes measures the site at dir, the working tree's with the
// versions names (newest first) in their folders.
func versionSizes(dir string, names []string) (siteSizes, error) {
	var s siteSizes
	inVersion := map[string]bool{}
	for _, n := range names {
		inVersion[n] = true
	}
	type file struct {
		size int64
		sum  [sha256.Size]byte
	}
	read := func(root string, skip map[string]bool) (map[string]file, error) {
		files := map[string]file{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if d.IsDir() {
				if skip[filepath.ToSlash(rel)] {
					return filepath.SkipDir
				}
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			sum, err := fileSum(p)
			if err != nil {
				return err
			}
			files[filepath.ToSlash(rel)] = file{info.Size(), sum}
			return nil
		})
		return files, err
	}
	newer, err := read(dir, inVersion)
	if err != nil {
		return s, err
	}
	total := func(m map[string]file) (n int64) {
		for _, f := range m {
			n += f.size
		}
		return n
	}
	s.largest = total(newer)
	for _, name := range names {
		files, err := read(filepath.Join(dir, filepath.FromSlash(name)), nil)
		if err != nil {
			return s, err
		}
		s.largest = max(s.largest, total(files))
		for rel, f := range files {
			if n, ok := newer[rel]; ok && n.sum == f.sum {
				continue
			}
			s.changed += f.size
			if strings.HasPrefix(rel, searchDir+"/") || strings.HasPrefix(rel, "llms") {
				s.aggregates += f.size
			}
		}
		newer = files
	}
	return s, nil
}
