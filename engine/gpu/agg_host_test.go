package gpu

import (
	"context"
	"fmt"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
)

// HostAggQueries are aggregations the kernels refuse, which run on the
// host over the device's keys and arguments (agg_host.go), over cs.
var HostAggQueries = []string{
	`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY f), percentile_disc(0.25) WITHIN GROUP (ORDER BY n DESC), mode() WITHIN GROUP (ORDER BY s) FROM cs`,
	`SELECT s, percentile_cont(0.9) WITHIN GROUP (ORDER BY i), mode() WITHIN GROUP (ORDER BY d), count(*), sum(n) FROM cs GROUP BY s ORDER BY s NULLS FIRST`,
	`SELECT i % 7 AS k, percentile_disc(0.5) WITHIN GROUP (ORDER BY ts) FILTER (WHERE f > 0), avg(f) FROM cs WHERE id % 3 <> 0
	 GROUP BY 1 HAVING count(*) > 2 ORDER BY 2 NULLS LAST, 1 LIMIT 4`,
	`SELECT count(DISTINCT n / i), mode() WITHIN GROUP (ORDER BY n / 4), percentile_disc(0.5) WITHIN GROUP (ORDER BY n / i) FROM cs WHERE i <> 0`,
	`SELECT date_trunc('month', ts) AS m, percentile_cont(0.5) WITHIN GROUP (ORDER BY n) FROM cs GROUP BY 1 ORDER BY 1 NULLS LAST`,
	`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY f), mode() WITHIN GROUP (ORDER BY s) FROM cs WHERE id < 0`,
}

// hostAggBackend runs aggregate plans on the CPU backend the way
// hostAggregate does: the keys and arguments first (a CPU pipeline in
// place of the device's), then hostAggPlan's plan over them.
type hostAggBackend struct {
	*cpu.Backend
	runs int
}

func (b *hostAggBackend) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	if !p.Aggregate || p.Input != nil || p.Host || len(p.GroupingSets) > 0 {
		return b.Backend.Execute(ctx, p, sink)
	}
	b.runs++
	q, exprs := hostAggPlan(p)
	in := &engine.Plan{Table: p.Table, Schema: p.Schema, Data: p.Data, Filter: p.Filter, Project: exprs, Visible: len(exprs), Limit: -1}
	for range exprs {
		in.Names = append(in.Names, "a")
	}
	h, err := b.Backend.Materialize(ctx, in, engine.StoreOptions{})
	if err != nil {
		return err
	}
	q.Data = h
	return b.Backend.Execute(ctx, q, sink)
}

// TestHostAggPlanMatchesCPU checks hostAggPlan's rewrite: HostAggQueries
// on the CPU backend as they are and through hostAggBackend give the
// same rows.
func TestHostAggPlanMatchesCPU(t *testing.T) {
	hb := &hostAggBackend{Backend: cpu.New(nil, 1)}
	ss := csSessions(t, 3000, cpu.New(nil, 1), hb)
	for _, q := range HostAggQueries {
		var out [2]textRowsOf
		var errs [2]error
		before := hb.runs
		for k, s := range ss {
			errs[k] = s.Query(context.Background(), q, &out[k])
		}
		if hb.runs == before {
			t.Errorf("%s: no aggregation rewritten", q)
		}
		if errs[0] != nil || errs[1] != nil {
			t.Errorf("%s:\n cpu %v\n host aggregation %v", q, errs[0], errs[1])
			continue
		}
		if fmt.Sprint(out[0].rows) != fmt.Sprint(out[1].rows) || len(out[0].rows) == 0 {
			t.Errorf("%s:\n cpu %q\n host aggregation %q", q, out[0].rows, out[1].rows)
		}
	}
}
