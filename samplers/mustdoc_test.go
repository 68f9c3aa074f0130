package samplers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestConstructorsSayTheyPanic: the constructors that take Options panic on invalid
// ones (through must), and their doc comments say so and point at New.
func TestConstructorsSayTheyPanic(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "sampler.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !fn.Name.IsExported() || fn.Type.Params.NumFields() == 0 {
			continue
		}
		calls := false
		ast.Inspect(fn.Body, func(x ast.Node) bool {
			if c, ok := x.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "must" {
					calls = true
				}
			}
			return true
		})
		if !calls {
			continue
		}
		n++
		if doc := fn.Doc.Text(); !strings.Contains(doc, "panics on invalid options") || !strings.Contains(doc, "New returns the error") {
			t.Errorf("%s's doc comment does not say it panics on invalid options (and that New returns the error):\n%s", fn.Name.Name, doc)
		}
	}
	if n != 5 {
		t.Errorf("%d constructors call must, want 5 (RAPOS, POS, PCTCP, TaPCT, DPOS)", n)
	}
	defer func() {
		if recover() == nil {
			t.Error("TaPCT with depth −1 did not panic")
		}
	}()
	TaPCT(Options{Depth: -1})
}
