// Package docsmap writes the map of the docs: every doc's path, title and
// one-line summary with its second-level sections' anchors, grouped by
// folder, and the hooks by group, within a budget in bytes. An assistant
// keeps it in view (the docs://map resource, the mod_modding_context
// prompt, a block of AGENTS.md) and reads the one section it needs, where
// without it it must first decide to search.
//
// The map's parts are derived once per snapshot (Of, Derive): each doc's
// entry, and how many docs link to it. Render writes them to a budget; a
// tree too large to name every doc gets its digest instead (digest.go):
// its folders by full path with their counts, each with the docs that
// stand for it, so that the map of 40,000 docs is as small as that of
// thirty and still leads to docs.
package docsmap

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/docs-mcp/docs-mcp/framework/registry"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// DefaultBytes is the default budget of a map: about 2,000 tokens, which
// published evaluations found an assistant keeps in view and uses.
const DefaultBytes = 8 << 10

// maxSummaryBytes bounds a doc's summary in the map.
const maxSummaryBytes = 100

// Entry is what the map says of one doc.
type Entry struct {
	Path     string
	Title    string
	Summary  string   // the front matter's description, else the first sentence
	Sections []string // the anchors of its second-level sections, as mod_read_doc's section takes them
	// LinkedFrom is how many other docs of the snapshot link to it with a
	// relative Markdown link: on a tree too large to name every doc, the
	// map names those most linked to.
	LinkedFrom int
	links      []string // the docs it links to (linksOf)
	doc        *docs.Doc
}

// HookGroup is a group (category) of hooks, with their names in registry
// order.
type HookGroup struct {
	Name  string
	Hooks []string
}

var entriesKey = docs.NewKey[[]Entry]("docsmap.entries")

// Of returns the entries of snap's docs in path order, computed once per
// snapshot (see Derive).
func Of(snap *docs.Snapshot) []Entry {
	return docs.Attach(snap, entriesKey, func() []Entry { return entries(nil, snap) })
}

// Derive attaches next's entries before the corpus serves next
// (corpus.Config.Derive) when prev's were made, that is once a client has
// read the map, reusing those of docs unchanged since prev (the same
// *docs.Doc). The first snapshot's are made when the map is first read,
// not at start-up: they take seconds of CPU on 40,000 docs
// (BenchmarkMap), which a server whose clients never read the map would
// pay before it served anything.
func Derive(prev, next *docs.Snapshot) {
	if prev == nil {
		return
	}
	if old, ok := docs.Attached(prev, entriesKey); ok {
		docs.Attach(next, entriesKey, func() []Entry { return entries(old, next) })
	}
}

// entries makes the entries of snap, reusing those of old (in path order)
// whose doc is unchanged. The others are made on every core: reading a
// doc's outline is most of the cost, about 30 µs a doc. Then the links
// between them are counted again (countLinks), for all.
func entries(old []Entry, snap *docs.Snapshot) []Entry {
	all := snap.Docs()
	out := make([]Entry, len(all))
	var todo []int
	j := 0
	for i, d := range all {
		for j < len(old) && old[j].Path < d.Path {
			j++
		}
		if j < len(old) && old[j].doc == d {
			out[i] = old[j]
			continue
		}
		todo = append(todo, i)
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo)/256+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var buf []byte
			for _, i := range todo[w*len(todo)/workers : (w+1)*len(todo)/workers] {
				text, _ := all[i].TextIn(&buf)
				out[i] = entryOf(all[i], text)
			}
		})
	}
	wg.Wait()
	countLinks(out)
	return out
}

// entryOf reads a doc's entry from its text. The strings are copied out
// of text, which may be a shared buffer.
func entryOf(d *docs.Doc, text string) Entry {
	e := Entry{Path: d.Path, doc: d, links: linksOf(d.Path, text)}
	o, err := d.Outline(context.Background(), text)
	if err != nil {
		return e // not with a background context
	}
	e.Title = strings.Clone(o.Title)
	sections := o.Sections()
	for _, s := range sections {
		if s.Level == 2 {
			e.Sections = append(e.Sections, strings.Clone(s.Anchor))
		}
	}
	e.Summary = docs.Description(text)
	if e.Summary == "" {
		headings := make(map[int]bool, len(sections))
		for _, s := range sections {
			headings[s.Line] = true
		}
		e.Summary = firstSentence(text, headings)
	}
	e.Summary = strings.Clone(clip(e.Summary, maxSummaryBytes))
	return e
}

