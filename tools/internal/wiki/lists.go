package wiki

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
// those that changed; with whole (entries is empty), it moves them
// without reading them and returns none.
func gather(site, entries string, whole bool) ([]entryChange, error) {
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
		if whole {
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.Rename(p, dst)
		}
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

// listsState is what writeLists wrote last, for an edit to write from.
type listsState struct {
	data  siteListsData
	lines map[string]string   // each entry's line of llms.txt; none for a page without a twin
	spans map[string][2]int64 // each entry's text in llms-full.txt: its offset and length
	size  int64               // llms-full.txt's
}

// writeLists writes llms.txt and llms-full.txt into site from the entries
// (see gather), as the layouts once wrote them: each page of listsFile's
// groups that has a twin, in order. With last (what it wrote before) and
// the entries changed since, it reads those entries only and copies the
// others' text from full, the llms-full.txt it wrote then (on cpp-docs,
// reading every entry again took 1.8 s an edit); it reads them all when
// the order changed or full is not the file it wrote.
//
// Each entry it reads from entries is handed to read, parsed, when not nil.
func writeLists(entries, site string, last *listsState, full string, changed []entryChange, read func(rel string, e *pageEntry) error) (*listsState, error) {
	now := map[string][]byte{}
	for _, c := range changed {
		now[c.rel] = c.now
	}
	var old *os.File
	if _, reorder := now[listsFile]; last != nil && !reorder {
		f, err := os.Open(full)
		if err == nil {
			if fi, err := f.Stat(); err == nil && fi.Size() == last.size {
				old = f
				defer f.Close()
			} else {
				f.Close()
			}
		}
	}
	st := &listsState{lines: map[string]string{}, spans: map[string][2]int64{}}
	if old != nil {
		st.data = last.data
	} else {
		b, err := os.ReadFile(filepath.Join(entries, listsFile))
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", llmsFile, err)
		}
		if err := json.Unmarshal(b, &st.data); err != nil {
			return nil, fmt.Errorf("write %s: %s: %w", llmsFile, listsFile, err)
		}
	}
	llms, err := os.Create(filepath.Join(site, llmsFile))
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", llmsFile, err)
	}
	defer llms.Close()
	fullOut, err := os.Create(filepath.Join(site, fullFile))
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", fullFile, err)
	}
	defer fullOut.Close()
	lw, fw := bufio.NewWriterSize(llms, 1<<16), bufio.NewWriterSize(fullOut, 1<<16)
	lw.WriteString(st.data.Llms)
	fw.WriteString(st.data.Full)
	at := int64(len(st.data.Full))
	for _, g := range st.data.Groups {
		fmt.Fprintf(lw, "\n## %s\n", g.Title)
		for _, rel := range g.Entries {
			b, edited := now[rel]
			if old != nil && !edited {
				line, ok := last.lines[rel]
				if !ok {
					continue
				}
				span := last.spans[rel]
				lw.WriteString(line)
				if _, err := io.Copy(fw, io.NewSectionReader(old, span[0], span[1])); err != nil {
					return nil, fmt.Errorf("write %s: %w", fullFile, err)
				}
				st.lines[rel], st.spans[rel] = line, [2]int64{at, span[1]}
				at += span[1]
				continue
			}
			if !edited {
				if b, err = os.ReadFile(filepath.Join(entries, filepath.FromSlash(rel))); err != nil {
					return nil, fmt.Errorf("write %s: %w", llmsFile, err)
				}
			}
			var e pageEntry
			if err := json.Unmarshal(b, &e); err != nil {
				return nil, fmt.Errorf("write %s: %s: %w", llmsFile, rel, err)
			}
			if read != nil && !edited {
				if err := read(rel, &e); err != nil {
					return nil, fmt.Errorf("write %s: %w", llmsFile, err)
				}
			}
			line, text, err := e.listsText()
			if err != nil {
				return nil, fmt.Errorf("write %s: %s: %w", llmsFile, rel, err)
			}
			if line == "" {
				continue
			}
			lw.WriteString(line)
			fw.Write(text)
			st.lines[rel], st.spans[rel] = line, [2]int64{at, int64(len(text))}
			at += int64(len(text))
		}
	}
	st.size = at
	if err := errors.Join(lw.Flush(), fw.Flush(), llms.Close(), fullOut.Close()); err != nil {
		return nil, fmt.Errorf("write the lists of pages: %w", err)
	}
	return st, nil
}

