package registry

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *ParseError
	}{
		{
			name: "missing comma",
			in:   "{\n  \"registry_version\": \"1.0.0\"\n  \"framework\": \"modkit\"\n}",
			want: &ParseError{Offset: 34, Line: 3, Col: 3, Msg: `JSON syntax error: invalid character '"' after object key:value pair (is a comma missing?)`},
		},
		{
			name: "truncated",
			in:   "{\"hooks\": [",
			want: &ParseError{Offset: 11, Line: 1, Col: 12, Msg: "JSON syntax error: unexpected end of file: the JSON document is incomplete"},
		},
		{
			name: "bad literal on line 2",
			in:   "{\n\"hooks\": [tru]}",
			want: &ParseError{Offset: 15, Line: 2, Col: 14, Msg: "JSON syntax error: invalid character ']' in literal true (expecting 'e')"},
		},
		{
			name: "byte order mark",
			in:   "\ufeff{}",
			want: &ParseError{Line: 1, Col: 1, Msg: "file starts with a UTF-8 byte order mark; save it without one"},
		},
		{
			name: "blank",
			in:   " \n\t",
			want: &ParseError{Line: 1, Col: 1, Msg: "file is empty; want a JSON object"},
		},
		{
			name: "wrong type deep inside",
			in:   "{\"hooks\": [{\"name\": \"a.b\"},\n  {\"params\": [{\"name\": 7}]}]}",
			want: &ParseError{Pointer: "/hooks/1/params/0/name", Offset: 51, Line: 2, Col: 24, Msg: "/hooks/1/params/0/name: got a JSON number, want string"},
		},
		{
			name: "object where a string belongs",
			in:   `{"framework": {"name": "modkit"}}`,
			want: &ParseError{Pointer: "/framework", Offset: 14, Line: 1, Col: 15, Msg: "/framework: got a JSON object, want string"},
		},
		{
			name: "top level array",
			in:   `[]`,
			want: &ParseError{Offset: 0, Line: 1, Col: 1, Msg: "document: got a JSON array, want object"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse([]byte(tt.in))
			if r != nil {
				t.Errorf("Parse returned a registry for bad input")
			}
			var got *ParseError
			if !errors.As(err, &got) {
				t.Fatalf("Parse error = %v (%T), want a *ParseError", err, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseError mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseKeepsEverything(t *testing.T) {
	in := `{"$schema": "./mod_hooks.schema.json", "registry_version": "1.0.0", "framework": "modkit", "hooks": [
  {"name": "chat.message_sending", "kind": "filter", "category": "chat", "summary": "s", "description": "d",
   "params": [{"name": "message", "type": "string", "description": "m"}],
   "returns": {"type": "string", "description": "r"}, "cancellable": false, "since": "0.2.0",
   "deprecated": {"since": "0.3.0", "replacement": "chat.x", "reason": "why"}, "example": "e"}]}`
	r, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &Registry{
		Schema: "./mod_hooks.schema.json", Version: "1.0.0", Framework: "modkit",
		Hooks: []Hook{{
			Name: "chat.message_sending", Kind: Filter, Category: "chat", Summary: "s", Description: "d",
			Params:  []Param{{Name: "message", Type: "string", Description: "m"}},
			Returns: &Returns{Type: "string", Description: "r"}, Since: "0.2.0",
			Deprecated: &Deprecation{Since: "0.3.0", Replacement: "chat.x", Reason: "why"}, Example: "e",
		}},
	}
	if diff := cmp.Diff(want, r, cmpopts.IgnoreUnexported(Registry{})); diff != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", diff)
	}
	h, ok := r.Lookup("chat.message_sending")
	if !ok || h != &r.Hooks[0] {
		t.Errorf("Lookup(chat.message_sending) = %p, %v; want the first hook", h, ok)
	}
	if _, ok := r.Lookup("chat.nope"); ok {
		t.Error("Lookup(chat.nope) found a hook")
	}
}

// validHook returns a valid event hook to break in tests.
func validHook(name string) Hook {
	return Hook{
		Name: name, Kind: Event, Category: name[:len(name)-len(".x")], Summary: "s", Description: "d",
		Params: []Param{{Name: "player", Type: "Player", Description: "p"}}, Since: "0.1.0", Example: "e",
	}
}

// TestValidateBuiltInGo covers the rules on registries built in Go, where
// problems have no position.
func TestValidateBuiltInGo(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *Registry)
		want   []Problem
	}{
		{name: "valid", change: func(*Registry) {}},
		{
			name:   "empty document",
			change: func(r *Registry) { *r = Registry{} },
			want: []Problem{
				{Pointer: "/framework", Message: `framework is ""; want "modkit"`},
				{Pointer: "/hooks", Message: "hooks is empty; a registry declares at least one hook"},
				{Pointer: "/registry_version", Message: `registry_version is missing; want a version such as "1.0.0"`},
			},
		},
		{
			name:   "empty hook",
			change: func(r *Registry) { r.Hooks[1] = Hook{} },
			want: []Problem{
				{Pointer: "/hooks/1/category", Message: "hook #1: category is missing"},
				{Pointer: "/hooks/1/description", Message: "hook #1: description is missing"},
				{Pointer: "/hooks/1/example", Message: "hook #1: example is missing"},
				{Pointer: "/hooks/1/kind", Message: `hook #1: kind is missing; want "event" or "filter"`},
				{Pointer: "/hooks/1/name", Message: "hook #1: name is missing"},
				{Pointer: "/hooks/1/since", Message: `hook #1: since is missing; want the version that introduced it, such as "0.1.0"`},
				{Pointer: "/hooks/1/summary", Message: "hook #1: summary is missing"},
			},
		},
		{
			name: "multi-line and long summaries",
			change: func(r *Registry) {
				r.Hooks[0].Summary = "one\ntwo"
				r.Hooks[1].Summary = strings.Repeat("x", MaxSummary+1)
			},
			want: []Problem{
				{Pointer: "/hooks/0/summary", Message: `hook "player.x": summary must be one line`},
				{Pointer: "/hooks/1/summary", Message: `hook "world.x": summary is 161 bytes; keep it within 160`},
			},
		},
		{
			name: "types",
			change: func(r *Registry) {
				r.Hooks[0].Params = []Param{
					{Name: "a", Type: "[]Player", Description: "ok"},
					{Name: "b", Type: "map[string][]ItemStack", Description: "ok"},
					{Name: "c", Type: "*Player", Description: "pointer"},
					{Name: "d", Type: "map[int]Player", Description: "int keys"},
					{Name: "e", Type: "ItemStak", Description: "typo"},
					{Name: "f", Type: "", Description: "none"},
					{Name: "g", Type: "Player"},
				}
			},
			want: []Problem{
				{Pointer: "/hooks/0/params/2/type", Message: `hook "player.x": parameter "c": type "*Player" is malformed; write T, []T or map[string]T`},
				{Pointer: "/hooks/0/params/3/type", Message: `hook "player.x": parameter "d": type "map[int]Player" is malformed; write T, []T or map[string]T`},
				{Pointer: "/hooks/0/params/4/type", Message: `hook "player.x": parameter "e": type "ItemStak" is not in the type vocabulary; did you mean "ItemStack"?`},
				{Pointer: "/hooks/0/params/5/type", Message: `hook "player.x": parameter "f" has no type`},
				{Pointer: "/hooks/0/params/6/description", Message: `hook "player.x": parameter "g" has no description`},
			},
		},
		{
			name: "filter rules",
			change: func(r *Registry) {
				r.Hooks[0].Kind = Filter
				r.Hooks[0].Cancellable = true
				r.Hooks[1].Kind = Filter
				r.Hooks[1].Params = nil
				r.Hooks[1].Returns = &Returns{Type: "Widget"}
			},
			want: []Problem{
				{Pointer: "/hooks/0/cancellable", Message: `hook "player.x": a filter cannot be cancellable; only events are`},
				{Pointer: "/hooks/0/returns", Message: `hook "player.x": a filter must say what it returns ("returns": {"type", "description"})`},
				{Pointer: "/hooks/1/params", Message: `hook "world.x": a filter needs a first parameter, the value it transforms`},
				{Pointer: "/hooks/1/returns/description", Message: `hook "world.x": returns has no description`},
				{Pointer: "/hooks/1/returns/type", Message: `hook "world.x": returns: type "Widget" is not in the type vocabulary`},
			},
		},
		{
			name: "deprecation",
			change: func(r *Registry) {
				r.Hooks[0].Deprecated = &Deprecation{Since: "0.1", Replacement: "player.x"}
				r.Hooks[1].Deprecated = &Deprecation{Since: "0.2.0", Replacement: "player.y", Reason: "r"}
			},
			want: []Problem{
				{Pointer: "/hooks/0/deprecated/reason", Message: `hook "player.x": deprecated without a reason`},
				{Pointer: "/hooks/0/deprecated/replacement", Message: `hook "player.x": replacement is the hook itself`},
				{Pointer: "/hooks/0/deprecated/since", Message: `hook "player.x": deprecated.since "0.1" is not a version MAJOR.MINOR.PATCH`},
				{Pointer: "/hooks/1/deprecated/replacement", Message: `hook "world.x": replacement "player.y" is not in the registry; did you mean "player.x"?`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Registry{Version: "1.0.0", Framework: "modkit", Hooks: []Hook{validHook("player.x"), validHook("world.x")}}
			tt.change(r)
			got := r.Validate()
			sortByPointer := cmpopts.SortSlices(func(a, b Problem) bool { return a.Pointer+a.Message < b.Pointer+b.Message })
			if diff := cmp.Diff(tt.want, got, sortByPointer, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Validate mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGoName(t *testing.T) {
	tests := map[string]string{
		"player.joined":        "PlayerJoined",
		"ui.hud_elements":      "UIHUDElements",
		"net.server_status":    "NetServerStatus",
		"lifecycle.tick":       "LifecycleTick",
		"storage.data_v2_sync": "StorageDataV2Sync",
	}
	for name, want := range tests {
		h := Hook{Name: name}
		if got := h.GoName(); got != want {
			t.Errorf("GoName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestProblemString(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{Line: 3, Col: 7, Message: "bad"}, "3:7: bad"},
		{Problem{Message: "no position"}, "no position"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}
