// Package skills reads a folder of Agent Skills (the repository's skills/:
// skills/NAME/SKILL.md and the files beside it) into a catalogue: each
// skill's front matter, checked against the Agent Skills format
// (https://agentskills.io/specification), and its files with their SHA-256
// digests and sizes, as the MCP Skills extension (SEP-2640) lists them.
// The folder is loaded and followed as the docs folder is (a corpus of its
// own): a catalogue is derived from one of its snapshots (Of), once per
// snapshot.
package skills

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

const (
	// Dir is the folder of a repository that holds its skills.
	Dir = "skills"
	// FileName is the file that makes a folder a skill.
	FileName = "SKILL.md"

	// MaxFiles and MaxBytes are the extension's limits on one skill:
	// entries in its resources (SKILL.md included), and their total size.
	// A skill past either is not served.
	MaxFiles = 512
	MaxBytes = 16 << 20

	maxNameChars          = 64
	MaxDescriptionChars   = 1024
	maxCompatibilityChars = 500
)

// Source is one file of the skills folder: its path relative to the
// folder, and its text.
type Source struct {
	Path, Text string
}

// Skill is one skill: a folder under Dir holding a SKILL.md whose front
// matter is valid.
type Skill struct {
	// Path is the skill's folder relative to the skills folder
	// ("add-a-hook"); its last segment is the skill's name.
	Path        string
	Name        string
	Description string
	// Frontmatter is SKILL.md's front matter, every field as written,
	// decoded from YAML into JSON's types.
	Frontmatter map[string]any
	// Files are the skill's files, SKILL.md first, then the others (those
	// of nested skills included) in path order.
	Files []File
}

// File is one file of a skill.
type File struct {
	Path   string // relative to the skills folder: add-a-hook/references/x.md
	Rel    string // relative to the skill's folder: references/x.md
	Digest string // sha256: and the hex SHA-256 of Text
	Size   int    // len(Text)
	Text   string // as the docs serve it (without a byte order mark)
}

// Problem is a folder under Dir with a SKILL.md that is not served, and why.
type Problem struct {
	Path string // the SKILL.md, relative to the skills folder
	Err  error
}

func (p Problem) Error() string { return fmt.Sprintf("%s: %v", p.Path, p.Err) }

// Catalogue is the skills of one snapshot of the docs, by path.
type Catalogue struct {
	Skills   []*Skill
	Problems []Problem
	byPath   map[string]*Skill
	files    map[string]*File // by Path
}

// Get returns the skill at path (relative to the skills folder), if it is
// served.
func (c *Catalogue) Get(skillPath string) (*Skill, bool) {
	s, ok := c.byPath[skillPath]
	return s, ok
}

// File returns the file of a served skill at p (relative to the skills
// folder).
func (c *Catalogue) File(p string) (*File, bool) {
	f, ok := c.files[p]
	return f, ok
}

// Build makes the catalogue of the files of a skills folder, given in
// path order.
// Every folder holding a SKILL.md is a skill; a skill nested in another
// is also one of its files, as the extension has it.
func Build(files []Source) *Catalogue {
	c := &Catalogue{byPath: map[string]*Skill{}, files: map[string]*File{}}
	for _, f := range files {
		if path.Base(f.Path) != FileName || path.Dir(f.Path) == "." {
			continue
		}
		folder := path.Dir(f.Path)
		s, err := build(folder, f.Text, files)
		if err != nil {
			c.Problems = append(c.Problems, Problem{Path: f.Path, Err: err})
			continue
		}
		c.Skills = append(c.Skills, s)
		c.byPath[folder] = s
		for i := range s.Files {
			c.files[s.Files[i].Path] = &s.Files[i]
		}
	}
	slices.SortFunc(c.Skills, func(a, b *Skill) int { return strings.Compare(a.Path, b.Path) })
	return c
}

// build reads the skill in folder, whose SKILL.md has text, with its
// files among all.
func build(folder, text string, all []Source) (*Skill, error) {
	fm, err := Frontmatter(text)
	if err != nil {
		return nil, err
	}
	if err := Validate(path.Base(folder), fm); err != nil {
		return nil, err
	}
	s := &Skill{Path: folder, Frontmatter: fm}
	s.Name, _ = fm["name"].(string)
	s.Description, _ = fm["description"].(string)
	prefix := folder + "/"
	s.Files = append(s.Files, file(prefix+FileName, FileName, text))
	total := len(text)
	from, _ := slices.BinarySearchFunc(all, prefix, func(f Source, p string) int { return strings.Compare(f.Path, p) })
	for _, f := range all[from:] {
		rel, ok := strings.CutPrefix(f.Path, prefix)
		if !ok {
			break // past the folder: all is in path order
		}
		if rel == FileName {
			continue
		}
		s.Files = append(s.Files, file(f.Path, rel, f.Text))
		total += len(f.Text)
	}
	switch {
	case len(s.Files) > MaxFiles:
		return nil, fmt.Errorf("%d files, more than the %d a skill may have", len(s.Files), MaxFiles)
	case total > MaxBytes:
		return nil, fmt.Errorf("%d bytes of files, more than the %d a skill may have", total, MaxBytes)
	}
	return s, nil
}

func file(p, rel, text string) File {
	sum := sha256.Sum256([]byte(text))
	return File{Path: p, Rel: rel, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: len(text), Text: text}
}

