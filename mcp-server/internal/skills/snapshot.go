package skills

import (
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

var catalogueKey = docs.NewKey[*Catalogue]("skills.catalogue")

// Of returns the catalogue of a snapshot's skills, built the first time it
// is asked for and kept with the snapshot (docs.Attach): a skill's files
// are read and hashed once per snapshot, and an edit, which makes a new
// snapshot, makes a new catalogue.
func Of(snap *docs.Snapshot) *Catalogue {
	return docs.Attach(snap, catalogueKey, func() *Catalogue { return Build(Sources(snap)) })
}

// Sources are the files of a snapshot of a skills folder, in path order.
func Sources(snap *docs.Snapshot) []Source {
	out := make([]Source, 0, len(snap.Docs()))
	for _, d := range snap.Docs() {
		out = append(out, Source{Path: d.Path, Text: d.Text()})
	}
	return out
}
