package gpu

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Precomputed values for the fused kernels. The generated kernels hold no
// strings: a string value in a filter, a CASE or a group key used to send
// the whole query to the interpreter, which runs it ten to a hundred
// times slower. Before compiling a fused aggregate, the backend rewrites
// the plan's expressions (precompute):
//
//   - A part of an expression that reads one string column and yields a
//     boolean, integer, date, timestamp or numeric of one scale
//     (`l_returnflag = 'R'`, `CASE WHEN l_shipmode IN ('AIR', 'MAIL')
//     THEN 1 ELSE 0 END`, `lower(s) LIKE 'take%'`), where the column has a
//     dictionary (dict.go), is evaluated by the CPU evaluator once per
//     dictionary value and once for NULL (preLookup). The kernel reads
//     the row's code and the value at that index of the table: the
//     answers are the CPU backend's by construction.
//   - A part that reads one integer-like column of at most rangeMax
//     values and calls extract or date_trunc gets a table over those
//     values the same way (preRange).
//   - `col LIKE const` and `ILIKE` over a string column without a
//     dictionary (a comment, a URL) become a match bitmap computed by
//     q_like_sub ('%lit%') or q_like_bits (likeKernel), which match as
//     the interpreter's OP_LIKE does; the kernel reads a bit per row, and
//     NULL from the column's bitmap (preBits).
//   - A GROUP BY key that is a string column with a dictionary becomes its
//     code (preCode); a string-valued key over one such column becomes
//     the number of its result (keyLookup). The result's keys are decoded
//     on the host.
//
// Only the fused path sees the rewritten plan: when it refuses, the
// interpreter runs the original.

// opPre reads a precomputed value. Only the fused generator knows it; the
// interpreter's programs never hold it.
const opPre = 1 << 20

const (
	preBits   = iota // a LIKE's match bitmap
	preLookup        // a value per dictionary code
	preCode          // the dictionary code itself (a group key)
	preRange         // a value per value of an integer column of a narrow range
)

// likeShared is the most dynamic shared memory the LIKE kernels take
// (the default limit of a block).
const likeShared = 48 << 10

// rangeMax is the widest value range of an integer column whose values
// get a table (preRange).
const rangeMax = 1 << 16

// pre is one precomputed value of a query.
type pre struct {
	kind   int
	col    int      // the string column it reads
	name   string   // the column's name, for EXPLAIN
	dict   *colDict // preLookup, preCode
	lo, hi int64    // the values' range; preCode: 0 to the NULL code
	nulls  bool     // preLookup, preRange: some entries are NULL
	scale  int32    // numeric values: their scale
	base   int64    // preRange: the column's smallest value (entry 0)
	span   int      // preRange: entries before the NULL entry
	buf    cuda.DevPtr
	// keyVals: a string-valued key's results, by number (keyLookup); the
	// table holds numbers
	keyVals *engine.Vec
}

// entries is the number of entries of a lookup table, NULL's last.
func (p *pre) entries() int {
	if p.kind == preRange {
		return p.span + 1
	}
	return p.dict.nullCode() + 1
}

// key is what a generated kernel depends on.
func (p *pre) key(cols []*Column) string {
	cw, m := 0, 0
	if p.dict != nil {
		cw, m = p.dict.cw, p.dict.nullCode()
	}
	return fmt.Sprintf("pre%d:%d,%d,%d,%d,%d,%v,%v,%d,%d,%d,%v;", p.kind, p.col, cw, m, p.lo, p.hi, p.nulls, cols[p.col].Valid != nil, p.scale, p.base, p.span, p.keyVals != nil)
}

// note describes p for EXPLAIN ANALYZE.
func (p *pre) note() string {
	switch p.kind {
	case preBits:
		return fmt.Sprintf("Fused Kernel: LIKE on %s read from a match bitmap", p.name)
	case preCode:
		return fmt.Sprintf("Fused Kernel: grouped by the dictionary codes of %s (%d values, %d-byte codes)", p.name, p.dict.vals.N, p.dict.cw)
	case preRange:
		return fmt.Sprintf("Fused Kernel: an expression on %s evaluated over its %d values", p.name, p.span)
	}
	if p.keyVals != nil {
		return fmt.Sprintf("Fused Kernel: a group key on %s evaluated over its dictionary (%d values, %d keys)", p.name, p.dict.vals.N, p.keyVals.N)
	}
	return fmt.Sprintf("Fused Kernel: an expression on %s evaluated over its dictionary (%d values, %d-byte codes)", p.name, p.dict.vals.N, p.dict.cw)
}

