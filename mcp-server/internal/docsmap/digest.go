package docsmap

import (
	"container/heap"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// The digest is the map of a tree too large to name every doc: a line for
// each folder, by its full path (what mod_list_doc_paths takes as prefix)
// with the count of docs under it; under it the docs that best stand for
// it, by path and title: its index page, then the docs most linked to;
// and, in what room the docs leave, their sections' anchors. Folders are
// folded into their parents, the smallest first, until every folder line
// with its first doc fits in mandatoryShare of the room and holds a fair
// share of the docs (minShare); the rest of the room goes to further
// docs, shared among the folders by their size.

// mandatoryShare is the most of the room, in quarters, that the folder
// lines with each folder's first doc may take: at least a quarter is left
// for further docs.
const mandatoryShare = 3

// minShare: a folder holding fewer than 1/minShare of the docs of the
// average folder line is folded into its parent all the same, however
// much room there is (thirty folders of one doc each tell less than
// their parent's line with "30 more folders").
const minShare = 8

// maxAnchors bounds the anchors listed for one doc in a digest.
const maxAnchors = 10

// indexNames are the names of a folder's index page, the best first.
var indexNames = []string{"index.md", "readme.md", "_index.md", "overview.md"}

// node is a folder of the digest.
type node struct {
	path      string // "" for docs/, else "a/b/"
	depth     int
	parent    *node
	total     int   // docs under it: what mod_list_doc_paths lists with it as prefix
	own       []int // its docs and those of the folders folded into it (indexes into the entries)
	folded    int   // folders folded into it
	shownKids int   // subfolders that have a line of their own
	index     int   // its index page, or -1
	linked    int   // of own, the doc most linked to, or -1
	shown     bool
	cost      int          // of its line and its first doc's
	seats     []int        // the docs named under it: their ranks, indexes into own once sorted
	anchored  map[int]bool // the ranks of those whose anchors are named too
}

// first is the doc that best stands for the folder: its index page, else
// the doc most linked to.
func (n *node) first() int {
	if n.index >= 0 {
		return n.index
	}
	return n.linked
}

// digest writes the folders and docs of es (sorted by folder) in at most
// room bytes.
func digest(es []Entry, room int) string {
	all := folderTree(es)
	// A folder's line and its first doc: what every folder shown costs.
	cost := func(n *node) {
		n.cost = 0
		if len(n.own) > 0 {
			n.cost = len(heading(n)) + len(docLine(es[n.first()]))
		}
	}
	mandatory, lines := 0, 0
	for _, n := range all {
		cost(n)
		mandatory += n.cost
		if n.cost > 0 {
			lines++
		}
	}
	// Fold the smallest folders with no subfolder of their own into their
	// parents until the folder lines fit and hold a fair share of the
	// docs; top-level folders stay.
	leaves := &foldHeap{}
	for _, n := range all {
		if n.shownKids == 0 && n.depth >= 2 {
			leaves.nodes = append(leaves.nodes, n)
		}
	}
	heap.Init(leaves)
	for leaves.Len() > 0 && (mandatory > room*mandatoryShare/4 || len(leaves.nodes[0].own)*minShare*lines < len(es)) {
		n := heap.Pop(leaves).(*node)
		p := n.parent
		mandatory -= n.cost + p.cost
		if p.cost == 0 {
			lines++ // p's line, which it now needs
		}
		lines-- // n's
		n.shown = false
		p.own = append(p.own, n.own...)
		p.folded += 1 + n.folded
		p.linked = moreLinked(es, p.linked, n.linked)
		p.shownKids--
		cost(p)
		mandatory += p.cost
		if p.shownKids == 0 && p.depth >= 2 {
			heap.Push(leaves, p)
		}
	}
	var shown []*node
	for _, n := range all {
		if n.shown && len(n.own) > 0 {
			shown = append(shown, n)
		}
	}

	// Each folder's docs in rank order; the first doc of each is named
	// before any other when they all fit.
	for _, n := range shown {
		slices.SortFunc(n.own, func(a, b int) int { return rank(es, n, a, b) })
	}
	left := room
	for _, n := range shown {
		left -= len(heading(n))
	}
	if left < 0 {
		return clipFolders(shown, room)
	}
	seats := &seatHeap{}
	var named []seat // in the order they were given room
	forced := mandatory <= room
	for _, n := range shown {
		n.anchored = map[int]bool{}
		if !forced {
			seats.push(n, 0)
			continue
		}
		n.seats = []int{0}
		left -= len(docLine(es[n.own[0]]))
		named = append(named, seat{n: n})
		seats.push(n, 1)
	}
	const shortest = 16 // no line is shorter: stop there
	for skips := 0; seats.Len() > 0 && left >= shortest && skips < 64; {
		s := heap.Pop(seats).(seat)
		seats.push(s.n, s.k+1)
		text := docLine(es[s.n.own[s.k]])
		if len(text) > left {
			skips++ // a shorter one may fit
			continue
		}
		left -= len(text)
		skips = 0
		s.n.seats = append(s.n.seats, s.k)
		named = append(named, s)
	}
	// The anchors of the docs named, in that order, where they fit.
	for _, s := range named {
		if text := anchorLine(es[s.n.own[s.k]]); text != "" && len(text) <= left {
			left -= len(text)
			s.n.anchored[s.k] = true
		}
	}

	var b strings.Builder
	for _, n := range shown {
		b.WriteString(heading(n))
		slices.Sort(n.seats)
		for _, k := range n.seats {
			e := es[n.own[k]]
			b.WriteString(docLine(e))
			if n.anchored[k] {
				b.WriteString(anchorLine(e))
			}
		}
	}
	return b.String()
}

// folderTree makes the folders of es, each with its docs, in path order
// (docs/ itself first), every one shown.
func folderTree(es []Entry) (all []*node) {
	byPath := map[string]*node{}
	var get func(p string) *node
	get = func(p string) *node {
		if n, ok := byPath[p]; ok {
			return n
		}
		n := &node{path: p, depth: depth(p), index: -1, linked: -1, shown: true}
		byPath[p] = n
		all = append(all, n)
		if p != "" {
			n.parent = get(folderOf(strings.TrimSuffix(p, "/")))
			n.parent.shownKids++
		}
		return n
	}
	for i, e := range es {
		n := get(folderOf(e.Path))
		n.own = append(n.own, i)
		if k := slices.Index(indexNames, strings.ToLower(path.Base(e.Path))); k >= 0 &&
			(n.index < 0 || k < slices.Index(indexNames, strings.ToLower(path.Base(es[n.index].Path)))) {
			n.index = i
		}
		n.linked = moreLinked(es, n.linked, i)
		for p := n; p != nil; p = p.parent {
			p.total++
		}
	}
	root := get("")
	root.total = len(root.own) // docs/ itself: its own docs, not all
	slices.SortFunc(all, func(a, b *node) int { return strings.Compare(a.path, b.path) })
	return all
}

// moreLinked returns whichever of the docs i and j (-1 for none) is
// linked to more, then the shallower, then the first in path order.
func moreLinked(es []Entry, i, j int) int {
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	case byLinks(es[i], es[j]) <= 0:
		return i
	}
	return j
}

