package query

// EXPLAIN [ANALYZE]: the bound plan's String(), one line per row, in one
// text column "QUERY PLAN". ANALYZE runs the plan, discarding its rows,
// and adds the rows it returned and the time the server took.

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// countWriter discards rows.
type countWriter struct{}

func (countWriter) Describe([]engine.ResultColumn) error { return nil }
func (countWriter) Row([][]byte) error                   { return nil }
func (countWriter) Complete(string) error                { return nil }
func (countWriter) Notice(engine.Notice) error           { return nil }
func (countWriter) EmptyQuery() error                    { return nil }

type explainOnlyKey struct{}

// explainOnly reports whether ctx is a plain EXPLAIN's, which shows a
// plan without running it: whatever binding it runs on the way (a join
// or subquery materialised in host memory) is no scan of the statement's,
// and pg_stat_user_tables does not count it.
func explainOnly(ctx context.Context) bool { return ctx.Value(explainOnlyKey{}) != nil }

func (s *Session) explain(ctx context.Context, st *parse.Explain, w engine.ResultWriter, env *paramEnv) error {
	start := time.Now()
	if !st.Analyze {
		ctx = context.WithValue(ctx, explainOnlyKey{}, true)
	}
	if env != nil {
		env.limits = st.Query.LimitParams
	}
	plan, cols, err := s.bindSelectParams(ctx, st.Query.AST, env)
	if err != nil {
		return err
	}
	plan = lowerZones(plan, clockOf(ctx).zone).(*engine.Plan) // timezone.go
	if plan, err = optimize(plan, s.srv.columnStats); err != nil {
		return err
	}
	planned := time.Since(start)
	lines := strings.Split(strings.TrimRight(plan.String(), "\n"), "\n")
	if !st.Analyze {
		lines[0] += s.explainCost(plan) // explain_cost.go
	}
	if st.Verbose {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.Name
		}
		lines = append(lines, "Output: "+strings.Join(names, ", "), "Backend: "+s.srv.backend.Name())
	}
	// a device backend's host steps (engine.Explainer): named here, with
	// what each sent to the host under ANALYZE
	x, steps := s.srv.executor(plan).(engine.Explainer)
	if steps && !st.Analyze {
		lines = append(lines, x.Explain(plan)...)
	}
	if st.Analyze {
		t0 := time.Now()
		actx, log := engine.WithStepLog(ctx)
		actx, ops := engine.WithOpLog(actx)
		rows, err := s.runPlan(actx, plan, cols, countWriter{}, false)
		if err != nil {
			return err
		}
		if ran := ops.Root(); ran != nil {
			plan = ran
		}
		if plan.Input != nil {
			// the tree again, each node with what it did
			lines = strings.Split(strings.TrimRight(plan.Explain(func(r engine.Rel) string {
				st, ok := ops.Stat(r)
				if !ok {
					return ""
				}
				if st.Loops > 1 {
					return fmt.Sprintf("(actual rows=%d loops=%d time=%s)", st.Rows, st.Loops, elapsedMS(st.Time))
				}
				return fmt.Sprintf("(actual rows=%d time=%s)", st.Rows, elapsedMS(st.Time))
			}), "\n"), "\n")
			if st.Verbose {
				names := make([]string, len(cols))
				for i, c := range cols {
					names[i] = c.Name
				}
				lines = append(lines, "Output: "+strings.Join(names, ", "), "Backend: "+s.srv.backend.Name())
			}
		}
		for _, h := range log.Steps() {
			lines = append(lines, h.String())
		}
		lines = append(lines, log.Notes()...)
		lines = append(lines, "Actual Rows: "+strconv.FormatInt(rows, 10),
			"Planning Time: "+elapsedMS(planned), "Execution Time: "+elapsedMS(time.Since(t0)))
	}
	if err := w.Describe([]engine.ResultColumn{textColumn("QUERY PLAN")}); err != nil {
		return err
	}
	for _, l := range lines {
		if err := w.Row([][]byte{[]byte(l)}); err != nil {
			return err
		}
	}
	return w.Complete("EXPLAIN")
}
