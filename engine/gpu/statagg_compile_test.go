package gpu

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
)

var groupingCols = []*Column{{Type: engine.Int64}, {Type: engine.Int32}, {Type: engine.NumericType(12, 2)},
	{Type: engine.Float64}, {Type: engine.Float32}, {Type: engine.Bool}, {Type: engine.Text, Width: 8}, {Type: engine.Int16}}

// GroupingQueries are issue 10's grouping forms and aggregates over ga
// (id bigint, k integer, n numeric(12,2), d double precision, r real,
// b boolean, g text, s smallint).
var GroupingQueries = []string{
	`SELECT k, var_samp(k), var_pop(n), stddev_samp(n), stddev_pop(id), variance(s), stddev(d), var_pop(r) FROM ga GROUP BY k`,
	`SELECT var_samp(n), stddev(k), var_pop(d), stddev_samp(r) FROM ga`,
	`SELECT g, covar_pop(d, r), covar_samp(n, k), corr(d, r), regr_slope(d, n), regr_intercept(d, r), regr_r2(r, d),
	  regr_sxx(d, r), regr_syy(d, r), regr_sxy(d, r), regr_count(d, r), regr_avgx(d, r), regr_avgy(d, r) FROM ga GROUP BY g`,
	`SELECT k, var_samp(n) FILTER (WHERE b), corr(d, r) FILTER (WHERE k > 0), count(*) FILTER (WHERE b IS NULL),
	  sum(n) FILTER (WHERE g = 'a'), string_agg(g, ',' ORDER BY id) FILTER (WHERE id % 7 = 0) FROM ga GROUP BY k`,
	`SELECT g, bool_and(b), bool_or(b), every(k > 0), bit_and(s), bit_or(s), bit_and(k), bit_or(id), bit_and(id) FROM ga GROUP BY g`,
	`SELECT k, array_agg(g ORDER BY id)::text, array_agg(b ORDER BY id DESC)::text, array_agg(DISTINCT s)::text FROM ga WHERE id % 50 = 3 GROUP BY k`,
	`SELECT g, k, count(*), sum(n), avg(d), var_samp(k), grouping(g, k) FROM ga GROUP BY ROLLUP (g, k)`,
	`SELECT g, b, count(*), max(n), grouping(b) FROM ga GROUP BY CUBE (g, b) HAVING count(*) > 1 ORDER BY g NULLS FIRST, b NULLS FIRST LIMIT 9`,
	`SELECT g, k, b, sum(s) FROM ga GROUP BY GROUPING SETS ((g, k), (b), ()), k`,
	`SELECT DISTINCT ON (g) g, id, n FROM ga ORDER BY g, n DESC NULLS LAST, id`,
	`SELECT DISTINCT ON (k, b) k, b, d FROM ga WHERE d IS NOT NULL ORDER BY k, b, d, id LIMIT 5`,
	`SELECT var_samp(k), stddev(d), corr(d, r), bool_and(b), bit_or(k), count(*) FROM ga WHERE id < -1000000000000000`,
}

// TestGroupingAggsCompile binds GroupingQueries (no device needed: the
// device test, TestGroupingAggsMatchCPU, runs them) and checks that the
// device compiles every aggregation they make: each grouping set's, the
// main pass with the statistics' placeholders, and the statistics' sums
// (statPlan), at the static scales statAggs reads; the fused kernels
// refuse the statistics.
func TestGroupingAggsCompile(t *testing.T) {
	rec, exec := recordingSession(t, "", `CREATE TABLE ga (id bigint, k integer, n numeric(12,2), d double precision, r real, b boolean, g text, s smallint)`)
	stats := 0
	for _, q := range GroupingQueries {
		rec.plan = nil
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		p := rec.plan
		plans := []*engine.Plan{p}
		for _, gs := range p.GroupingSets {
			plans = append(plans, p.SetPlan(gs))
		}
		for _, p := range plans {
			if !p.Aggregate {
				continue
			}
			c := &compiler{p: newProgram(), cols: groupingCols}
			for _, g := range p.GroupBy {
				if _, err := c.compile(g, 0); err != nil {
					t.Errorf("%s: key %s: %v", q, g, err)
				}
			}
			if _, _, err := compileAggsAt(c, p, 0, nil); err != nil {
				t.Errorf("%s: %v", q, err)
			}
			sub, comps := statPlan(p)
			if len(comps) == 0 {
				continue
			}
			stats++
			for _, sc := range comps {
				// statAggs's passes: q_agg over chunks of aggChunk sums,
				// one float-sum pass per aggregate
				one := *sub
				one.Aggs = sub.Aggs[sc.first : sc.first+sc.n]
				c = &compiler{p: newProgram(), cols: groupingCols}
				qa, argv, err := compileAggsAt(c, &one, 0, nil)
				if err != nil || len(qa) != len(one.Aggs) || len(one.Aggs) > aggChunk {
					t.Errorf("%s: the statistics' sums: %v (%d of %d)", q, err, len(qa), len(one.Aggs))
					continue
				}
				if sc.numeric && argv[1].scale != 2*argv[0].scale {
					t.Errorf("%s: sum(x*x) at scale %d, sum(x) at %d", q, argv[1].scale, argv[0].scale)
				}
			}
			if _, _, err := compileAggs(&compiler{p: newProgram(), cols: groupingCols}, p, 0); err == nil {
				t.Errorf("%s: the fused path accepts statistics", q)
			}
		}
	}
	if stats == 0 {
		t.Error("no statistics compiled")
	}
}