func byLinks(a, b Entry) int {
	if a.LinkedFrom != b.LinkedFrom {
		return b.LinkedFrom - a.LinkedFrom
	}
	if da, db := strings.Count(a.Path, "/"), strings.Count(b.Path, "/"); da != db {
		return da - db
	}
	return strings.Compare(a.Path, b.Path)
}

// rank orders a folder's docs: its index page first, then by byLinks.
func rank(es []Entry, n *node, a, b int) int {
	switch {
	case a == n.index:
		return -1
	case b == n.index:
		return 1
	}
	return byLinks(es[a], es[b])
}

// heading is a folder's line.
func heading(n *node) string {
	if n.path == "" {
		return "\n## docs/ (top level, " + plural(n.total, "doc") + ")\n"
	}
	more := ""
	if n.folded > 0 {
		more = ", " + plural(n.folded, "more folder")
	}
	return "\n## " + docs.ShowPath(n.path) + " (" + plural(n.total, "doc") + more + ")\n"
}

// docLine names a doc by path and title.
func docLine(e Entry) string {
	if e.Title == "" {
		return "- " + docs.ShowPath(e.Path) + "\n"
	}
	return "- " + docs.ShowPath(e.Path) + ": " + clip(e.Title, maxSummaryBytes) + "\n"
}

