package cpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// zonedTable is a table of n rows with zone maps (built by NewHostTable,
// as a load does): id ascending (clustered, so zones are narrow), k with
// many ties and NULLs, a numeric(10,2) with ties and NULLs, a text, and a
// date ascending in runs.
func zonedTable(t *testing.T, n int, seed uint64) *engine.HostTable {
	rng := rand.New(rand.NewPCG(seed, 7))
	ids, ks, ns, ss, ds := make([]any, n), make([]any, n), make([]any, n), make([]any, n), make([]any, n)
	for i := 0; i < n; i++ {
		ids[i] = i + 1
		if rng.IntN(9) != 0 {
			ks[i] = rng.IntN(50) - 25
		}
		if rng.IntN(7) != 0 {
			ns[i] = fmt.Sprintf("%d.%02d", rng.IntN(200)-100, rng.IntN(4)*25)
		}
		ss[i] = fmt.Sprintf("s%02d", rng.IntN(60))
		ds[i] = 9000 + i/1000 + rng.IntN(3)
	}
	h := buildTable(t,
		colSpec{engine.Int32, ids},
		colSpec{engine.Int32, ks},
		colSpec{engine.NumericType(10, 2), ns},
		colSpec{engine.Text, ss},
		colSpec{engine.Date, ds},
	)
	return engine.NewHostTable(h.Cols, h.N)
}

