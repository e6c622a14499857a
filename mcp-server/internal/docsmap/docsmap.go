// Package docsmap writes the map of the docs: every doc's path, title and
// one-line summary with its second-level sections' anchors, grouped by
// folder, and the hooks by group, within a budget in bytes. An assistant
// keeps it in view (the docs://map resource, the mod_modding_context
// prompt, a block of AGENTS.md) and reads the one section it needs, where
// without it it must first decide to search.
//
// The map's parts are derived once per snapshot (Of, Derive); Render
// writes them to a budget, folding the deeper folders of a large tree into
// counts, so that the map of 40,000 docs is as small as that of thirty.
package docsmap

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
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
	doc      *docs.Doc
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
// doc's outline is most of the cost, about 30 µs a doc.
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
	return out
}

// entryOf reads a doc's entry from its text. The strings are copied out
// of text, which may be a shared buffer.
func entryOf(d *docs.Doc, text string) Entry {
	e := Entry{Path: d.Path, doc: d}
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
// sections; else without summaries; else the folders below a depth folded
// into counts, from the deepest up, with how to list them; else the top
// folders' counts, as many as fit.
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
	maxDepth := 0
	for _, e := range es {
		maxDepth = max(maxDepth, depth(folderOf(e.Path)))
	}
	var body string
	for _, v := range views(maxDepth) {
		body = renderDocs(es, v, room)
		if len(body) <= room {
			break
		}
	}
	if len(body) > room {
		body = renderDocs(es, view{fold: 1, clipTo: room}, room)
	}
	return head + body + hookText
}

// view is a level of detail of the docs' part.
type view struct {
	sections, summary bool
	fold              int // folders this deep or deeper are folded into counts; 0: none
	children          int // with fold, name up to this many subfolders of a folded folder, with counts
	clipTo            int // when > 0, stop before this many bytes with a count of what is left
}

// views are the levels of detail from the most to the least: every doc
// with its sections, without them, without summaries; then the folders
// folded from the deepest level up, each level first with the names of the
// folded folders' subfolders (as many as fit), so that a large tree's map
// still fills its budget with names an assistant can list.
func views(maxDepth int) []view {
	vs := []view{{sections: true, summary: true}, {summary: true}, {}}
	for d := maxDepth; d >= 1; d-- {
		vs = append(vs, view{fold: d, children: 1 << 20}, view{fold: d, children: 12}, view{fold: d, children: 4}, view{fold: d})
	}
	return vs
}

// renderDocs writes the docs' part in view v.
func renderDocs(es []Entry, v view, room int) string {
	var b strings.Builder
	if v.fold > 0 {
		b.WriteString("Folders with counts are folded: mod_list_doc_paths with the folder as prefix lists their docs.\n")
	}
	folder := "\x00"
	for i := 0; i < len(es); {
		if v.clipTo == 0 && b.Len() > room {
			return b.String() // too large for this view: the caller tries the next
		}
		e := es[i]
		f := folderOf(e.Path)
		if v.fold > 0 && depth(f) >= v.fold {
			// The folder of depth v.fold holding e, and everything in it.
			parts := strings.SplitAfter(f, "/")
			top := strings.Join(parts[:v.fold], "")
			j, folders := i, map[string]bool{}
			for j < len(es) && strings.HasPrefix(es[j].Path, top) {
				folders[folderOf(es[j].Path)] = true
				j++
			}
			line := fmt.Sprintf("- %s (%s in %s)", top, plural(j-i, "doc"), plural(len(folders), "folder"))
			if v.children > 0 {
				line += subfolders(es[i:j], top, v.children)
			}
			line += "\n"
			parent := folderOf(strings.TrimSuffix(top, "/"))
			if !writeFolder(&b, &folder, parent, v, es, i, room) || !fits(&b, line, v, len(es)-i) {
				return b.String()
			}
			i = j
			continue
		}
		if !writeFolder(&b, &folder, f, v, es, i, room) {
			return b.String()
		}
		line := "- " + e.Path
		if v.summary {
			line += ": " + summaryOf(e)
		}
		line += "\n"
		if v.sections && len(e.Sections) > 0 {
			line += "  #" + strings.Join(e.Sections, " #") + "\n"
		}
		if !fits(&b, line, v, len(es)-i) {
			return b.String()
		}
		i++
	}
	return b.String()
}

// subfolders names the folders right below top that hold es (all of them
// under top), with their docs' counts, the largest first, at most n, and
// how many more.
func subfolders(es []Entry, top string, n int) string {
	var (
		names  []string
		counts = map[string]int{}
	)
	for _, e := range es {
		rest := strings.TrimPrefix(e.Path, top)
		slash := strings.IndexByte(rest, '/')
		if slash < 0 {
			continue // a doc of top itself: in top's count
		}
		name := rest[:slash+1]
		if counts[name] == 0 {
			names = append(names, name)
		}
		counts[name]++
	}
	if len(names) == 0 {
		return ""
	}
	// The largest first: those cut off hold the fewest docs.
	slices.SortStableFunc(names, func(a, b string) int { return counts[b] - counts[a] })
	var b strings.Builder
	b.WriteString(":")
	for k, name := range names {
		if k == n {
			fmt.Fprintf(&b, " … %d more", len(names)-n)
			break
		}
		fmt.Fprintf(&b, " %s %d", name, counts[name])
		if k < len(names)-1 && k < n-1 {
			b.WriteString(",")
		}
	}
	return b.String()
}

// writeFolder starts the folder f's heading when it is not the current one.
func writeFolder(b *strings.Builder, current *string, f string, v view, es []Entry, i, room int) bool {
	if f == *current {
		return true
	}
	*current = f
	name := f
	if name == "" {
		name = "docs/ (top level)"
	}
	return fits(b, "\n## "+name+"\n", v, len(es)-i)
}

// fits writes line unless v clips and it would pass v.clipTo, in which
// case it writes how many docs are left and reports false.
func fits(b *strings.Builder, line string, v view, left int) bool {
	const tail = 120 // room for the closing line
	if v.clipTo > 0 && b.Len()+len(line) > v.clipTo-tail {
		fmt.Fprintf(b, "- … and %s more: list them with mod_list_doc_paths\n", plural(left, "doc"))
		return false
	}
	b.WriteString(line)
	return true
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
	return fmt.Sprintf("%d %ss", n, what)
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
