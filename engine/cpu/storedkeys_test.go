package cpu

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestStoredCodeMatchesStrings: storedCode gives equal codes to two
// stored slots exactly when scanRows gives them equal strings, and fails
// exactly for strings of over 7 bytes, over slots of every width with
// zero padding, trailing blanks, empty strings and bytes past a zero.
func TestStoredCodeMatchesStrings(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, w := range []int{4, 8, 12, 16, 20} {
		for _, kind := range []engine.Kind{engine.KindChar, engine.KindVarchar, engine.KindText} {
			col := engine.NewColumn(engine.Type{Kind: kind}, 2000, w, false)
			for i := 0; i < col.Len; i++ {
				b := col.Str[i*col.Width : (i+1)*col.Width]
				m := rng.Intn(len(b) + 1)
				for j := 0; j < m; j++ {
					b[j] = "ab \x01\xff"[rng.Intn(5)]
				}
				if rng.Intn(4) == 0 {
					m = min(m, 1+rng.Intn(3))
					clear(b[m:])
				}
				if rng.Intn(10) == 0 && m < len(b)-1 {
					b[m+1] = 'z' // garbage past the end
				}
			}
			trim := kind == engine.KindChar
			seen := map[int64]string{}
			for i := 0; i < col.Len; i++ {
				s := string(scanColumn(col, i, i+1).S[0])
				code, ok := storedCode(col.Str[i*col.Width:(i+1)*col.Width], trim)
				if ok != (len(s) <= 7) {
					t.Fatalf("width %d %v %q: ok %v", w, kind, s, ok)
				}
				if !ok {
					continue
				}
				if o, dup := seen[code]; dup && o != s {
					t.Fatalf("width %d %v: %q and %q share code %x", w, kind, o, s, code)
				}
				seen[code] = s
				if c2, _ := storedCodeBytes(col.Str[i*col.Width:(i+1)*col.Width], trim); c2 != code {
					t.Fatalf("width %d %v %q: %x byte by byte, %x by words", w, kind, s, c2, code)
				}
				st := &storedStr{col: col, lo: i}
				if cs, _, _, _, ok := st.codes(1, nil); !ok || cs[0] != code {
					t.Fatalf("width %d %v %q: %v in a batch, %x alone", w, kind, s, cs, code)
				}
			}
			for code, s := range seen {
				for code2, s2 := range seen {
					if s == s2 && code != code2 {
						t.Fatalf("width %d %v %q: codes %x and %x", w, kind, s, code, code2)
					}
				}
			}
		}
	}
}

