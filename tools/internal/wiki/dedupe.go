package wiki

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// linkIdentical stores the files under dir that are identical (the same
// size and SHA-256) once: each after the first becomes a hard link to it.
// A versioned build repeats most of its images, attachments, raw twins and
// assets from one version to the next; linked, they take the room of one
// copy, and a server reading any of the names reads the same bytes. It
// returns how many files it linked and the bytes that saved.
func linkIdentical(dir string) (linked int, saved int64, err error) {
	type key struct {
		size int64
		sum  [sha256.Size]byte
	}
	first := map[key]string{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() == 0 {
			return nil
		}
		sum, err := fileSum(p)
		if err != nil {
			return err
		}
		k := key{info.Size(), sum}
		orig, ok := first[k]
		if !ok {
			first[k] = p
			return nil
		}
		// Linked beside it, then renamed over it: the name is never missing.
		tmp := p + ".wiki-link"
		if err := os.Link(orig, tmp); err != nil {
			return fmt.Errorf("link %s: %w", p, err)
		}
		if err := os.Rename(tmp, p); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("link %s: %w", p, err)
		}
		linked++
		saved += info.Size()
		return nil
	})
	return linked, saved, err
}

func fileSum(name string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(name)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// relativeLinks makes the links of the HTML pages under dir, a site Hugo
// wrote for the URL path base (ending in /), relative to each page: an
// attribute value starting with base (href="/wiki/v1.2.0/x/") starts with
// the way up to the site's top instead (href="../x/"). A versioned build's
// pages then hold no version's URL, so a page whose doc and navigation did
// not change is the same bytes in every version, stored once. 404.html is
// left as it is: a server sends it for a missing page at any depth.
func relativeLinks(dir, base string) error {
	attr := []byte(`="` + base)
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".html") || d.Name() == "404.html" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.Contains(b, attr) {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		up := strings.Repeat("../", strings.Count(filepath.ToSlash(rel), "/"))
		if up == "" {
			up = "./"
		}
		b = bytes.ReplaceAll(b, attr, []byte(`="`+up))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("relative links: %w", err)
		}
		return nil
	})
}