var link = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)

// firstSentence is the first sentence of a doc's first paragraph (not a
// heading, code, a table, HTML or a quote), with links reduced to their
// text. headings holds the lines of the doc's headings.
func firstSentence(text string, headings map[int]bool) string {
	var (
		para  []string
		fence string
	)
	body := docs.BodyLine(text)
lines:
	for n, line := range docs.Lines(text) {
		if n < body {
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
			if len(para) > 0 {
				break lines
			}
			fence = t[:3]
			continue
		}
		skip := t == "" || headings[n] || headings[n-1] && strings.Trim(t, "=-") == "" ||
			strings.HasPrefix(t, "|") || strings.HasPrefix(t, "<") || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "{{")
		if skip {
			if len(para) > 0 {
				break lines
			}
			continue
		}
		para = append(para, t)
	}
	s := strings.Join(para, " ")
	if strings.Contains(s, "](") { // most paragraphs have no link: no regexp
		s = link.ReplaceAllString(s, "$1")
	}
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?' || s[i] == ':') && s[i+1] == ' ' {
			return s[:i+1]
		}
	}
	return s
}

// clip cuts s to at most n bytes at a space, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut <= 0 {
		cut = n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// folderOf is the folder of a doc path: "" for docs/, else "a/b/".
func folderOf(p string) string { return p[:strings.LastIndexByte(p, '/')+1] }

// depth is the number of folders in a folder's path.
func depth(folder string) int { return strings.Count(folder, "/") }