// TestStoredKeysMatchGeneral: aggregations grouped by stored char,
// varchar and text columns read from their stored bytes
// (groupIndex.assignStored, scanBufs.scanLazyStr) give the same groups,
// in the same order, with the same keys and aggregates as the same plans
// scanned into string vectors: keys with NULLs, trailing blanks, empty
// strings, values over 7 bytes in some batches, few and many groups,
// several string keys mixed with integer keys, and conditional sums whose
// condition compares a string column with a constant (read from the
// stored bytes, caseSum.seq), on one and two workers,
// with no filter, a stored-domain filter, a filter on vectors and one
// passing no row.
func TestStoredKeysMatchGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	n := 5*batchRows + 77
	char3 := engine.Type{Kind: engine.KindChar, Len: 3}
	char10 := engine.Type{Kind: engine.KindChar, Len: 10}
	vc := engine.Type{Kind: engine.KindVarchar, Len: 12}
	types := []engine.Type{char3, char10, vc, engine.Text, engine.Int32, engine.Int32, char10}
	widths := []int{3, 10, 12, 12, 0, 0, 10}
	cols := make([]*engine.Column, len(types))
	for c, ty := range types {
		cols[c] = engine.NewColumn(ty, n, widths[c], c != 4 && c != 6)
	}
	put := func(c, i int, s string) {
		col := cols[c]
		copy(col.Str[i*col.Width:(i+1)*col.Width], s)
	}
	few := []string{"", "A", "A ", "N", "R  ", "F"}
	modes := []string{"TRUCK", "MAIL", "REG AIR", "AIR", "FOB", "SHIP", "RAIL", "", " ", "AIR "}
	for i := 0; i < n; i++ {
		put(0, i, few[rng.Intn(len(few))])
		if rng.Intn(9) == 0 {
			cols[0].SetNull(i)
		}
		put(1, i, modes[rng.Intn(len(modes))])
		if rng.Intn(13) == 0 {
			cols[1].SetNull(i)
		}
		// many groups; past 7 bytes in the fourth and fifth batches
		v := fmt.Sprint(rng.Intn(3000))
		if b := i / batchRows; b == 3 || b == 4 && rng.Intn(50) == 0 {
			v = "long-" + v + "-value"
		}
		put(2, i, v)
		if rng.Intn(17) == 0 {
			cols[2].SetNull(i)
		}
		put(3, i, strings.Repeat("x", rng.Intn(4))+strings.Repeat(" ", rng.Intn(2)))
		if rng.Intn(5) == 0 {
			cols[3].SetNull(i)
		}
		cols[4].I32[i] = int32(rng.Intn(4))
		cols[5].I32[i] = int32(rng.Intn(100000))
		if rng.Intn(11) == 0 {
			cols[5].SetNull(i)
		}
		put(6, i, modes[rng.Intn(7)])
	}
	h := engine.NewHostTable(cols, int64(n))
	c0, c1, c2, c3, c4, c5, c6 := ref(0, char3), ref(1, char10), ref(2, vc), ref(3, engine.Text), ref(4, engine.Int32), ref(5, engine.Int32), ref(6, char10)
	keySets := [][]engine.Expr{
		{c0}, {c1}, {c2}, {c3}, {c6},
		{c1, c0}, {c0, c4}, {c4, c1, c3}, {c1, c5}, {c6, c2}, {c0, c1, c3, c4},
		{c1, c1},
	}
	bt, i8 := engine.Bool, engine.Int64
	aggs := []engine.AggCall{
		agg(engine.AggCountStar, nil, i8),
		agg(engine.AggSum, c5, i8),
		agg(engine.AggCount, c0, i8),
		agg(engine.AggMax, c3, engine.Text),
	}
	// conditional sums whose condition compares a string column with a
	// constant (caseSum.seq where the constant allows)
	i32 := engine.Int32
	var condAggs [][]engine.AggCall
	text := func(s string) *engine.Const { return &engine.Const{T: engine.Text, S: s} }
	for _, cond := range []engine.Expr{
		call(engine.OpEq, bt, c0, text("A")),
		call(engine.OpEq, bt, c0, &engine.Const{T: char3, S: "A"}),
		call(engine.OpNe, bt, c0, text("")),
		call(engine.OpEq, bt, text("REG AIR"), c1),
		call(engine.OpNe, bt, c1, text("AIR")),
		call(engine.OpEq, bt, c1, text("AIR ")), // a trailing blank: not compiled
		call(engine.OpEq, bt, c2, text("12")),
		call(engine.OpEq, bt, c2, text("long-12-value")), // past 7 bytes: not compiled
		call(engine.OpEq, bt, c3, text("xx")),
		call(engine.OpNe, bt, c6, text("MAIL")),
		call(engine.OpEq, bt, c6, &engine.Const{T: engine.Text, Null: true}),
	} {
		e := &engine.Case{Conds: []engine.Expr{cond}, Results: []engine.Expr{c5}, Else: i4(0), T: i32}
		e1 := &engine.Case{Conds: []engine.Expr{cond}, Results: []engine.Expr{i4(1)}, Else: &engine.Const{T: i32, Null: true}, T: i32}
		condAggs = append(condAggs, []engine.AggCall{agg(engine.AggCountStar, nil, i8), agg(engine.AggSum, e, i8), agg(engine.AggCount, e1, i8)})
	}
	filters := []engine.Expr{
		nil,
		call(engine.OpGe, bt, c5, i4(30000)), // stored-domain
		call(engine.OpLt, bt, c5, call(engine.OpAdd, engine.Int32, c4, i4(40000))), // on vectors
		call(engine.OpEq, bt, c1, &engine.Const{T: char10, S: "AIR"}),              // on vectors, a key column
		call(engine.OpLt, bt, c4, i4(-1)),                                          // no row
	}
	ctx := context.Background()
	dump := func(b *engine.Batch) string {
		var sb strings.Builder
		for g := 0; g < b.N; g++ {
			for _, v := range b.Cols {
				switch {
				case v.IsNull(g):
					sb.WriteString("NULL")
				case v.S != nil:
					fmt.Fprintf(&sb, "%q", v.S[g])
				default:
					fmt.Fprint(&sb, v.I[g])
				}
				sb.WriteByte(',')
			}
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	lazyRuns := 0
	type plan struct {
		keys []engine.Expr
		aggs []engine.AggCall
	}
	var plans []plan
	for _, keys := range keySets {
		plans = append(plans, plan{keys, aggs})
	}
	for _, ca := range condAggs {
		for _, keys := range [][]engine.Expr{nil, {c1}, {c0, c4}, {c4}} {
			plans = append(plans, plan{keys, ca})
		}
	}
	for fi, filter := range filters {
		for ki, pl := range plans {
			p := &engine.Plan{Aggregate: true, Filter: filter, GroupBy: pl.keys, Aggs: pl.aggs}
			for _, workers := range []int{1, 2} {
				var res [2]string
				for k, eager := range []bool{true, false} {
					r := &execRun{p: p, host: h, rows: n, eager: eager}
					r.used = usedColumns(len(cols), append([]engine.Expr{p.Filter}, exprsOf(p)...)...)
					if p.Filter != nil {
						r.filterCols = usedColumns(len(cols), p.Filter)
						r.restCols = usedColumns(len(cols), exprsOf(p)...)
						r.stored = compileStoredFilter(p.Filter, h)
					}
					if !eager {
						a := newAggregator(p)
						for _, s := range a.states {
							if s.csum != nil {
								s.csum.compilePred(h)
							}
						}
						if r.lazyStrColumns(a) != nil {
							lazyRuns++
						}
					}
					out, err := r.aggregate(ctx, workers)
					if err != nil {
						t.Fatalf("filter %d plan %d: %v", fi, ki, err)
					}
					res[k] = dump(out)
				}
				if res[0] != res[1] {
					t.Fatalf("filter %d plan %d workers %d:\nstored keys:\n%s\nvectors:\n%s", fi, ki, workers, res[1], res[0])
				}
			}
		}
	}
	if lazyRuns == 0 {
		t.Fatal("no plan grouped by stored bytes")
	}
}
