package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/skills"
)

// errSkillsStale is a folder whose copy of the skills is not the one
// served: skills --check exits 1 with it.
var errSkillsStale = errors.New("the skills copy is stale")

// skillsCommand writes the skills the server serves (the data root's
// skills/, as the Skills extension gives them) into a folder, one folder a
// skill, for clients that read skills from disk (such as .claude/skills);
// --check tells whether a folder holds them as served, for CI.
func skillsCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:  "skills",
		Usage: "write the skills served into a folder, one folder a skill (--write), or check that a folder holds them (--check)",
		UsageText: "docs-mcp skills --write DIR [--data-root DIR] [--max-doc-bytes N]\n" +
			"docs-mcp skills --check DIR [--data-root DIR] [--max-doc-bytes N]",
		Description: `The skills are those the server serves over MCP (skills/list, skill:// resources):
every folder of the data root's skills/ whose SKILL.md has valid front matter, with the
files beside it, each as the server serves it (without a byte order mark). --write puts
each skill in DIR/NAME/, replacing a folder of that name, and leaves DIR's other folders
alone: point it at the folder a client reads skills from. A skill that is not served
is named on standard error and not written. --check writes nothing and exits 1 when a
skill's folder in DIR is missing, or holds a file that differs or that the skill does
not have (run --write to refresh it).`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "write", Usage: "the folder to write the skills into", TakesFile: true},
			&cli.StringFlag{Name: "check", Usage: "the folder to check: exit 1 when its skills are stale", TakesFile: true},
		}, pickFlags(flags(), "data-root", "max-doc-bytes")...),
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return explainUsage(c.Command.Flags, "docs-mcp skills", err)
		},
		Action: func(c *cli.Context) error {
			dir, check, err := writeOrCheck(c, "skills", "DIR")
			if err != nil {
				return err
			}
			cat, err := servedSkills(c)
			if err != nil {
				return err
			}
			for _, p := range cat.Problems {
				fmt.Fprintf(stderr, "docs-mcp: skills: not served, so not written: %v\n", p)
			}
			top := outermost(cat)
			if check {
				if diffs := skillsDiff(dir, top); len(diffs) > 0 {
					return fmt.Errorf("%s: %w: %s; run docs-mcp skills --write %s", dir, errSkillsStale, strings.Join(diffs, "; "), dir)
				}
				fmt.Fprintf(stdout, "%s: the skills are up to date (%d skills)\n", dir, len(top))
				return nil
			}
			files, size := 0, 0
			for _, sk := range top {
				if err := writeSkill(dir, sk); err != nil {
					return fmt.Errorf("skills: %w", err)
				}
				files += len(sk.Files)
				for _, f := range sk.Files {
					size += f.Size
				}
			}
			fmt.Fprintf(stdout, "%s: %d skills written (%d files, %d bytes)\n", dir, len(top), files, size)
			return nil
		},
	}
}

// servedSkills loads the data root's skills folder as the server does and
// returns its catalogue; a data root without one has no skills.
func servedSkills(c *cli.Context) (*skills.Catalogue, error) {
	root, err := dataRoot(c.String("data-root"))
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, skills.Dir)
	if err := isDir(dir); err != nil {
		return nil, usagef("no skills folder at %s: %v (set --data-root to the repository)", dir, err)
	}
	snap, err := docs.Load(c.Context, dir, docs.LoadOptions{MaxDocBytes: c.Int64("max-doc-bytes")})
	if err != nil {
		return nil, fmt.Errorf("skills: %w", err)
	}
	return skills.Of(snap), nil
}

// outermost are the skills not nested in another: a nested skill's files
// are its outer skill's too, and are written with them.
func outermost(cat *skills.Catalogue) []*skills.Skill {
	var out []*skills.Skill
	for _, sk := range cat.Skills {
		nested := false
		for p := path.Dir(sk.Path); p != "." && !nested; p = path.Dir(p) {
			_, nested = cat.Get(p)
		}
		if !nested {
			out = append(out, sk)
		}
	}
	return out
}

// writeSkill replaces dir/PATH (the skill's folder) with the skill's files:
// written into a new folder beside it, which then takes the old one's
// place, so that a reader sees the old skill or the new, and no file the
// skill no longer has is left.
func writeSkill(dir string, sk *skills.Skill) error {
	dest := filepath.Join(dir, filepath.FromSlash(sk.Path))
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".new-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // nothing left once renamed
	for _, f := range sk.Files {
		p := filepath.Join(tmp, filepath.FromSlash(f.Rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(f.Text), 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp's 0700
		return err
	}
	old := ""
	if _, err := os.Lstat(dest); err == nil {
		if old, err = os.MkdirTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".old-*"); err != nil {
			return err
		}
		defer os.RemoveAll(old)
		old = filepath.Join(old, "skill")
		if err := os.Rename(dest, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dest); err != nil {
		if old != "" {
			err = errors.Join(err, os.Rename(old, dest)) // put the old one back
		}
		return err
	}
	return nil
}

// skillsDiff says how dir's copy of the skills differs from top: each
// skill's folder missing, or a file of it missing, different or extra.
func skillsDiff(dir string, top []*skills.Skill) []string {
	var diffs []string
	for _, sk := range top {
		folder := filepath.Join(dir, filepath.FromSlash(sk.Path))
		want := map[string]string{}
		for _, f := range sk.Files {
			want[f.Rel] = f.Text
		}
		var have []string
		err := filepath.WalkDir(folder, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(folder, p)
			have = append(have, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			diffs = append(diffs, fmt.Sprintf("%s: %v", sk.Path, err))
			continue
		}
		for _, rel := range have {
			text, ok := want[rel]
			if !ok {
				diffs = append(diffs, sk.Path+"/"+rel+" is no file of the skill")
				continue
			}
			b, err := os.ReadFile(filepath.Join(folder, filepath.FromSlash(rel)))
			if err != nil || !bytes.Equal(b, []byte(text)) {
				diffs = append(diffs, sk.Path+"/"+rel+" differs")
			}
		}
		for _, f := range sk.Files {
			if !slices.Contains(have, f.Rel) {
				diffs = append(diffs, sk.Path+"/"+f.Rel+" is missing")
			}
		}
	}
	return diffs
}
