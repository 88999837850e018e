package cpu

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// The expected rows in this file were produced by PostgreSQL 15.20 from the
// same data (the CREATE TABLE / INSERT statements are quoted next to each
// table builder) with psql -At -P null=NULL, max_parallel_workers_per_gather
// = 0. Rows are fields joined by '|'.

// ---- table building ----

type colSpec struct {
	t    engine.Type
	vals []any // nil for NULL; int, int64, float64, string (numeric: its literal)
}

// buildTable makes a HostTable. NULL rows get non-zero garbage in their
// data slots, so code that reads a NULL row's value gives itself away.
func buildTable(t *testing.T, specs ...colSpec) *engine.HostTable {
	t.Helper()
	n := len(specs[0].vals)
	h := &engine.HostTable{N: int64(n)}
	for _, sp := range specs {
		if len(sp.vals) != n {
			t.Fatalf("column lengths differ")
		}
		width := len("POISON!")
		nullable := false
		for _, v := range sp.vals {
			if s, ok := v.(string); ok && len(s) > width {
				width = len(s)
			}
			if v == nil {
				nullable = true
			}
		}
		c := engine.NewColumn(sp.t, n, width, nullable)
		for i, v := range sp.vals {
			if v == nil {
				c.SetNull(i)
				poison(c, i)
				continue
			}
			setCell(t, c, i, v)
		}
		h.Cols = append(h.Cols, c)
	}
	return h
}

func poison(c *engine.Column, i int) {
	switch {
	case c.B != nil:
		c.B[i] = 1
	case c.I16 != nil:
		c.I16[i] = 4242
	case c.I32 != nil:
		c.I32[i] = 424242
	case c.I64 != nil:
		c.I64[i] = 4242424242
	case c.F32 != nil:
		c.F32[i] = 42.5
	case c.F64 != nil:
		c.F64[i] = 42.5
	case c.Str != nil:
		copy(c.Str[i*c.Width:(i+1)*c.Width], "POISON!")
	}
}

func setCell(t *testing.T, c *engine.Column, i int, v any) {
	t.Helper()
	switch c.Type.Kind {
	case engine.KindBool:
		if v.(bool) {
			c.B[i] = 1
		}
	case engine.KindInt16:
		c.I16[i] = int16(v.(int))
	case engine.KindInt32, engine.KindDate:
		c.I32[i] = int32(v.(int))
	case engine.KindInt64, engine.KindTimestamp:
		switch x := v.(type) {
		case int:
			c.I64[i] = int64(x)
		case int64:
			c.I64[i] = x
		}
	case engine.KindNumeric:
		d, ok := engine.ParseDecLiteral(v.(string))
		if !ok {
			t.Fatalf("bad numeric %v", v)
		}
		d, ok = d.Rescale(int32(c.Type.Scale))
		m, ok2 := d.Int64()
		if !ok || !ok2 {
			t.Fatalf("numeric %v does not fit", v)
		}
		c.I64[i] = m
	case engine.KindFloat32:
		c.F32[i] = float32(v.(float64))
	case engine.KindFloat64:
		c.F64[i] = v.(float64)
	default:
		copy(c.Str[i*c.Width:(i+1)*c.Width], v.(string))
	}
}

// ---- plan building ----

func ref(i int, t engine.Type) *engine.ColRef {
	return &engine.ColRef{Idx: i, Name: fmt.Sprint("c", i), T: t}
}

func refs(types ...engine.Type) []engine.Expr {
	out := make([]engine.Expr, len(types))
	for i, t := range types {
		out[i] = ref(i, t)
	}
	return out
}

func call(op engine.Op, t engine.Type, args ...engine.Expr) *engine.Call {
	return &engine.Call{Op: op, Args: args, T: t}
}

func i4(v int64) *engine.Const    { return &engine.Const{T: engine.Int32, I: v} }
func text(s string) *engine.Const { return &engine.Const{T: engine.Text, S: s} }

func agg(f engine.AggFunc, arg engine.Expr, t engine.Type) engine.AggCall {
	return engine.AggCall{Func: f, Arg: arg, T: t}
}

func countStar() engine.AggCall { return engine.AggCall{Func: engine.AggCountStar, T: engine.Int64} }

// aggPlan groups by groupBy and projects the group keys then the
// aggregates, in order.
func aggPlan(h *engine.HostTable, filter engine.Expr, groupBy []engine.Expr, aggs ...engine.AggCall) *engine.Plan {
	p := &engine.Plan{Table: "t", Data: h, Filter: filter, Aggregate: true, GroupBy: groupBy, Aggs: aggs, Limit: -1}
	var types []engine.Type
	for _, g := range groupBy {
		types = append(types, g.Type())
	}
	for _, a := range aggs {
		types = append(types, a.T)
	}
	p.Project = refs(types...)
	p.Visible = len(p.Project)
	return p
}

// run executes p and renders its rows. It checks that every batch the sink
// receives is well formed.
func run(t *testing.T, p *engine.Plan) []string {
	t.Helper()
	rows, err := runErr(p)
	if err != nil {
		t.Fatalf("Execute: %v\nplan:\n%s", err, p)
	}
	return rows
}

func runErr(p *engine.Plan) ([]string, error) {
	var rows []string
	var bad error
	err := New(nil, 1).Execute(context.Background(), p, func(b *engine.Batch) error {
		if len(b.Cols) != p.Visible {
			bad = fmt.Errorf("batch has %d columns, want %d", len(b.Cols), p.Visible)
		}
		for _, v := range b.Cols {
			if v.N != b.N {
				bad = fmt.Errorf("vector of %d rows in a batch of %d", v.N, b.N)
			}
		}
		for i := 0; i < b.N; i++ {
			f := make([]string, len(b.Cols))
			for k, v := range b.Cols {
				f[k] = cell(v, i)
			}
			rows = append(rows, strings.Join(f, "|"))
		}
		return nil
	})
	if err == nil {
		err = bad
	}
	return rows, err
}

