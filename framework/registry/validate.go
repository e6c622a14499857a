package registry

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Problem is one thing wrong with a registry.
type Problem struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value, or of
	// where a missing value belongs; "" for the whole document.
	Pointer string `json:"pointer"`
	// Line and Col locate the offending value in the source, 1-based, with
	// columns counted in bytes. A missing value is located at the object that
	// lacks it. Both are 0 for a registry built in Go rather than parsed.
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

// String formats the problem as "LINE:COL: message", or just the message
// when its position is unknown.
func (p Problem) String() string {
	if p.Line == 0 {
		return p.Message
	}
	return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message)
}

// Naming rules. They are mirrored in mod_hooks.schema.json.
var (
	hookNameRE  = regexp.MustCompile(`^[a-z][a-z0-9]*\.[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	categoryRE  = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
	paramNameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	versionRE   = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)
)

// MaxSummary is the longest summary allowed, in bytes: a summary is one line
// that fits a search result.
const MaxSummary = 160

// Validate checks the registry against every rule of the format and returns
// all problems found, ordered by position; nil means the registry is valid.
// A registry that came from Parse has line and column on each problem.
func (r *Registry) Validate() []Problem {
	v := &validator{r: r}
	v.document()
	seen := map[string]int{}
	for i := range r.Hooks {
		v.hook(i, seen)
	}
	if r.pos != nil {
		for _, d := range r.pos.dups {
			v.problems = append(v.problems, r.locate(Problem{
				Pointer: d.ptr + "/" + escapePointer(d.key),
				Message: fmt.Sprintf("duplicate key %q in one object; only the last would be used", d.key),
			}, d.off))
		}
	}
	sortProblems(v.problems)
	return v.problems
}

type validator struct {
	r        *Registry
	problems []Problem
}

func (v *validator) add(ptr, format string, args ...any) {
	p := Problem{Pointer: ptr, Message: fmt.Sprintf(format, args...)}
	p.Line, p.Col = v.r.pos.lineCol(ptr)
	v.problems = append(v.problems, p)
}

func (v *validator) document() {
	r := v.r
	switch {
	case r.Version == "":
		v.add("/registry_version", "registry_version is missing; want a version such as \"1.0.0\"")
	case !versionRE.MatchString(r.Version):
		v.add("/registry_version", "registry_version %q is not a version MAJOR.MINOR.PATCH", r.Version)
	}
	if r.Framework != "modkit" {
		v.add("/framework", "framework is %q; want \"modkit\"", r.Framework)
	}
	if len(r.Hooks) == 0 {
		v.add("/hooks", "hooks is empty; a registry declares at least one hook")
	}
}

func (v *validator) hook(i int, seen map[string]int) {
	h := &v.r.Hooks[i]
	at := func(tokens ...any) string { return pointer(append([]any{"hooks", i}, tokens...)...) }
	who := fmt.Sprintf("hook %q", h.Name)
	if h.Name == "" {
		who = fmt.Sprintf("hook #%d", i)
	}

	switch {
	case h.Name == "":
		v.add(at("name"), "%s: name is missing", who)
	case !hookNameRE.MatchString(h.Name):
		v.add(at("name"), "%s: name must be category.snake_case (lower-case letters, digits and single underscores, such as \"player.joined\")", who)
	default:
		if first, dup := seen[h.Name]; dup {
			if line, _ := v.r.pos.lineCol(pointer("hooks", first, "name")); line > 0 {
				v.add(at("name"), "%s: duplicate name; first declared on line %d", who, line)
			} else {
				v.add(at("name"), "%s: duplicate name; hook #%d already uses it", who, first)
			}
		} else {
			seen[h.Name] = i
		}
	}

	switch h.Kind {
	case Event, Filter:
	case "":
		v.add(at("kind"), "%s: kind is missing; want \"event\" or \"filter\"", who)
	default:
		v.add(at("kind"), "%s: kind %q is unknown; want \"event\" or \"filter\"", who, h.Kind)
	}

	prefix, _, _ := strings.Cut(h.Name, ".")
	switch {
	case h.Category == "":
		v.add(at("category"), "%s: category is missing", who)
	case !categoryRE.MatchString(h.Category):
		v.add(at("category"), "%s: category %q must be one lower-case word", who, h.Category)
	case hookNameRE.MatchString(h.Name) && h.Category != prefix:
		v.add(at("category"), "%s: category %q does not match the name's prefix %q", who, h.Category, prefix)
	}

	switch {
	case strings.TrimSpace(h.Summary) == "":
		v.add(at("summary"), "%s: summary is missing", who)
	case strings.ContainsAny(h.Summary, "\r\n"):
		v.add(at("summary"), "%s: summary must be one line", who)
	case len(h.Summary) > MaxSummary:
		v.add(at("summary"), "%s: summary is %d bytes; keep it within %d", who, len(h.Summary), MaxSummary)
	}
	if strings.TrimSpace(h.Description) == "" {
		v.add(at("description"), "%s: description is missing", who)
	}
	if strings.TrimSpace(h.Example) == "" {
		v.add(at("example"), "%s: example is missing", who)
	}
	v.version(at("since"), who, "since", h.Since)

	names := map[string]bool{}
	for j, p := range h.Params {
		pat := func(f string) string { return at("params", j, f) }
		switch {
		case p.Name == "":
			v.add(pat("name"), "%s: parameter #%d has no name", who, j)
		case !paramNameRE.MatchString(p.Name):
			v.add(pat("name"), "%s: parameter %q must be snake_case", who, p.Name)
		case names[p.Name]:
			v.add(pat("name"), "%s: parameter %q is declared twice", who, p.Name)
		}
		names[p.Name] = true
		v.typ(pat("type"), fmt.Sprintf("%s: parameter %q", who, p.Name), p.Type)
		if strings.TrimSpace(p.Description) == "" {
			v.add(pat("description"), "%s: parameter %q has no description", who, p.Name)
		}
	}

	switch h.Kind {
	case Filter:
		if h.Cancellable {
			v.add(at("cancellable"), "%s: a filter cannot be cancellable; only events are", who)
		}
		if len(h.Params) == 0 {
			v.add(at("params"), "%s: a filter needs a first parameter, the value it transforms", who)
		}
		if h.Returns == nil {
			v.add(at("returns"), "%s: a filter must say what it returns (\"returns\": {\"type\", \"description\"})", who)
			break
		}
		v.typ(at("returns", "type"), who+": returns", h.Returns.Type)
		if strings.TrimSpace(h.Returns.Description) == "" {
			v.add(at("returns", "description"), "%s: returns has no description", who)
		}
		if len(h.Params) > 0 && h.Params[0].Type != h.Returns.Type {
			v.add(at("params", 0, "type"), "%s: a filter's first parameter is the value it transforms, so its type %q must equal the return type %q", who, h.Params[0].Type, h.Returns.Type)
		}
	case Event:
		if h.Returns != nil {
			v.add(at("returns"), "%s: an event returns nothing; drop \"returns\" or make it a filter", who)
		}
	}

	if d := h.Deprecated; d != nil {
		v.deprecation(i, who, at)
	}
}

func (v *validator) deprecation(i int, who string, at func(...any) string) {
	h := &v.r.Hooks[i]
	d := h.Deprecated
	if v.version(at("deprecated", "since"), who, "deprecated.since", d.Since) &&
		versionRE.MatchString(h.Since) && compareVersions(d.Since, h.Since) < 0 {
		v.add(at("deprecated", "since"), "%s: deprecated since %s, before it was added in %s", who, d.Since, h.Since)
	}
	if strings.TrimSpace(d.Reason) == "" {
		v.add(at("deprecated", "reason"), "%s: deprecated without a reason", who)
	}
	switch repl, ok := v.r.Lookup(d.Replacement); {
	case d.Replacement == "":
		v.add(at("deprecated", "replacement"), "%s: deprecated without a replacement", who)
	case d.Replacement == h.Name:
		v.add(at("deprecated", "replacement"), "%s: replacement is the hook itself", who)
	case !ok:
		msg := fmt.Sprintf("%s: replacement %q is not in the registry", who, d.Replacement)
		others := slices.DeleteFunc(v.r.Names(), func(n string) bool { return n == h.Name })
		if s := nearest(d.Replacement, others, 1); len(s) > 0 {
			msg += fmt.Sprintf("; did you mean %q?", s[0])
		}
		v.add(at("deprecated", "replacement"), "%s", msg)
	case repl.Deprecated != nil:
		v.add(at("deprecated", "replacement"), "%s: replacement %q is itself deprecated; point at %q", who, d.Replacement, repl.Deprecated.Replacement)
	case repl.Kind != h.Kind:
		v.add(at("deprecated", "replacement"), "%s: replacement %q is a%s %s, not a%s %s", who, d.Replacement, article(repl.Kind), repl.Kind, article(h.Kind), h.Kind)
	}
}

func article(k Kind) string {
	if k == Event {
		return "n"
	}
	return ""
}

// version reports whether s is a valid version, adding a problem if not.
func (v *validator) version(ptr, who, field, s string) bool {
	switch {
	case s == "":
		v.add(ptr, "%s: %s is missing; want the version that introduced it, such as \"0.1.0\"", who, field)
	case !versionRE.MatchString(s):
		v.add(ptr, "%s: %s %q is not a version MAJOR.MINOR.PATCH", who, field, s)
	default:
		return true
	}
	return false
}

func (v *validator) typ(ptr, what, t string) {
	switch err := checkType(t); {
	case t == "":
		v.add(ptr, "%s has no type", what)
	case err != nil:
		v.add(ptr, "%s: %v", what, err)
	}
}

func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range 3 {
		x, _ := strconv.Atoi(as[i])
		y, _ := strconv.Atoi(bs[i])
		if c := cmp.Compare(x, y); c != 0 {
			return c
		}
	}
	return 0
}

func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Pointer, b.Pointer), cmp.Compare(a.Message, b.Message))
	})
}

func (r *Registry) locate(p Problem, off int) Problem {
	if r.pos != nil {
		p.Line, p.Col = lineCol(r.pos.data, off)
	}
	return p
}
