// Package registry loads and checks the modkit hook registry, mod_hooks.json.
//
// Parse decodes a registry and reports JSON syntax and type errors with their
// line and column. Registry.Validate reports every semantic problem (naming
// rules, unknown parameter types, duplicate names, broken deprecations) rather
// than stopping at the first. Check does both and also validates the raw
// document against the registry's JSON Schema.
package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Kind says how a hook is dispatched.
type Kind string

const (
	// Event hooks notify handlers that something happened or is about to
	// happen. A cancellable event can be cancelled by a handler.
	Event Kind = "event"
	// Filter hooks pass a value through every handler in priority order;
	// each handler returns the value the next one receives.
	Filter Kind = "filter"
)

// Registry is the decoded content of mod_hooks.json.
type Registry struct {
	// Schema is the optional "$schema" reference editors use to validate
	// the file; it is not needed to load it.
	Schema string `json:"$schema,omitempty"`
	// Version is the version of the registry format (semantic versioning).
	Version string `json:"registry_version"`
	// Framework names the framework the hooks belong to: "modkit".
	Framework string `json:"framework"`
	// Hooks lists every hook, in file order.
	Hooks []Hook `json:"hooks"`

	byName map[string]int // first index of each hook name
	pos    *positions     // where values sit in the source; nil when built in Go
}

// Hook describes one hook a mod can attach a handler to.
type Hook struct {
	Name        string       `json:"name"`
	Kind        Kind         `json:"kind"`
	Category    string       `json:"category"`
	Summary     string       `json:"summary"`
	Description string       `json:"description"`
	Params      []Param      `json:"params"`
	Returns     *Returns     `json:"returns,omitempty"`
	Cancellable bool         `json:"cancellable"`
	Since       string       `json:"since"`
	Deprecated  *Deprecation `json:"deprecated,omitempty"`
	Example     string       `json:"example"`
}

// Param is one parameter handlers receive. For a filter, the first parameter
// is the value being transformed.
type Param struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

// Returns describes the value a filter returns.
type Returns struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

// Deprecation marks a hook that still fires but should no longer be used.
type Deprecation struct {
	Since       string `json:"since"`
	Replacement string `json:"replacement"`
	Reason      string `json:"reason"`
}

// Lookup returns the hook with the given name.
func (r *Registry) Lookup(name string) (*Hook, bool) {
	if i, ok := r.byName[name]; ok && i < len(r.Hooks) && r.Hooks[i].Name == name {
		return &r.Hooks[i], true
	}
	// Built in Go, or changed since Parse: scan.
	for i := range r.Hooks {
		if r.Hooks[i].Name == name {
			return &r.Hooks[i], true
		}
	}
	return nil, false
}

// Names returns the names of all hooks in file order.
func (r *Registry) Names() []string {
	names := make([]string, len(r.Hooks))
	for i, h := range r.Hooks {
		names[i] = h.Name
	}
	return names
}

// Categories returns the distinct hook categories in order of first use.
func (r *Registry) Categories() []string {
	var cats []string
	for _, h := range r.Hooks {
		if !slices.Contains(cats, h.Category) {
			cats = append(cats, h.Category)
		}
	}
	return cats
}

func (r *Registry) indexNames() {
	r.byName = make(map[string]int, len(r.Hooks))
	for i, h := range r.Hooks {
		if _, dup := r.byName[h.Name]; !dup {
			r.byName[h.Name] = i
		}
	}
}

// ParseError is a registry that is not well-formed JSON, or whose values have
// the wrong JSON type for their field.
type ParseError struct {
	Pointer string // JSON pointer of the offending value; "" when unknown
	Offset  int    // byte offset into the input
	Line    int    // 1-based line
	Col     int    // 1-based column, counted in bytes as the Go toolchain does
	Msg     string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse decodes a registry. It fails with a *ParseError on malformed JSON or
// on a value of the wrong type; it does not check the registry's rules (see
// Registry.Validate and Check).
func Parse(data []byte) (*Registry, error) {
	if bytes.HasPrefix(data, utf8BOM) {
		return nil, &ParseError{Line: 1, Col: 1, Msg: "file starts with a UTF-8 byte order mark; save it without one"}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ParseError{Line: 1, Col: 1, Msg: "file is empty; want a JSON object"}
	}
	var r Registry
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, decodeError(data, err)
	}
	pos, err := index(data)
	if err != nil {
		return nil, decodeError(data, err)
	}
	r.pos = pos
	r.indexNames()
	return &r, nil
}

// decodeError turns an encoding/json error into a *ParseError with a position.
func decodeError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := int(se.Offset)
		msg := se.Error()
		if off > 0 && off <= len(data) && msg != "unexpected end of JSON input" {
			off-- // Offset counts the offending byte; point at it.
		}
		line, col := lineCol(data, off)
		switch {
		case msg == "unexpected end of JSON input":
			msg = "unexpected end of file: the JSON document is incomplete"
		case strings.HasSuffix(msg, "after object key:value pair"), strings.HasSuffix(msg, "after array element"):
			msg += " (is a comma missing?)"
		}
		return &ParseError{Offset: off, Line: line, Col: col, Msg: "JSON syntax error: " + msg}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		pos, _ := index(data) // the document is well-formed here
		ptr, off := pos.enclosing(int(te.Offset))
		line, col := lineCol(data, off)
		return &ParseError{
			Pointer: ptr, Offset: off, Line: line, Col: col,
			Msg: fmt.Sprintf("%s: got a JSON %s, want %s", displayPointer(ptr), te.Value, jsonKind(te.Type)),
		}
	}
	return fmt.Errorf("decode registry: %w", err)
}

// jsonKind names the JSON type that decodes into t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "object"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "number"
	}
	return t.String()
}

func displayPointer(ptr string) string {
	if ptr == "" {
		return "document"
	}
	return ptr
}

// initialisms are written in capitals in Go names.
var initialisms = map[string]string{"ai": "AI", "hud": "HUD", "id": "ID", "ip": "IP", "motd": "MOTD", "ui": "UI"}

// GoName returns the name of the hook's constant in package modkit:
// "player.joined" is PlayerJoined, "ui.hud_elements" is UIHUDElements.
func (h *Hook) GoName() string {
	var b strings.Builder
	for _, word := range strings.FieldsFunc(h.Name, func(r rune) bool { return r == '.' || r == '_' }) {
		if up, ok := initialisms[word]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}