// preExpr stands for a precomputed value in a rewritten expression.
type preExpr struct {
	p    *pre
	t    engine.Type
	name string
}

func (e *preExpr) Type() engine.Type { return e.t }
func (e *preExpr) String() string    { return e.name }

// pre compiles a precomputed value.
func (c *compiler) pre(e *preExpr) (val, error) {
	col := int32(0)
	if e.p.kind == preRange {
		// the column's value indexes the table
		var err error
		if col, err = c.p.emit(opCol, int32(e.p.col), 0, 0, 0, 0); err != nil {
			return val{}, err
		}
	}
	c.p.pres = append(c.p.pres, e.p)
	r, err := c.p.emit(opPre, int32(len(c.p.pres)-1), col, 0, 0, 0)
	v := val{reg: r, t: e.t, scale: e.p.scale}
	switch {
	case e.p.kind == preBits:
		v.cls = clsBool
	case e.p.kind == preCode || e.p.keyVals != nil:
		v.cls = clsI32
	default:
		if err == nil {
			v.cls, err = clsOf(e.t)
		}
	}
	return v, err
}

// precompute returns p with its filter, keys and aggregate arguments
// rewritten (p itself when nothing changes).
func (r *run) precompute(p *engine.Plan) (*engine.Plan, error) {
	pc := precomp{r: r}
	q := *p
	var err error
	if q.Filter, err = pc.expr(p.Filter); err != nil {
		return nil, err
	}
	q.GroupBy = make([]engine.Expr, len(p.GroupBy))
	for k, e := range p.GroupBy {
		if q.GroupBy[k], err = pc.key(e); err != nil {
			return nil, err
		}
	}
	q.Aggs = make([]engine.AggCall, len(p.Aggs))
	for k, ag := range p.Aggs {
		q.Aggs[k] = ag
		if ag.Arg != nil {
			if q.Aggs[k].Arg, err = pc.expr(ag.Arg); err != nil {
				return nil, err
			}
		}
	}
	return &q, nil
}

// precomp rewrites a plan's expressions for one run.
type precomp struct {
	r *run
}

// key rewrites a GROUP BY key.
func (pc precomp) key(e engine.Expr) (engine.Expr, error) {
	ref, ok := e.(*engine.ColRef)
	if !ok {
		if ref := oneColumn(e, len(pc.r.t.Cols), true); ref != nil && e.Type().IsString() {
			d, err := pc.r.dict(ref.Idx)
			if err != nil {
				return nil, err
			}
			if d != nil {
				p, err := pc.keyLookup(e, ref, d)
				if err != nil {
					return nil, err
				}
				if p != nil {
					return &preExpr{p: p, t: e.Type(), name: "key(" + e.String() + ")"}, nil
				}
			}
		}
		return pc.expr(e)
	}
	if ref.Idx < 0 || ref.Idx >= len(pc.r.t.Cols) {
		return e, nil
	}
	d, err := pc.r.dict(ref.Idx)
	if err != nil || d == nil {
		return e, err
	}
	p := &pre{kind: preCode, col: ref.Idx, name: ref.Name, dict: d, hi: int64(d.nullCode())}
	return &preExpr{p: p, t: ref.T, name: "code(" + ref.String() + ")"}, nil
}