func cell(v *engine.Vec, i int) string {
	if v.IsNull(i) {
		return "NULL"
	}
	if v.T.Kind == engine.KindBool {
		if v.I[i] != 0 {
			return "t"
		}
		return "f"
	}
	return string(engine.AppendText(nil, v, i))
}

func checkRows(t *testing.T, name string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot  (%d rows)\n%s\nwant (%d rows)\n%s", name, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
	}
}

// ---- the small table ----

// smallTable is
//
//	create table t(id int4, g text, v int4, b int8, n numeric(10,2), f float8, r real, s varchar(10));
//	insert into t values
//	(1, 'a', 10, 9000000000000000000, 1.25, 0.5, 1.1, 'pear'),
//	(2, 'b', -3, 9000000000000000000, -2.50, 0.25, 2.2, 'apple'),
//	(3, NULL, 7, 1, 3.33, NULL, 3.3, 'Zebra'),
//	(4, 'a', NULL, NULL, NULL, 1e10, NULL, NULL),
//	(5, 'b', 5, -5, 0.01, -0.75, 0.1, 'äpfel'),
//	(6, NULL, 2, 7, 10.00, 2.5, 1e10, 'apple'),
//	(7, 'c', NULL, NULL, NULL, NULL, NULL, NULL),
//	(8, 'a', 1, 3, 0.05, 0.1, 0.7, 'banana');
func smallTable(t *testing.T) *engine.HostTable {
	const e18 = int64(9000000000000000000)
	return buildTable(t,
		colSpec{engine.Int32, []any{1, 2, 3, 4, 5, 6, 7, 8}},
		colSpec{engine.Text, []any{"a", "b", nil, "a", "b", nil, "c", "a"}},
		colSpec{engine.Int32, []any{10, -3, 7, nil, 5, 2, nil, 1}},
		colSpec{engine.Int64, []any{e18, e18, 1, nil, -5, 7, nil, 3}},
		colSpec{engine.NumericType(10, 2), []any{"1.25", "-2.50", "3.33", nil, "0.01", "10.00", nil, "0.05"}},
		colSpec{engine.Float64, []any{0.5, 0.25, nil, 1e10, -0.75, 2.5, nil, 0.1}},
		colSpec{engine.Float32, []any{1.1, 2.2, 3.3, nil, 0.1, 1e10, nil, 0.7}},
		colSpec{engine.Type{Kind: engine.KindVarchar, Len: 10}, []any{"pear", "apple", "Zebra", nil, "äpfel", "apple", nil, "banana"}},
	)
}

var (
	tID = engine.Int32
	tG  = engine.Text
	tV  = engine.Int32
	tB  = engine.Int64
	tN  = engine.NumericType(10, 2)
	tF  = engine.Float64
	tR  = engine.Float32
	tS  = engine.Type{Kind: engine.KindVarchar, Len: 10}
)

func smallAggs() []engine.AggCall {
	return []engine.AggCall{
		countStar(),
		agg(engine.AggCount, ref(2, tV), engine.Int64),
		agg(engine.AggSum, ref(2, tV), engine.Int64),
		agg(engine.AggAvg, ref(2, tV), engine.Numeric),
		agg(engine.AggSum, ref(3, tB), engine.Numeric),
		agg(engine.AggAvg, ref(3, tB), engine.Numeric),
		agg(engine.AggSum, ref(4, tN), engine.Numeric),
		agg(engine.AggAvg, ref(4, tN), engine.Numeric),
		agg(engine.AggSum, ref(5, tF), engine.Float64),
		agg(engine.AggAvg, ref(5, tF), engine.Float64),
		agg(engine.AggSum, ref(6, tR), engine.Float32),
		agg(engine.AggAvg, ref(6, tR), engine.Float64),
		agg(engine.AggMin, ref(7, tS), tS),
		agg(engine.AggMax, ref(7, tS), tS),
		agg(engine.AggMin, ref(2, tV), tV),
		agg(engine.AggMax, ref(2, tV), tV),
		agg(engine.AggMin, ref(4, tN), tN),
		agg(engine.AggMax, ref(5, tF), tF),
	}
}

func TestGroupByAggregates(t *testing.T) {
	h := smallTable(t)
	// select g, count(*), count(v), sum(v), avg(v), sum(b), avg(b), sum(n), avg(n), sum(f), avg(f),
	//        sum(r), avg(r), min(s), max(s), min(v), max(v), min(n), max(f)
	// from t group by g order by g nulls first
	p := aggPlan(h, nil, []engine.Expr{ref(1, tG)}, smallAggs()...)
	p.OrderBy = []engine.SortKey{{Col: 0, NullsFirst: true}}
	checkRows(t, "group by g", run(t, p),
		"NULL|2|2|9|4.5000000000000000|8|4.0000000000000000|13.33|6.6650000000000000|2.5|2.5|1e+10|5000000001.65|Zebra|apple|2|7|3.33|2.5",
		"a|3|2|11|5.5000000000000000|9000000000000000003|4500000000000000002|1.30|0.65000000000000000000|10000000000.6|3333333333.5333333|1.8|0.9000000059604645|banana|pear|1|10|0.05|10000000000",
		"b|2|2|2|1.00000000000000000000|8999999999999999995|4499999999999999998|-2.49|-1.24500000000000000000|-0.5|-0.25|2.3|1.150000024586916|apple|äpfel|-3|5|-2.50|0.25",
		"c|1|0|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL",
	)
}

func TestGlobalAggregates(t *testing.T) {
	h := smallTable(t)
	p := aggPlan(h, nil, nil, smallAggs()...)
	// avg(r): PostgreSQL's row-order double sum gives 1666666667.9000003;
	// the exact sum, rounded once, 1666666667.8999999 (exact quotient
	// 1666666667.90000000347...).
	checkRows(t, "global aggregates", run(t, p),
		"8|6|22|3.6666666666666667|18000000000000000006|3000000000000000001|12.14|2.0233333333333333|10000000002.6|1666666667.1000001|1e+10|1666666667.8999999|Zebra|äpfel|-3|10|-2.50|10000000000",
	)
}

