package mcptest

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// SearchHit is one matching line of a mod_search_docs result, with its doc
// and section.
type SearchHit struct {
	Path, Heading, Anchor, URL string
	Line, Column               int
	Snippet                    string
}

// SearchHits decodes the matching lines of a mod_search_docs result, in
// order: the structured result groups them by doc and section, and most
// tests look at them one by one.
func SearchHits(t testing.TB, res *mcp.CallToolResult) []SearchHit {
	t.Helper()
	var out struct {
		Docs []struct {
			Path     string `json:"path"`
			Sections []struct {
				Heading string `json:"heading"`
				Anchor  string `json:"anchor"`
				URL     string `json:"url"`
				Lines   []struct {
					Line    int    `json:"line"`
					Column  int    `json:"column"`
					Snippet string `json:"snippet"`
				} `json:"lines"`
			} `json:"sections"`
		} `json:"docs"`
	}
	Decode(t, res, &out)
	var hits []SearchHit
	for _, d := range out.Docs {
		for _, s := range d.Sections {
			for _, l := range s.Lines {
				hits = append(hits, SearchHit{Path: d.Path, Heading: s.Heading, Anchor: s.Anchor, URL: s.URL, Line: l.Line, Column: l.Column, Snippet: l.Snippet})
			}
		}
	}
	return hits
}
