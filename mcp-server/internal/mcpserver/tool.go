package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/budget"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
)

// tools are the tools the server registers, in the order tools/list gives
// them: each is declared once, in the file named after it.
func (s *Server) tools() []server.ServerTool {
	return withApp([]server.ServerTool{
		s.askDocsTool(),
		s.searchDocsTool(),
		s.readDocTool(),
		s.listDocPathsTool(),
		s.hookRegistryTool(),
		s.getHookTool(),
		s.readContributingTool(),
		s.repoLayoutTool(),
		s.listVersionsTool(),
		s.docsChangesTool(),
	})
}

// newTool declares a read-only tool once: its name, title and description,
// and its logic f, whose argument and result types give the tool's input
// and output schemas (as the official Go SDK's AddTool[In, Out] does). In
// is a struct of the arguments (struct{} for none), Out a struct of the
// result; both take their field descriptions from jsonschema tags.
func newTool[In, Out any](s *Server, name, title, description string, f toolFunc[In, Out]) server.ServerTool {
	return server.ServerTool{
		Tool: readOnlyTool(name, title, description,
			mcp.WithInputSchema[In](),
			oneType[In](),
			mcp.WithOutputSchema[Out](),
		),
		Handler: handle(s, name, f),
	}
}

// defaulted is a tool's input type with optional arguments whose absence
// (or null) the tool reads as a default other than their zero value: a
// pointer field, such as limit. defaults gives them by JSON name.
type defaulted interface{ defaults() map[string]any }

// oneType gives each property of In's input schema one type, after
// mcp.WithInputSchema: mcp-go types a pointer field ["null", T], which
// clients whose tool schemas allow one type per property reject (Gemini's;
// the Inspector's strict mode warns). Such a property becomes T with its
// default (In's defaults). The tool's behaviour is the same: an argument
// left out, or sent as null, is read as that default.
func oneType[In any]() mcp.ToolOption {
	return func(t *mcp.Tool) {
		var schema jsonschema.Schema
		if err := json.Unmarshal(t.RawInputSchema, &schema); err != nil {
			panic(fmt.Sprintf("%s: read its input schema: %v", t.Name, err))
		}
		var defaults map[string]any
		if d, ok := any(*new(In)).(defaulted); ok {
			defaults = d.defaults()
		}
		for name, p := range schema.Properties {
			if len(p.Types) == 0 {
				continue
			}
			types := slices.DeleteFunc(slices.Clone(p.Types), func(t string) bool { return t == "null" })
			def, ok := defaults[name]
			if len(types) != 1 || !ok {
				panic(fmt.Sprintf("%s: argument %s has the types %v: give its input type a default for it (defaulted)", t.Name, name, p.Types))
			}
			raw, err := json.Marshal(def)
			if err != nil {
				panic(fmt.Sprintf("%s: default of %s: %v", t.Name, name, err))
			}
			p.Type, p.Types, p.Default = types[0], nil, raw
		}
		schema.PropertyOrder = argList[In]() // as mcp-go wrote them: the fields' order
		raw, err := json.Marshal(&schema)
		if err != nil {
			panic(fmt.Sprintf("%s: write its input schema: %v", t.Name, err))
		}
		t.RawInputSchema = raw
	}
}

// toolFunc is a tool's logic: typed arguments in, a typed result and its
// readable text out.
type toolFunc[In, Out any] func(ctx context.Context, in In) (Out, string, error)

// handle adapts a toolFunc to mcp-go: it binds the arguments, runs f and
// shapes its result or error.
func handle[In, Out any](s *Server, tool string, f toolFunc[In, Out]) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := bind(req, &in); err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("%s: %v", tool, err)), nil
		}
		// A release the call names is waited for before its turn, so that
		// a call made while releases load holds no turn another client's
		// call could use.
		if err := s.awaitVersions(ctx, &in); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return s.toolError(ctx, tool, err), nil
		}
		var res *mcp.CallToolResult
		if err := s.work.Do(ctx, clientOf(ctx), func() {
			out, text, err := f(ctx, in)
			if err != nil {
				res = s.toolError(ctx, tool, err)
				return
			}
			res = mcp.NewToolResultStructured(out, text)
			if l, ok := any(out).(linker); ok {
				res.Content = append(res.Content, l.links()...)
			}
		}); err != nil {
			return nil, err // a JSON-RPC error: busy (naming the limits), or the request ended
		}
		return res, nil
	}
}