func TestAggregatesOverNoRows(t *testing.T) {
	h := smallTable(t)
	noRows := call(engine.OpLt, engine.Bool, ref(0, tID), i4(0)) // where id < 0
	// select count(*), sum(v), avg(v), min(s), sum(b), sum(f) from t where id < 0
	p := aggPlan(h, noRows, nil,
		countStar(),
		agg(engine.AggSum, ref(2, tV), engine.Int64),
		agg(engine.AggAvg, ref(2, tV), engine.Numeric),
		agg(engine.AggMin, ref(7, tS), tS),
		agg(engine.AggSum, ref(3, tB), engine.Numeric),
		agg(engine.AggSum, ref(5, tF), engine.Float64),
	)
	checkRows(t, "global aggregate over no rows", run(t, p), "0|NULL|NULL|NULL|NULL|NULL")
	// select g, count(*) from t where id < 0 group by g → no rows
	p = aggPlan(h, noRows, []engine.Expr{ref(1, tG)}, countStar())
	checkRows(t, "grouped aggregate over no rows", run(t, p))
	// A table with no rows at all.
	empty := buildTable(t, colSpec{engine.Int32, []any{}})
	p = aggPlan(empty, nil, nil, countStar(), agg(engine.AggSum, ref(0, engine.Int32), engine.Int64))
	checkRows(t, "global aggregate over an empty table", run(t, p), "0|NULL")
	p = aggPlan(empty, nil, []engine.Expr{ref(0, engine.Int32)}, countStar())
	checkRows(t, "grouped aggregate over an empty table", run(t, p))
}

func TestCountDistinct(t *testing.T) {
	h := smallTable(t)
	distinct := func(arg engine.Expr) engine.AggCall {
		a := agg(engine.AggCount, arg, engine.Int64)
		a.Distinct = true
		return a
	}
	// select count(distinct s), count(distinct g), count(distinct n), count(distinct r) from t
	p := aggPlan(h, nil, nil, distinct(ref(7, tS)), distinct(ref(1, tG)), distinct(ref(4, tN)), distinct(ref(6, tR)))
	checkRows(t, "count distinct", run(t, p), "5|3|6|6")
	// select g, count(distinct s), count(s) from t group by g order by g nulls first
	p = aggPlan(h, nil, []engine.Expr{ref(1, tG)}, distinct(ref(7, tS)), agg(engine.AggCount, ref(7, tS), engine.Int64))
	p.OrderBy = []engine.SortKey{{Col: 0, NullsFirst: true}}
	checkRows(t, "grouped count distinct", run(t, p), "NULL|2|2", "a|2|2", "b|2|2", "c|0|0")
}

func TestHaving(t *testing.T) {
	h := smallTable(t)
	// select g, count(*) from t group by g having count(*) > 1 order by g
	p := aggPlan(h, nil, []engine.Expr{ref(1, tG)}, countStar())
	p.Having = call(engine.OpGt, engine.Bool, ref(1, engine.Int64), &engine.Const{T: engine.Int64, I: 1})
	p.OrderBy = []engine.SortKey{{Col: 0}}
	checkRows(t, "having", run(t, p), "a|3", "b|2", "NULL|2")
}

func TestFilterProjectSort(t *testing.T) {
	h := smallTable(t)
	bo := engine.Bool
	// select id from t where v > 2 or s like 'a%' order by id
	p := &engine.Plan{Table: "t", Data: h, Limit: -1, Visible: 1,
		Filter: call(engine.OpOr, bo,
			call(engine.OpGt, bo, ref(2, tV), i4(2)),
			call(engine.OpLike, bo, ref(7, tS), text("a%"))),
		Project: []engine.Expr{ref(0, tID)},
		OrderBy: []engine.SortKey{{Col: 0}},
	}
	checkRows(t, "filter with OR and LIKE", run(t, p), "1", "2", "3", "5", "6")

	// select id, g, v from t order by g desc nulls last, v asc nulls first, id
	p = &engine.Plan{Table: "t", Data: h, Limit: -1, Visible: 3,
		Project: []engine.Expr{ref(0, tID), ref(1, tG), ref(2, tV)},
		OrderBy: []engine.SortKey{{Col: 1, Desc: true, NullsFirst: false}, {Col: 2, NullsFirst: true}, {Col: 0}},
	}
	checkRows(t, "multi-key order by", run(t, p),
		"7|c|NULL", "2|b|-3", "5|b|5", "4|a|NULL", "8|a|1", "1|a|10", "6|NULL|2", "3|NULL|7")

	// select id, v * 2, s from t where v is not null order by v desc limit 3 offset 1
	p = &engine.Plan{Table: "t", Data: h, Limit: 3, Offset: 1, Visible: 3,
		Filter:  call(engine.OpIsNotNull, bo, ref(2, tV)),
		Project: []engine.Expr{ref(0, tID), call(engine.OpMul, tV, ref(2, tV), i4(2)), ref(7, tS), ref(2, tV)},
		OrderBy: []engine.SortKey{{Col: 3, Desc: true, NullsFirst: true}},
	}
	checkRows(t, "order by a hidden column with limit/offset", run(t, p), "3|14|Zebra", "5|10|äpfel", "6|4|apple")

	// select distinct g from t order by g nulls last
	p = &engine.Plan{Table: "t", Data: h, Limit: -1, Visible: 1, Distinct: true,
		Project: []engine.Expr{ref(1, tG)},
		OrderBy: []engine.SortKey{{Col: 0}},
	}
	checkRows(t, "distinct", run(t, p), "a", "b", "c", "NULL")

	// select min(s), max(s) over strings with a filter: where s <> 'apple'
	p = aggPlan(h, call(engine.OpNe, bo, ref(7, tS), text("apple")), nil,
		agg(engine.AggMin, ref(7, tS), tS), agg(engine.AggMax, ref(7, tS), tS))
	checkRows(t, "min/max of strings", run(t, p), "Zebra|äpfel")
}