// listsText is a page's line in llms.txt and its text in llms-full.txt,
// from its entry e; none for a page without a twin.
func (e *pageEntry) listsText() (string, []byte, error) {
	l := e.Llms
	if l == nil {
		return "", nil, nil
	}
	var text bytes.Buffer
	rule := strings.Repeat("=", 80)
	fmt.Fprintf(&text, "\n%s\n%s\nSource: %s\n%s\n\n", rule, l.Title, l.Twin, rule)
	if l.Full != nil {
		text.WriteString(*l.Full)
	} else if e.searched() {
		var s struct {
			Lines []string `json:"lines"`
		}
		if err := json.Unmarshal(e.Search, &s); err != nil {
			return "", nil, err
		}
		for i, line := range s.Lines {
			if i > 0 {
				text.WriteByte('\n')
			}
			text.WriteString(line)
		}
	}
	text.WriteByte('\n')
	return fmt.Sprintf("- [%s](%s): %s\n", l.Title, l.Twin, l.Summary), text.Bytes(), nil
}

// searchPagesWriter writes search-pages.json: the search entry of every
// page that has one.
type searchPagesWriter struct {
	f    *os.File
	w    *bufio.Writer
	n    int
	seen map[string]bool // the entries written, by slash path
}

func newSearchPagesWriter(site string) (*searchPagesWriter, error) {
	f, err := os.Create(filepath.Join(site, searchPagesFile))
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", searchPagesFile, err)
	}
	w := &searchPagesWriter{f: f, w: bufio.NewWriterSize(f, 1<<16), seen: map[string]bool{}}
	w.w.WriteString(`{"pages":[`)
	return w, nil
}

// add writes the search entry of the entry rel, parsed as e, unless
// written already.
func (w *searchPagesWriter) add(rel string, e *pageEntry) error {
	if w.seen[rel] {
		return nil
	}
	w.seen[rel] = true
	if !e.searched() {
		return nil
	}
	if w.n > 0 {
		w.w.WriteByte(',')
	}
	w.n++
	_, err := w.w.Write(e.Search)
	return err
}

// close writes the search entries of the entries not written yet, in path
// order, and ends the file. With remove, it removes every entry from
// entries.
func (w *searchPagesWriter) close(entries string, remove bool) error {
	defer w.f.Close()
	err := filepath.WalkDir(entries, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != entryFile {
			return err
		}
		rel, err := filepath.Rel(entries, p)
		if err != nil {
			return err
		}
		if rel := filepath.ToSlash(rel); !w.seen[rel] {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var e pageEntry
			if err := json.Unmarshal(b, &e); err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
			if err := w.add(rel, &e); err != nil {
				return err
			}
		}
		if remove {
			return os.Remove(p)
		}
		return nil
	})
	w.w.WriteString("]}")
	if err := errors.Join(err, w.w.Flush(), w.f.Close()); err != nil {
		return fmt.Errorf("write %s: %w", searchPagesFile, err)
	}
	return nil
}

// writeSearchPages writes search-pages.json into site: the search entry of
// every page of entries that has one.
func writeSearchPages(entries, site string) error {
	w, err := newSearchPagesWriter(site)
	if err != nil {
		return err
	}
	return w.close(entries, false)
}

// assemble moves the pages' entries out of site into entries and writes
// the lists and search-pages.json into site from them: a whole build's.
// It returns what the lists were made of.
func assemble(site, entries string) (*listsState, error) {
	if _, err := gather(site, entries, true); err != nil {
		return nil, err
	}
	// One read of each entry: the lists', the search pages' too.
	search, err := newSearchPagesWriter(site)
	if err != nil {
		return nil, err
	}
	st, err := writeLists(entries, site, nil, "", nil, search.add)
	if err != nil {
		search.f.Close()
		return nil, err
	}
	return st, search.close(entries, false)
}

// assembleInPlace is assemble for a build that keeps no entries for edits:
// it reads each entry where Hugo wrote it and removes it there, instead of
// moving every entry out of the site first (on cpp-docs, 9,817 entries: a
// folder and a rename each, and all of them removed after).
func assembleInPlace(site string) error {
	search, err := newSearchPagesWriter(site)
	if err != nil {
		return err
	}
	if _, err := writeLists(site, site, nil, "", nil, search.add); err != nil {
		search.f.Close()
		return err
	}
	if err := search.close(site, true); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(site, listsFile)); err != nil {
		return fmt.Errorf("write %s: %w", llmsFile, err)
	}
	return nil
}