// linker is a result that links to resources (resource_link content
// items, after its text).
type linker interface{ links() []mcp.Content }

// clientOf is the client a request's work is charged to in the work queue
// (see budget.ClientFor).
func clientOf(ctx context.Context) budget.Client {
	sub, _ := oauth.Subject(ctx)
	session := ""
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		session = cs.SessionID()
	}
	return budget.ClientFor(sub, session, budget.ClientAddr(ctx))
}

// readOnlyTool declares a tool with every annotation set: mcp-go defaults
// to destructive and open-world otherwise.
func readOnlyTool(name, title, description string, opts ...mcp.ToolOption) mcp.Tool {
	return mcp.NewTool(name, append([]mcp.ToolOption{
		mcp.WithDescription(description),
		mcp.WithToolTitle(title),
		mcp.WithTitleAnnotation(title),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	}, opts...)...)
}

// bind decodes a call's arguments into in, strictly: an unknown argument or
// a value of the wrong type is an error that names the argument and lists
// the ones the tool takes. The arguments are decoded once, from the bytes
// the client sent (mcp-go keeps them as RawArguments), by a decoder that
// refuses unknown fields; the unknown one is named from the arguments
// mcp-go decoded already.
func bind[In any](req mcp.CallToolRequest, in *In) error {
	raw := req.Params.RawArguments
	if len(raw) == 0 { // a request built in Go, not read from JSON
		if req.Params.Arguments == nil {
			return nil
		}
		var err error
		if raw, err = json.Marshal(req.Params.Arguments); err != nil {
			return fmt.Errorf("%w: arguments are not JSON: %v", errInput, err)
		}
	}
	if string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(in)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return fmt.Errorf("argument %s must be %s, not %s", typeErr.Field, jsonKind(typeErr.Type), typeErr.Value)
	}
	if name, ok := unknownArg[In](req.GetArguments()); ok {
		return fmt.Errorf("unknown argument %q; this tool takes: %s", name, argNames[In]())
	}
	return fmt.Errorf("arguments must be a JSON object of %s: %v", argNames[In](), err)
}

// unknownArg returns the first by name of the arguments In has no field
// for (matched as encoding/json matches them: without regard to case).
func unknownArg[In any](args map[string]any) (string, bool) {
	t := reflect.TypeFor[In]()
	for _, name := range slices.Sorted(maps.Keys(args)) {
		known := false
		for i := range t.NumField() {
			tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if tag != "-" && tag != "" && strings.EqualFold(tag, name) {
				known = true
				break
			}
		}
		if !known {
			return name, true
		}
	}
	return "", false
}

// argNames lists the JSON names of In's fields.
func argNames[In any]() string {
	names := argList[In]()
	if len(names) == 0 {
		return "no arguments"
	}
	return strings.Join(names, ", ")
}

// argList is the JSON names of In's fields, in their order.
func argList[In any]() []string {
	t := reflect.TypeFor[In]()
	var names []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	default:
		return "a " + t.Kind().String()
	}
}

// limitOf is a tool's limit argument: def when it is absent, an input error
// outside 1 to max (0 included: the schema says 1 to max).
func limitOf(limit *int, def, max int) (int, error) {
	if limit == nil {
		return def, nil
	}
	if *limit < 1 || *limit > max {
		return 0, inputErrorf("limit %d is out of range; use 1 to %d (default %d)", *limit, max, def)
	}
	return *limit, nil
}