func TestNoFrom(t *testing.T) {
	// select 1 + 2, 'x'
	p := &engine.Plan{Limit: -1, Visible: 2,
		Project: []engine.Expr{call(engine.OpAdd, engine.Int32, i4(1), i4(2)), text("x")}}
	checkRows(t, "select without FROM", run(t, p), "3|x")
	// select count(*) → 1
	p = aggPlan(nil, nil, nil, countStar())
	p.Table, p.Data = "", nil
	checkRows(t, "count(*) without FROM", run(t, p), "1")
}

func TestExecuteErrors(t *testing.T) {
	h := smallTable(t)
	// select 100 / (v - 5) from t → division by zero at id 5
	p := &engine.Plan{Table: "t", Data: h, Limit: -1, Visible: 1,
		Project: []engine.Expr{call(engine.OpDiv, tV, i4(100), call(engine.OpSub, tV, ref(2, tV), i4(5)))}}
	if _, err := runErr(p); engine.Code(err) != engine.CodeDivisionByZero {
		t.Errorf("100 / (v - 5): got %v, want division by zero", err)
	}
	// select sum(v * 1000000000) from t → integer out of range in the argument
	p = aggPlan(h, nil, nil, agg(engine.AggSum, call(engine.OpMul, tV, ref(2, tV), i4(1000000000)), engine.Int64))
	if _, err := runErr(p); engine.Code(err) != engine.CodeNumericValueOutOfRange {
		t.Errorf("sum(v * 1000000000): got %v, want integer out of range", err)
	}
	// A canceled context stops the query.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := New(nil, 1).Execute(ctx, &engine.Plan{Table: "t", Data: h, Limit: -1, Visible: 1, Project: []engine.Expr{ref(0, tID)}},
		func(*engine.Batch) error { return nil })
	if engine.Code(err) != engine.CodeQueryCanceled {
		t.Errorf("canceled context: got %v", err)
	}
}

func TestSumReal(t *testing.T) {
	// select sum(x), avg(x) from (values (16777216::real),(1::real),(1::real),(1::real),(1::real)) v(x)
	// PostgreSQL adds in float4 in row order: 1.6777216e+07 in this order,
	// 1.677722e+07 with the 1s first. gpusql sums exactly and rounds once,
	// the same in every order (docs/sql.md).
	for _, vals := range [][]any{{16777216.0, 1.0, 1.0, 1.0, 1.0}, {1.0, 1.0, 1.0, 1.0, 16777216.0}} {
		h := buildTable(t, colSpec{engine.Float32, vals})
		p := aggPlan(h, nil, nil, agg(engine.AggSum, ref(0, tR), engine.Float32), agg(engine.AggAvg, ref(0, tR), engine.Float64))
		checkRows(t, "sum(real) is exact, rounded once", run(t, p), "1.677722e+07|3355444")
	}
	// select sum(x) from (values (0.1::real),(0.2::real),(0.3::real)) v(x)
	h := buildTable(t, colSpec{engine.Float32, []any{0.1, 0.2, 0.3}})
	p := aggPlan(h, nil, nil, agg(engine.AggSum, ref(0, tR), engine.Float32))
	checkRows(t, "sum(real) of 0.1, 0.2, 0.3", run(t, p), "0.6")
}

func TestGroupKeysNormalised(t *testing.T) {
	// -0 and 0 group together, as do NaNs; numeric 1.5 and 1.50 group
	// together.  select f, count(*) from (values ('-0'::float8), (0), ('NaN'), ('NaN'), (2)) v(f)
	// group by f order by f → 0|2 (or -0|2), 2|1, NaN|2
	h := buildTable(t,
		colSpec{engine.Float64, []any{0.0, math.Copysign(0, -1), math.NaN(), 2.0, math.NaN()}},
	)
	p := aggPlan(h, nil, []engine.Expr{ref(0, tF)}, countStar())
	p.OrderBy = []engine.SortKey{{Col: 0}}
	checkRows(t, "float group keys", run(t, p), "0|2", "2|1", "NaN|2")
}

// ---- the large table ----

// bigTable is, for n = 50000,
//
//	create table big as select i as id,
//	  case when i%11=0 then null else i%7 end as k,
//	  case when i%13=0 then null else (i*37)%1000-500 end as v,
//	  's'||lpad(((i*7919)%1000)::text,3,'0') as s,
//	  (i%100)*0.25::float8 as f,
//	  i::int8*1000000007 as b
//	from generate_series(1,50000) i;
func bigTable(t *testing.T, n int) *engine.HostTable {
	ids, ks, vs, ss, fs, bs := make([]any, n), make([]any, n), make([]any, n), make([]any, n), make([]any, n), make([]any, n)
	for k := 0; k < n; k++ {
		i := k + 1
		ids[k] = i
		if i%11 != 0 {
			ks[k] = i % 7
		}
		if i%13 != 0 {
			vs[k] = (i*37)%1000 - 500
		}
		ss[k] = fmt.Sprintf("s%03d", (i*7919)%1000)
		fs[k] = float64(i%100) * 0.25
		bs[k] = int64(i) * 1000000007
	}
	return buildTable(t,
		colSpec{engine.Int32, ids},
		colSpec{engine.Int32, ks},
		colSpec{engine.Int32, vs},
		colSpec{engine.Text, ss},
		colSpec{engine.Float64, fs},
		colSpec{engine.Int64, bs},
	)
}

