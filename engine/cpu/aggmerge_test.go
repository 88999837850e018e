package cpu

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// manyGroupsTable has n rows of random data over many groups:
// a int4 (NULLs, negative values and the int4 limits), b int4 (a few
// values, NULLs, the mirror images of a's), s text (NULLs), v int4
// (NULLs).
func manyGroupsTable(t *testing.T, n int, seed int64) *engine.HostTable {
	r := rand.New(rand.NewSource(seed))
	as, bs, ss, vs := make([]any, n), make([]any, n), make([]any, n), make([]any, n)
	extremes := []int{math.MinInt32, math.MaxInt32, -1, 0, 1}
	for i := 0; i < n; i++ {
		switch x := r.Intn(100); {
		case x < 3:
			as[i] = nil
		case x < 8:
			as[i] = extremes[r.Intn(len(extremes))]
		default:
			as[i] = r.Intn(40000) - 20000
		}
		switch x := r.Intn(100); {
		case x < 4:
			bs[i] = nil
		case x < 10:
			bs[i] = extremes[r.Intn(len(extremes))]
		default:
			bs[i] = r.Intn(3)
		}
		if r.Intn(50) > 0 {
			ss[i] = fmt.Sprintf("k%d", r.Intn(30000))
		}
		if r.Intn(20) > 0 {
			vs[i] = r.Intn(500) - 250
		}
	}
	return buildTable(t,
		colSpec{engine.Int32, as},
		colSpec{engine.Int32, bs},
		colSpec{engine.Text, ss},
		colSpec{engine.Int32, vs},
	)
}

// wantGroups computes count(*), sum(v) and count(DISTINCT v) of the
// groups of columns keys of h, in the order of their first rows, as the
// backend renders them.
func wantGroups(h *engine.HostTable, keys []int) []string {
	type acc struct {
		key      string
		count    int64
		sum      int64
		has      bool
		distinct map[int64]bool
	}
	var order []*acc
	groups := map[string]*acc{}
	render := func(c *engine.Column, i int) string {
		if c.IsNull(i) {
			return "NULL"
		}
		switch {
		case c.I32 != nil:
			return fmt.Sprint(c.I32[i])
		}
		return string(c.StrAt(i))
	}
	for i := 0; i < int(h.N); i++ {
		var parts []string
		for _, k := range keys {
			parts = append(parts, render(h.Cols[k], i))
		}
		key := strings.Join(parts, "|")
		g := groups[key]
		if g == nil {
			g = &acc{key: key, distinct: map[int64]bool{}}
			groups[key] = g
			order = append(order, g)
		}
		g.count++
		if v := h.Cols[3]; !v.IsNull(i) {
			g.sum += int64(v.I32[i])
			g.has = true
			g.distinct[int64(v.I32[i])] = true
		}
	}
	var rows []string
	for _, g := range order {
		sum := "NULL"
		if g.has {
			sum = fmt.Sprint(g.sum)
		}
		rows = append(rows, fmt.Sprintf("%s|%d|%s|%d", g.key, g.count, sum, len(g.distinct)))
	}
	return rows
}

// TestManyGroupsMatchReference groups random data with many groups by
// one integer key, two integer keys (kept in the table's slots, NULLs
// beside them) and a string key, with count(DISTINCT) per group, on one
// to three workers: the rows, in the order of the groups' first rows,
// must equal a map-based reference, so the partitioned merge of the
// workers' groups must keep that order.
func TestManyGroupsMatchReference(t *testing.T) {
	h := manyGroupsTable(t, 150000, 11)
	i4, i8 := engine.Int32, engine.Int64
	for _, keys := range [][]int{{0}, {0, 1}, {1, 0}, {2}, {2, 1}} {
		var groupBy []engine.Expr
		for _, k := range keys {
			groupBy = append(groupBy, ref(k, h.Cols[k].Type))
		}
		cd := agg(engine.AggCount, ref(3, i4), i8)
		cd.Distinct = true
		p := aggPlan(h, nil, groupBy, countStar(), agg(engine.AggSum, ref(3, i4), i8), cd)
		want := wantGroups(h, keys)
		for workers := 1; workers <= 3; workers++ {
			got := runWorkers(t, p, workers)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("keys %v, %d workers: %d rows (want %d), row %d is %q, want %q", keys, workers, len(got), len(want), i, got[i], want[i])
					}
				}
				t.Fatalf("keys %v, %d workers: %d rows, want %d", keys, workers, len(got), len(want))
			}
		}
		// without the DISTINCT aggregate the workers' groups merge by
		// partitions
		p = aggPlan(h, nil, groupBy, countStar(), agg(engine.AggSum, ref(3, i4), i8))
		var short []string
		for _, w := range want {
			short = append(short, w[:strings.LastIndexByte(w, '|')])
		}
		for workers := 2; workers <= 3; workers++ {
			if got := runWorkers(t, p, workers); strings.Join(got, "\n") != strings.Join(short, "\n") {
				t.Fatalf("keys %v without DISTINCT, %d workers: rows differ from the reference", keys, workers)
			}
		}
	}
}

// TestPairSlotsDistinguishHalves checks that two 32-bit keys packed in
// one slot keep apart keys that differ only by which half holds a value,
// by sign, or by NULL.
func TestPairSlotsDistinguishHalves(t *testing.T) {
	vals := []int{math.MinInt32, -65536, -1, 0, 1, 65535, 65536, math.MaxInt32}
	var as, bs []any
	for _, a := range vals {
		for _, b := range vals {
			as, bs = append(as, a), append(bs, b)
		}
		as, bs = append(as, a), append(bs, nil)
		as, bs = append(as, nil), append(bs, a)
	}
	as, bs = append(as, nil), append(bs, nil)
	n := len(as)
	// every pair twice, in the same order
	as, bs = append(as, as...), append(bs, bs...)
	h := buildTable(t, colSpec{engine.Int32, as}, colSpec{engine.Int32, bs})
	p := aggPlan(h, nil, []engine.Expr{ref(0, engine.Int32), ref(1, engine.Int32)}, countStar())
	got := run(t, p)
	if len(got) != n {
		t.Fatalf("%d groups, want %d: %v", len(got), n, got)
	}
	for _, row := range got {
		if !strings.HasSuffix(row, "|2") {
			t.Fatalf("group %s: want count 2", row)
		}
	}
}
