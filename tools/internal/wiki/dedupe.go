package wiki

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