func TestBigGroupBy(t *testing.T) {
	h := bigTable(t, 50000)
	i4t, tx, f8, i8 := engine.Int32, engine.Text, engine.Float64, engine.Int64
	cd := agg(engine.AggCount, ref(3, tx), i8)
	cd.Distinct = true
	// select k, count(*), count(v), sum(v), avg(v), min(v), max(v), min(s), max(s), count(distinct s),
	//        sum(f), avg(f), sum(b), avg(b) from big group by k order by k nulls first
	p := aggPlan(h, nil, []engine.Expr{ref(1, i4t)},
		countStar(),
		agg(engine.AggCount, ref(2, i4t), i8),
		agg(engine.AggSum, ref(2, i4t), i8),
		agg(engine.AggAvg, ref(2, i4t), engine.Numeric),
		agg(engine.AggMin, ref(2, i4t), i4t),
		agg(engine.AggMax, ref(2, i4t), i4t),
		agg(engine.AggMin, ref(3, tx), tx),
		agg(engine.AggMax, ref(3, tx), tx),
		cd,
		agg(engine.AggSum, ref(4, f8), f8),
		agg(engine.AggAvg, ref(4, f8), f8),
		agg(engine.AggSum, ref(5, i8), engine.Numeric),
		agg(engine.AggAvg, ref(5, i8), engine.Numeric),
	)
	p.OrderBy = []engine.SortKey{{Col: 0, NullsFirst: true}}
	checkRows(t, "big group by", run(t, p),
		"NULL|4545|4196|-2330|-0.55529075309818875119|-500|499|s000|s999|1000|56283.75|12.383663366336634|113638635795470445|25003000175021.0000",
		"0|6493|5993|-4198|-0.70048389788086100451|-500|499|s000|s999|1000|80361.5|12.376636377637455|162312347136186422|24998051306974.6530",
		"1|6493|5994|-4688|-0.78211544878211544878|-500|499|s000|s999|1000|80372.25|12.378292006776528|162305190136136323|24996949042990.3470",
		"2|6494|5995|-3399|-0.56697247706422018349|-500|499|s000|s999|1000|80362.25|12.374846011703111|162348050136436343|24999699743830.6657",
		"3|6494|5995|-425|-0.07089241034195162636|-500|499|s000|s999|1000|80353.5|12.373498614105328|162340915136386398|24998601037324.6686",
		"4|6493|5993|-4934|-0.82329384281661938929|-500|499|s000|s999|1000|80317|12.369782843061758|162333769136336376|25001350552338.8843",
		"5|6494|5994|-571|-0.09526192859526192860|-500|499|s000|s999|1000|80354.25|12.373614105327995|162376618136636319|25004098881526.9971",
		"6|6494|5994|-4116|-0.68668668668668668669|-500|499|s000|s999|1000|80345.5|12.372266707730212|162369483136586374|25003000175021.0000",
	)
	// select count(*), sum(v), avg(v), count(distinct k), count(distinct v), min(s), max(b), sum(f) from big
	ck := agg(engine.AggCount, ref(1, i4t), i8)
	ck.Distinct = true
	cv := agg(engine.AggCount, ref(2, i4t), i8)
	cv.Distinct = true
	p = aggPlan(h, nil, nil,
		countStar(),
		agg(engine.AggSum, ref(2, i4t), i8),
		agg(engine.AggAvg, ref(2, i4t), engine.Numeric),
		ck, cv,
		agg(engine.AggMin, ref(3, tx), tx),
		agg(engine.AggMax, ref(5, i8), i8),
		agg(engine.AggSum, ref(4, f8), f8),
	)
	checkRows(t, "big global aggregate", run(t, p), "50000|-24661|-0.53431988560038133206|7|1000|s000|50000000350000|618750")
}

func TestBigSortLimitOffset(t *testing.T) {
	h := bigTable(t, 50000)
	i4t, tx, bo := engine.Int32, engine.Text, engine.Bool
	vGt400 := call(engine.OpGt, bo, ref(2, i4t), i4(400))
	// select id, v from big where v > 400 order by v desc, id asc limit 10 offset 3000
	p := &engine.Plan{Table: "big", Data: h, Filter: vGt400, Limit: 10, Offset: 3000, Visible: 2,
		Project: []engine.Expr{ref(0, i4t), ref(2, i4t)},
		OrderBy: []engine.SortKey{{Col: 1, Desc: true, NullsFirst: true}, {Col: 0}},
	}
	checkRows(t, "sorted limit 10 offset 3000", run(t, p),
		"1782|434", "3782|434", "4782|434", "5782|434", "6782|434", "7782|434", "8782|434", "9782|434", "10782|434", "11782|434")
	// ... offset 4090: the window straddles the sorted output's first batch boundary (4096)
	p.Offset = 4090
	checkRows(t, "sorted limit 10 offset 4090", run(t, p),
		"33403|411", "34403|411", "35403|411", "36403|411", "37403|411", "38403|411", "40403|411", "41403|411", "42403|411", "43403|411")
	// select id, s from big order by s desc, id desc offset 4095 limit 3
	p = &engine.Plan{Table: "big", Data: h, Limit: 3, Offset: 4095, Visible: 2,
		Project: []engine.Expr{ref(0, i4t), ref(3, tx)},
		OrderBy: []engine.SortKey{{Col: 1, Desc: true, NullsFirst: true}, {Col: 0, Desc: true, NullsFirst: true}},
	}
	checkRows(t, "string sort offset 4095", run(t, p), "4322|s918", "3322|s918", "2322|s918")

	// Unsorted: select id from big where id % 3 = 0 offset 4090 limit 20
	// (PostgreSQL, scanning in insertion order, gives 12273, 12276, ..., 12330.)
	p = &engine.Plan{Table: "big", Data: h, Limit: 20, Offset: 4090, Visible: 1,
		Filter:  call(engine.OpEq, bo, call(engine.OpMod, i4t, ref(0, i4t), i4(3)), i4(0)),
		Project: []engine.Expr{ref(0, i4t)},
	}
	var want []string
	for id := 12273; id <= 12330; id += 3 {
		want = append(want, fmt.Sprint(id))
	}
	checkRows(t, "unsorted filtered offset/limit across batches", run(t, p), want...)

	// select id from big offset 49998 → 49999, 50000
	p = &engine.Plan{Table: "big", Data: h, Limit: -1, Offset: 49998, Visible: 1, Project: []engine.Expr{ref(0, i4t)}}
	checkRows(t, "offset near the end", run(t, p), "49999", "50000")
	// offset past the end, and limit 0
	p.Offset = 50000
	checkRows(t, "offset past the end", run(t, p))
	p.Offset, p.Limit = 0, 0
	checkRows(t, "limit 0", run(t, p))
	// select id from big where id%2=0 offset 4000 limit 300 → 8002, 8004, ..., 8600
	p = &engine.Plan{Table: "big", Data: h, Limit: 300, Offset: 4000, Visible: 1,
		Filter:  call(engine.OpEq, bo, call(engine.OpMod, i4t, ref(0, i4t), i4(2)), i4(0)),
		Project: []engine.Expr{ref(0, i4t)},
	}
	want = want[:0]
	for id := 8002; id <= 8600; id += 2 {
		want = append(want, fmt.Sprint(id))
	}
	checkRows(t, "limit 300 offset 4000 over even ids", run(t, p), want...)
	// The same with a sort on id: the buffered path must agree.
	p.OrderBy = []engine.SortKey{{Col: 0}}
	checkRows(t, "sorted limit 300 offset 4000 over even ids", run(t, p), want...)
}

