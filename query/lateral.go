package query

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/gpusql/gpusql/engine"
)

// LATERAL subqueries in FROM. A LATERAL subquery that reads the columns
// of an earlier FROM item (psql's \dP+: LATERAL (SELECT sum(...) FROM
// pg_partition_tree(c.oid)) s) is bound when it gives exactly one row for
// each row of that item: its select list is all aggregates, with no
// GROUP BY, HAVING, DISTINCT, LIMIT or OFFSET. Each of its columns is
// then the correlated scalar subquery selecting that column alone,
// evaluated per row of the earlier item (subquery.go), which is what the
// join with a one-row subquery gives. That runs on the host, over
// catalogs; other shapes are refused.

// lateralSubquery binds FROM l, (subquery) alias where the subquery reads
// l's columns. ok is false when right is not a subquery that does; it
// then binds as any FROM item.
func (b *binder) lateralSubquery(l source, right ast.ResultSetNode) (source, bool, error) {
	ts, ok := right.(*ast.TableSource)
	if !ok || !ts.Lateral {
		return source{}, false, nil // without LATERAL, a sibling's columns are 42P01
	}
	sel, ok := ts.Source.(*ast.SelectStmt)
	if !ok || srfCall(sel) != nil || sel.Fields == nil {
		return source{}, false, nil
	}
	// Only a subquery that names an earlier item's alias is tried (binding
	// runs its uncorrelated subqueries, which the ordinary path would run
	// again).
	aliases := map[string]bool{}
	for _, r := range l.scope() {
		if r.alias != "" {
			aliases[r.alias] = true
		}
	}
	if !namesAlias(sel, aliases) {
		return source{}, false, nil
	}
	lb := &binder{s: b.s, src: l, params: b.params, st: b.st, outer: b.outer}
	sub := lb.child()
	if _, _, err := sub.bindStmt(sel); err != nil || len(sub.outerRefs()) == 0 {
		return source{}, false, nil // uncorrelated, or an error the ordinary path reports
	}
	oneRow := sel.GroupBy == nil && sel.Having == nil && !sel.Distinct && sel.Limit == nil && sel.With == nil
	for _, f := range sel.Fields.Fields {
		oneRow = oneRow && f.Expr != nil && hasAggregate(f.Expr)
	}
	if !oneRow {
		return source{}, true, unsupported("a LATERAL subquery in FROM is supported by gpusql only when it gives one row (aggregates without GROUP BY)")
	}
	if !l.host {
		return source{}, true, unsupported("a LATERAL subquery in FROM is supported by gpusql over system catalogs only")
	}
	alias := ts.AsName.O
	nl := len(l.cols)
	low := l.plan()
	for i, c := range l.cols {
		low.Project = append(low.Project, &engine.ColRef{Idx: i, Name: c.Name, T: c.Type})
		low.Names = append(low.Names, c.Name)
	}
	var cols []engine.ColumnDef
	for _, f := range sel.Fields.Fields {
		one := *sel
		one.Fields = &ast.FieldList{Fields: []*ast.SelectField{f}}
		e, err := lb.expr(&ast.SubqueryExpr{Query: &one})
		if err != nil {
			return source{}, true, err
		}
		name := f.AsName.O
		if name == "" {
			name, _ = figureName(f.Expr)
		}
		low.Project = append(low.Project, e)
		low.Names = append(low.Names, name)
		cols = append(cols, engine.ColumnDef{Name: name, Type: e.Type()})
	}
	low.Visible = len(low.Project)
	src := source{name: l.name + ", " + alias, present: true, host: true, rel: low}
	src.cols = append(append([]engine.ColumnDef(nil), l.cols...), cols...)
	src.rels = append(append([]rel(nil), l.scope()...), rel{alias: alias, start: nl, n: len(cols)})
	for _, r := range src.rels[:len(src.rels)-1] {
		if alias != "" && r.alias == alias {
			return source{}, true, engine.Errorf(engine.CodeDuplicateAlias, "table name %q specified more than once", alias)
		}
	}
	return src, true, nil
}

// namesAlias reports whether n holds a column reference qualified with
// one of aliases.
func namesAlias(n ast.Node, aliases map[string]bool) bool {
	f := &aliasFinder{aliases: aliases}
	n.Accept(f)
	return f.found
}

type aliasFinder struct {
	aliases map[string]bool
	found   bool
}

func (f *aliasFinder) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnName); ok && c.Table.O != "" && f.aliases[c.Table.O] {
		f.found = true
	}
	return n, f.found
}

func (f *aliasFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// partitionTreeSource is pg_partition_tree(rel) in FROM: the partition
// tree of a partitioned table or a partition (relid, parentrelid, isleaf,
// level). gpusql has neither, so it gives no rows, as PostgreSQL does for
// a table that is not partitioned (and for a view, a NULL or an OID that
// names no relation); a name that names none is 42P01.
func (s *Session) partitionTreeSource(alias string, c *engine.Const) (source, error) {
	if !c.Null {
		switch {
		case c.T.IsInteger():
		case c.T.IsString() || isUnknown(c):
			if _, err := s.regOID("regclass", c.S); err != nil {
				return source{}, err
			}
		default:
			return source{}, engine.Errorf(engine.CodeUndefinedFunction, "function pg_partition_tree(%s) does not exist", c.T)
		}
	}
	relid, parent, leaf, level := engine.NewVec(engine.Int64, 0), engine.NewVec(engine.Int64, 0), engine.NewVec(engine.Bool, 0), engine.NewVec(engine.Int32, 0)
	return batchSource(alias, alias, []string{"relid", "parentrelid", "isleaf", "level"},
		[]engine.Type{engine.Int64, engine.Int64, engine.Bool, engine.Int32},
		&engine.Batch{Cols: []*engine.Vec{relid, parent, leaf, level}})
}
