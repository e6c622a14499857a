package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// breaking lists what a tool's new snapshot (testdata/tools/NAME.json)
// takes away from a client written against the old one, which is the
// contract. A tool's structured result and arguments are a public
// interface (docs/server/changelog.md): a change is additive, or the old
// field is kept, its description starting "Deprecated", for one release
// before it goes.
//
// Taken away: an output field that is no longer there (unless it was
// deprecated), has another type, or is no longer always there; an argument
// that is no longer accepted, or one that is newly required. An argument's
// type is not compared: a handler takes what an older schema allowed (a
// null where a default now stands).
func breaking(old, new []byte) ([]string, error) {
	var o, n struct {
		Input  schema `json:"inputSchema"`
		Output schema `json:"outputSchema"`
	}
	if err := json.Unmarshal(old, &o); err != nil {
		return nil, fmt.Errorf("the checked-in snapshot: %w", err)
	}
	if err := json.Unmarshal(new, &n); err != nil {
		return nil, fmt.Errorf("the server's tool: %w", err)
	}
	var broken []string
	o.Output.compare(&n.Output, "result", true, &broken)
	o.Input.compare(&n.Input, "arguments", false, &broken)
	return broken, nil
}

// schema is the part of a JSON Schema the comparison reads.
type schema struct {
	Type        any                `json:"type"` // a name, or a list of names
	Description string             `json:"description"`
	Properties  map[string]*schema `json:"properties"`
	Required    []string           `json:"required"`
	Items       *schema            `json:"items"`
}

// compare adds to broken each way in which n, at path, fails a client of
// o: a reader of a result (output) or a writer of arguments.
func (o *schema) compare(n *schema, path string, output bool, broken *[]string) {
	if output && fmt.Sprint(o.Type) != fmt.Sprint(n.Type) {
		*broken = append(*broken, fmt.Sprintf("%s: type %v is now %v", path, o.Type, n.Type))
	}
	for _, name := range slices.Sorted(maps.Keys(o.Properties)) {
		op, np := o.Properties[name], n.Properties[name]
		at := path + "." + name
		switch {
		case np == nil && output && strings.HasPrefix(op.Description, "Deprecated"):
			// Announced a release before: it may go.
		case np == nil:
			*broken = append(*broken, at+": removed")
		default:
			op.compare(np, at, output, broken)
		}
	}
	for _, name := range o.Required {
		if output && n.Properties[name] != nil && !slices.Contains(n.Required, name) {
			*broken = append(*broken, path+"."+name+": no longer always there")
		}
	}
	for _, name := range n.Required {
		if !output && !slices.Contains(o.Required, name) {
			*broken = append(*broken, path+"."+name+": newly required")
		}
	}
	if o.Items != nil && n.Items != nil {
		o.Items.compare(n.Items, path+"[]", output, broken)
	}
}

// TestBreaking holds breaking to the changes a client notices, and only
// those.
func TestBreaking(t *testing.T) {
	const base = `{"inputSchema":{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":["null","integer"]}},"required":["query"]},
"outputSchema":{"type":"object","properties":{"docs":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"},"old":{"type":"string","description":"Deprecated: use path."}},"required":["path"]}}},"required":["docs"]}}`
	for _, tt := range []struct {
		name, from, to string
		want           []string
	}{
		{"unchanged", `"docs"`, `"docs"`, nil},
		{"an output field added", `"old":{`, `"new":{"type":"integer"},"old":{`, nil},
		{"an optional argument added", `"limit":{`, `"version":{"type":"string"},"limit":{`, nil},
		{"a deprecated field gone", `,"old":{"type":"string","description":"Deprecated: use path."}`, ``, nil},
		{"an argument's type narrowed, as a default replaces null", `"limit":{"type":["null","integer"]}`, `"limit":{"type":"integer"}`, nil},
		{"an output field removed", `"path":{"type":"string"},`, ``, []string{"result.docs[].path: removed"}},
		{"an output field retyped", `"path":{"type":"string"}`, `"path":{"type":"integer"}`, []string{"result.docs[].path: type string is now integer"}},
		{"an output field made optional", `"required":["path"]`, `"required":[]`, []string{"result.docs[].path: no longer always there"}},
		{"an argument removed", `"limit":{"type":["null","integer"]}`, `"top":{"type":"integer"}`, []string{"arguments.limit: removed"}},
		{"an argument made required", `"required":["query"]}`, `"required":["query","limit"]}`, []string{"arguments.limit: newly required"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			changed := strings.Replace(base, tt.from, tt.to, 1)
			if changed == base && tt.want != nil {
				t.Fatalf("the case changes nothing: %q not in the base", tt.from)
			}
			got, err := breaking([]byte(base), []byte(changed))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("breaking = %q, want %q", got, tt.want)
			}
		})
	}
}
