package query

import "github.com/pingcap/tidb/pkg/parser/ast"

// A correlated subquery runs per distinct outer row as a host function.
// Over host data it always could; over a user table it may too when the
// subquery itself reads host data only (the system relations): the CPU
// backend evaluates the function as any other, the GPU backend runs it as
// a host step (engine/gpu/hoststep.go).

// tableFinder collects the table names an AST reads.
type tableFinder struct{ names []*ast.TableName }

func (f *tableFinder) Enter(n ast.Node) (ast.Node, bool) {
	if t, ok := n.(*ast.TableName); ok {
		f.names = append(f.names, t)
	}
	return n, false
}

func (f *tableFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// readsHostOnly reports whether every table q names resolves to host
// data.
func (b *binder) readsHostOnly(q ast.Node) bool {
	f := &tableFinder{}
	q.Accept(f)
	for _, t := range f.names {
		src, err := b.table(t.Schema.O, t.Name.O)
		if err != nil || !src.host {
			return false
		}
	}
	return true
}