// Render writes the map of entries and hooks in at most budget bytes:
// every doc with its summary and sections when they fit; else without
// sections; else without summaries; else the digest of the tree (see
// digest): its folders by full path, each with the docs that best stand
// for it.
func Render(es []Entry, hooks []HookGroup, budget int) string {
	hookText := renderHooks(hooks, false)
	if len(hookText) > budget/4 {
		hookText = renderHooks(hooks, true)
	}
	head := fmt.Sprintf("# Map of the docs (%d docs)\n\nRead a doc with mod_read_doc path, one section with its anchor as section (or docs://path#anchor); the text after a path is its title and first sentence.\n", len(es))
	room := budget - len(head) - len(hookText)
	// By folder, each folder's docs together, top-level docs first:
	// paths in order would return to a folder after its subfolders.
	es = slices.Clone(es)
	slices.SortFunc(es, func(a, b Entry) int {
		if c := strings.Compare(folderOf(a.Path), folderOf(b.Path)); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	for _, v := range []view{{sections: true, summary: true}, {summary: true}, {}} {
		if body, ok := renderDocs(es, v, room); ok {
			return head + body + hookText
		}
	}
	folders := map[string]bool{}
	for _, e := range es {
		folders[folderOf(e.Path)] = true
	}
	head = fmt.Sprintf("# Map of the docs (%s in %s)\n\n"+
		"Too many to name here: each folder by its path with the count of docs under it, then the docs that stand for it "+
		"(its index page, the docs most linked to) by path and title. "+
		"mod_list_doc_paths with a folder as prefix lists its docs and subfolders; "+
		"read a doc with mod_read_doc path, one section with its anchor as section.\n",
		plural(len(es), "doc"), plural(len(folders), "folder"))
	return head + digest(es, budget-len(head)-len(hookText)) + hookText
}

// view is a level of detail of a map that names every doc.
type view struct{ sections, summary bool }

// renderDocs writes every doc in view v, and whether that fits in room.
func renderDocs(es []Entry, v view, room int) (string, bool) {
	var b strings.Builder
	folder := "\x00"
	for _, e := range es {
		if b.Len() > room {
			return "", false
		}
		if f := folderOf(e.Path); f != folder {
			folder = f
			name := docs.ShowPath(f)
			if name == "" {
				name = "docs/ (top level)"
			}
			b.WriteString("\n## " + name + "\n")
		}
		b.WriteString("- " + docs.ShowPath(e.Path))
		if v.summary {
			b.WriteString(": " + summaryOf(e))
		}
		b.WriteString("\n")
		if v.sections && len(e.Sections) > 0 {
			b.WriteString("  #" + strings.Join(e.Sections, " #") + "\n")
		}
	}
	return b.String(), b.Len() <= room
}

// summaryOf is the title and summary of an entry, without saying the
// title twice.
func summaryOf(e Entry) string {
	switch {
	case e.Summary == "" || strings.EqualFold(e.Summary, e.Title):
		return e.Title
	case strings.HasPrefix(strings.ToLower(e.Summary), strings.ToLower(e.Title)):
		return e.Summary
	}
	return e.Title + ". " + e.Summary
}

// renderHooks writes the hooks' part: each group with its hooks' names
// (without the group's prefix, which the heading says), or with counts
// only.
func renderHooks(groups []HookGroup, counts bool) string {
	if len(groups) == 0 {
		return ""
	}
	n := 0
	for _, g := range groups {
		n += len(g.Hooks)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Hooks by group (%d; a hook's name is group.name unless given whole: mod_get_hook gives its entry)\n", n)
	for _, g := range groups {
		if counts {
			fmt.Fprintf(&b, "- %s: %s\n", g.Name, plural(len(g.Hooks), "hook"))
			continue
		}
		// Without the group's prefix when every name has it.
		names := slices.Clone(g.Hooks)
		if !slices.ContainsFunc(names, func(h string) bool { return !strings.HasPrefix(h, g.Name+".") }) {
			for i, h := range names {
				names[i] = strings.TrimPrefix(h, g.Name+".")
			}
		}
		fmt.Fprintf(&b, "- %s: %s\n", g.Name, strings.Join(names, " "))
	}
	return b.String()
}

// HooksOf groups a registry's hooks by category, in the order each group
// is first met; nil for no registry.
func HooksOf(reg *registry.Registry) []HookGroup {
	if reg == nil {
		return nil
	}
	var gs []HookGroup
	for _, h := range reg.Hooks {
		k := slices.IndexFunc(gs, func(g HookGroup) bool { return g.Name == h.Category })
		if k < 0 {
			gs = append(gs, HookGroup{Name: h.Category})
			k = len(gs) - 1
		}
		gs[k].Hooks = append(gs[k].Hooks, h.Name)
	}
	return gs
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// The lines that enclose the map in a file (see Splice). HTML comments:
// Markdown renderers show nothing of them.
const (
	BeginMarker = "<!-- docs-mcp index: begin (written by `docs-mcp index --write`; edits inside are overwritten) -->"
	EndMarker   = "<!-- docs-mcp index: end -->"
)

// ErrMarkers is a file whose markers Splice cannot pair.
var ErrMarkers = errors.New("unpaired docs-mcp index markers")

// Splice returns file with the map put between its marker lines, the rest
// left byte for byte; a file without markers gets them, with the map, at
// its end. A file with one marker and not the other, or with them in the
// wrong order or twice, is refused with ErrMarkers: what a person wrote
// around them is never guessed at.
func Splice(file []byte, text string) ([]byte, error) {
	s := string(file)
	begin, _ := markerLine(s, BeginMarker)
	endStart, endNext := markerLine(s, EndMarker)
	block := BeginMarker + "\n\n" + strings.TrimRight(text, "\n") + "\n\n" + EndMarker + "\n"
	switch {
	case begin < 0 && endStart < 0:
		sep := ""
		if s != "" {
			sep = "\n"
			if !strings.HasSuffix(s, "\n") {
				sep = "\n\n"
			}
		}
		return []byte(s + sep + block), nil
	case begin < 0 || endStart < begin || markerCount(s, BeginMarker) > 1 || markerCount(s, EndMarker) > 1:
		return nil, fmt.Errorf("%w: want one line %q and after it one line %q", ErrMarkers, BeginMarker, EndMarker)
	}
	return []byte(s[:begin] + block + s[endNext:]), nil
}

// markerLine returns where the first line of s that is marker (spaces
// around it allowed) starts and where the line after it starts, or -1, -1.
func markerLine(s, marker string) (start, next int) {
	for off := 0; off < len(s); {
		line, _, found := strings.Cut(s[off:], "\n")
		next := off + len(line)
		if found {
			next++
		}
		if strings.TrimSpace(line) == marker {
			return off, next
		}
		off = next
	}
	return -1, -1
}

// markerCount counts the lines of s that are marker.
func markerCount(s, marker string) int {
	n := 0
	for line := range strings.Lines(s) {
		if strings.TrimSpace(line) == marker {
			n++
		}
	}
	return n
}
