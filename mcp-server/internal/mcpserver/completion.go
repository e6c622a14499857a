package mcpserver

import (
	"context"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/skills"
)

// completion/complete: the docs:// template's path by prefix, a hook name
// (the hook:// template and the prompt's hook argument), and the prompt's
// task from a few examples. mcp-go calls one provider for prompts and one
// for resource templates; both are the server.

// maxCompletions is the most values one answer holds, the protocol's cap.
const maxCompletions = 100

// exampleTasks complete the prompt's task argument.
var exampleTasks = []string{
	"add a hook for crafting",
	"add a filter hook",
	"deprecate a hook",
	"document a hook",
	"fix a broken link in the docs",
	"write a mod that handles player.joined",
	"test a mod",
	"write a doc page",
}

// CompletePromptArgument completes mod_modding_context's arguments.
func (s *Server) CompletePromptArgument(_ context.Context, prompt string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	if prompt != moddingContextName {
		return &mcp.Completion{}, nil
	}
	switch arg.Name {
	case "hook":
		return s.completeHook(arg.Value), nil
	case "task":
		var out []string
		for _, t := range exampleTasks {
			if strings.HasPrefix(t, strings.ToLower(strings.TrimLeft(arg.Value, " "))) {
				out = append(out, t)
			}
		}
		return &mcp.Completion{Values: out, Total: len(out)}, nil
	}
	return &mcp.Completion{}, nil
}

// CompleteResourceArgument completes the resource templates' arguments.
func (s *Server) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	switch {
	case uri == docTemplate && arg.Name == "path":
		if err := s.awaitDocs(ctx); err != nil {
			return nil, err
		}
		return completePath(s.corpus.Snapshot(), arg.Value), nil
	case uri == skillTemplate && arg.Name == "path":
		c, err := s.workingSkills(ctx)
		if err != nil {
			return nil, err
		}
		return completeSkillPath(c, arg.Value), nil
	case uri == skillVersionTemplate && arg.Name == "version":
		return s.completeVersion(arg.Value), nil
	case uri == skillVersionTemplate && arg.Name == "path":
		sp, _, err := s.skillSpaceOf(ctx, skillVersionScheme+url.PathEscape(cc.Arguments["version"])+"/")
		if err != nil {
			return &mcp.Completion{}, nil // no such release: nothing completes
		}
		return completeSkillPath(sp.cat, arg.Value), nil
	case uri == hookTemplate && arg.Name == "name":
		return s.completeHook(arg.Value), nil
	case uri == versionTemplate && arg.Name == "version":
		return s.completeVersion(arg.Value), nil
	case uri == versionTemplate && arg.Name == "path":
		return s.completeVersionedPath(cc.Arguments["version"], arg.Value), nil
	}
	return &mcp.Completion{}, nil
}

// completeHook gives the registry's hook names that start with prefix, in
// registry order; nothing when the registry cannot be read.
func (s *Server) completeHook(prefix string) *mcp.Completion {
	reg, _ := s.hooks()
	var out []string
	if reg != nil {
		for _, h := range reg.Hooks {
			if strings.HasPrefix(h.Name, prefix) {
				out = append(out, h.Name)
			}
		}
	}
	return capped(out)
}

func capped(values []string) *mcp.Completion {
	c := &mcp.Completion{Values: values, Total: len(values)}
	if len(values) > maxCompletions {
		c.Values, c.HasMore = values[:maxCompletions], true
	}
	return c
}

// completePath gives the doc paths and folders that continue a prefix, one
// folder level at a time: for "server/t", the folders in server/ whose
// name starts with t ("server/tls/"), then the docs ("server/tools.md").
// Folders come first, at most 100 values in all; Total counts them all.
func completePath(snap *docs.Snapshot, prefix string) *mcp.Completion {
	dir, name := "", prefix
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dir, name = prefix[:i+1], prefix[i+1:]
	}
	t := treeOf(snap)
	f, ok := t.dirs[dir]
	if !ok {
		return &mcp.Completion{}
	}
	folders := withPrefix(f.folders, func(i int) string { return f.folders[i] }, dir+name)
	docs := withPrefix(f.docs, func(i int) string { return snap.Docs()[f.docs[i]].Path }, dir+name)
	total := len(folders) + len(docs)
	out := make([]string, 0, min(total, maxCompletions))
	out = append(out, folders[:min(len(folders), maxCompletions)]...)
	for _, d := range docs[:min(len(docs), maxCompletions-len(out))] {
		out = append(out, snap.Docs()[d].Path)
	}
	return &mcp.Completion{Values: out, Total: total, HasMore: total > len(out)}
}

