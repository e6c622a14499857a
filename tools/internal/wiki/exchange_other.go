//go:build !linux

package wiki

import "errors"

// exchange swaps two folders in one step only on Linux (renameat2); here
// the caller renames them one after the other.
func exchange(a, b string) error { return errors.ErrUnsupported }
