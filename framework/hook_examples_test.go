package framework_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/framework"
	"github.com/docs-mcp/docs-mcp/framework/registry"
)

// TestHookExamples vets the example of every hook in mod_hooks.json, which
// the wiki's Hook reference shows: it is Go statements that parse; it
// registers a handler for its own hook, with On for an event and Filter for
// a filter, through the hook's generated constant; and every name it takes
// from modkit, and every method it calls on the mod handle (mod) and the
// event (e), exists in the framework. What else it calls (game.…,
// backups.Run, console(e)) stands in for the game and the mod, as the Hook
// reference says above the examples.
func TestHookExamples(t *testing.T) {
	reg, err := registry.Parse(framework.RegistryJSON())
	if err != nil {
		t.Fatalf("load the registry: %v", err)
	}
	exported, methods, constants := modkitAPI(t)
	methods["mod"] = map[string]bool{"On": true, "Filter": true, "ID": true}
	checked := 0
	for _, h := range reg.Hooks {
		src := "package p\nfunc _() {\n" + h.Example + "\n}\n"
		f, err := parser.ParseFile(token.NewFileSet(), h.Name, src, 0)
		if err != nil {
			t.Errorf("%s: the example is not Go statements: %v", h.Name, err)
			continue
		}
		checked++
		body := f.Decls[0].(*ast.FuncDecl).Body.List
		if call := registration(body); call == nil {
			t.Errorf("%s: the example does not start with mod.On or mod.Filter", h.Name)
		} else {
			want := map[registry.Kind]string{registry.Event: "On", registry.Filter: "Filter"}[h.Kind]
			if got := call.Fun.(*ast.SelectorExpr).Sel.Name; got != want {
				t.Errorf("%s: a %s is registered with mod.%s, the example calls mod.%s", h.Name, h.Kind, want, got)
			}
			if c, ok := call.Args[0].(*ast.SelectorExpr); !ok || exprName(c.X) != "modkit" || constants[c.Sel.Name] != h.Name {
				t.Errorf("%s: the example registers for %s, not the hook's constant modkit.%s", h.Name, types(call.Args[0]), constantOf(constants, h.Name))
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch x := exprName(sel.X); {
			case x == "modkit" && !exported[sel.Sel.Name]:
				t.Errorf("%s: the example uses modkit.%s, which the framework does not declare", h.Name, sel.Sel.Name)
			case methods[x] != nil && !methods[x][sel.Sel.Name]:
				t.Errorf("%s: the example calls %s.%s, which the framework does not declare", h.Name, x, sel.Sel.Name)
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no hook example checked")
	}
	t.Logf("%d hook examples checked", checked)
}

// modkitAPI reads framework/modkit's source: its exported package-level
// names, the methods of *Event (keyed "e", the name every example gives the
// event), and the hook constants (constant name -> hook name).
func modkitAPI(t *testing.T) (exported map[string]bool, methods map[string]map[string]bool, constants map[string]string) {
	t.Helper()
	exported, constants = map[string]bool{}, map[string]string{}
	methods = map[string]map[string]bool{"e": {}}
	files, err := filepath.Glob(filepath.Join("modkit", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					exported[d.Name.Name] = d.Name.IsExported()
				} else if types(d.Recv.List[0].Type) == "*Event" {
					methods["e"][d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						exported[s.Name.Name] = s.Name.IsExported()
					case *ast.ValueSpec:
						for i, n := range s.Names {
							exported[n.Name] = n.IsExported()
							if i < len(s.Values) {
								if lit, ok := s.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
									constants[n.Name], _ = strconv.Unquote(lit.Value)
								}
							}
						}
					}
				}
			}
		}
	}
	if len(constants) == 0 || len(methods["e"]) == 0 {
		t.Fatalf("read no hook constants or Event methods from framework/modkit")
	}
	return exported, methods, constants
}

// registration is the mod.On or mod.Filter call an example starts with.
func registration(body []ast.Stmt) *ast.CallExpr {
	if len(body) == 0 {
		return nil
	}
	var e ast.Expr
	switch s := body[0].(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		e = s.Rhs[0]
	case *ast.IfStmt:
		if a, ok := s.Init.(*ast.AssignStmt); ok {
			e = a.Rhs[0]
		}
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && exprName(sel.X) == "mod" {
		return call
	}
	return nil
}

func exprName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// types prints a type or selector expression briefly: "*Event", "modkit.X".
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + types(e.X)
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	}
	return "an expression"
}

func constantOf(constants map[string]string, hook string) string {
	for c, h := range constants {
		if h == hook {
			return c
		}
	}
	return "?"
}