// keyLookup makes a string-valued key over one dictionary column (`GROUP
// BY upper(s)`, a CASE bucketing s into labels) a table: e is evaluated
// over the dictionary's values and NULL, its distinct results numbered,
// and each code's entry holds its result's number; the group keys are
// those numbers, decoded to the results (keyVals). Results group as the
// CPU backend groups them: by their bytes, char(n) without trailing
// blanks. nil when the evaluation fails.
func (pc precomp) keyLookup(e engine.Expr, ref *engine.ColRef, d *colDict) (*pre, error) {
	in := &engine.Batch{N: d.withNull.N, Cols: make([]*engine.Vec, len(pc.r.t.Cols))}
	in.Cols[ref.Idx] = d.withNull
	v, err := eval.Eval(context.Background(), e, in)
	if err != nil || v.N != in.N || len(v.S) < in.N {
		return nil, nil
	}
	char := e.Type().Kind == engine.KindChar
	keys := engine.NewVec(e.Type(), 0)
	num := map[string]int64{}
	nullNum := int64(-1)
	nums := make([]int64, in.N)
	for i := range in.N {
		if v.IsNull(i) {
			if nullNum < 0 {
				nullNum = int64(keys.N)
				keys.S = append(keys.S, nil)
				keys.Null = append(make([]bool, keys.N), true)
				keys.N++
			}
			nums[i] = nullNum
			continue
		}
		k := v.S[i]
		if char {
			k = bytes.TrimRight(k, " ")
		}
		x, ok := num[string(k)]
		if !ok {
			x = int64(keys.N)
			num[string(k)] = x
			keys.S = append(keys.S, v.S[i])
			if keys.Null != nil {
				keys.Null = append(keys.Null, false)
			}
			keys.N++
		}
		nums[i] = x
	}
	tab := make([]byte, in.N*9)
	for i, x := range nums {
		binary.LittleEndian.PutUint64(tab[i*8:], uint64(x))
	}
	buf, err := pc.r.s.upload(tab)
	if err != nil {
		return nil, err
	}
	return &pre{kind: preLookup, col: ref.Idx, name: ref.Name, dict: d, lo: 0, hi: int64(keys.N - 1), buf: cuda.DevPtr(buf), keyVals: keys}, nil
}

// expr rewrites e, replacing the largest parts it can.
func (pc precomp) expr(e engine.Expr) (engine.Expr, error) {
	switch e.(type) {
	case nil, *engine.ColRef, *engine.Const:
		return e, nil
	}
	if ref := rangeColumn(e, len(pc.r.t.Cols)); ref != nil && lookupKind(e.Type().Kind) {
		p, err := pc.rangeLookup(e, ref)
		if err != nil {
			return nil, err
		}
		if p != nil {
			p.name = ref.Name
			return &preExpr{p: p, t: e.Type(), name: "pre(" + e.String() + ")"}, nil
		}
	}
	if ref := oneColumn(e, len(pc.r.t.Cols), true); ref != nil && lookupKind(e.Type().Kind) {
		k := ref.Idx
		d, err := pc.r.dict(k)
		if err != nil {
			return nil, err
		}
		var p *pre
		if d != nil {
			p, err = pc.lookup(e, k, d)
		} else {
			p, err = pc.like(e, k)
		}
		if err != nil {
			return nil, err
		}
		if p != nil {
			p.name = ref.Name
			return &preExpr{p: p, t: e.Type(), name: "pre(" + e.String() + ")"}, nil
		}
	}
	switch e := e.(type) {
	case *engine.Call:
		args, changed, err := pc.list(e.Args)
		if err != nil || !changed {
			return e, err
		}
		return &engine.Call{Op: e.Op, Args: args, T: e.T}, nil
	case *engine.Case:
		conds, c1, err := pc.list(e.Conds)
		if err != nil {
			return nil, err
		}
		results, c2, err := pc.list(e.Results)
		if err != nil {
			return nil, err
		}
		els, err := pc.expr(e.Else)
		if err != nil {
			return nil, err
		}
		if !c1 && !c2 && els == e.Else {
			return e, nil
		}
		return &engine.Case{Conds: conds, Results: results, Else: els, T: e.T}, nil
	}
	return e, nil
}

func (pc precomp) list(es []engine.Expr) ([]engine.Expr, bool, error) {
	out := make([]engine.Expr, len(es))
	changed := false
	for i, e := range es {
		x, err := pc.expr(e)
		if err != nil {
			return nil, false, err
		}
		out[i] = x
		changed = changed || x != e
	}
	return out, changed, nil
}

