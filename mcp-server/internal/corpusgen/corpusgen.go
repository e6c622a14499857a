// Package corpusgen writes a deterministic documentation tree for tests and
// benchmarks: the same seed and file count always give the same files, byte
// for byte.
//
// The tree looks like the messy real ones the server has to serve: front
// matter on most pages, headings of every level, fenced code, tables, lists,
// prose in several scripts (Latin with accents, Greek, Cyrillic, CJK, and the
// folding traps: the Kelvin sign, long s, sharp s, final sigma, combining
// marks), CRLF and BOM files, empty files, an occasional 54 KB single line,
// folders up to eight deep, and odd file names (%.md, [[.md, c++.md, spaces,
// CJK).
//
// Three shapes share that content and differ in how it is cut into files:
// Pages (the default: about 2.9 KB a file in folders up to eight deep, tens
// of thousands of folders at 40k files), Small (many small files: about
// 1 KB each in about 350 folders, like a generated API reference) and Large
// (fewer, larger files: about 4.6 KB each, in the folders of Pages).
package corpusgen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// Options says what to generate.
type Options struct {
	Seed  uint64
	Files int
	Shape Shape // "" is Pages
}

// Shape says how the text is cut into files and folders.
type Shape string

// The shapes.
const (
	Pages Shape = "pages" // about 2.9 KB a file, folders up to eight deep
	Small Shape = "small" // about 1 KB a file in about 350 folders
	Large Shape = "large" // about 4.6 KB a file, folders up to eight deep
)

// ParseShape reads a shape name; "" is Pages.
func ParseShape(s string) (Shape, error) {
	switch sh := Shape(s); sh {
	case "":
		return Pages, nil
	case Pages, Small, Large:
		return sh, nil
	}
	return "", fmt.Errorf("unknown corpus shape %q: use pages, small or large", s)
}

// Stats describes a generated tree.
type Stats struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

// Query is a benchmark query of a named kind.
type Query struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// RareIdentifier is planted in about one file in 2,000.
const RareIdentifier = "ZephyrQuotaLedger"

// Queries are the query kinds the benchmarks measure, with a text that has
// that character in every generated corpus.
var Queries = []Query{
	{"common word", "player"},
	{"rare identifier", RareIdentifier},
	{"absent word", "quixotrandemflux"},
	{"one character", "k"},
	{"phrase with space", "hook fires when"},
	{"non-ascii", "Schlüssel"},
}

// Generate writes the tree into dir, which must be empty or not exist.
func Generate(ctx context.Context, dir string, opts Options) (Stats, error) {
	if opts.Files < 0 {
		return Stats{}, fmt.Errorf("generate corpus: negative file count %d", opts.Files)
	}
	if _, err := ParseShape(string(opts.Shape)); err != nil {
		return Stats{}, fmt.Errorf("generate corpus: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Stats{}, fmt.Errorf("generate corpus: %w", err)
	}
	var (
		bytes    atomic.Int64
		firstErr error
		once     sync.Once
		wg       sync.WaitGroup
		next     = make(chan int)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				rel, text := ShapedFile(opts.Shape, opts.Seed, i)
				p := filepath.Join(dir, filepath.FromSlash(rel))
				err := os.MkdirAll(filepath.Dir(p), 0o755)
				if err == nil {
					err = os.WriteFile(p, []byte(text), 0o644)
				}
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("generate corpus: %w", err) })
					continue
				}
				bytes.Add(int64(len(text)))
			}
		})
	}
	for i := range opts.Files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	if firstErr != nil {
		return Stats{}, firstErr
	}
	return Stats{Files: opts.Files, Bytes: bytes.Load()}, nil
}

// ShapedFile returns the slash-separated path and the text of file i of the
// tree of the shape ("" is Pages) made from seed. Paths are unique for
// distinct i.
func ShapedFile(shape Shape, seed uint64, i int) (path, text string) {
	g := &gen{rng: rand.New(rand.NewPCG(seed, uint64(i))), shape: shape}
	if shape == Small {
		return g.smallPath(i), g.doc(i)
	}
	return g.path(i), g.doc(i)
}

type gen struct {
	rng   *rand.Rand
	b     strings.Builder
	nl    string
	shape Shape
}

// smallFolders is the number of folders files of the Small shape go in:
// every section/folder pair, and a v2 folder under 50 of them.
const smallFolders = 350

