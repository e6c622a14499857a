package wiki

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The files of a site that list every page (llms.txt, llms-full.txt, and
// search-pages.json, the search index's input) are assembled here, not by
// Hugo: Hugo writes each page's part beside the page (entryFile, layouts
// all.wikientry.json) and the pages' order once (listsFile,
// home.wikilists.json), and gather moves them out of the site into a
// folder of entries, which an edit updates with the pages Hugo rendered
// again. An output of Hugo's that holds every page is rendered again on
// every edit: on 9,753 docs, search-pages.json and llms-full.txt were
// 38 s and 105 s of Hugo's time in two edits.
const (
	entryFile = "wiki-entry.json" // beside each page: its pageEntry
	listsFile = "wiki-lists.json" // at the top: siteListsData
	llmsFile  = "llms.txt"
	fullFile  = "llms-full.txt"
)

// pageEntry is a page's entryFile.
type pageEntry struct {
	Llms *struct {
		Title   string  `json:"title"`
		Twin    string  `json:"twin"`    // its Markdown twin's absolute URL
		Summary string  `json:"summary"` // one line
		Full    *string `json:"full"`    // its text in llms-full.txt; nil: the search entry's lines joined
	} `json:"llms"` // nil for a page without a twin, which the lists leave out
	Search json.RawMessage `json:"search"` // its search-pages.json entry; null for a page not searched
}

// siteListsData is listsFile.
type siteListsData struct {
	Llms   string `json:"llms"` // llms.txt's opening text
	Full   string `json:"full"` // llms-full.txt's
	Groups []struct {
		Title   string   `json:"title"`
		Entries []string `json:"entries"` // the pages' entryFile, by slash path from the site's root
	} `json:"groups"`
}

// searched reports whether e has a search entry.
func (e *pageEntry) searched() bool {
	return len(e.Search) > 0 && !bytes.Equal(e.Search, []byte("null"))
}

// entryChange is an entry gather moved: its slash path from the site's
// root, and its bytes before (nil for a new one) and now.
type entryChange struct {
	rel      string
	old, now []byte
}

// gather moves every entryFile and the listsFile out of site into the
// same paths under entries (a folder on site's file system), and returns
// those that changed.
func gather(site, entries string) ([]entryChange, error) {
	var changed []entryChange
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || (d.Name() != entryFile && (d.Name() != listsFile || filepath.Dir(p) != site)) {
			return nil
		}
		rel, err := filepath.Rel(site, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(entries, rel)
		old, err := os.ReadFile(dst)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		now, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Equal(old, now) && old != nil {
			return os.Remove(p)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.Rename(p, dst); err != nil {
			return err
		}
		changed = append(changed, entryChange{rel: filepath.ToSlash(rel), old: old, now: now})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gather the pages' entries: %w", err)
	}
	return changed, nil
}

// writeLists writes llms.txt and llms-full.txt into site from the entries
// (see gather), as the layouts once wrote them: each page of listsFile's
// groups that has a twin, in order.
func writeLists(entries, site string) error {
	b, err := os.ReadFile(filepath.Join(entries, listsFile))
	if err != nil {
		return fmt.Errorf("write %s: %w", llmsFile, err)
	}
	var lists siteListsData
	if err := json.Unmarshal(b, &lists); err != nil {
		return fmt.Errorf("write %s: %s: %w", llmsFile, listsFile, err)
	}
	llms, err := os.Create(filepath.Join(site, llmsFile))
	if err != nil {
		return fmt.Errorf("write %s: %w", llmsFile, err)
	}
	defer llms.Close()
	full, err := os.Create(filepath.Join(site, fullFile))
	if err != nil {
		return fmt.Errorf("write %s: %w", fullFile, err)
	}
	defer full.Close()
	lw, fw := bufio.NewWriterSize(llms, 1<<16), bufio.NewWriterSize(full, 1<<16)
	lw.WriteString(lists.Llms)
	fw.WriteString(lists.Full)
	rule := strings.Repeat("=", 80)
	for _, g := range lists.Groups {
		fmt.Fprintf(lw, "\n## %s\n", g.Title)
		for _, rel := range g.Entries {
			e, err := readEntry(filepath.Join(entries, filepath.FromSlash(rel)))
			if err != nil {
				return fmt.Errorf("write %s: %w", llmsFile, err)
			}
			l := e.Llms
			if l == nil {
				continue
			}
			fmt.Fprintf(lw, "- [%s](%s): %s\n", l.Title, l.Twin, l.Summary)
			fmt.Fprintf(fw, "\n%s\n%s\nSource: %s\n%s\n\n", rule, l.Title, l.Twin, rule)
			if l.Full != nil {
				fw.WriteString(*l.Full)
			} else if e.searched() {
				var s struct {
					Lines []string `json:"lines"`
				}
				if err := json.Unmarshal(e.Search, &s); err != nil {
					return fmt.Errorf("write %s: %s: %w", fullFile, rel, err)
				}
				for i, line := range s.Lines {
					if i > 0 {
						fw.WriteByte('\n')
					}
					fw.WriteString(line)
				}
			}
			fw.WriteByte('\n')
		}
	}
	if err := errors.Join(lw.Flush(), fw.Flush(), llms.Close(), full.Close()); err != nil {
		return fmt.Errorf("write the lists of pages: %w", err)
	}
	return nil
}

// readEntry reads the pageEntry in file.
func readEntry(file string) (*pageEntry, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var e pageEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &e, nil
}

// writeSearchPages writes search-pages.json into site: the search entry of
// every page of entries that has one, in path order of their entryFile.
func writeSearchPages(entries, site string) error {
	f, err := os.Create(filepath.Join(site, searchPagesFile))
	if err != nil {
		return fmt.Errorf("write %s: %w", searchPagesFile, err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<16)
	w.WriteString(`{"pages":[`)
	n := 0
	err = filepath.WalkDir(entries, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != entryFile {
			return err
		}
		e, err := readEntry(p)
		if err != nil {
			return err
		}
		if !e.searched() {
			return nil
		}
		if n > 0 {
			w.WriteByte(',')
		}
		n++
		_, err = w.Write(e.Search)
		return err
	})
	w.WriteString("]}")
	if err := errors.Join(err, w.Flush(), f.Close()); err != nil {
		return fmt.Errorf("write %s: %w", searchPagesFile, err)
	}
	return nil
}

// assemble moves the pages' entries out of site into entries and writes
// the lists and search-pages.json into site from them: a whole build's.
func assemble(site, entries string) error {
	if _, err := gather(site, entries); err != nil {
		return err
	}
	if err := writeLists(entries, site); err != nil {
		return err
	}
	return writeSearchPages(entries, site)
}