func TestBigDistinctAndNullOrder(t *testing.T) {
	h := bigTable(t, 50000)
	i4t, bo := engine.Int32, engine.Bool
	// select distinct k from big order by k desc nulls first
	p := &engine.Plan{Table: "big", Data: h, Limit: -1, Visible: 1, Distinct: true,
		Project: []engine.Expr{ref(1, i4t)},
		OrderBy: []engine.SortKey{{Col: 0, Desc: true, NullsFirst: true}},
	}
	checkRows(t, "distinct k", run(t, p), "NULL", "6", "5", "4", "3", "2", "1", "0")
	// select distinct v % 3 as m from big order by m nulls first
	p = &engine.Plan{Table: "big", Data: h, Limit: -1, Visible: 1, Distinct: true,
		Project: []engine.Expr{call(engine.OpMod, i4t, ref(2, i4t), i4(3))},
		OrderBy: []engine.SortKey{{Col: 0, NullsFirst: true}},
	}
	checkRows(t, "distinct v % 3", run(t, p), "NULL", "-2", "-1", "0", "1", "2")
	// select id, k from big where id <= 30 order by k nulls first, id desc
	p = &engine.Plan{Table: "big", Data: h, Limit: -1, Visible: 2,
		Filter:  call(engine.OpLe, bo, ref(0, i4t), i4(30)),
		Project: []engine.Expr{ref(0, i4t), ref(1, i4t)},
		OrderBy: []engine.SortKey{{Col: 1, NullsFirst: true}, {Col: 0, Desc: true, NullsFirst: true}},
	}
	checkRows(t, "nulls first, id desc", run(t, p),
		"22|NULL", "11|NULL", "28|0", "21|0", "14|0", "7|0", "29|1", "15|1", "8|1", "1|1",
		"30|2", "23|2", "16|2", "9|2", "2|2", "24|3", "17|3", "10|3", "3|3", "25|4", "18|4", "4|4",
		"26|5", "19|5", "12|5", "5|5", "27|6", "20|6", "13|6", "6|6")
}

// TestSortStable: gpusql's sort is stable (PostgreSQL promises no order
// among equal keys, so this is gpusql's own contract): rows with equal keys
// keep their scan order.
func TestSortStable(t *testing.T) {
	h := bigTable(t, 9000)
	i4t := engine.Int32
	p := &engine.Plan{Table: "big", Data: h, Limit: -1, Visible: 2,
		Project: []engine.Expr{ref(1, i4t), ref(0, i4t)},
		OrderBy: []engine.SortKey{{Col: 0, Desc: true, NullsFirst: false}},
	}
	rows := run(t, p)
	if len(rows) != 9000 {
		t.Fatalf("got %d rows", len(rows))
	}
	prevK, prevID := "", 0
	for _, r := range rows {
		var k string
		var id int
		parts := strings.Split(r, "|")
		k = parts[0]
		fmt.Sscan(parts[1], &id)
		if k == prevK && id <= prevID {
			t.Fatalf("rows with k=%s out of scan order: %d after %d", k, id, prevID)
		}
		prevK, prevID = k, id
	}
	if !strings.HasPrefix(rows[0], "6|") || !strings.HasPrefix(rows[len(rows)-1], "NULL|") {
		t.Errorf("desc nulls last: first %s, last %s", rows[0], rows[len(rows)-1])
	}
}

