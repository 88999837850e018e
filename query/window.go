package query

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Window functions: row_number() OVER (PARTITION BY ... ORDER BY ...),
// over host data (pgJDBC's getColumns numbers columns with it). The
// source is filtered by WHERE and materialised with one more column per
// window call holding its value; the select list then reads that column.

// windowFinder collects the window calls of a select, not those of its
// subqueries.
type windowFinder struct{ calls []*ast.WindowFuncExpr }

func (f *windowFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr:
		return n, true
	case *ast.WindowFuncExpr:
		f.calls = append(f.calls, x)
		return n, true
	}
	return n, false
}

func (f *windowFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// bindWindows computes the select's window calls into extra source
// columns (see binder.windows).
func (b *binder) bindWindows(sel *ast.SelectStmt) error {
	f := &windowFinder{}
	for _, fld := range sel.Fields.Fields {
		if fld.Expr != nil {
			fld.Expr.Accept(f)
		}
	}
	if sel.OrderBy != nil {
		for _, o := range sel.OrderBy.Items {
			o.Expr.Accept(f)
		}
	}
	if len(f.calls) == 0 {
		return nil
	}
	if sel.Where != nil {
		w := &windowFinder{}
		sel.Where.Accept(w)
		if len(w.calls) > 0 {
			return engine.Errorf(engine.CodeWindowingError, "window functions are not allowed in WHERE")
		}
	}
	if !b.src.present || !b.src.host {
		return unsupported("window functions are supported over the system catalogs only")
	}
	if sel.GroupBy != nil || sel.Having != nil {
		return unsupported("window functions over grouped rows are not supported by gpusql")
	}
	for _, fld := range sel.Fields.Fields {
		if fld.Expr != nil && hasAggregate(fld.Expr) {
			return unsupported("window functions over grouped rows are not supported by gpusql")
		}
	}

	// The filtered rows with every source column, then per call its
	// PARTITION BY and ORDER BY values.
	p := b.src.plan()
	if sel.Where != nil {
		w, err := b.predicate(sel.Where, "WHERE")
		if err != nil {
			return err
		}
		p.Filter = w
	}
	for i, c := range b.src.cols {
		p.Project = append(p.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		p.Names = append(p.Names, c.Name)
	}
	type spec struct {
		parts, keys []engine.SortKey
	}
	specs := make([]spec, len(f.calls))
	for k, w := range f.calls {
		if name := strings.ToLower(w.Name); name != "row_number" {
			return unsupported("window function %s is not supported by gpusql (only row_number)", name)
		}
		if len(w.Args) != 0 {
			return engine.Errorf(engine.CodeUndefinedFunction, "function row_number with %d arguments does not exist", len(w.Args))
		}
		if w.Spec.Name.O != "" || w.Spec.Ref.O != "" || w.Spec.Frame != nil {
			return unsupported("named windows and window frames are not supported by gpusql")
		}
		add := func(n ast.ExprNode, desc bool) (engine.SortKey, error) {
			key := engine.SortKey{Desc: desc, NullsFirst: desc}
			if fc, ok := n.(*ast.FuncCallExpr); ok && (fc.FnName.L == "__gpusql_nulls_first" || fc.FnName.L == "__gpusql_nulls_last") && len(fc.Args) == 1 {
				key.NullsFirst = fc.FnName.L == "__gpusql_nulls_first"
				n = fc.Args[0]
			}
			e, err := b.expr(n)
			if err != nil {
				return key, err
			}
			if isUnknown(e) {
				if e, err = castTo(e, engine.Text); err != nil {
					return key, err
				}
			}
			key.Col = len(p.Project)
			p.Project = append(p.Project, e)
			p.Names = append(p.Names, "")
			return key, nil
		}
		if w.Spec.PartitionBy != nil {
			for _, it := range w.Spec.PartitionBy.Items {
				key, err := add(it.Expr, false)
				if err != nil {
					return err
				}
				specs[k].parts = append(specs[k].parts, key)
			}
		}
		if w.Spec.OrderBy != nil {
			for _, it := range w.Spec.OrderBy.Items {
				key, err := add(it.Expr, it.Desc)
				if err != nil {
					return err
				}
				specs[k].keys = append(specs[k].keys, key)
			}
		}
	}
	p.Visible = len(p.Project)
	rows, err := b.collect(p, "a window function's input")
	if err != nil {
		return err
	}

	// Row numbers: sort row indexes by partition then order keys, and
	// count within each partition. Ties keep table order.
	ncols := len(b.src.cols)
	idx := engine.NewVec(engine.Int64, rows.N)
	for i := range idx.I {
		idx.I[i] = int64(i)
	}
	withIdx := &engine.Batch{N: rows.N, Cols: append(append([]*engine.Vec(nil), rows.Cols...), idx)}
	idxCol := len(withIdx.Cols) - 1
	out := &engine.Batch{N: rows.N, Cols: rows.Cols[:ncols:ncols]}
	windows := map[*ast.WindowFuncExpr]int{}
	for k, sp := range specs {
		keys := append(append([]engine.SortKey(nil), sp.parts...), sp.keys...)
		keys = append(keys, engine.SortKey{Col: idxCol})
		sorted := eval.SortBatch(withIdx, keys)
		rn := engine.NewVec(engine.Int64, rows.N)
		var prev, cur []byte
		n := int64(0)
		for i := 0; i < sorted.N; i++ {
			cur = cur[:0]
			for _, pk := range sp.parts {
				cur = eval.AppendKey(cur, sorted.Cols[pk.Col], i)
			}
			if i == 0 || string(cur) != string(prev) {
				n = 0
			}
			prev = append(prev[:0], cur...)
			n++
			rn.I[sorted.Cols[idxCol].I[i]] = n
		}
		windows[f.calls[k]] = ncols + k
		out.Cols = append(out.Cols, rn)
	}
	ts := make([]engine.Type, len(out.Cols))
	names := make([]string, len(out.Cols))
	for i, v := range out.Cols {
		if i < ncols {
			ts[i], names[i] = b.src.cols[i].Type, b.src.cols[i].Name
		} else {
			ts[i], names[i] = v.T, "row_number"
		}
	}
	h, _, err := hostTable(ts, out)
	if err != nil {
		return err
	}
	src := b.src
	src.rels = src.scope() // the window columns are not visible by name
	src.cols = nil
	for i, c := range h.Cols {
		src.cols = append(src.cols, engine.ColumnDef{Name: names[i], Type: c.Type})
	}
	src.data, src.rel = h, nil
	b.src = src
	b.windows = windows
	b.windowFiltered = true
	return nil
}
