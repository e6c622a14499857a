package registry

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/docs-mcp/docs-mcp/framework"
)

const schemaURL = "https://github.com/docs-mcp/docs-mcp/framework/mod_hooks.schema.json"

// Check runs every check on a registry file: JSON syntax, the JSON Schema
// (mod_hooks.schema.json, embedded in package framework), and the rules of
// Validate that a schema cannot express. It returns the decoded registry, or
// nil when the file cannot be decoded, and all problems found ordered by
// position; no problems means the registry is valid.
//
// Where the schema and Validate flag the same value, the problem is reported
// once, with Validate's message.
func Check(data []byte) (*Registry, []Problem) {
	r, err := Parse(data)
	var pe *ParseError
	switch {
	case err == nil:
	case errors.As(err, &pe) && pe.Pointer != "":
		// Well-formed JSON with a value of the wrong type: the schema says
		// more, and says it about every such value.
	case errors.As(err, &pe):
		return nil, []Problem{{Line: pe.Line, Col: pe.Col, Message: pe.Msg}}
	default:
		return nil, []Problem{{Message: err.Error()}}
	}

	pos, err := index(data)
	if err != nil { // Parse accepted it, so this cannot happen; say so if it does.
		return nil, []Problem{{Message: fmt.Sprintf("index registry: %v", err)}}
	}
	problems, err := schemaProblems(data, pos)
	if err != nil {
		return nil, []Problem{{Message: err.Error()}}
	}
	if r == nil {
		if len(problems) == 0 { // The schema let a mistyped value through.
			problems = append(problems, Problem{Pointer: pe.Pointer, Line: pe.Line, Col: pe.Col, Message: pe.Msg})
		}
		sortProblems(problems)
		return nil, problems
	}

	own := r.Validate()
	flagged := map[string]bool{}
	for _, p := range own {
		flagged[p.Pointer] = true
	}
	for _, p := range problems {
		if !flagged[p.Pointer] {
			own = append(own, p)
		}
	}
	sortProblems(own)
	return r, own
}

// schemaProblems validates data against the embedded JSON Schema.
func schemaProblems(data []byte, pos *positions) ([]Problem, error) {
	sch, err := compileSchema()
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode registry for schema validation: %w", err)
	}
	err = sch.Validate(doc)
	var ve *jsonschema.ValidationError
	if err == nil {
		return nil, nil
	}
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("validate against schema: %w", err)
	}
	printer := message.NewPrinter(language.English)
	var problems []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		ptr := pointer(stringsToAny(e.InstanceLocation)...)
		where := subject(doc, e.InstanceLocation)
		add := func(ptr, msg string) {
			line, col := pos.lineCol(ptr)
			problems = append(problems, Problem{Pointer: ptr, Line: line, Col: col, Message: where + ": " + msg})
		}
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, m := range k.Missing {
				add(ptr+"/"+escapePointer(m), fmt.Sprintf("missing property %q", m))
			}
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				add(ptr+"/"+escapePointer(p), fmt.Sprintf("unknown property %q", p))
			}
		case *kind.FalseSchema:
			add(ptr, "not allowed here")
		default:
			add(ptr, k.LocalizedString(printer))
		}
	}
	walk(ve)
	return problems, nil
}

func compileSchema() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(framework.SchemaJSON()))
	if err != nil {
		return nil, fmt.Errorf("decode mod_hooks.schema.json: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("load mod_hooks.schema.json: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compile mod_hooks.schema.json: %w", err)
	}
	return sch, nil
}

// subject names the value at loc for a message: the hook it belongs to, by
// name when it has one, and the path inside the hook.
func subject(doc any, loc []string) string {
	if len(loc) < 2 || loc[0] != "hooks" {
		if len(loc) == 0 {
			return "document"
		}
		return strings.Join(loc, ".")
	}
	who := "hook #" + loc[1]
	if obj, ok := doc.(map[string]any); ok {
		if hooks, ok := obj["hooks"].([]any); ok {
			if i, err := strconv.Atoi(loc[1]); err == nil && i >= 0 && i < len(hooks) {
				if h, ok := hooks[i].(map[string]any); ok {
					if name, ok := h["name"].(string); ok && name != "" {
						who = fmt.Sprintf("hook %q", name)
					}
				}
			}
		}
	}
	if len(loc) > 2 {
		who += " " + strings.Join(loc[2:], ".")
	}
	return who
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