// TestWorkersAgree: more workers must not change results.
func TestWorkersAgree(t *testing.T) {
	h := bigTable(t, 20000)
	i4t := engine.Int32
	p := aggPlan(h, nil, []engine.Expr{ref(1, i4t)}, countStar(), agg(engine.AggSum, ref(2, i4t), engine.Int64))
	p.OrderBy = []engine.SortKey{{Col: 0, NullsFirst: true}}
	one := run(t, p)
	var four []string
	err := New(nil, 4).Execute(context.Background(), p, func(b *engine.Batch) error {
		for i := 0; i < b.N; i++ {
			four = append(four, cell(b.Cols[0], i)+"|"+cell(b.Cols[1], i)+"|"+cell(b.Cols[2], i))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, "4 workers vs 1", four, one...)
}

func TestIntegerSumAvgTypes(t *testing.T) {
	// select sum(x), avg(x) from (values (32767::int2),(32767::int2)) v(x) → 65534|32767.000000000000
	h := buildTable(t, colSpec{engine.Int16, []any{32767, 32767}})
	p := aggPlan(h, nil, nil, agg(engine.AggSum, ref(0, engine.Int16), engine.Int64), agg(engine.AggAvg, ref(0, engine.Int16), engine.Numeric))
	checkRows(t, "sum/avg(int2)", run(t, p), "65534|32767.000000000000")
	// select sum(x), avg(x) from (values (2147483647),(2147483647)) v(x)
	h = buildTable(t, colSpec{engine.Int32, []any{2147483647, 2147483647}})
	p = aggPlan(h, nil, nil, agg(engine.AggSum, ref(0, engine.Int32), engine.Int64), agg(engine.AggAvg, ref(0, engine.Int32), engine.Numeric))
	checkRows(t, "sum/avg(int4)", run(t, p), "4294967294|2147483647.00000000")
	// select sum(x), avg(x) from (values (9223372036854775807::int8),(1::int8)) v(x) → 9223372036854775808|4611686018427387904
	h = buildTable(t, colSpec{engine.Int64, []any{int64(math.MaxInt64), int64(1)}})
	p = aggPlan(h, nil, nil, agg(engine.AggSum, ref(0, engine.Int64), engine.Numeric), agg(engine.AggAvg, ref(0, engine.Int64), engine.Numeric))
	checkRows(t, "sum/avg(int8)", run(t, p), "9223372036854775808|4611686018427387904")
	// select sum(x), avg(x) from (values ('NaN'::float8),(1::float8)) v(x) → NaN|NaN
	h = buildTable(t, colSpec{engine.Float64, []any{math.NaN(), 1.0}})
	p = aggPlan(h, nil, nil, agg(engine.AggSum, ref(0, tF), engine.Float64), agg(engine.AggAvg, ref(0, tF), engine.Float64))
	checkRows(t, "sum/avg(float8) with NaN", run(t, p), "NaN|NaN")
	// select sum(x) from (values ('Infinity'::float8),(1::float8)) v(x) → Infinity
	h = buildTable(t, colSpec{engine.Float64, []any{math.Inf(1), 1.0}})
	p = aggPlan(h, nil, nil, agg(engine.AggSum, ref(0, tF), engine.Float64))
	checkRows(t, "sum(float8) with Infinity", run(t, p), "Infinity")
}

func TestFloatSumOverflow(t *testing.T) {
	h := buildTable(t, colSpec{engine.Float64, []any{1e308, 1e308}})
	for _, a := range []engine.AggCall{
		agg(engine.AggSum, ref(0, tF), engine.Float64),
		agg(engine.AggAvg, ref(0, tF), engine.Float64),
	} {
		rows, err := runErr(aggPlan(h, nil, nil, a))
		if engine.Code(err) != engine.CodeNumericValueOutOfRange {
			t.Errorf("%s over 1e308, 1e308: got %v %v, want value out of range: overflow", a, rows, err)
		}
	}
	h = buildTable(t, colSpec{engine.Float32, []any{3e38, 3e38}})
	rows, err := runErr(aggPlan(h, nil, nil, agg(engine.AggSum, ref(0, tR), engine.Float32)))
	if engine.Code(err) != engine.CodeNumericValueOutOfRange {
		t.Errorf("sum(real) over 3e38, 3e38: got %v %v, want value out of range: overflow", rows, err)
	}
	// avg(real) accumulates in float8 and does not overflow:
	// select avg(x) from (values (3e38::real),(3e38::real)) v(x) → 3.0000000054977558e+38
	checkRows(t, "avg(real) of 3e38 twice", run(t, aggPlan(h, nil, nil, agg(engine.AggAvg, ref(0, tR), engine.Float64))), "3.0000000054977558e+38")
}

func TestGroupByExpression(t *testing.T) {
	h := bigTable(t, 50000)
	i4t := engine.Int32
	// select v % 3, count(*), sum(id) from big group by 1 order by 1 nulls last
	p := aggPlan(h, nil, []engine.Expr{call(engine.OpMod, i4t, ref(2, i4t), i4(3))},
		countStar(), agg(engine.AggSum, ref(0, i4t), engine.Int64))
	p.OrderBy = []engine.SortKey{{Col: 0}}
	checkRows(t, "group by v % 3", run(t, p),
		"-2|7708|192723057", "-1|7707|192657333", "0|15369|384218585", "1|7708|192708994", "2|7662|191545878", "NULL|3846|96171153")
}

func TestFloatOrdering(t *testing.T) {
	// select i, f from (values (1,'NaN'::float8),(2,null),(3,'-0'::float8),(4,0),(5,'-Infinity'),(6,2.5),(7,'Infinity')) v(i,f)
	// order by f desc nulls last, i
	h := buildTable(t,
		colSpec{engine.Int32, []any{1, 2, 3, 4, 5, 6, 7}},
		colSpec{engine.Float64, []any{math.NaN(), nil, math.Copysign(0, -1), 0.0, math.Inf(-1), 2.5, math.Inf(1)}},
	)
	p := &engine.Plan{Table: "v", Data: h, Limit: -1, Visible: 2,
		Project: []engine.Expr{ref(0, tID), ref(1, tF)},
		OrderBy: []engine.SortKey{{Col: 1, Desc: true}, {Col: 0}},
	}
	checkRows(t, "float order", run(t, p), "1|NaN", "7|Infinity", "6|2.5", "3|-0", "4|0", "5|-Infinity", "2|NULL")
	// ... group by f order by f desc nulls last: -0 and 0 form one group shown as its first value, -0
	// (PostgreSQL's HashAggregate, forced with enable_sort = off, gives -0|2; a sorted GroupAggregate
	// may show either zero)
	p2 := aggPlan(h, nil, []engine.Expr{ref(1, tF)}, countStar())
	p2.OrderBy = []engine.SortKey{{Col: 0, Desc: true}}
	checkRows(t, "float group order", run(t, p2), "NaN|1", "Infinity|1", "2.5|1", "-0|2", "-Infinity|1", "NULL|1")
}

// TestIntervalGroupKeys: PostgreSQL's interval equality compares spans
// (1 mon = 30 days, 1 day = 24 hours), so GROUP BY and DISTINCT put such
// values together, keeping the first one seen.
//
//	select x, count(*) from (values (interval '1 mon'), (interval '30 days'), (interval '1 day'),
//	  (interval '24 hours')) v(x) group by x order by x  → 1 day|2, 1 mon|2
//	select count(distinct x) from (the same) → 2
func TestIntervalGroupKeys(t *testing.T) {
	h := buildTable(t, colSpec{engine.Text, []any{"1 mon", "30 days", "1 day", "24 hours"}})
	x := call(engine.OpCast, engine.Interval, ref(0, engine.Text))
	p := aggPlan(h, nil, []engine.Expr{x}, countStar())
	p.OrderBy = []engine.SortKey{{Col: 0}}
	checkRows(t, "group by interval", run(t, p), "1 day|2", "1 mon|2")
	cd := agg(engine.AggCount, x, engine.Int64)
	cd.Distinct = true
	checkRows(t, "count(distinct interval)", run(t, aggPlan(h, nil, nil, cd)), "2")
	d := &engine.Plan{Table: "v", Data: h, Limit: -1, Visible: 1, Distinct: true, Project: []engine.Expr{x},
		OrderBy: []engine.SortKey{{Col: 0}}}
	checkRows(t, "distinct interval", run(t, d), "1 day", "1 mon")
}

// mixedTable is
//
//	create table m(c char(5), d date, ts timestamp, b bool, s int2, n numeric(6,3));
//	insert into m values ('ab', '1969-12-31', '1969-12-31 23:59:59.5', true, -5, 1.5),
//	  ('ab  ', '2020-02-29', '2020-02-29 13:14:15', false, 7, -0.001), (NULL, NULL, NULL, NULL, NULL, NULL),
//	  ('xyz', '0044-03-15 BC', '1900-01-01 00:00', true, 32767, 999.999),
//	  ('é', '2020-02-29', '2000-01-01 00:00:00.000001', false, -32768, 0);
func mixedTable(t *testing.T) *engine.HostTable {
	return buildTable(t,
		colSpec{engine.Type{Kind: engine.KindChar, Len: 5}, []any{"ab", "ab  ", nil, "xyz", "é"}},
		colSpec{engine.Date, []any{-1, 18321, nil, -735160, 18321}},
		colSpec{engine.Timestamp, []any{int64(-500000), int64(1582982055000000), nil, int64(-2208988800000000), int64(946684800000001)}},
		colSpec{engine.Bool, []any{true, false, nil, true, false}},
		colSpec{engine.Int16, []any{-5, 7, nil, 32767, -32768}},
		colSpec{engine.NumericType(6, 3), []any{"1.5", "-0.001", nil, "999.999", "0"}},
	)
}

func TestMixedTypes(t *testing.T) {
	h := mixedTable(t)
	tC := engine.Type{Kind: engine.KindChar, Len: 5}
	tN3 := engine.NumericType(6, 3)
	// select c, count(*), min(d), max(ts), min(s), sum(s), avg(s), sum(n), max(n), count(b)
	// from m group by c order by c nulls first
	p := aggPlan(h, nil, []engine.Expr{ref(0, tC)},
		countStar(),
		agg(engine.AggMin, ref(1, engine.Date), engine.Date),
		agg(engine.AggMax, ref(2, engine.Timestamp), engine.Timestamp),
		agg(engine.AggMin, ref(4, engine.Int16), engine.Int16),
		agg(engine.AggSum, ref(4, engine.Int16), engine.Int64),
		agg(engine.AggAvg, ref(4, engine.Int16), engine.Numeric),
		agg(engine.AggSum, ref(5, tN3), engine.Numeric),
		agg(engine.AggMax, ref(5, tN3), tN3),
		agg(engine.AggCount, ref(3, engine.Bool), engine.Int64),
	)
	p.OrderBy = []engine.SortKey{{Col: 0, NullsFirst: true}}
	checkRows(t, "group by char(5)", run(t, p),
		"NULL|1|NULL|NULL|NULL|NULL|NULL|NULL|NULL|0",
		"ab   |2|1969-12-31|2020-02-29 13:14:15|-5|2|1.00000000000000000000|1.499|1.500|2",
		"xyz  |1|0044-03-15 BC|1900-01-01 00:00:00|32767|32767|32767.000000000000|999.999|999.999|1",
		"é    |1|2020-02-29|2000-01-01 00:00:00.000001|-32768|-32768|-32768.000000000000|0.000|0.000|1",
	)
	// select c, d, ts, b, s, n from m order by d desc nulls last, ts
	p = &engine.Plan{Table: "m", Data: h, Limit: -1, Visible: 6,
		Project: refs(tC, engine.Date, engine.Timestamp, engine.Bool, engine.Int16, tN3),
		OrderBy: []engine.SortKey{{Col: 1, Desc: true}, {Col: 2}},
	}
	checkRows(t, "order by date desc, timestamp", run(t, p),
		"é    |2020-02-29|2000-01-01 00:00:00.000001|f|-32768|0.000",
		"ab   |2020-02-29|2020-02-29 13:14:15|f|7|-0.001",
		"ab   |1969-12-31|1969-12-31 23:59:59.5|t|-5|1.500",
		"xyz  |0044-03-15 BC|1900-01-01 00:00:00|t|32767|999.999",
		"NULL|NULL|NULL|NULL|NULL|NULL",
	)
	// select min(c), max(c), count(distinct d) from m
	cd := agg(engine.AggCount, ref(1, engine.Date), engine.Int64)
	cd.Distinct = true
	p = aggPlan(h, nil, nil, agg(engine.AggMin, ref(0, tC), tC), agg(engine.AggMax, ref(0, tC), tC), cd)
	checkRows(t, "min/max(char), count(distinct date)", run(t, p), "ab   |é    |3")
	// select c || '|' from m: char(n) loses its padding when it becomes text
	p = &engine.Plan{Table: "m", Data: h, Limit: -1, Visible: 1,
		Project: []engine.Expr{call(engine.OpConcat, engine.Text, call(engine.OpCast, engine.Text, ref(0, tC)), text("|"))}}
	checkRows(t, "char(5) || text", run(t, p), "ab|", "ab|", "NULL", "xyz|", "é|")
}
