package wiki

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// dateFormat is how a page's last-updated date is written into the site:
// a day, in UTC, so two builds of the same tree agree wherever they run.
const dateFormat = "2006-01-02"

// commitDates is gitDates, or nil where root is not a checkout or there
// is no git (the files' modification times are used then).
func commitDates(ctx context.Context, root string) map[string]string {
	commits, err := gitDates(ctx, root)
	if err != nil {
		return nil
	}
	return commits
}

// lastUpdated gives each of paths (slash paths relative to root) the day it
// last changed: the date of the last commit that touched it (commits,
// from commitDates) when root is in a git checkout and the file has no
// uncommitted change, else the file's modification time (a tree without
// .git, as in the container build, a new file, or one being edited).
// Either way two builds of the same tree agree.
func lastUpdated(root string, paths []string, commits map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		if d, ok := commits[p]; ok {
			out[p] = d
			continue
		}
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("last updated: %w", err)
		}
		out[p] = fi.ModTime().UTC().Format(dateFormat)
	}
	return out, nil
}

// gitDates maps each file under root's docs/, CONTRIBUTING.md and the hook
// registry that git tracks and that has no uncommitted change to the day of
// the last commit on the branch's first-parent line that changed it (a
// merge's, for a change made on another branch). One git log over the history, newest
// first.
func gitDates(ctx context.Context, root string) (map[string]string, error) {
	git := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root, "-c", "core.quotePath=false"}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	// %x1e marks a commit's date; -z ends every name with NUL.
	// --first-parent (which also compares a merge with its first parent)
	// dates a change by the commit that brought it into the branch, as
	// gitdocs dates a release's files: without it, a change made on a
	// branch before midnight and merged after was a day older here than
	// in the versions. --no-renames: a renamed file's new name is listed
	// by its commit either way, and finding renames (git's default) made
	// the log of cpp-docs's 22,920 commits take 11.4 s instead of 3.4 s
	// (same dates for all of its 13,422 files).
	log, err := git("log", "--no-renames", "--first-parent", "-z", "--format=%x1e%cI", "--name-only", "--relative", "--", "docs", "CONTRIBUTING.md", registryPath)
	if err != nil {
		return nil, err
	}
	changed, err := git("diff", "-z", "--name-only", "--relative", "HEAD", "--", "docs", "CONTRIBUTING.md", registryPath)
	if err != nil {
		return nil, err
	}
	dirty := map[string]bool{}
	for _, name := range strings.Split(string(changed), "\x00") {
		dirty[name] = true
	}
	dates := map[string]string{}
	day := ""
	for _, tok := range strings.Split(string(log), "\x00") {
		tok = strings.TrimPrefix(tok, "\n")
		if date, ok := strings.CutPrefix(tok, "\x1e"); ok {
			t, err := time.Parse(time.RFC3339, strings.TrimSpace(date))
			if err != nil {
				return nil, fmt.Errorf("git log: commit date %q: %w", date, err)
			}
			day = t.UTC().Format(dateFormat)
			continue
		}
		if tok == "" || dirty[tok] {
			continue
		}
		if _, ok := dates[tok]; !ok {
			dates[tok] = day
		}
	}
	return dates, nil
}