// lookupKind says whether a precomputed value may have kind k: those the
// generated code holds in one 64-bit register (numerics: when every
// value has one scale and fits, which lookup checks).
func lookupKind(k engine.Kind) bool {
	switch k {
	case engine.KindBool, engine.KindInt16, engine.KindInt32, engine.KindInt64, engine.KindDate,
		engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime, engine.KindNumeric:
		return true
	}
	return false
}

// oneColumn returns a reference to the one column e reads, when e reads
// exactly one column, a string column (str) or an integer-like one (bool,
// smallint, integer, bigint, date, timestamp, time), and the same inputs always give it the same
// value (no random(), no host functions, nothing the evaluator does not
// know); nil otherwise.
func oneColumn(e engine.Expr, ncols int, str bool) *engine.ColRef {
	var col *engine.ColRef
	ok := true
	engine.WalkExpr(e, func(x engine.Expr) bool {
		switch x := x.(type) {
		case *engine.ColRef:
			if x.Idx < 0 || x.Idx >= ncols || col != nil && col.Idx != x.Idx {
				ok = false
			} else if cls, err := clsOf(x.T); err != nil || isStr(cls) != str || !str && !isInt(cls) {
				ok = false
			} else {
				col = x
			}
		case *engine.Const, *engine.Case:
		case *engine.Call:
			ok = ok && x.Op != engine.OpRandom
		default: // host functions, and anything the evaluator may not know
			ok = false
		}
		return ok
	})
	if !ok {
		return nil
	}
	return col
}

// lookup evaluates e over column k's dictionary and uploads the table: an
// int64 per code, then a byte per code that is 1 for NULL. nil when the
// evaluation fails (the interpreter then raises the error where a row
// does).
func (pc precomp) lookup(e engine.Expr, k int, d *colDict) (*pre, error) {
	p := &pre{kind: preLookup, col: k, dict: d}
	return pc.table(p, e, d.withNull)
}

// table evaluates e with column p.col's values in in (one per entry, NULL
// last) and uploads the results: an int64 per entry (numerics: the
// mantissa at one scale), then a byte per entry that is 1 for NULL. nil
// when the evaluation fails or a value does not fit.
func (pc precomp) table(p *pre, e engine.Expr, in *engine.Vec) (*pre, error) {
	b := &engine.Batch{N: in.N, Cols: make([]*engine.Vec, len(pc.r.t.Cols))}
	b.Cols[p.col] = in
	v, err := eval.Eval(context.Background(), e, b)
	if err != nil || v.N != in.N {
		return nil, nil
	}
	dec := e.Type().Kind == engine.KindNumeric
	if dec && len(v.D) < in.N || !dec && len(v.I) < in.N {
		return nil, nil
	}
	m := in.N
	tab := make([]byte, m*9)
	p.lo, p.hi, p.scale = math.MaxInt64, math.MinInt64, int32(e.Type().Scale)
	first := true
	for i := range m {
		if v.IsNull(i) {
			tab[m*8+i] = 1
			p.nulls = true
			continue
		}
		var x int64
		if dec {
			d := v.D[i]
			if first {
				p.scale = d.Scale
			}
			if d.Scale != p.scale || d.Hi != int64(d.Lo)>>63 {
				return nil, nil // scales that vary, or a value past 64 bits
			}
			x = int64(d.Lo)
		} else {
			x = v.I[i]
		}
		first = false
		binary.LittleEndian.PutUint64(tab[i*8:], uint64(x))
		p.lo, p.hi = min(p.lo, x), max(p.hi, x)
	}
	if p.lo > p.hi {
		p.lo, p.hi = 0, 0
	}
	buf, err := pc.r.s.upload(tab)
	if err != nil {
		return nil, err
	}
	p.buf = cuda.DevPtr(buf)
	return p, nil
}

// rangeOps are the operators worth a table over an integer column's
// values: those the generated kernels cannot compute themselves.
var rangeOps = map[engine.Op]bool{engine.OpExtract: true, engine.OpDateTrunc: true}

