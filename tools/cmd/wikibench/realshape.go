package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The tree of real shape: what real documentation trees have that the
// generator's prose does not, added to a generated tree so that a build of
// it pays for them as a real wiki's does.
const (
	realIncludeEvery = 5 // every fifth doc has snippet include lines
	// every fiftieth opens with one (unless it has front matter), which
	// Hugo alone would read as broken front matter
	realOpenWithInclude = 50
	realShortcodeEvery  = 100 // every hundredth names a Hugo shortcode, as a doc from a Hugo site does
	realTableEvery      = 10  // every tenth doc has a wide table of code
	realTableCols       = 24
	realTableRows       = 40
	realFrontEvery      = 3 // every third doc has front matter
	realRefPages        = 20
	realRefSections     = 1400 // headings (and tables) on a reference page
	realHiddenDocs      = 30
)

// addRealShape adds to the generated docs folder: front matter, snippet
// include lines (`--8<-- "…"`, `{% include "…" %}`, which the wiki shows
// as text; some docs open with one), Hugo shortcodes (shown as text too),
// wide tables of code, long reference pages (a heading, a line and a small
// table per hook, about 38,000 elements a page, as a generated API
// reference has), docs in a hidden folder (which the wiki leaves out) and a
// folder symlinked to its sibling (which it leaves out, as it does every
// symlink). The same generated tree always gives the same result.
func addRealShape(docs string) error {
	var files []string
	err := filepath.WalkDir(docs, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("real shape: %w", err)
	}
	slices.Sort(files)
	for i, p := range files {
		if i%realFrontEvery != 0 && i%realIncludeEvery != 0 && i%realTableEvery != 0 {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("real shape: %w", err)
		}
		var s strings.Builder
		front := i%realFrontEvery == 0 && !strings.HasPrefix(string(b), "---\n")
		if front {
			fmt.Fprintf(&s, "---\ndescription: Generated doc %d, with front matter as real trees have it.\ntags: [generated, doc-%d]\nweight: %d\n---\n\n", i, i%7, i)
		}
		if i%realOpenWithInclude == 0 && !front {
			s.WriteString("--8<-- \"snippets/banner.md\"\n\n")
		}
		s.Write(b)
		if i%realIncludeEvery == 0 {
			fmt.Fprintf(&s, "\nSee also:\n\n--8<-- \"snippets/note-%d.md\"\n\n{%% include \"partials/footer.md\" %%}\n", i%4)
		}
		if i%realTableEvery == 0 {
			s.WriteString("\n" + codeTable(realTableCols, realTableRows, i))
		}
		if i%realShortcodeEvery == 0 {
			s.WriteString("\nAs the site it came from wrote it: {{< figure src=\"diagram.png\" >}}\n")
		}
		if err := os.WriteFile(p, []byte(s.String()), 0o644); err != nil {
			return fmt.Errorf("real shape: %w", err)
		}
	}
	if err := writeReference(filepath.Join(docs, "reference")); err != nil {
		return fmt.Errorf("real shape: %w", err)
	}
	hidden := filepath.Join(docs, ".drafts")
	if err := os.MkdirAll(hidden, 0o755); err != nil {
		return fmt.Errorf("real shape: %w", err)
	}
	for i := range realHiddenDocs {
		doc := fmt.Sprintf("# Draft %d\n\nA draft kept beside the docs, not published.\n", i)
		if err := os.WriteFile(filepath.Join(hidden, fmt.Sprintf("draft-%02d.md", i)), []byte(doc), 0o644); err != nil {
			return fmt.Errorf("real shape: %w", err)
		}
	}
	return symlinkSibling(docs)
}

// codeTable is a Markdown table of cols columns and rows rows, each cell a
// code span as in a real table of options.
func codeTable(cols, rows, seed int) string {
	var b strings.Builder
	for c := range cols {
		fmt.Fprintf(&b, "| Column %d ", c)
	}
	b.WriteString("|\n" + strings.Repeat("|---", cols) + "|\n")
	for r := range rows {
		for c := range cols {
			fmt.Fprintf(&b, "| `opt_%d_%d_%d` ", seed%97, r, c)
		}
		b.WriteString("|\n")
	}
	return b.String()
}

// writeReference writes the long reference pages into dir.
func writeReference(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for p := range realRefPages {
		var b strings.Builder
		fmt.Fprintf(&b, "# API reference, part %d\n\nEvery hook of this part, with its parameters.\n", p)
		for s := range realRefSections {
			fmt.Fprintf(&b, "\n## hook_%d_%d\n\nCalled when `event_%d` fires; returns `true` to stop the chain.\n\n", p, s, s)
			b.WriteString("| Parameter | Type | Description |\n|---|---|---|\n")
			fmt.Fprintf(&b, "| `ctx` | `Context` | The mod's context. |\n| `value_%d` | `int` | The new value. |\n", s)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%02d.md", p)), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// symlinkSibling links docs/linked to the first folder under docs (in name
// order), as a tree links a version's folder to its neighbour.
func symlinkSibling(docs string) error {
	entries, err := os.ReadDir(docs)
	if err != nil {
		return fmt.Errorf("real shape: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "reference" {
			if err := os.Symlink(e.Name(), filepath.Join(docs, "linked")); err != nil {
				return fmt.Errorf("real shape: %w", err)
			}
			return nil
		}
	}
	return nil
}