// Front matter errors.
var (
	ErrNoFrontmatter = errors.New("SKILL.md does not begin with YAML front matter between two --- lines")
	ErrFrontmatter   = errors.New("invalid front matter")
)

// frontmatterBlock is the front matter of a SKILL.md, as the extension's
// conformance suite finds it: a first line ---, and the lines up to the
// next --- line.
var frontmatterBlock = regexp.MustCompile(`\A---\r?\n((?s:.*?))\r?\n---[ \t]*(?:\r?\n|\z)`)

// Frontmatter decodes the YAML front matter of a SKILL.md's text into
// JSON's types (objects with string keys, arrays, strings, numbers,
// booleans, null), every field as written.
func Frontmatter(text string) (map[string]any, error) {
	text = strings.TrimPrefix(text, "\ufeff")
	m := frontmatterBlock.FindStringSubmatch(text)
	if m == nil {
		return nil, ErrNoFrontmatter
	}
	var raw any
	if err := yaml.Unmarshal([]byte(m[1]), &raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFrontmatter, err)
	}
	fm, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: it is not a mapping of fields", ErrFrontmatter)
	}
	// JSON's types: yaml's own (times, non-string keys) are spelled as
	// JSON would, or refused.
	b, err := json.Marshal(fm)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFrontmatter, err)
	}
	out := map[string]any{}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFrontmatter, err)
	}
	return out, nil
}

// name is the Agent Skills naming rule: lower-case letters, digits and
// single hyphens, neither first nor last.
var name = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// fields are the front matter fields the Agent Skills format defines.
var fields = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// Validate checks a skill's front matter against the Agent Skills format,
// for the skill in a folder named folder: name and description present,
// the name the folder's, no field the format does not define.
func Validate(folder string, fm map[string]any) error {
	var errs []error
	for k := range fm {
		if !slices.Contains(fields, k) {
			errs = append(errs, fmt.Errorf("field %q is not one of the Agent Skills format's (%s)", k, strings.Join(fields, ", ")))
		}
	}
	n, ok := fm["name"].(string)
	switch {
	case !ok || n == "":
		errs = append(errs, errors.New("no name: the front matter needs name, the skill's folder name"))
	case utf8.RuneCountInString(n) > maxNameChars:
		errs = append(errs, fmt.Errorf("name %q is longer than %d characters", n, maxNameChars))
	case !name.MatchString(n):
		errs = append(errs, fmt.Errorf("name %q is not lower-case letters, digits and single hyphens", n))
	case n != folder:
		errs = append(errs, fmt.Errorf("name %q is not the folder's name %q", n, folder))
	}
	switch d, ok := fm["description"].(string); {
	case !ok || strings.TrimSpace(d) == "":
		errs = append(errs, errors.New("no description: the front matter needs description, what the skill does and when to use it"))
	case utf8.RuneCountInString(d) > MaxDescriptionChars:
		errs = append(errs, fmt.Errorf("description is %d characters, more than %d", utf8.RuneCountInString(d), MaxDescriptionChars))
	}
	if v, ok := fm["compatibility"]; ok {
		if s, isString := v.(string); !isString || s == "" || utf8.RuneCountInString(s) > maxCompatibilityChars {
			errs = append(errs, fmt.Errorf("compatibility must be text of 1 to %d characters", maxCompatibilityChars))
		}
	}
	for _, k := range []string{"license", "allowed-tools"} {
		if v, ok := fm[k]; ok {
			if _, isString := v.(string); !isString {
				errs = append(errs, fmt.Errorf("%s must be text", k))
			}
		}
	}
	if v, ok := fm["metadata"]; ok {
		m, isMap := v.(map[string]any)
		if !isMap {
			errs = append(errs, errors.New("metadata must be a mapping of names to text"))
		}
		for k, v := range m {
			if _, isString := v.(string); !isString {
				errs = append(errs, fmt.Errorf("metadata %q must be text", k))
			}
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
}

// Child is an entry of a folder of a skill: a file, or a folder.
type Child struct {
	Name   string // its name in the folder
	Path   string // relative to the skills folder: add-a-hook/references
	Folder bool
}

// Dir returns the entries of a folder of a served skill (its own folder
// or one within it), given relative to the skills folder without a
// trailing slash (add-a-hook/references), in name order; ok is false for
// any other path, a file's included.
func (c *Catalogue) Dir(folder string) (children []Child, ok bool) {
	if folder == "" {
		return nil, false
	}
	// The outermost skill holding the folder lists every file under it.
	var owner *Skill
	for p := folder; p != "." && p != "/"; p = path.Dir(p) {
		if s, served := c.byPath[p]; served {
			owner = s
		}
	}
	if owner == nil {
		return nil, false
	}
	prefix := folder + "/"
	seen := map[string]bool{}
	for _, f := range owner.Files {
		rest, under := strings.CutPrefix(f.Path, prefix)
		if !under {
			continue
		}
		name, _, folder := strings.Cut(rest, "/")
		if !seen[name] {
			seen[name] = true
			children = append(children, Child{Name: name, Path: prefix + name, Folder: folder})
		}
	}
	if len(children) == 0 {
		return nil, false // not a folder of the skill
	}
	slices.SortFunc(children, func(a, b Child) int { return strings.Compare(a.Name, b.Name) })
	return children, true
}