// rangeColumn returns the column of e when precomp should evaluate e over
// that integer-like column's values: e reads only it and calls one of
// rangeOps.
func rangeColumn(e engine.Expr, ncols int) *engine.ColRef {
	ref := oneColumn(e, ncols, false)
	if ref == nil {
		return nil
	}
	found := false
	engine.WalkExpr(e, func(x engine.Expr) bool {
		if c, ok := x.(*engine.Call); ok && rangeOps[c.Op] {
			found = true
		}
		return !found
	})
	if !found {
		return nil
	}
	return ref
}

// rangeLookup evaluates e over every value of ref's column from its
// smallest to its largest, when there are at most rangeMax of them.
func (pc precomp) rangeLookup(e engine.Expr, ref *engine.ColRef) (*pre, error) {
	k := ref.Idx
	col := pc.r.t.Cols[k]
	if col.Data == nil || col.Type.Kind == engine.KindBool || col.Type.Kind != ref.T.Kind {
		return nil, nil
	}
	st, err := pc.r.stats(k)
	if err != nil || st.count == 0 || st.hi-st.lo >= rangeMax || st.hi < st.lo {
		return nil, err
	}
	span := int(st.hi-st.lo) + 1
	in := engine.NewVec(col.Type, span+1)
	for i := range span {
		in.I[i] = st.lo + int64(i)
	}
	in.SetNull(span)
	p := &pre{kind: preRange, col: k, base: st.lo, span: span}
	return pc.table(p, e, in)
}

// like computes the match bitmap of `col LIKE const` (or ILIKE) over
// column k; nil when e is not such a LIKE.
func (pc precomp) like(e engine.Expr, k int) (*pre, error) {
	c, ok := e.(*engine.Call)
	if !ok {
		return nil, nil
	}
	n := pc.r.t.N
	bm, err := pc.r.s.alloc((n + 63) / 64 * 8)
	if err != nil {
		return nil, err
	}
	if ok, err := pc.r.likeKernel(c, k, bm, false); !ok || err != nil {
		return nil, err
	}
	return &pre{kind: preBits, col: k, lo: 0, hi: 1, buf: bm.Ptr()}, nil
}

// likeKernel computes `col LIKE const` (or ILIKE) over column k into out:
// a bitmap (a bit a row), or with bytes a boolean column (a byte a row).
// ok is false when c is not such a LIKE. '%lit%' patterns run on
// q_like_sub, others on q_like_bits.
func (r *run) likeKernel(c *engine.Call, k int, out *cuda.Buffer, bytes bool) (ok bool, err error) {
	if c.Op != engine.OpLike && c.Op != engine.OpILike || len(c.Args) < 2 {
		return false, nil
	}
	if ref, isRef := c.Args[0].(*engine.ColRef); !isRef || ref.Idx != k || k < 0 || k >= len(r.t.Cols) {
		return false, nil
	}
	pat, isConst := c.Args[1].(*engine.Const)
	if !isConst || pat.Null {
		return false, nil
	}
	esc := int32('\\')
	if len(c.Args) > 2 {
		x, ok := c.Args[2].(*engine.Const)
		if !ok || x.Null || len(x.S) > 1 {
			return false, nil
		}
		esc = -1
		if len(x.S) == 1 {
			esc = int32(x.S[0])
		}
	}
	col := r.t.Cols[k]
	if cls, err := clsOf(col.Type); err != nil || !isStr(cls) || col.Data == nil || likeEndsInEscape(pat.S, esc) {
		return false, nil
	}
	n := r.t.N
	ci := int32(boolInt(c.Op == engine.OpILike))
	var valid cuda.DevPtr
	if col.Valid != nil {
		valid = col.Valid.Ptr()
	}
	dev := r.b.dev
	g := uint32(min((n+255)/256, int64(dev.Props().SMs)*16))
	block := cuda.Dim3{X: 256, Y: 1, Z: 1}
	fits := func(lit int) (int32, int) { // rows go through shared memory when a block's fit beside the pattern
		shared := (lit + 15) &^ 15
		if col.Width%4 == 0 && shared+256*col.Width <= likeShared {
			return 1, shared + 256*col.Width
		}
		return 0, shared
	}
	if lit, isLit := likeLiteral(pat.S, esc); isLit && col.Width%4 == 0 && (col.Type.Kind != engine.KindChar || !strings.Contains(lit, " ")) {
		if ci != 0 {
			lit = asciiLower(lit)
		}
		stage, shared := fits(len(lit))
		if shared > likeShared {
			return false, nil
		}
		lp, err := r.s.upload([]byte(lit))
		if err != nil {
			return false, err
		}
		return true, dev.Do(func() error {
			return dev.Launch(r.b.fns["q_like_sub"], cuda.Dim3{X: g, Y: 1, Z: 1}, block, uint32(shared), nil,
				col.Data.Ptr(), int32(col.Width), valid, n, cuda.DevPtr(lp), int32(len(lit)), ci, out.Ptr(), stage, int32(boolInt(bytes)))
		})
	}
	stage, shared := fits(len(pat.S))
	if shared > likeShared {
		return false, nil // a pattern past shared memory: the interpreter
	}
	pp, err := r.s.upload([]byte(pat.S))
	if err != nil {
		return false, err
	}
	isChar := int32(boolInt(col.Type.Kind == engine.KindChar))
	return true, dev.Do(func() error {
		return dev.Launch(r.b.fns["q_like_bits"], cuda.Dim3{X: g, Y: 1, Z: 1}, block, uint32(shared), nil,
			col.Data.Ptr(), int32(col.Width), isChar, valid, n, cuda.DevPtr(pp), int32(len(pat.S)), esc, ci, out.Ptr(), stage,
			int32(boolInt(bytes)))
	})
}

