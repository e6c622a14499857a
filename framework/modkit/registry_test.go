package modkit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-mcp/docs-mcp/framework"
	"github.com/docs-mcp/docs-mcp/framework/registry"
)

func embedded(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := registry.Parse(framework.RegistryJSON())
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestConstantsMatchRegistry proves the Go code and mod_hooks.json agree:
// every hook constant of this package is a hook of the registry with the same
// kind, and every hook of the registry has a constant.
func TestConstantsMatchRegistry(t *testing.T) {
	want := map[string]registry.Kind{}
	for _, h := range embedded(t).Hooks {
		want[h.Name] = h.Kind
	}
	if diff := cmp.Diff(want, declared()); diff != "" {
		t.Errorf("hook constants and mod_hooks.json disagree (-registry +Go); run go generate ./modkit:\n%s", diff)
	}
}

// TestExamplesAreGo checks that each hook's example in the registry is Go
// code that registers a handler for that very hook, through its constant,
// with the right method for its kind.
func TestExamplesAreGo(t *testing.T) {
	for _, h := range embedded(t).Hooks {
		t.Run(h.Name, func(t *testing.T) {
			src := "package p\n\nfunc _() {\n" + h.Example + "\n}\n"
			f, err := parser.ParseFile(token.NewFileSet(), h.Name+".go", src, 0)
			if err != nil {
				t.Fatalf("example does not parse as Go: %v\n%s", err, h.Example)
			}
			method := map[registry.Kind]string{registry.Event: "On", registry.Filter: "Filter"}[h.Kind]
			found := false
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != method {
					return true
				}
				arg, ok := call.Args[0].(*ast.SelectorExpr)
				if ok && arg.Sel.Name == h.GoName() {
					if pkg, ok := arg.X.(*ast.Ident); ok && pkg.Name == "modkit" {
						found = true
					}
				}
				return true
			})
			if !found {
				t.Errorf("example does not call .%s(modkit.%s, ...):\n%s", method, h.GoName(), h.Example)
			}
		})
	}
}