// smallPath puts file i in one of smallFolders folders.
func (g *gen) smallPath(i int) string {
	k := g.rng.IntN(smallFolders)
	dir := sections[k%len(sections)] + "/" + folders[(k/len(sections))%len(folders)]
	if k >= len(sections)*len(folders) {
		dir += "/v2"
	}
	if i%997 == 5 {
		return fmt.Sprintf("%s/odd-%d/%s", dir, i, g.pick(oddNames))
	}
	return fmt.Sprintf("%s/%s-%d.md", dir, g.pick(words), i)
}

func (g *gen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

// path builds a unique path: the folders vary freely, and the file name
// carries i, except for the odd names, which get a folder of their own.
func (g *gen) path(i int) string {
	depth := 1 + g.rng.IntN(4)
	if g.chance(0.1) {
		depth += 4
	}
	segs := make([]string, 0, depth+1)
	segs = append(segs, g.pick(sections))
	for range depth - 1 {
		segs = append(segs, g.pick(folders))
	}
	if g.chance(0.03) {
		segs = append(segs, "."+g.pick(folders)) // hidden folders hold real pages
	}
	switch {
	case i%997 == 5:
		// An odd name alone in a folder named after i keeps paths unique.
		segs = append(segs, fmt.Sprintf("odd-%d", i), g.pick(oddNames))
	default:
		name := fmt.Sprintf("%s-%d.md", g.pick(words), i)
		switch r := g.rng.IntN(100); {
		case r < 2:
			name = fmt.Sprintf("%s %s %d.md", g.pick(words), g.pick(words), i)
		case r < 3:
			name = fmt.Sprintf("%s-%d.md", g.pick(cjkNames), i)
		case r < 4:
			name = fmt.Sprintf("%s-%d.MD", strings.ToUpper(g.pick(words)), i)
		}
		segs = append(segs, name)
	}
	return strings.Join(segs, "/")
}

// doc builds the text of one file.
func (g *gen) doc(i int) string {
	g.b.Reset()
	g.nl = "\n"
	if g.chance(0.05) {
		g.nl = "\r\n"
	}
	if g.chance(0.005) {
		return "" // empty files exist
	}
	if g.chance(0.02) {
		g.b.WriteString("\ufeff")
	}
	title := g.title()
	if g.chance(0.85) {
		g.line("---")
		g.line("title: " + title)
		g.line(fmt.Sprintf("weight: %d", g.rng.IntN(100)))
		g.line("tags: [" + g.pick(words) + ", " + g.pick(words) + "]")
		g.line("---")
		g.line("")
	}
	g.line("# " + title)
	g.line("")
	// Sizes spread like real pages: most short, a long tail of long ones.
	switch g.shape {
	case Small:
		g.smallSection()
	case Large:
		sections := 2 + g.rng.IntN(4)
		if g.chance(0.25) {
			sections += 3 + g.rng.IntN(8)
		}
		for range sections {
			g.section(2)
		}
	default:
		sections := 1 + g.rng.IntN(3)
		if g.chance(0.2) {
			sections += 3 + g.rng.IntN(8)
		}
		for range sections {
			g.section(2)
		}
	}
	if i%2000 == 17 {
		g.line("The quota is kept by " + RareIdentifier + " (see the ledger page).")
	}
	if i%1500 == 700 {
		g.longLine(54 << 10)
	}
	if g.chance(0.7) {
		g.line("")
	}
	return g.b.String()
}

func (g *gen) line(s string) {
	g.b.WriteString(s)
	g.b.WriteString(g.nl)
}

func (g *gen) title() string {
	t := g.pick(titleWords) + " " + g.pick(words)
	if g.chance(0.3) {
		t += " " + g.pick(words)
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

func (g *gen) section(level int) {
	g.line(strings.Repeat("#", level) + " " + g.title())
	g.line("")
	blocks := 1 + g.rng.IntN(4)
	for range blocks {
		switch r := g.rng.IntN(100); {
		case r < 50:
			g.paragraph()
		case r < 62:
			g.code()
		case r < 72:
			g.list()
		case r < 80:
			g.table()
		case r < 90:
			g.unicode()
		default:
			g.line("> " + g.sentence())
			g.line("")
		}
	}
	if level < 4 && g.chance(0.3) {
		g.section(level + 1)
	}
}

// smallSection is the body of a small page: one section of one or two
// blocks, like the entry of a generated reference.
func (g *gen) smallSection() {
	g.line("## " + g.title())
	g.line("")
	for range 3 + g.rng.IntN(2) {
		switch r := g.rng.IntN(100); {
		case r < 55:
			g.paragraph()
		case r < 70:
			g.code()
		case r < 80:
			g.list()
		case r < 90:
			g.unicode()
		default:
			g.line("> " + g.sentence())
			g.line("")
		}
	}
}

func (g *gen) sentence() string {
	n := 5 + g.rng.IntN(14)
	parts := make([]string, n)
	for j := range parts {
		switch r := g.rng.IntN(100); {
		case r < 4:
			parts[j] = "`" + g.pick(hooks) + "`"
		case r < 7:
			parts[j] = g.identifier()
		case r < 9:
			parts[j] = g.pick(phrases)
		default:
			parts[j] = g.pick(words)
		}
	}
	s := strings.Join(parts, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) identifier() string {
	return g.pick(idParts) + g.pick(idParts) + fmt.Sprintf("%d", g.rng.IntN(500))
}

func (g *gen) paragraph() {
	n := 1 + g.rng.IntN(5)
	var b strings.Builder
	for j := range n {
		if j > 0 {
			b.WriteString(" ")
		}
		b.WriteString(g.sentence())
	}
	// Some writers wrap at 80 columns, others write a paragraph per line.
	if g.chance(0.5) {
		for _, l := range wrap(b.String(), 80) {
			g.line(l)
		}
	} else {
		g.line(b.String())
	}
	g.line("")
}

func wrap(s string, width int) []string {
	var out []string
	for len(s) > width {
		cut := strings.LastIndexByte(s[:width], ' ')
		if cut <= 0 {
			break
		}
		out = append(out, s[:cut])
		s = s[cut+1:]
	}
	return append(out, s)
}

func (g *gen) code() {
	lang := g.pick([]string{"go", "json", "sh", "toml", ""})
	g.line("```" + lang)
	n := 2 + g.rng.IntN(12)
	for range n {
		g.line(strings.Repeat("\t", g.rng.IntN(3)) + g.pick(codeLines))
	}
	g.line("```")
	g.line("")
}

func (g *gen) list() {
	n := 2 + g.rng.IntN(6)
	for j := range n {
		if g.chance(0.5) {
			g.line(fmt.Sprintf("%d. %s", j+1, g.sentence()))
		} else {
			g.line("- " + g.sentence())
		}
	}
	g.line("")
}

func (g *gen) table() {
	g.line("| Hook | Kind | Since | Notes |")
	g.line("|------|------|-------|-------|")
	n := 2 + g.rng.IntN(8)
	for range n {
		g.line(fmt.Sprintf("| `%s` | %s | 0.%d.%d | %s |", g.pick(hooks), g.pick([]string{"event", "filter"}),
			g.rng.IntN(9), g.rng.IntN(20), g.pick(words)+" "+g.pick(words)))
	}
	g.line("")
}

func (g *gen) unicode() {
	n := 1 + g.rng.IntN(3)
	for range n {
		g.line(g.pick(unicodeLines))
	}
	g.line("")
}

// longLine writes one line of about n bytes: a generated table row or
// minified HTML, the kind of line that breaks line scanners.
func (g *gen) longLine(n int) {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(`<span class="`)
		b.WriteString(g.pick(words))
		b.WriteString(`">`)
		b.WriteString(g.sentence())
		b.WriteString("</span>")
	}
	g.line(b.String())
}

var sections = []string{"guide", "reference", "api", "tutorials", "framework", "server", "clients", "blog", "how-to", "internals"}

var folders = []string{
	"player", "world", "items", "net", "events", "filters", "config", "storage", "ui", "audio",
	"physics", "scripting", "security", "deploy", "testing", "v1", "v2", "legacy", "advanced", "basics",
	"examples", "faq", "migration", "plugins", "hooks", "i18n", "日本語", "español", "my docs", "c#",
}

var oddNames = []string{"%.md", "[[.md", "c++.md", "a b.md", "文档.md", "#hash.md", "100%.md", "über.md", "x&y.md", "'quote'.md", "](link.md"}

var cjkNames = []string{"指南", "参考", "設定", "튜토리얼", "文档"}

var titleWords = []string{"Getting started with", "Using", "Configuring", "Understanding", "Debugging", "Writing", "Testing", "About", "Migrating", "Extending"}

var words = []string{
	"the", "a", "of", "to", "and", "in", "is", "for", "that", "with", "on", "as", "by", "it", "this",
	"be", "are", "from", "or", "an", "when", "which", "can", "each", "your", "you", "if", "not", "all",
	"player", "world", "mod", "hook", "event", "filter", "server", "client", "config", "registry",
	"plugin", "item", "inventory", "entity", "chunk", "block", "packet", "session", "handler", "callback",
	"fires", "returns", "cancels", "loads", "saves", "sends", "receives", "registers", "unregisters",
	"before", "after", "during", "while", "once", "every", "tick", "frame", "state", "value", "field",
	"default", "option", "setting", "path", "file", "folder", "version", "release", "deprecated",
	"example", "note", "warning", "tip", "see", "also", "below", "above", "first", "last", "next",
	"error", "message", "log", "level", "debug", "trace", "info", "timeout", "retry", "limit",
	"cache", "index", "search", "query", "result", "page", "cursor", "token", "key", "secret",
	"kernel", "socket", "stream", "buffer", "queue", "worker", "thread", "lock", "mutex", "channel",
	"game", "mode", "map", "spawn", "respawn", "death", "damage", "health", "score", "team",
	"quickly", "safely", "always", "never", "usually", "sometimes", "only", "just", "still", "already",
}

var phrases = []string{"the hook fires when", "hook fires when the player", "see the registry", "returns an error", "in the config file", "mod_hooks.json"}

var hooks = []string{
	"player.joined", "player.left", "player.chat", "player.death", "world.loaded", "world.saved",
	"item.crafted", "item.dropped", "entity.spawned", "entity.damaged", "server.started", "server.stopping",
	"net.packet_in", "net.packet_out", "config.reloaded", "chat.filter", "damage.filter", "loot.filter",
}

var idParts = []string{"Player", "World", "Hook", "Event", "Filter", "Registry", "Mod", "Loader", "Chunk", "Entity", "Session", "Packet", "Config", "Cache"}

var codeLines = []string{
	`func onJoin(ctx context.Context, p *modkit.Player) error {`,
	`return nil`,
	`}`,
	`modkit.On("player.joined", onJoin)`,
	`if err := reg.Register(h); err != nil {`,
	`log.Printf("hook %s failed: %v", name, err)`,
	`"name": "player.joined",`,
	`"kind": "event",`,
	`go run ./cmd/server --config server.toml`,
	`export MODKIT_HOME="$HOME/.modkit"`,
	`[server]`,
	`max_players = 64`,
	`for _, e := range entities {`,
	`e.Damage(10) // the damage.filter hook may cancel this`,
	`ctx, cancel := context.WithTimeout(ctx, 5*time.Second)`,
	`defer cancel()`,
}

// unicodeLines carry the folding traps: Kelvin sign (U+212A), long s
// (U+017F), sharp s and capital sharp s, final and capital sigma, combining
// marks, and text in several scripts.
var unicodeLines = []string{
	"Der Schlüssel für die Größe der Straße steht in der Konfiguration.",
	"DER SCHLÜSSEL FÜR DIE GRÖSSE DER STRASSE — ẞ ist das große ß.",
	"Temperatur in \u212Aelvin: 300 \u212A, also 300 K.",
	"Die Claſſe ſetzt den Wert (langes s: ſ).",
	"Ο ΟΔΟΣ και η οδος: σ, ς, Σ sind dieselbe Faltung.",
	"Привет, мир! Игрок вошёл в мир — ИГРОК ВОШЁЛ.",
	"这是文档的一部分：玩家加入世界时触发钩子。",
	"設定ファイルを読み込むと、フックが呼ばれます。",
	"플레이어가 서버에 접속하면 훅이 실행됩니다.",
	"Cafe\u0301 et café: e\u0301 is e plus a combining acute accent.",
	"Ångström, Ärger, Øre, Œuvre, çà et là, naïve façade.",
	"Emoji 🎮🕹️ in docs: press ⌘K to open the palette.",
	"ΣΊΣΥΦΟΣ σίσυφος ΣΊΣΥΦΟς — sigma forms again.",
	"İstanbul ve ıstakoz: dotted İ and dotless ı.",
}