// completeSkillPath gives the paths of the skills' files and folders that
// continue a prefix, a folder at a time as completePath does: for "", the
// skills' folders ("add-a-hook/"), for "add-a-hook/", its folders, then
// its files.
func completeSkillPath(c *skills.Catalogue, prefix string) *mcp.Completion {
	dir := prefix[:strings.LastIndexByte(prefix, '/')+1]
	var folders, files []string
	seen := map[string]bool{}
	for _, sk := range c.Skills {
		for _, f := range sk.Files {
			rel := f.Path
			if !strings.HasPrefix(rel, prefix) {
				continue
			}
			next := rel
			if i := strings.IndexByte(rel[len(dir):], '/'); i >= 0 {
				next = rel[:len(dir)+i+1]
			}
			if seen[next] {
				continue
			}
			seen[next] = true
			if strings.HasSuffix(next, "/") {
				folders = append(folders, next)
			} else {
				files = append(files, next)
			}
		}
	}
	slices.Sort(folders)
	slices.Sort(files)
	return capped(append(folders, files...))
}

// withPrefix is the run of a sorted list whose keys start with prefix.
func withPrefix[T any](list []T, key func(int) string, prefix string) []T {
	from := sort.Search(len(list), func(i int) bool { return key(i) >= prefix })
	to := from + sort.Search(len(list)-from, func(i int) bool { return !strings.HasPrefix(key(from+i), prefix) })
	return list[from:to]
}

// docTree is a snapshot's folders, for completion: each folder ("" for
// docs/, else "a/b/") with its subfolders and its docs (indexes into
// Snapshot.Docs), each sorted. It is built once per snapshot, when first
// asked for, and lives as long as the snapshot (Snapshot.Attach).
type docTree struct {
	dirs map[string]*folder
}

type folder struct {
	folders []string
	docs    []int32
}

// docTreeKey is the key of a snapshot's folder tree.
var docTreeKey = docs.NewKey[*docTree]("mcpserver.tree")

func treeOf(snap *docs.Snapshot) *docTree {
	return docs.Attach(snap, docTreeKey, func() *docTree { return buildTree(snap.Docs()) })
}

// DeriveFolders attaches next's folder tree, for completions, before the
// corpus serves next (corpus.Config.Derive): for the first snapshot (prev
// nil), and for a later one when prev's was built, that is when clients
// ask for completions. A tree takes tens of milliseconds at 40,000 docs;
// a server whose clients never complete a path builds one, at start.
func DeriveFolders(prev, next *docs.Snapshot) {
	if prev == nil {
		treeOf(next)
		return
	}
	if _, ok := docs.Attached(prev, docTreeKey); ok {
		treeOf(next)
	}
}

func buildTree(all []*docs.Doc) *docTree {
	t := &docTree{dirs: map[string]*folder{"": {}}}
	for i, d := range all {
		dir := d.Path[:strings.LastIndexByte(d.Path, '/')+1]
		f, ok := t.dirs[dir]
		if !ok {
			f = &folder{}
			t.dirs[dir] = f
			// Make its parents too, each listing the next as a folder.
			for child := dir; child != ""; {
				parent := child[:strings.LastIndexByte(child[:len(child)-1], '/')+1]
				p, seen := t.dirs[parent]
				if !seen {
					p = &folder{}
					t.dirs[parent] = p
				}
				p.folders = append(p.folders, child)
				if seen {
					break
				}
				child = parent
			}
		}
		f.docs = append(f.docs, int32(i)) // in path order already
	}
	for _, f := range t.dirs {
		slices.Sort(f.folders)
	}
	return t
}