// likeLiteral returns lit when pattern is '%lit%' (any number of % at
// either end) and lit, unescaped, holds no wildcard: then LIKE is a
// substring search.
func likeLiteral(pattern string, esc int32) (string, bool) {
	if esc == '%' || esc == '_' {
		return "", false
	}
	s := strings.TrimLeft(pattern, "%")
	if len(s) == len(pattern) || !strings.HasSuffix(s, "%") {
		return "", false
	}
	var lit []byte
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case esc >= 0 && b == byte(esc):
			if i+1 >= len(s) {
				return "", false
			}
			i++
			lit = append(lit, s[i])
		case b == '_':
			return "", false
		case b == '%':
			// only a run of % to the end
			if strings.Trim(s[i:], "%") != "" {
				return "", false
			}
			return string(lit), len(lit) > 0
		default:
			lit = append(lit, b)
		}
	}
	return "", false
}

// asciiLower folds ASCII letters as ILIKE does (cuda/query.cu's fold).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// preParams declares the kernel parameters of the program's precomputed
// values, after the columns', and records in fk what the run passes.
func (g *ptxGen) preParams(fk *fusedKernel, pres []*pre) {
	g.pres = pres
	g.prePtr = make([]string, len(pres))
	g.preValid = make([]string, len(pres))
	g.codePtr = map[int]string{}
	for i, p := range pres {
		switch p.kind {
		case preBits:
			g.prePtr[i] = g.param(fmt.Sprintf("p_b%d", i))
			fk.preArgs = append(fk.preArgs, preArg{pre: i, what: argBuf})
			if g.cols[p.col].Valid != nil {
				g.preValid[i] = g.param(fmt.Sprintf("p_bv%d", i))
				fk.preArgs = append(fk.preArgs, preArg{pre: i, what: argValid})
			}
		case preRange:
			g.prePtr[i] = g.param(fmt.Sprintf("p_t%d", i))
			fk.preArgs = append(fk.preArgs, preArg{pre: i, what: argBuf})
		default:
			if _, ok := g.codePtr[p.col]; !ok {
				g.codePtr[p.col] = g.param(fmt.Sprintf("p_d%d", p.col))
				fk.preArgs = append(fk.preArgs, preArg{pre: i, what: argCodes})
			}
			if p.kind == preLookup {
				g.prePtr[i] = g.param(fmt.Sprintf("p_t%d", i))
				fk.preArgs = append(fk.preArgs, preArg{pre: i, what: argBuf})
			}
		}
	}
}

