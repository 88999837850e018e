package gpu

import (
	"context"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/query"
)

// planRecorder is the CPU backend, keeping the last plan it ran.
type planRecorder struct {
	engine.Backend
	plan *engine.Plan
}

func (r *planRecorder) Execute(ctx context.Context, p *engine.Plan, sink engine.BatchSink) error {
	r.plan = p
	return r.Backend.Execute(ctx, p, sink)
}

// recordingSession starts a server over the files in dir (a new empty
// folder when dir is "") on the CPU backend with no loader, whose plans
// rec records, and returns a function that runs a statement in a session
// there, discarding its rows; the statement ddl has run.
func recordingSession(t *testing.T, dir, ddl string) (rec *planRecorder, exec func(q string) error) {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	rec = &planRecorder{Backend: cpu.New(nil, 1)}
	srv, err := query.NewServer(query.Options{FileRoot: dir, DataDir: t.TempDir(), Backend: rec})
	if err != nil {
		t.Fatal(err)
	}
	s, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
	if err != nil {
		t.Fatal(err)
	}
	exec = func(q string) error { return s.Query(context.Background(), q, discard{}) }
	if err := exec(ddl); err != nil {
		t.Fatal(err)
	}
	return rec, exec
}

// TestTailCompiles binds functions of the long tail (tail.go) over a
// table's columns and checks that their expressions compile to register
// programs (no device needed: the device test, TestTailMatchesCPU, runs
// them); formats the CPU rejects compile too and raise its errors per
// row (fmtexpr.go).
func TestTailCompiles(t *testing.T) {
	dir := t.TempDir()
	rec, exec := recordingSession(t, dir, `CREATE TABLE tl (id bigint, s text, v varchar(12), t0 timestamp, t1 timestamp, a numeric(10,2), c integer)`) // no loads: the table stays empty
	cols := []*Column{{Type: engine.Int64}, {Type: engine.Text, Width: 40}, {Type: engine.Type{Kind: engine.KindVarchar, Len: 12}, Width: 12},
		{Type: engine.Timestamp}, {Type: engine.Timestamp}, {Type: engine.NumericType(10, 2)}, {Type: engine.Int32}}
	cases := []struct {
		sql string
		ok  bool
	}{
		{`SELECT quote_ident(s), quote_literal(v), quote_nullable(s) FROM tl`, true},
		{`SELECT format('%s = %L and %I', s, v, v), format('%%%2$s|%1$s|%s;', s, v), format('%1$I', s) FROM tl`, true},
		{`SELECT nullif(t1 - t0, interval '1 mon'), nullif(t0 - t1, t1 - t0) FROM tl`, true},
		{`SELECT string_agg(s, ',' ORDER BY t1 - t0, a / c DESC) FROM tl`, true},
		{`SELECT format('%s %s', s) FROM tl`, true}, // too few arguments: 22023 at the first row, as on the CPU
		{`SELECT format('%d', s) FROM tl`, true},    // unrecognized conversion, the same
		{`SELECT format(s, v, id, t1 - t0, a / c) FROM tl`, true},
		{`SELECT quote_literal(id), quote_nullable(t1 - t0), quote_literal(c > 0) FROM tl`, true},
	}
	for _, tc := range cases {
		rec.plan = nil
		if err := exec(tc.sql); err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		p := rec.plan
		if p == nil {
			t.Fatalf("%s: no plan ran", tc.sql)
		}
		exprs := append([]engine.Expr{}, p.Project...)
		if p.Aggregate {
			exprs = nil
			for _, ag := range p.Aggs {
				exprs = append(exprs, ag.Arg, ag.Sep)
				for _, o := range ag.Order {
					exprs = append(exprs, o.Expr)
				}
			}
		}
		c := &compiler{p: newProgram(), cols: cols}
		_, err := c.compileOutputs(exprs, 0)
		if tc.ok && err != nil || !tc.ok && engine.Code(err) != engine.CodeFeatureNotSupported {
			t.Errorf("%s: %v", tc.sql, err)
		}
	}
}

type discard struct{}

func (discard) Describe([]engine.ResultColumn) error { return nil }
func (discard) Row([][]byte) error                   { return nil }
func (discard) Complete(string) error                { return nil }
func (discard) Notice(engine.Notice) error           { return nil }
func (discard) EmptyQuery() error                    { return nil }
