package gpu

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Host steps. The binder turns the catalog functions (pg_get_userbyid,
// format_type, has_*_privilege, to_regclass, ...), reg* casts of a column
// and correlated subqueries into engine.HostFuncs: Go functions over whole
// vectors that read host state (the catalog, the session's settings, the
// outer query's rows). Those without a kernel twin (compiler.hostFunc)
// run as a host step before the plan's kernels:
//
//  1. the device selects the rows the CPU backend evaluates the function
//     on (the rows passing WHERE for the select list, GROUP BY keys and
//     aggregate arguments, every row for WHERE itself; under CASE, AND
//     and OR only the rows reaching it, as engine/eval gathers them) and
//     computes the function's arguments there;
//  2. the host downloads the arguments once, runs Fn on their distinct
//     tuples, in batches of stepBatch, in the order of their first rows
//     (so the first failing row raises the CPU's error);
//  3. the results go back to the device as a temporary column (scratch
//     memory, counted against the pool, freed after the statement) and
//     the plan reads it as a column reference in the function's place.
//
// The plan is rewritten in evaluation order, so a function over another's
// result, or under a CASE whose condition holds one, finds the earlier
// step's column in place. EXPLAIN names every step (Backend.Explain),
// EXPLAIN ANALYZE reports the rows and distinct tuples each sent
// (engine.StepLog).

// stepBatch is the most distinct argument tuples one call of Fn gets.
const stepBatch = 4096

// stepper walks a plan's device expressions in evaluation order and
// replaces each HostFunc without a kernel twin by what step returns.
type stepper struct {
	cols []*Column // the columns the device reads: the table's and earlier steps'
	// the rows of the expressions being walked: those where filter is
	// true (nil: every row), the first limit of them (-1: all)
	filter engine.Expr
	limit  int64
	// step runs h over the rows where guard is true (nil: all of them)
	// and returns its replacement
	step func(h *engine.HostFunc, guard engine.Expr) (engine.Expr, error)
	// calls: the plan's expressions do not all compile, so a call the
	// kernels refuse becomes a host step too (hostCall)
	calls bool
}

// hasTwin reports whether the kernels compute h themselves.
func (s *stepper) hasTwin(h *engine.HostFunc) bool {
	c := &compiler{p: newProgram(), cols: s.cols}
	_, err := c.hostFunc(h, 0)
	return engine.Code(err) != engine.CodeFeatureNotSupported
}

func boolCall(op engine.Op, args ...engine.Expr) engine.Expr {
	return &engine.Call{Op: op, Args: args, T: engine.Bool}
}

// andGuard is guard AND cond; AND evaluates cond only where guard is not
// false (compiler.call, eval's evalLogic), so cond sees the rows guard
// leaves, as in the expression it came from.
func andGuard(guard, cond engine.Expr) engine.Expr {
	if guard == nil {
		return cond
	}
	return boolCall(engine.OpAnd, guard, cond)
}

// notTrue is NOT (c IS TRUE): the rows a CASE condition c leaves.
func notTrue(c engine.Expr) engine.Expr {
	return boolCall(engine.OpNot, boolCall(engine.OpIsTrue, c))
}

// walk returns e with its host steps run, guard being the condition
// under which e is evaluated (nil: on every row of the context).
func (s *stepper) walk(e engine.Expr, guard engine.Expr) (engine.Expr, error) {
	switch e := e.(type) {
	case *engine.HostFunc:
		args, err := s.walkAll(e.Args, guard)
		if err != nil {
			return nil, err
		}
		h := *e
		h.Args = args
		if s.hasTwin(&h) {
			return &h, nil
		}
		return s.step(&h, guard)
	case *engine.Call:
		if e.Op == engine.OpAnd || e.Op == engine.OpOr {
			a, err := s.walk(e.Args[0], guard)
			if err != nil {
				return nil, err
			}
			// the right side runs where the left one leaves the result open
			open := boolCall(engine.OpNot, boolCall(engine.OpIsFalse, a))
			if e.Op == engine.OpOr {
				open = notTrue(a)
			}
			b, err := s.walk(e.Args[1], andGuard(guard, open))
			if err != nil {
				return nil, err
			}
			out := *e
			out.Args = []engine.Expr{a, b}
			return &out, nil
		}
		args, err := s.walkAll(e.Args, guard)
		if err != nil {
			return nil, err
		}
		out := *e
		out.Args = args
		if s.calls && s.refused(&out) {
			if h, ok := s.hostCall(&out); ok {
				return s.step(h, guard)
			}
		}
		return &out, nil
	case *engine.Case:
		out := &engine.Case{T: e.T, Conds: make([]engine.Expr, len(e.Conds)), Results: make([]engine.Expr, len(e.Results))}
		reach := guard
		for k := range e.Conds {
			c, err := s.walk(e.Conds[k], reach)
			if err != nil {
				return nil, err
			}
			r, err := s.walk(e.Results[k], andGuard(reach, boolCall(engine.OpIsTrue, c)))
			if err != nil {
				return nil, err
			}
			out.Conds[k], out.Results[k] = c, r
			reach = andGuard(reach, notTrue(c))
		}
		el, err := s.walk(e.Else, reach)
		if err != nil {
			return nil, err
		}
		out.Else = el
		return out, nil
	}
	return e, nil
}

func (s *stepper) walkAll(es []engine.Expr, guard engine.Expr) ([]engine.Expr, error) {
	out := make([]engine.Expr, len(es))
	for i, e := range es {
		v, err := s.walk(e, guard)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// hasHostFunc reports whether any expression holds a HostFunc.
func hasHostFunc(es ...engine.Expr) bool {
	for _, e := range es {
		switch e := e.(type) {
		case *engine.HostFunc:
			return true
		case *engine.Call:
			if hasHostFunc(e.Args...) {
				return true
			}
		case *engine.Case:
			if hasHostFunc(e.Conds...) || hasHostFunc(e.Results...) || hasHostFunc(e.Else) {
				return true
			}
		}
	}
	return false
}

// deviceExprs are the expressions of p the kernels evaluate (HAVING and
// the select list of an aggregate run on the host, over its results).
func deviceExprs(p *engine.Plan) []engine.Expr {
	es := []engine.Expr{p.Filter}
	if p.Filter == nil {
		es = es[:0]
	}
	if !p.Aggregate {
		return append(es, p.Project...)
	}
	es = append(es, p.GroupBy...)
	for _, a := range p.Aggs {
		es = append(es, a.Exprs()...)
	}
	return es
}

// rewrite returns p with s's steps run over its device expressions:
// WHERE over every row, then the GROUP BY keys and aggregate arguments,
// or the select list, over the rows passing it (the first LIMIT+OFFSET of
// them where run.project stops there).
func (s *stepper) rewrite(p *engine.Plan) (*engine.Plan, error) {
	s.calls = false
	for _, e := range deviceExprs(p) {
		if s.refused(e) {
			s.calls = true
			break
		}
	}
	if !s.calls && !hasHostFunc(deviceExprs(p)...) {
		return p, nil
	}
	q := *p
	var err error
	s.filter, s.limit = nil, -1
	if q.Filter != nil {
		if q.Filter, err = s.walk(q.Filter, nil); err != nil {
			return nil, err
		}
	}
	s.filter = q.Filter
	if !q.Aggregate {
		if !deviceSorts(&q) && len(q.OrderBy) == 0 && !q.Distinct && q.Limit >= 0 {
			s.limit = q.Limit + q.Offset
		}
		q.Project, err = s.walkAll(q.Project, nil)
		return &q, err
	}
	if q.GroupBy, err = s.walkAll(q.GroupBy, nil); err != nil {
		return nil, err
	}
	q.Aggs = append([]engine.AggCall(nil), q.Aggs...)
	for k := range q.Aggs {
		a := &q.Aggs[k]
		if a.Arg != nil {
			if a.Arg, err = s.walk(a.Arg, nil); err != nil {
				return nil, err
			}
		}
		if a.Sep != nil {
			if a.Sep, err = s.walk(a.Sep, nil); err != nil {
				return nil, err
			}
		}
		if a.Arg2 != nil {
			if a.Arg2, err = s.walk(a.Arg2, nil); err != nil {
				return nil, err
			}
		}
		a.Order = append([]engine.AggOrder(nil), a.Order...)
		for i := range a.Order {
			if a.Order[i].Expr, err = s.walk(a.Order[i].Expr, nil); err != nil {
				return nil, err
			}
		}
	}
	return &q, nil
}

// Explain names the host steps p would run, in the order they run.
func (b *Backend) Explain(p *engine.Plan) []string {
	t, _ := p.Data.(*Table)
	if t == nil {
		t = &Table{}
	}
	var lines []string
	s := &stepper{cols: t.Cols}
	s.step = func(h *engine.HostFunc, guard engine.Expr) (engine.Expr, error) {
		l := "Host Step: " + h.String()
		if guard != nil {
			l += " where " + guard.String()
		}
		lines = append(lines, l)
		ref := &engine.ColRef{Idx: len(s.cols), Name: h.Name, T: h.T}
		s.cols = append(s.cols[:len(s.cols):len(s.cols)], &Column{Type: h.T})
		return ref, nil
	}
	if _, err := s.rewrite(p); err != nil {
		return nil
	}
	// window calls and aggregations the kernels refuse run on the host
	// (window_host.go, agg_host.go)
	var walk func(r engine.Rel)
	walk = func(r engine.Rel) {
		if r == nil {
			return
		}
		if q, ok := r.(*engine.Plan); ok {
			for _, a := range q.Aggs {
				if hostAggregated(a) {
					lines = append(lines, "Host Step: aggregate "+a.String())
				}
			}
		}
		if ps, ok := r.(*engine.ProjectSet); ok {
			for _, f := range ps.Funcs {
				lines = append(lines, "Host Step: set-returning "+f.String())
			}
		}
		if w, ok := r.(*engine.Window); ok {
			for k := range w.Calls {
				if deviceWindowCall(&w.Calls[k]) != nil {
					lines = append(lines, "Host Step: window "+w.Calls[k].String())
				}
			}
		}
		for _, in := range r.Inputs() {
			walk(in)
		}
	}
	walk(p)
	return lines
}

// hostSteps runs p's host steps and returns the plan that reads their
// columns; r.t and r.cols gain the columns.
func (r *run) hostSteps(ctx context.Context, p *engine.Plan) (*engine.Plan, error) {
	s := &stepper{cols: r.t.Cols}
	s.step = func(h *engine.HostFunc, guard engine.Expr) (engine.Expr, error) {
		col, st, err := r.hostStep(ctx, h, s.filter, s.limit, guard)
		if err != nil {
			return nil, err
		}
		if l := engine.StepLogOf(ctx); l != nil {
			l.Add(st)
		}
		cols := append(append([]*Column(nil), r.t.Cols...), col)
		r.t = &Table{Cols: cols, N: r.t.N, Dev: r.t.Dev}
		if r.cols, err = r.s.upload(sliceBytes(qCols(cols))); err != nil {
			return nil, err
		}
		s.cols = cols
		return &engine.ColRef{Idx: len(cols) - 1, Name: h.Name, T: h.T}, nil
	}
	return s.rewrite(p)
}

// qCols describes columns to the kernels.
func qCols(cols []*Column) []qCol {
	qc := make([]qCol, len(cols))
	for k, c := range cols {
		cls, err := clsOf(c.Type)
		if err != nil {
			cls = 0 // unreadable columns fail when a ColRef compiles
		}
		qc[k] = qCol{Cls: cls, Width: int32(c.Width)}
		if c.rowScales {
			qc[k].Width = int32(c.scaleRows) // where the rows' scales start (OP_COLR)
		}
		if c.Data != nil {
			qc[k].Data = uint64(c.Data.Ptr())
		}
		if c.Valid != nil {
			qc[k].Valid = uint64(c.Valid.Ptr())
		}
	}
	return qc
}

// hostStep runs h over the rows of the context (filter, limit) where
// guard holds and returns its results as a column of the table's rows
// (NULL where it did not run).
func (r *run) hostStep(ctx context.Context, h *engine.HostFunc, filter engine.Expr, limit int64, guard engine.Expr) (*Column, engine.HostStep, error) {
	st := engine.HostStep{Func: h.String()}
	if _, err := clsOf(h.T); err != nil || h.T.Kind == engine.KindUnknown {
		return nil, st, unsupported("the function %s (a host step returning %s)", h.Name, h.T)
	}
	exprs := h.Args
	var sel uint64
	var n int64
	var err error
	guarded := false // exprs[0] is the guard, the arguments CASEs under it
	switch {
	case r.n == 0:
	case limit < 0:
		if cond := stepRows(filter, guard); cond == nil {
			n = r.n
		} else if sel, n, err = r.selection(cond, -1); err != nil {
			return nil, st, err
		}
	default:
		if filter == nil {
			n = min(r.n, limit)
		} else if sel, n, err = r.selection(filter, limit); err != nil {
			return nil, st, err
		}
		if guard != nil {
			guarded = true
			exprs = []engine.Expr{guard}
			for _, a := range h.Args {
				exprs = append(exprs, &engine.Case{Conds: []engine.Expr{guard}, Results: []engine.Expr{a},
					Else: &engine.Const{T: a.Type(), Null: true}, T: a.Type()})
			}
		}
	}
	// the arguments of the rows, and the rows' ids in the table
	args := &engine.Batch{N: int(n), Cols: make([]*engine.Vec, len(h.Args))}
	if n > 0 && len(exprs) > 0 {
		b, err := r.outputs(exprs, sel, n, nil)
		if err != nil {
			return nil, st, err
		}
		args.Cols = b.Cols[len(exprs)-len(h.Args):]
		if guarded {
			var rows []int32
			for i := 0; i < int(n); i++ {
				if g := b.Cols[0]; !g.IsNull(i) && g.I[i] != 0 {
					rows = append(rows, int32(i))
				}
			}
			args = eval.GatherBatch(args, rows)
			ids, err := r.rowIDs(sel, n)
			if err != nil {
				return nil, st, err
			}
			return r.stepColumn(ctx, h, args, gather32(ids, rows), st)
		}
	}
	ids, err := r.rowIDs(sel, n)
	if err != nil {
		return nil, st, err
	}
	return r.stepColumn(ctx, h, args, ids, st)
}

// stepRows is the condition selecting the rows a step runs on when
// there is no LIMIT to respect: filter IS TRUE (guard runs only there, as
// the plan's expressions do), then guard; nil for every row.
func stepRows(filter, guard engine.Expr) engine.Expr {
	if filter == nil {
		return guard
	}
	cond := boolCall(engine.OpIsTrue, filter)
	if guard != nil {
		cond = andGuard(cond, guard)
	}
	return cond
}

func gather32(v []int32, rows []int32) []int32 {
	out := make([]int32, len(rows))
	for k, i := range rows {
		out[k] = v[i]
	}
	return out
}

// rowIDs downloads a selection (sel 0: the first n rows).
func (r *run) rowIDs(sel uint64, n int64) ([]int32, error) {
	ids := make([]int32, n)
	if sel == 0 {
		for i := range ids {
			ids[i] = int32(i)
		}
		return ids, nil
	}
	if n == 0 {
		return ids, nil
	}
	return ids, r.b.dev.CopyDtoH(sliceBytes(ids), cuda.DevPtr(sel), nil)
}

// stepColumn runs h on the distinct tuples of args (row k of args is
// table row ids[k]) and uploads the results as a column.
func (r *run) stepColumn(ctx context.Context, h *engine.HostFunc, args *engine.Batch, ids []int32, st engine.HostStep) (*Column, engine.HostStep, error) {
	res, which, err := runDistinct(ctx, h, args)
	if err != nil {
		return nil, st, err
	}
	st.Rows, st.Distinct = int64(args.N), int64(res.N)
	if h.T.Kind == engine.KindNumeric {
		return r.numericStep(h, res, which, ids, st)
	}
	width := 0
	if res.S != nil {
		for _, s := range res.S {
			width = max(width, len(s))
		}
	}
	hc := engine.NewColumn(h.T, int(r.n), width, true)
	for i := range hc.Valid {
		hc.Valid[i] = 0 // NULL where the function did not run
	}
	for k, d := range which {
		if !res.IsNull(int(d)) {
			putValue(hc, int(ids[k]), res, int(d))
		}
	}
	col := &Column{Type: h.T, Width: hc.Width}
	if b := hostBytes(hc); len(b) > 0 {
		if col.Data, err = r.s.alloc(int64(len(b))); err != nil {
			return nil, st, err
		}
		if err := r.b.dev.CopyHtoD(col.Data.Ptr(), b, nil); err != nil {
			return nil, st, err
		}
	}
	if b := u64Bytes(hc.Valid); len(b) > 0 {
		if col.Valid, err = r.s.alloc(int64(len(b))); err != nil {
			return nil, st, err
		}
		if err := r.b.dev.CopyHtoD(col.Valid.Ptr(), b, nil); err != nil {
			return nil, st, err
		}
	}
	return col, st, nil
}

// numericStep is stepColumn's numeric results: a device column holds
// scaled int64s at one scale, the largest of the results', each below
// 10^18 there; results of several scales (exp, ln and extract's of
// numerics show each its own) keep each row's scale beside the values
// (Column.rowScales, read by OP_COLR).
func (r *run) numericStep(h *engine.HostFunc, res *engine.Vec, which []int32, ids []int32, st engine.HostStep) (*Column, engine.HostStep, error) {
	scale := int32(-1)
	several := false
	for d := 0; d < res.N; d++ {
		if !res.IsNull(d) {
			x := res.D[d]
			if x.Scale > 255 {
				return nil, st, unsupported("the function %s (a host step) with a result of scale %d", h.Name, x.Scale)
			}
			several = several || scale >= 0 && x.Scale != scale
			scale = max(scale, x.Scale)
		}
	}
	if several {
		return r.rowScalesStep(h, res, which, ids, scale, st)
	}
	vals := make([]int64, res.N)
	for d := 0; d < res.N; d++ {
		if res.IsNull(d) {
			continue
		}
		x := res.D[d]
		v, ok := x.Int64()
		if !ok || v >= engine.Pow10(18) || v <= -engine.Pow10(18) {
			return nil, st, unsupported("the function %s (a host step) with a result of more than 18 digits", h.Name)
		}
		vals[d] = v
	}
	t := engine.NumericType(18, int(max(scale, 0)))
	hc := engine.NewColumn(t, int(r.n), 0, true)
	clear(hc.Valid) // NULL where the function did not run
	for k, d := range which {
		if !res.IsNull(int(d)) {
			i := int(ids[k])
			hc.Valid[i>>6] |= 1 << (uint(i) & 63)
			hc.I64[i] = vals[d]
		}
	}
	col := &Column{Type: t}
	var err error
	if b := hostBytes(hc); len(b) > 0 {
		if col.Data, err = r.s.alloc(int64(len(b))); err != nil {
			return nil, st, err
		}
		if err := r.b.dev.CopyHtoD(col.Data.Ptr(), b, nil); err != nil {
			return nil, st, err
		}
	}
	if b := u64Bytes(hc.Valid); len(b) > 0 {
		if col.Valid, err = r.s.alloc(int64(len(b))); err != nil {
			return nil, st, err
		}
		if err := r.b.dev.CopyHtoD(col.Valid.Ptr(), b, nil); err != nil {
			return nil, st, err
		}
	}
	return col, st, nil
}

// runDistinct runs h.Fn over the distinct rows of args, stepBatch at a
// time, in the order of their first rows; which[k] is row k's result.
// Past parallelMin rows the rows are told apart on every core (by a hash
// of their keys, each core keeping the keys of its share of the hashes),
// and a Parallel function runs over batches on every core.
func runDistinct(ctx context.Context, h *engine.HostFunc, args *engine.Batch) (*engine.Vec, []int32, error) {
	which, first := distinctRows(args)
	batches := (len(first) + stepBatch - 1) / stepBatch
	parts := make([]*engine.Vec, batches)
	run := func(b int) error {
		if ctx.Err() != nil {
			return engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
		}
		lo := b * stepBatch
		part := eval.GatherBatch(args, first[lo:min(lo+stepBatch, len(first))])
		v, err := h.Fn(part.Cols, part.N)
		parts[b] = v
		return err
	}
	workers := 1
	if h.Parallel {
		workers = min(runtime.GOMAXPROCS(0), batches)
	}
	if err := forEach(batches, workers, run); err != nil {
		return nil, nil, err
	}
	res := engine.NewVec(h.T, 0)
	for b, v := range parts {
		lo := b * stepBatch
		for i := 0; i < min(stepBatch, len(first)-lo); i++ {
			res.AppendRow(v, i)
		}
	}
	return res, which, nil
}

// parallelMin is the fewest rows distinctRows spreads over the cores.
const parallelMin = 1 << 16

// distinctRows numbers the distinct rows of args (keys as appendKey
// encodes them) in the order of their first rows: which[i] is row i's
// number, first[d] the first row of number d.
func distinctRows(args *engine.Batch) (which, first []int32) {
	n := args.N
	which = make([]int32, n)
	workers := runtime.GOMAXPROCS(0)
	if n < parallelMin || workers == 1 {
		seen := map[string]int32{}
		var key []byte
		for i := 0; i < n; i++ {
			key = rowKey(key[:0], args, i)
			d, ok := seen[string(key)]
			if !ok {
				d = int32(len(first))
				seen[string(key)] = d
				first = append(first, int32(i))
			}
			which[i] = d
		}
		return which, first
	}
	// each row's hash, then each worker numbers the rows of its hashes
	seed := maphash.MakeSeed()
	hashes := make([]uint64, n)
	chunk := (n + workers - 1) / workers
	_ = forEach(workers, workers, func(w int) error {
		var key []byte
		for i := w * chunk; i < min(n, (w+1)*chunk); i++ {
			key = rowKey(key[:0], args, i)
			hashes[i] = maphash.Bytes(seed, key)
		}
		return nil
	})
	firsts := make([][]int32, workers)
	_ = forEach(workers, workers, func(w int) error {
		seen := map[string]int32{}
		var key []byte
		for i := 0; i < n; i++ {
			if int(hashes[i]%uint64(workers)) != w {
				continue
			}
			key = rowKey(key[:0], args, i)
			d, ok := seen[string(key)]
			if !ok {
				d = int32(len(firsts[w]))
				seen[string(key)] = d
				firsts[w] = append(firsts[w], int32(i))
			}
			which[i] = d
		}
		return nil
	})
	// number the distinct rows in the order of their first rows
	type firstRow struct{ row, w, d int32 }
	var all []firstRow
	for w, f := range firsts {
		for d, row := range f {
			all = append(all, firstRow{row, int32(w), int32(d)})
		}
	}
	sort.Slice(all, func(a, b int) bool { return all[a].row < all[b].row })
	global := make([][]int32, workers)
	for w := range global {
		global[w] = make([]int32, len(firsts[w]))
	}
	first = make([]int32, len(all))
	for g, f := range all {
		global[f.w][f.d] = int32(g)
		first[g] = f.row
	}
	_ = forEach(workers, workers, func(w int) error {
		for i := w * chunk; i < min(n, (w+1)*chunk); i++ {
			which[i] = global[hashes[i]%uint64(workers)][which[i]]
		}
		return nil
	})
	return which, first
}

// rowKey appends row i of args as a tuple key.
func rowKey(key []byte, args *engine.Batch, i int) []byte {
	for _, a := range args.Cols {
		key = appendKey(key, a, i)
	}
	return key
}

// forEach runs f(0) ... f(n-1) on workers goroutines and returns the
// error of the lowest i that failed.
func forEach(n, workers int, f func(i int) error) error {
	errs := make([]error, n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			if errs[i] = f(i); errs[i] != nil {
				return errs[i]
			}
		}
		return nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				errs[i] = f(i)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// appendKey appends row i of v to a tuple key: a NULL flag, then the
// value's exact bits (a string with its length).
func appendKey(key []byte, v *engine.Vec, i int) []byte {
	if v.IsNull(i) {
		return append(key, 0)
	}
	key = append(key, 1)
	switch engine.PhysOf(v.T.Kind) {
	case engine.PhysInt:
		key = binary.LittleEndian.AppendUint64(key, uint64(v.I[i]))
	case engine.PhysFloat:
		key = binary.LittleEndian.AppendUint64(key, math.Float64bits(v.F[i]))
	case engine.PhysDec:
		d := v.D[i]
		key = binary.LittleEndian.AppendUint64(key, d.Lo)
		key = binary.LittleEndian.AppendUint64(key, uint64(d.Hi))
		key = binary.LittleEndian.AppendUint32(key, uint32(d.Scale))
	case engine.PhysStr:
		key = binary.LittleEndian.AppendUint32(key, uint32(len(v.S[i])))
		key = append(key, v.S[i]...)
	case engine.PhysInterval:
		iv := v.V[i]
		key = binary.LittleEndian.AppendUint32(key, uint32(iv.Months))
		key = binary.LittleEndian.AppendUint32(key, uint32(iv.Days))
		key = binary.LittleEndian.AppendUint64(key, uint64(iv.Micros))
	}
	return key
}

// putValue stores row j of v (not NULL) as row i of c, in the layout of
// the device's columns (Column).
func putValue(c *engine.Column, i int, v *engine.Vec, j int) {
	c.Valid[i>>6] |= 1 << (uint(i) & 63)
	switch c.Type.Kind {
	case engine.KindBool:
		c.B[i] = uint8(v.I[j])
	case engine.KindInt16:
		c.I16[i] = int16(v.I[j])
	case engine.KindInt32, engine.KindDate:
		c.I32[i] = int32(v.I[j])
	case engine.KindInt64, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		c.I64[i] = v.I[j]
	case engine.KindFloat32:
		c.F32[i] = float32(v.F[j])
	case engine.KindFloat64:
		c.F64[i] = v.F[j]
	case engine.KindChar, engine.KindVarchar, engine.KindText:
		copy(c.Str[i*c.Width:(i+1)*c.Width], v.S[j])
	}
}

// Calls as host steps. A call the kernels refuse (0A000) whose result a
// step can bring back (hostStep's types: not an interval or unknown; a
// numeric only when every result has one scale, numericStep) runs as a
// host step when the plan's expressions do not
// compile otherwise: the functions whose device results could differ
// from the CPU backend's (exp, ln, power, ...), and the long ones
// (to_char, age, date_bin, ...). The step's arguments are the largest
// parts of the call the device computes; the host evaluates the call
// over them with engine/eval, the CPU backend's code. Refused calls
// whose own results a step cannot hold (age, an interval; ln of a
// numeric) join the step of a call over them (age(a, b)::text).

// refused reports whether the kernels refuse e (0A000).
func (s *stepper) refused(e engine.Expr) bool {
	c := &compiler{p: newProgram(), cols: s.cols, intvOK: true}
	_, err := c.compile(e, 0)
	return engine.Code(err) == engine.CodeFeatureNotSupported
}

// steppable reports whether a host step can return values of type t.
func steppable(t engine.Type) bool {
	if _, err := clsOf(t); err != nil {
		return false
	}
	return t.Kind != engine.KindInterval && t.Kind != engine.KindUnknown
}

// hostCall makes the refused call e a host function over the parts of it
// the device computes; ok is false when e cannot run as a step (its
// type, a volatile function, or a refused part that is evaluated lazily).
func (s *stepper) hostCall(e *engine.Call) (*engine.HostFunc, bool) {
	if !steppable(e.T) {
		return nil, false
	}
	var leaves []engine.Expr
	var lift func(x engine.Expr) (engine.Expr, bool)
	lift = func(x engine.Expr) (engine.Expr, bool) {
		switch x := x.(type) {
		case *engine.Const:
			return x, true
		case *engine.Call:
			if x.Op == engine.OpRandom {
				return nil, false // a value per row, not per argument tuple
			}
		}
		if x != engine.Expr(e) && !s.refused(x) {
			leaves = append(leaves, x)
			return &engine.ColRef{Idx: len(leaves) - 1, T: x.Type()}, true
		}
		c, ok := x.(*engine.Call)
		if !ok || c.Op == engine.OpAnd || c.Op == engine.OpOr {
			// a Case, AND or OR evaluates its parts on some rows only
			return nil, false
		}
		out := *c
		out.Args = make([]engine.Expr, len(c.Args))
		for k, a := range c.Args {
			if out.Args[k], ok = lift(a); !ok {
				return nil, false
			}
		}
		return &out, true
	}
	body, ok := lift(e)
	if !ok {
		return nil, false
	}
	return &engine.HostFunc{
		Name: e.Op.String(),
		Args: leaves,
		T:    e.T,
		Fn: func(args []*engine.Vec, n int) (*engine.Vec, error) {
			return eval.Eval(context.Background(), body, &engine.Batch{N: n, Cols: args})
		},
		Parallel: true,
	}, true
}

// rowScalesStep is numericStep's results of several scales: the values at
// scale, the largest, then a byte a row, each row's own scale, as
// uploadRowScales stores a column of several scales.
func (r *run) rowScalesStep(h *engine.HostFunc, res *engine.Vec, which []int32, ids []int32, scale int32, st engine.HostStep) (*Column, engine.HostStep, error) {
	vals := make([]int64, res.N)
	for d := 0; d < res.N; d++ {
		if res.IsNull(d) {
			continue
		}
		x, ok := res.D[d].Rescale(scale)
		v, ok2 := x.Int64()
		if !ok || !ok2 || v >= engine.Pow10(18) || v <= -engine.Pow10(18) {
			return nil, st, unsupported("the function %s (a host step) with a result of more than 18 digits at the largest of its scales", h.Name)
		}
		vals[d] = v
	}
	n := int(r.n)
	b := make([]byte, 9*n)
	valid := make([]uint64, (n+63)/64) // NULL where the function did not run
	for k, d := range which {
		if res.IsNull(int(d)) {
			continue
		}
		i := int(ids[k])
		valid[i>>6] |= 1 << (uint(i) & 63)
		binary.LittleEndian.PutUint64(b[8*i:], uint64(vals[d]))
		b[8*n+i] = byte(res.D[d].Scale)
	}
	col := &Column{Type: engine.NumericType(18, int(scale)), rowScales: true, scaleRows: n}
	var err error
	if n > 0 {
		if col.Data, err = r.s.alloc(int64(len(b))); err != nil {
			return nil, st, err
		}
		if err := r.b.dev.CopyHtoD(col.Data.Ptr(), b, nil); err != nil {
			return nil, st, err
		}
		vb := u64Bytes(valid)
		if col.Valid, err = r.s.alloc(int64(len(vb))); err != nil {
			return nil, st, err
		}
		if err := r.b.dev.CopyHtoD(col.Valid.Ptr(), vb, nil); err != nil {
			return nil, st, err
		}
	}
	return col, st, nil
}