// preArg is a kernel argument of a precomputed value.
type preArg struct {
	pre  int
	what int // argBuf, argValid, argCodes
}

const (
	argBuf = iota
	argValid
	argCodes
)

// preArgs appends the arguments of the precomputed values.
func preArgs(args []any, fk *fusedKernel, pres []*pre, cols []*Column) []any {
	for _, a := range fk.preArgs {
		p := pres[a.pre]
		switch a.what {
		case argBuf:
			args = append(args, p.buf)
		case argValid:
			args = append(args, cols[p.col].Valid.Ptr())
		case argCodes:
			args = append(args, p.dict.codes.Ptr())
		}
	}
	return args
}

// preOp emits the read of precomputed value i into register d; col is
// the register of the column's value (preRange).
func (g *ptxGen) preOp(d int32, i int, col int32, row string) {
	p := g.pres[i]
	if g.preOf == nil {
		g.preOf = map[int32]int{}
	}
	g.preOf[d] = i + 1
	switch p.kind {
	case preBits:
		a, word, sh := g.r64(), g.r64(), g.r32()
		g.f("shr.u64 %s, %s, 6;", a, row)
		g.f("mad.lo.u64 %s, %s, 8, %s;", a, a, g.prePtr[i])
		g.f("ld.global.nc.u64 %s, [%s];", word, a)
		g.f("cvt.u32.u64 %s, %s;", sh, row)
		g.f("and.b32 %s, %s, 63;", sh, sh)
		g.f("shr.u64 %s, %s, %s;", word, word, sh)
		g.f("and.b64 %s, %s, 1;", word, word)
		n := ""
		if g.preValid[i] != "" {
			n = g.validBit(g.preValid[i], row)
		}
		g.set(d, word, n, iv(0, 1))
	case preCode:
		g.set(d, g.code(p, row), "", iv(0, p.hi))
	case preRange:
		// the entry: the value's offset from the smallest, or the NULL
		// entry past the last
		idx := g.r64()
		g.f("sub.s64 %s, %s, %d;", idx, g.val[col], p.base)
		if n := g.nul[col]; n != "" {
			g.f("selp.b64 %s, %d, %s, %s;", idx, p.span, idx, n)
		}
		g.lookup(d, i, idx)
	case preLookup:
		g.lookup(d, i, g.code(p, row))
	}
}

// lookup reads entry idx of precomputed value i's table into register d.
func (g *ptxGen) lookup(d int32, i int, code string) {
	p := g.pres[i]
	a, v := g.r64(), g.r64()
	g.f("mad.lo.u64 %s, %s, 8, %s;", a, code, g.prePtr[i])
	g.f("ld.global.nc.s64 %s, [%s];", v, a)
	n := ""
	if p.nulls {
		b, w := g.r64(), g.r32()
		g.f("add.u64 %s, %s, %s;", b, g.prePtr[i], code)
		g.f("ld.global.nc.u8 %s, [%s+%d];", w, b, 8*p.entries())
		n = g.pred()
		g.f("setp.ne.u32 %s, %s, 0;", n, w)
	}
	g.set(d, v, n, iv(p.lo, p.hi))
}

// code loads the row's dictionary code of p's column (once a row).
func (g *ptxGen) code(p *pre, row string) string {
	if r, ok := g.codeRegs[p.col]; ok {
		return r
	}
	a, w, v := g.r64(), g.r32(), g.r64()
	if p.dict.cw == 1 {
		g.f("add.u64 %s, %s, %s;", a, row, g.codePtr[p.col])
		g.f("ld.global.nc.u8 %s, [%s];", w, a)
	} else {
		g.f("mad.lo.u64 %s, %s, 2, %s;", a, row, g.codePtr[p.col])
		g.f("ld.global.nc.u16 %s, [%s];", w, a)
	}
	g.f("cvt.u64.u32 %s, %s;", v, w)
	g.codeRegs[p.col] = v
	return v
}
