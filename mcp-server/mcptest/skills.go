package mcptest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// SkillsExtension is the Skills extension's identifier (SEP-2640).
const SkillsExtension = "io.modelcontextprotocol/skills"

// Skill is an entry of skills/list and skills/get.
type Skill struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   []SkillResource `json:"resources"`
}

// SkillResource is a file of a skill's entry.
type SkillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int    `json:"size"`
}

// Skills uses the Skills extension through c, on revision rev, as a host
// does, and checks each answer against the extension's text and against
// the skills folder skillsDir on disk. On 2026-07-28: the extension is
// declared with directoryRead; skills/list, followed page by page, lists
// every skill of the folder, each entry named as its folder and its files
// each read (resources/read) with the digest and size listed, as they are
// on disk; skills/get gives each entry again and
// refuses an unknown skill with -32602; resources/directory/read lists a
// skill's folder (its subfolders as inode/directory) and refuses a file
// with -32602. On an earlier revision, which negotiates no extension,
// the extension is not declared and skills/list is method not found,
// saying on which revision it is offered. It returns the entries listed.
func Skills(t testing.TB, c *client.Client, rev, skillsDir string) []Skill {
	t.Helper()
	declared, ok := c.GetServerCapabilities().Extensions[SkillsExtension]
	if rev < mcp.ProtocolVersion20260728 {
		if ok {
			t.Errorf("%s: the server declares %s on a revision without extensions", rev, SkillsExtension)
		}
		_, rpcErr := Raw(t, c, rev, "skills/list", nil)
		if rpcErr == nil || rpcErr.Code != mcp.METHOD_NOT_FOUND || !strings.Contains(rpcErr.Message, mcp.ProtocolVersion20260728) {
			t.Errorf("%s: skills/list answered %+v; want method not found, naming the revision that offers it", rev, rpcErr)
		}
		return nil
	}
	if d := cmp.Diff(map[string]any{"directoryRead": true}, declared); !ok || d != "" {
		t.Fatalf("%s: extensions[%s] = %v (declared %v); want {directoryRead: true}", rev, SkillsExtension, declared, ok)
	}

	var entries []Skill
	for cursor := ""; ; {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, rpcErr := Raw(t, c, rev, "skills/list", params)
		if rpcErr != nil {
			t.Fatalf("%s: skills/list: %+v", rev, rpcErr)
		}
		var page struct {
			ResultType string  `json:"resultType"`
			Skills     []Skill `json:"skills"`
			NextCursor string  `json:"nextCursor"`
			TTLMs      *int64  `json:"ttlMs"`
			CacheScope string  `json:"cacheScope"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			t.Fatalf("%s: skills/list: %v: %s", rev, err, raw)
		}
		if page.ResultType != "complete" || page.TTLMs == nil || page.CacheScope == "" {
			t.Errorf("%s: skills/list: resultType %q, ttlMs %v, cacheScope %q; want complete and both cache hints", rev, page.ResultType, page.TTLMs, page.CacheScope)
		}
		entries = append(entries, page.Skills...)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	var listed, onDisk []string
	for _, e := range entries {
		listed = append(listed, e.URI)
		checkSkill(t, c, rev, skillsDir, e)
		raw, rpcErr := Raw(t, c, rev, "skills/get", map[string]any{"uri": e.URI})
		var got struct{ Skill Skill }
		if rpcErr != nil || json.Unmarshal(raw, &got) != nil {
			t.Errorf("%s: skills/get %s: %+v %s", rev, e.URI, rpcErr, raw)
		} else if d := cmp.Diff(e, got.Skill); d != "" {
			t.Errorf("%s: skills/get %s differs from its skills/list entry (-list +get):\n%s", rev, e.URI, d)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(skillsDir, "*", "SKILL.md"))
	for _, m := range matches {
		onDisk = append(onDisk, "skill://"+filepath.Base(filepath.Dir(m))+"/SKILL.md")
	}
	slices.Sort(listed)
	if d := cmp.Diff(onDisk, listed); d != "" {
		t.Errorf("%s: skills/list (-on disk +listed):\n%s", rev, d)
	}
	if _, rpcErr := Raw(t, c, rev, "skills/get", map[string]any{"uri": "skill://no-such-skill/SKILL.md"}); rpcErr == nil || rpcErr.Code != mcp.INVALID_PARAMS {
		t.Errorf("%s: skills/get of an unknown skill: %+v; want -32602", rev, rpcErr)
	}
	if len(entries) > 0 {
		dir := strings.TrimSuffix(entries[0].URI, "/SKILL.md")
		raw, rpcErr := Raw(t, c, rev, "resources/directory/read", map[string]any{"uri": dir})
		var read struct{ Resources []mcp.Resource }
		if rpcErr != nil || json.Unmarshal(raw, &read) != nil {
			t.Fatalf("%s: resources/directory/read %s: %+v %s", rev, dir, rpcErr, raw)
		}
		des, err := os.ReadDir(filepath.Join(skillsDir, strings.TrimPrefix(dir, "skill://")))
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, de := range des {
			mime := "text/markdown"
			if de.IsDir() {
				mime = "inode/directory"
			}
			want = append(want, dir+"/"+de.Name()+" "+mime)
		}
		for _, r := range read.Resources {
			got = append(got, r.URI+" "+r.MIMEType)
		}
		slices.Sort(want)
		slices.Sort(got)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: resources/directory/read %s (-on disk +read):\n%s", rev, dir, d)
		}
		if _, rpcErr := Raw(t, c, rev, "resources/directory/read", map[string]any{"uri": entries[0].URI}); rpcErr == nil || rpcErr.Code != mcp.INVALID_PARAMS {
			t.Errorf("%s: resources/directory/read of a file: %+v; want -32602", rev, rpcErr)
		}
	}
	return entries
}

// checkSkill verifies an entry as a host does before it loads the skill:
// each file read has the listed size and digest, and is the file on disk;
// the entry's front matter names the skill as its folder, and describes it.
func checkSkill(t testing.TB, c *client.Client, rev, skillsDir string, e Skill) {
	t.Helper()
	if !slices.ContainsFunc(e.Resources, func(r SkillResource) bool { return r.URI == e.URI }) {
		t.Errorf("%s: %s: its resources lack its SKILL.md", rev, e.URI)
	}
	for _, r := range e.Resources {
		read := mcp.ReadResourceRequest{}
		read.Params.URI = r.URI
		ctx, cancel := context.WithTimeout(context.Background(), Deadline)
		res, err := c.ReadResource(ctx, read)
		cancel()
		if err != nil {
			t.Errorf("%s: read %s: %v", rev, r.URI, err)
			continue
		}
		text := res.Contents[0].(mcp.TextResourceContents).Text
		sum := sha256.Sum256([]byte(text))
		if digest := "sha256:" + hex.EncodeToString(sum[:]); digest != r.Digest || len(text) != r.Size {
			t.Errorf("%s: read %s: %d bytes, %s; listed %d bytes, %s", rev, r.URI, len(text), digest, r.Size, r.Digest)
		}
		disk, err := os.ReadFile(filepath.Join(skillsDir, filepath.FromSlash(strings.TrimPrefix(r.URI, "skill://"))))
		if err != nil || string(disk) != text {
			t.Errorf("%s: read %s: not the file on disk (%v)", rev, r.URI, err)
		}
	}
	if name := e.Frontmatter["name"]; !strings.HasSuffix(e.URI, "/"+toString(name)+"/SKILL.md") || e.Frontmatter["description"] == nil {
		t.Errorf("%s: %s: front matter %v: want its name the folder's and a description", rev, e.URI, e.Frontmatter)
	}
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}