func runWorkers(t *testing.T, p *engine.Plan, workers int) []string {
	t.Helper()
	var rows []string
	err := New(nil, workers).Execute(context.Background(), p, func(b *engine.Batch) error {
		for i := 0; i < b.N; i++ {
			f := make([]string, len(b.Cols))
			for k, v := range b.Cols {
				f[k] = cell(v, i)
			}
			rows = append(rows, strings.Join(f, "|"))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Execute: %v\nplan:\n%s", err, p)
	}
	return rows
}

// TestTopNMatchesFullSort: ORDER BY … LIMIT k (the top-N path, with its
// bound, its zone skipping and its worker merge) gives exactly the rows
// of the full stable sort cut at OFFSET and LIMIT, for keys with ties
// and NULLs in both directions, with and without a filter.
func TestTopNMatchesFullSort(t *testing.T) {
	const n = 20000
	h := zonedTable(t, n, 1)
	i4t, num, tx, dt, bo := engine.Int32, engine.NumericType(10, 2), engine.Text, engine.Date, engine.Bool
	project := []engine.Expr{ref(0, i4t), ref(1, i4t), ref(2, num), ref(3, tx), ref(4, dt)}
	keySets := [][]engine.SortKey{
		{{Col: 0, Desc: true}},                   // the clustered id, backwards: zones skip
		{{Col: 0}},                               // forwards
		{{Col: 1}},                               // ties, NULLs last
		{{Col: 1, Desc: true, NullsFirst: true}}, // NULLs first
		{{Col: 1, NullsFirst: true}, {Col: 3, Desc: true}},
		{{Col: 2, Desc: true, NullsFirst: true}, {Col: 4}},
		{{Col: 2}, {Col: 1, Desc: true}},
		{{Col: 3}, {Col: 2, NullsFirst: true}},
		{{Col: 4, Desc: true}},
		{{Col: 4}, {Col: 1, Desc: true, NullsFirst: true}},
	}
	filters := []engine.Expr{
		nil,
		call(engine.OpGt, bo, ref(1, i4t), i4(10)),
		call(engine.OpLt, bo, ref(0, i4t), i4(30000)),
	}
	for ki, keys := range keySets {
		for fi, f := range filters {
			full := &engine.Plan{Table: "z", Data: h, Filter: f, Limit: -1, Visible: len(project), Project: project, OrderBy: keys}
			all := runWorkers(t, full, 1)
			for _, lo := range []struct{ limit, offset int64 }{{1, 0}, {10, 0}, {7, 3}, {100, 4090}, {5000, 0}, {3, int64(len(all)) - 2}, {10, int64(len(all)) + 5}} {
				want := all[min(int(lo.offset), len(all)):min(int(lo.offset+lo.limit), len(all))]
				for _, workers := range []int{1, 2, 3} {
					p := *full
					p.Limit, p.Offset = lo.limit, lo.offset
					got := runWorkers(t, &p, workers)
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Fatalf("keys %d filter %d limit %d offset %d, %d workers: got %d rows, want %d\ngot  %v\nwant %v",
							ki, fi, lo.limit, lo.offset, workers, len(got), len(want), head(got), head(want))
					}
				}
			}
		}
	}
}

// TestTopNAfterAggregate: a top-N over grouped rows (the aggregate's
// output cut to k without sorting all of it) agrees with the full sort.
func TestTopNAfterAggregate(t *testing.T) {
	h := zonedTable(t, 30000, 2)
	i4t, i8 := engine.Int32, engine.Int64
	// select id % 997, count(*), sum(k) from z group by 1 order by 3 desc nulls first, 1 limit …
	p := aggPlan(h, nil, []engine.Expr{call(engine.OpMod, i4t, ref(0, i4t), i4(997))}, countStar(), agg(engine.AggSum, ref(1, i4t), i8))
	p.OrderBy = []engine.SortKey{{Col: 2, Desc: true, NullsFirst: true}, {Col: 0}}
	all := runWorkers(t, p, 2)
	if len(all) != 997 {
		t.Fatalf("%d groups", len(all))
	}
	for _, lo := range []struct{ limit, offset int64 }{{10, 0}, {1, 996}, {50, 900}} {
		q := *p
		q.Limit, q.Offset = lo.limit, lo.offset
		want := all[lo.offset:min(lo.offset+lo.limit, int64(len(all)))]
		checkRows(t, fmt.Sprintf("grouped top-N limit %d offset %d", lo.limit, lo.offset), runWorkers(t, &q, 2), want...)
	}
}

// TestTopNErrorsStillRaised: an output column that fails on some row
// raises its error on the top-N path as on the full sort, even when that
// row could never enter the first k.
func TestTopNErrorsStillRaised(t *testing.T) {
	h := zonedTable(t, 20000, 3)
	i4t := engine.Int32
	// select id, 100 / (id - 15000) from z order by id limit 5: id 15000 divides by zero
	p := &engine.Plan{Table: "z", Data: h, Limit: 5, Visible: 2,
		Project: []engine.Expr{ref(0, i4t), call(engine.OpDiv, i4t, i4(100), call(engine.OpSub, i4t, ref(0, i4t), i4(15000)))},
		OrderBy: []engine.SortKey{{Col: 0}},
	}
	for _, workers := range []int{1, 2} {
		err := New(nil, workers).Execute(context.Background(), p, func(*engine.Batch) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "division by zero") {
			t.Errorf("%d workers: got %v, want division by zero", workers, err)
		}
	}
}

func head(rows []string) []string { return rows[:min(len(rows), 12)] }

// TestDistinctWorkersAgree: DISTINCT aggregates merged across workers
// (each worker's new (group, value) pairs replayed into the first's set)
// give one worker's answer, grouped and global, over values with NULLs
// and numerics of equal value and different scale.
func TestDistinctWorkersAgree(t *testing.T) {
	h := zonedTable(t, 50000, 6)
	i4t, num, tx, i8 := engine.Int32, engine.NumericType(10, 2), engine.Text, engine.Int64
	distinct := func(a engine.AggCall) engine.AggCall { a.Distinct = true; return a }
	mod := call(engine.OpMod, i4t, ref(0, i4t), i4(1000))
	aggs := []engine.AggCall{
		distinct(agg(engine.AggCount, ref(2, num), i8)),
		distinct(agg(engine.AggSum, ref(2, num), engine.Numeric)),
		distinct(agg(engine.AggAvg, mod, engine.Numeric)),
		distinct(agg(engine.AggCount, mod, i8)),
		distinct(agg(engine.AggMin, ref(3, tx), tx)),
		distinct(agg(engine.AggMax, ref(2, num), num)),
		distinct(agg(engine.AggCount, ref(3, tx), i8)),
		countStar(),
		agg(engine.AggSum, ref(1, i4t), i8),
	}
	for _, groupBy := range [][]engine.Expr{nil, {ref(1, i4t)}, {call(engine.OpMod, i4t, ref(0, i4t), i4(7)), ref(3, tx)}} {
		p := aggPlan(h, nil, groupBy, aggs...)
		for c := range len(groupBy) {
			p.OrderBy = append(p.OrderBy, engine.SortKey{Col: c, NullsFirst: true})
		}
		one := runWorkers(t, p, 1)
		for _, w := range []int{2, 3} {
			checkRows(t, fmt.Sprintf("%d group keys, %d workers", len(groupBy), w), runWorkers(t, p, w), one...)
		}
	}
	// count(DISTINCT k) over 50,000 rows: k takes 50 values and NULL.
	p := aggPlan(h, nil, nil, distinct(agg(engine.AggCount, ref(1, i4t), i8)))
	checkRows(t, "count(distinct k)", runWorkers(t, p, 2), "50")
}