// anchorLine lists a doc's sections' anchors, at most maxAnchors; "" for
// none.
func anchorLine(e Entry) string {
	if len(e.Sections) == 0 {
		return ""
	}
	s := e.Sections[:min(len(e.Sections), maxAnchors)]
	more := ""
	if len(s) < len(e.Sections) {
		more = " …"
	}
	return "  #" + strings.Join(s, " #") + more + "\n"
}

// clipFolders writes the folder lines alone, as many as fit in room, and
// how many are left: for a budget too small for a line of each.
func clipFolders(shown []*node, room int) string {
	var b strings.Builder
	for i, n := range shown {
		h := heading(n)
		rest := fmt.Sprintf("\n- … and %s more: mod_list_doc_paths lists the folders\n", plural(len(shown)-i, "folder"))
		if b.Len()+len(h)+len(rest) > room {
			if b.Len()+len(rest) <= room {
				b.WriteString(rest)
			}
			break
		}
		b.WriteString(h)
	}
	return b.String()
}

// foldHeap holds the folders that may be folded into their parents, the
// fewest docs first, then the deepest, then the last in path order.
type foldHeap struct{ nodes []*node }

func (h *foldHeap) Len() int { return len(h.nodes) }
func (h *foldHeap) Less(i, j int) bool {
	a, b := h.nodes[i], h.nodes[j]
	if len(a.own) != len(b.own) {
		return len(a.own) < len(b.own)
	}
	if a.depth != b.depth {
		return a.depth > b.depth
	}
	return a.path > b.path
}
func (h *foldHeap) Swap(i, j int) { h.nodes[i], h.nodes[j] = h.nodes[j], h.nodes[i] }
func (h *foldHeap) Push(x any)    { h.nodes = append(h.nodes, x.(*node)) }
func (h *foldHeap) Pop() any {
	n := h.nodes[len(h.nodes)-1]
	h.nodes = h.nodes[:len(h.nodes)-1]
	return n
}

// seat is a claim on the room: the k-th doc of a folder, in rank order.
type seat struct {
	n *node
	k int
}

// seatHeap gives the room to the folders in proportion to their docs
// (D'Hondt's method): a folder's k-th doc (from 0) claims it with
// len(own)/(k+1).
type seatHeap struct{ seats []seat }

func (h *seatHeap) push(n *node, k int) {
	if k < len(n.own) {
		heap.Push(h, seat{n: n, k: k})
	}
}

func (h *seatHeap) Len() int { return len(h.seats) }
func (h *seatHeap) Less(i, j int) bool {
	a, b := h.seats[i], h.seats[j]
	if x, y := len(a.n.own)*(b.k+1), len(b.n.own)*(a.k+1); x != y {
		return x > y
	}
	if len(a.n.own) != len(b.n.own) {
		return len(a.n.own) > len(b.n.own)
	}
	if a.n.path != b.n.path {
		return a.n.path < b.n.path
	}
	return a.k < b.k
}
func (h *seatHeap) Swap(i, j int) { h.seats[i], h.seats[j] = h.seats[j], h.seats[i] }
func (h *seatHeap) Push(x any)    { h.seats = append(h.seats, x.(seat)) }
func (h *seatHeap) Pop() any {
	s := h.seats[len(h.seats)-1]
	h.seats = h.seats[:len(h.seats)-1]
	return s
}
