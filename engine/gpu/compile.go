package gpu

import (
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// val is a compiled expression: the register holding it and what the
// register means.
type val struct {
	reg   int32
	cls   int32 // clsBool.. clsChar
	scale int32 // numerics: static scale
	width int   // strings: the most bytes a value can have
	t     engine.Type
	// scaleReg, where not 0, holds each row's scale of a numeric whose
	// scale varies by row (a quotient, a CASE over numerics of different
	// scales); the value register holds the unscaled mantissa
	scaleReg int32
}

// program is a compiled instruction list with its constants. String
// constants live in strPool; their qConst.Lo is an offset into it until
// the pool's device address is known (fixStrings).
type program struct {
	ins      []qIns
	consts   []qConst
	strPool  []byte
	strConst []int         // indices of consts that point into strPool
	checks   []engine.Type // numeric(p,s) targets of opDCheck, by index
	next     int32         // the next free register
	nreg     int32         // registers used: the most next has been
	scratch  int           // bytes of string scratch per thread (strSlot)
	poolAddr uint64        // the device address of strPool's latest upload (prepare), for error records (arrays.go)
	pres     []*pre        // precomputed values read by opPre (fused kernels only: precomp.go)
}

func unsupported(what string, args ...any) error {
	e := engine.Errorf(engine.CodeFeatureNotSupported, "the GPU backend does not support "+what+" yet", args...)
	return e
}

func newProgram() *program { return &program{next: 1, nreg: 1} } // register 0: the row mask

func (p *program) newReg() (int32, error) {
	if p.next >= maxRegs {
		return 0, unsupported("expressions needing more than %d registers", maxRegs)
	}
	r := p.next
	p.next++
	p.nreg = max(p.nreg, p.next)
	return r, nil
}

// emitTo is emit writing an existing register (d may be one of the
// operands: every opcode reads its operands before it writes).
func (p *program) emitTo(d int32, op int, a, b, c, m int32, imm int64) error {
	if len(p.ins) >= maxIns {
		return unsupported("expressions longer than %d instructions", maxIns)
	}
	p.ins = append(p.ins, qIns{Op: int32(op), Dst: d, A: a, B: b, C: c, M: m, Imm: imm})
	return nil
}

// Limits of computed strings: the widest result, and the scratch a
// thread may use for all of a program's computed strings (the host
// allocates it for every thread of the largest grid).
const (
	maxStrWidth   = 1 << 16
	maxStrScratch = 1 << 16 // past fullStrScratch the grid shrinks (exec.go's strScratch)
)

// strSlot reserves a scratch slot of width bytes per thread for one
// instruction's computed string and returns its offset.
func (p *program) strSlot(width int) (int32, error) {
	if width > maxStrWidth || p.scratch+width > maxStrScratch {
		return 0, unsupported("computed strings over %d bytes a row", maxStrScratch)
	}
	off := p.scratch
	p.scratch += width
	return int32(off), nil
}

func (p *program) emit(op int, a, b, c, m int32, imm int64) (int32, error) {
	if len(p.ins) >= maxIns {
		return 0, unsupported("expressions longer than %d instructions", maxIns)
	}
	d, err := p.newReg()
	if err != nil {
		return 0, err
	}
	p.ins = append(p.ins, qIns{Op: int32(op), Dst: d, A: a, B: b, C: c, M: m, Imm: imm})
	return d, nil
}

func rangeClass(k engine.Kind) int64 {
	switch k {
	case engine.KindInt16:
		return 0
	case engine.KindInt32:
		return 1
	}
	return 2
}

func clsOf(t engine.Type) (int32, error) {
	switch t.Kind {
	case engine.KindBool:
		return clsBool, nil
	case engine.KindInt16:
		return clsI16, nil
	case engine.KindInt32, engine.KindDate:
		return clsI32, nil
	case engine.KindInt64, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		return clsI64, nil
	case engine.KindFloat32:
		return clsF32, nil
	case engine.KindFloat64:
		return clsF64, nil
	case engine.KindNumeric:
		return clsDec, nil
	case engine.KindChar:
		return clsChar, nil
	case engine.KindVarchar, engine.KindText, engine.KindUnknown:
		return clsStr, nil
	}
	return 0, unsupported("values of type %s", t)
}

func isInt(c int32) bool   { return c <= clsI64 }
func isFloat(c int32) bool { return c == clsF32 || c == clsF64 }
func isStr(c int32) bool   { return c == clsStr || c == clsChar }

// compiler compiles expressions over one input (the table's columns).
type compiler struct {
	p    *program
	cols []*Column // the table's columns, for string widths
	// intvOK lets the next compile return an interval (the operand of an
	// interval operator, an output column); compile clears it
	intvOK bool
	// fitMax: a sum or avg over numerics whose scale varies by row adds
	// each value at the largest scale it can have (opDFitR with imm -1,
	// which only the fused generator reads), beside the hidden max of
	// the scales; the interpreter's two passes leave it unset
	fitMax bool
}

func (c *compiler) compile(e engine.Expr, mask int32) (val, error) {
	intvOK := c.intvOK
	c.intvOK = false
	v, err := c.compileAny(e, mask)
	if err == nil && v.cls == clsIntv && !intvOK {
		// only the interval operators and the select list read interval
		// registers; keys, aggregates, comparisons and CASE do not
		return val{}, unsupported("interval values here")
	}
	return v, err
}

func (c *compiler) compileAny(e engine.Expr, mask int32) (val, error) {
	p := c.p
	switch e := e.(type) {
	case *engine.ColRef:
		if e.Idx < 0 || e.Idx >= len(c.cols) {
			return val{}, engine.Errorf(engine.CodeInternalError, "column reference %d out of range", e.Idx)
		}
		cls, err := clsOf(e.T)
		if err != nil {
			return val{}, err
		}
		if col := c.cols[e.Idx]; col.rowScales && e.T.Kind == engine.KindNumeric {
			// each row's own scale (an intermediate table's column)
			sc, err := p.newReg()
			if err != nil {
				return val{}, err
			}
			r, err := p.emit(opColR, int32(e.Idx), 0, sc, 0, int64(col.Type.Scale))
			return val{reg: r, cls: cls, scaleReg: sc, t: e.T}, err
		}
		r, err := p.emit(opCol, int32(e.Idx), 0, 0, 0, 0)
		scale := int32(e.T.Scale)
		if st := c.cols[e.Idx].Type; e.T.Kind == engine.KindNumeric && st.Kind == engine.KindNumeric {
			// the stored scale: an intermediate result's unconstrained
			// numeric column is stored at its values' scale
			scale = int32(st.Scale)
		}
		return val{reg: r, cls: cls, scale: scale, width: c.cols[e.Idx].Width, t: e.T}, err
	case *engine.Const:
		return c.constant(e)
	case *engine.Case:
		return c.caseExpr(e, mask)
	case *engine.Call:
		return c.call(e, mask)
	case *engine.HostFunc:
		return c.hostFunc(e, mask)
	case *preExpr:
		return c.pre(e)
	}
	return val{}, unsupported("expression %T", e)
}

func (c *compiler) constant(e *engine.Const) (val, error) {
	p := c.p
	if e.T.Kind == engine.KindInterval {
		k := qConst{Lo: e.V.Micros, Hi: intervalHi(e.V)}
		if e.Null {
			k = qConst{Nul: 1}
		}
		p.consts = append(p.consts, k)
		r, err := p.emit(opConst, int32(len(p.consts)-1), 0, 0, 0, 0)
		return val{reg: r, cls: clsIntv, t: e.T}, err
	}
	cls, err := clsOf(e.T)
	if err != nil {
		return val{}, err
	}
	k := qConst{}
	v := val{cls: cls, t: e.T}
	switch {
	case e.Null:
		k.Nul = 1
		if cls == clsDec {
			v.scale = int32(e.T.Scale)
		}
	case isInt(cls):
		k.Lo, k.Hi = e.I, e.I>>63 // the 128-bit value: the fused generator refuses a Hi that is not Lo's sign
	case isFloat(cls):
		k.Lo = f64bits(e.F)
	case cls == clsDec:
		k.Lo, k.Hi = int64(e.D.Lo), e.D.Hi
		v.scale = e.D.Scale
	default: // string
		k.Lo = int64(len(p.strPool))
		k.Hi = int64(len(e.S))
		p.strPool = append(p.strPool, e.S...)
		p.strConst = append(p.strConst, len(p.consts))
		v.width = len(e.S)
	}
	p.consts = append(p.consts, k)
	r, err := p.emit(opConst, int32(len(p.consts)-1), 0, 0, 0, 0)
	v.reg = r
	return v, err
}

// align brings two numerics to the larger scale (each row's, where
// either has per-row scales).
func (c *compiler) align(a, b val, mask int32) (val, val, error) {
	var err error
	if a.scaleReg != 0 || b.scaleReg != 0 {
		return c.alignRows(a, b, mask)
	}
	if a.scale < b.scale {
		a.reg, err = c.p.emit(opRescale, a.reg, 0, 0, mask, int64(b.scale-a.scale))
		a.scale = b.scale
	} else if b.scale < a.scale {
		b.reg, err = c.p.emit(opRescale, b.reg, 0, 0, mask, int64(a.scale-b.scale))
		b.scale = a.scale
	}
	return a, b, err
}

// scaleOf returns a register holding v's scale in every row.
func (c *compiler) scaleOf(v val) (int32, error) {
	if v.scaleReg != 0 {
		return v.scaleReg, nil
	}
	k, err := c.constant(&engine.Const{T: engine.Int64, I: int64(v.scale)})
	return k.reg, err
}

// maxScale returns a register holding the larger of two scale registers.
func (c *compiler) maxScale(sa, sb int32, mask int32) (int32, error) {
	gt, err := c.p.emit(opCmpI, sa, sb, 0, mask, cmpCode[engine.OpGt])
	if err != nil {
		return 0, err
	}
	return c.p.emit(opSel, sa, sb, gt, mask, 0)
}

// alignRows brings two numerics to each row's larger scale.
func (c *compiler) alignRows(a, b val, mask int32) (val, val, error) {
	sa, err := c.scaleOf(a)
	if err != nil {
		return a, b, err
	}
	sb, err := c.scaleOf(b)
	if err != nil {
		return a, b, err
	}
	s, err := c.maxScale(sa, sb, mask)
	if err != nil {
		return a, b, err
	}
	if a.reg, err = c.p.emit(opRescaleR, a.reg, s, sa, mask, 0); err != nil {
		return a, b, err
	}
	if b.reg, err = c.p.emit(opRescaleR, b.reg, s, sb, mask, 0); err != nil {
		return a, b, err
	}
	a.scaleReg, b.scaleReg = s, s
	a.scale, b.scale = 0, 0
	return a, b, nil
}

// fitScale rounds or extends a numeric to the static scale s.
func (c *compiler) fitScale(a val, s int32, mask int32) (val, error) {
	var err error
	switch {
	case a.scaleReg != 0:
		a.reg, err = c.p.emit(opDFitR, a.reg, a.scaleReg, 0, mask, int64(s))
		a.scaleReg = 0
	case a.scale > s:
		a.reg, err = c.p.emit(opDRound, a.reg, 0, 0, mask, int64(a.scale-s))
	case a.scale < s:
		a.reg, err = c.p.emit(opRescale, a.reg, 0, 0, mask, int64(s-a.scale))
	}
	a.scale = s
	return a, err
}

// divMod compiles numeric / and %: the quotient's scale depends on each
// row's operands (PostgreSQL's select_div_scale, engine.DivScale); the
// remainder's is the larger of the operands' scales.
func (c *compiler) divMod(op engine.Op, a, b val, out val, mask int32) (val, error) {
	p := c.p
	sa, err := c.scaleOf(a)
	if err != nil {
		return val{}, err
	}
	sb, err := c.scaleOf(b)
	if err != nil {
		return val{}, err
	}
	imm := int64(sa) | int64(sb)<<32
	if op == engine.OpDiv {
		sr, err := p.newReg()
		if err != nil {
			return val{}, err
		}
		out.reg, err = p.emit(opDivD, a.reg, b.reg, sr, mask, imm)
		out.scale, out.scaleReg = 0, sr
		return out, err
	}
	if a.scaleReg == 0 && b.scaleReg == 0 {
		out.scale = max(a.scale, b.scale)
	} else if out.scaleReg, err = c.maxScale(sa, sb, mask); err != nil {
		return val{}, err
	}
	out.reg, err = p.emit(opModD, a.reg, b.reg, 0, mask, imm)
	return out, err
}

var cmpCode = map[engine.Op]int64{engine.OpEq: 0, engine.OpNe: 1, engine.OpLt: 2, engine.OpLe: 3, engine.OpGt: 4, engine.OpGe: 5}

func (c *compiler) cmp(op engine.Op, a, b val, mask int32) (val, error) {
	out := val{cls: clsBool, t: engine.Bool}
	var err error
	code := cmpCode[op]
	switch {
	case isInt(a.cls) && isInt(b.cls):
		out.reg, err = c.p.emit(opCmpI, a.reg, b.reg, 0, mask, code)
	case isFloat(a.cls) && isFloat(b.cls):
		out.reg, err = c.p.emit(opCmpF, a.reg, b.reg, 0, mask, code)
	case a.cls == clsDec && b.cls == clsDec:
		if a, b, err = c.align(a, b, mask); err != nil {
			return out, err
		}
		out.reg, err = c.p.emit(opCmpD, a.reg, b.reg, 0, mask, code)
	case isStr(a.cls) && isStr(b.cls):
		out.reg, err = c.p.emit(opCmpS, a.reg, b.reg, 0, mask, code)
	default:
		return out, unsupported("comparing %s with %s", a.t, b.t)
	}
	return out, err
}

func (c *compiler) args(args []engine.Expr, mask int32) ([]val, error) {
	out := make([]val, len(args))
	for i, a := range args {
		v, err := c.compile(a, mask)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (c *compiler) call(e *engine.Call, mask int32) (val, error) {
	p := c.p
	if e.Op == engine.OpAnd || e.Op == engine.OpOr {
		a, err := c.compile(e.Args[0], mask)
		if err != nil {
			return val{}, err
		}
		rm := mask
		if eval.CanFail(e.Args[1]) {
			// the right side runs (raises errors) only where the left one
			// leaves the result open
			decided := opIsFalse
			if e.Op == engine.OpOr {
				decided = opIsTrue
			}
			d, err := p.emit(decided, a.reg, 0, 0, mask, 0)
			if err != nil {
				return val{}, err
			}
			if rm, err = p.emit(opMaskNot, mask, d, 0, mask, 0); err != nil {
				return val{}, err
			}
		}
		b, err := c.compile(e.Args[1], rm)
		if err != nil {
			return val{}, err
		}
		op := opAnd
		if e.Op == engine.OpOr {
			op = opOr
		}
		r, err := p.emit(op, a.reg, b.reg, 0, mask, 0)
		return val{reg: r, cls: clsBool, t: engine.Bool}, err
	}
	if e.Op == engine.OpIn {
		return c.in(e, mask)
	}
	if e.Op == engine.OpRegexMatch {
		return c.regex(e, mask) // regex.go
	}
	if e.Op == engine.OpConcat {
		return c.concat(e, mask)
	}
	if e.Op == engine.OpNullIf && e.Args[0].Type().Kind == engine.KindInterval {
		return c.intervalNullIf(e, mask) // tail.go
	}
	if e.Op == engine.OpCoalesce && e.T.Kind == engine.KindInterval {
		return c.intervalCoalesce(e, mask) // rowkeys.go
	}
	switch e.Op {
	case engine.OpTsAddIntv, engine.OpTsSubIntv, engine.OpTsDiff, engine.OpIntvAdd, engine.OpIntvSub, engine.OpIntvNeg:
		return c.intervalCall(e, mask)
	case engine.OpJustifyDays, engine.OpJustifyHours, engine.OpJustifyInterval, engine.OpAge, engine.OpTimeDiff, engine.OpRandom:
		return c.intv2(e, mask) // intv2.go
	}
	switch e.Op {
	case engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe, engine.OpIsDistinct:
		if e.Args[0].Type().Kind == engine.KindInterval {
			return c.intervalCmp(e, mask)
		}
	}
	if v, ok, err := c.mathTime(e, mask); ok || err != nil {
		return v, err // mathexpr.go
	}
	args, err := c.args(e.Args, mask)
	if err != nil {
		return val{}, err
	}
	out := val{t: e.T}
	if cls, err := clsOf(e.T); err == nil {
		out.cls = cls
	}
	bin := func(op int, imm int64) (val, error) {
		r, err := p.emit(op, args[0].reg, args[1].reg, 0, mask, imm)
		out.reg = r
		return out, err
	}
	switch e.Op {
	case engine.OpAdd, engine.OpSub, engine.OpMul, engine.OpDiv, engine.OpMod:
		k := int(e.Op - engine.OpAdd) // add, sub, mul, div, mod
		switch {
		case isInt(out.cls):
			return bin(opAddI+k, rangeClass(e.T.Kind))
		case isFloat(out.cls) && e.Op != engine.OpMod:
			f32 := int64(0)
			if e.T.Kind == engine.KindFloat32 {
				f32 = 1
			}
			return bin(opAddF+k, f32)
		case out.cls == clsDec && e.Op == engine.OpMul:
			out.scale = args[0].scale + args[1].scale
			if args[0].scaleReg != 0 || args[1].scaleReg != 0 {
				sa, err := c.scaleOf(args[0])
				if err != nil {
					return val{}, err
				}
				sb, err := c.scaleOf(args[1])
				if err != nil {
					return val{}, err
				}
				if out.scaleReg, err = p.emit(opAddI, sa, sb, 0, mask, 2); err != nil {
					return val{}, err
				}
				out.scale = 0
			}
			return bin(opMulD, 0)
		case out.cls == clsDec && (e.Op == engine.OpDiv || e.Op == engine.OpMod):
			return c.divMod(e.Op, args[0], args[1], out, mask)
		case out.cls == clsDec && (e.Op == engine.OpAdd || e.Op == engine.OpSub):
			a, b, err := c.align(args[0], args[1], mask)
			if err != nil {
				return val{}, err
			}
			args[0], args[1] = a, b
			out.scale, out.scaleReg = a.scale, a.scaleReg
			return bin(opAddD+k, 0)
		}
		return val{}, unsupported("%s on %s", e.Op, e.T)
	case engine.OpNeg, engine.OpAbs:
		base := opNegI
		if e.Op == engine.OpAbs {
			base = opAbsI
		}
		switch {
		case isInt(out.cls):
			out.reg, err = p.emit(base, args[0].reg, 0, 0, mask, rangeClass(e.T.Kind))
		case isFloat(out.cls):
			out.reg, err = p.emit(base+1, args[0].reg, 0, 0, mask, 0)
		case out.cls == clsDec:
			out.scale, out.scaleReg = args[0].scale, args[0].scaleReg
			out.reg, err = p.emit(base+2, args[0].reg, 0, 0, mask, 0)
		default:
			return val{}, unsupported("%s on %s", e.Op, e.T)
		}
		return out, err
	case engine.OpEq, engine.OpNe, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe:
		return c.cmp(e.Op, args[0], args[1], mask)
	case engine.OpNot:
		out.reg, err = p.emit(opNot, args[0].reg, 0, 0, mask, 0)
		return out, err
	case engine.OpIsNull, engine.OpIsNotNull, engine.OpIsTrue, engine.OpIsFalse:
		op := map[engine.Op]int{engine.OpIsNull: opIsNull, engine.OpIsNotNull: opIsNotNull, engine.OpIsTrue: opIsTrue, engine.OpIsFalse: opIsFalse}[e.Op]
		out.reg, err = p.emit(op, args[0].reg, 0, 0, mask, 0)
		return out, err
	case engine.OpIsDistinct:
		eq, err := c.cmp(engine.OpEq, args[0], args[1], mask)
		if err != nil {
			return val{}, err
		}
		out.reg, err = p.emit(opDistinct, args[0].reg, args[1].reg, eq.reg, mask, 0)
		return out, err
	case engine.OpLike, engine.OpILike:
		if !isStr(args[0].cls) || !isStr(args[1].cls) {
			return val{}, unsupported("LIKE on %s", args[0].t)
		}
		esc := int32('\\')
		if len(e.Args) > 2 {
			k, ok := e.Args[2].(*engine.Const)
			if !ok || k.Null || len(k.S) > 1 {
				return val{}, unsupported("LIKE with this ESCAPE")
			}
			esc = -1
			if len(k.S) == 1 {
				esc = int32(k.S[0])
			}
		}
		if k, ok := e.Args[1].(*engine.Const); ok && !k.Null && likeEndsInEscape(k.S, esc) {
			return val{}, unsupported("LIKE patterns ending in the escape character")
		} else if !ok {
			return val{}, unsupported("LIKE with a non-constant pattern")
		}
		ci := int64(0)
		if e.Op == engine.OpILike {
			ci = 1
		}
		out.reg, err = p.emit(opLike, args[0].reg, args[1].reg, esc, mask, ci)
		return out, err
	case engine.OpCast:
		return c.cast(args[0], e.T, mask)
	case engine.OpLength, engine.OpUpper, engine.OpLower, engine.OpSubstr, engine.OpConcat, engine.OpPadChar:
		return c.strCall(e, args, mask)
	case engine.OpDateAddInt, engine.OpDateSubInt, engine.OpDateDiff:
		if args[0].t.Kind != engine.KindDate || !isInt(args[1].cls) {
			return val{}, unsupported("%s on %s and %s", e.Op, args[0].t, args[1].t)
		}
		op := map[engine.Op]int{engine.OpDateAddInt: opDateAdd, engine.OpDateSubInt: opDateSub, engine.OpDateDiff: opDateDiff}[e.Op]
		return bin(op, 0)
	case engine.OpExtract:
		return c.extract(e, args[1], mask)
	case engine.OpGreatest, engine.OpLeast:
		return c.greatest(e, args, mask) // mathexpr.go
	case engine.OpSign:
		return c.sign(e, args[0], mask)
	case engine.OpRound:
		a := args[0]
		switch {
		case isFloat(a.cls) && len(args) == 1:
			out.reg, err = p.emit(opRoundF, a.reg, 0, 0, mask, 0)
			return out, err
		case a.cls == clsDec:
			digits := int32(0)
			if len(e.Args) > 1 {
				k, ok := e.Args[1].(*engine.Const)
				if !ok || k.Null || k.I < 0 || k.I > 30 {
					return val{}, unsupported("round() with these digits")
				}
				digits = int32(k.I)
			}
			f, err := c.fitScale(a, digits, mask)
			out.reg, out.scale = f.reg, digits
			return out, err
		case isInt(a.cls):
			out.reg = a.reg
			return out, nil
		}
		return val{}, unsupported("round() of %s", a.t)
	case engine.OpCoalesce:
		r := args[len(args)-1]
		dyn := false // numerics of different scales: each row keeps its argument's
		for _, a := range args {
			dyn = dyn || a.cls == clsDec && (a.scale != r.scale || a.scaleReg != 0)
		}
		if dyn {
			sc, err := c.scaleOf(r)
			if err != nil {
				return val{}, err
			}
			for i := len(args) - 2; i >= 0; i-- {
				si, err := c.scaleOf(args[i])
				if err != nil {
					return val{}, err
				}
				nn, err := p.emit(opIsNotNull, args[i].reg, 0, 0, mask, 0)
				if err != nil {
					return val{}, err
				}
				if sc, err = p.emit(opSel, si, sc, nn, mask, 0); err != nil {
					return val{}, err
				}
			}
			r.scale, r.scaleReg = 0, sc
		}
		for i := len(args) - 2; i >= 0; i-- {
			reg, err := p.emit(opCoalesce, args[i].reg, r.reg, 0, mask, 0)
			if err != nil {
				return val{}, err
			}
			r.reg = reg
			r.width = max(r.width, args[i].width)
		}
		r.t = e.T
		return r, nil
	case engine.OpNullIf:
		eq, err := c.cmp(engine.OpEq, args[0], args[1], mask)
		if err != nil {
			return val{}, err
		}
		r := args[0]
		r.reg, err = p.emit(opNullIf, args[0].reg, eq.reg, 0, mask, 0)
		r.t = e.T
		return r, err
	}
	return val{}, unsupported("the operator %s", e.Op)
}

// extractFields numbers extract()'s fields as query.cu's extractField
// does, with each result's scale.
var extractFields = map[string]struct{ code, scale, tsScale int32 }{
	"year": {0, 0, 0}, "month": {1, 0, 0}, "day": {2, 0, 0}, "quarter": {3, 0, 0}, "dow": {4, 0, 0},
	"isodow": {5, 0, 0}, "doy": {6, 0, 0}, "decade": {7, 0, 0}, "century": {8, 0, 0}, "hour": {9, 0, 0},
	"minute": {10, 0, 0}, "second": {11, 6, 6}, "epoch": {12, 0, 6}, "millennium": {13, 0, 0},
	"week": {14, 0, 0}, "isoyear": {15, 0, 0}, "microseconds": {16, 0, 0}, "milliseconds": {17, 3, 3},
	"julian": {18, 0, -1},
}

func (c *compiler) extract(e *engine.Call, src val, mask int32) (val, error) {
	k, ok := e.Args[0].(*engine.Const)
	if !ok || k.Null {
		return val{}, unsupported("extract() with a non-constant field")
	}
	field := k.S
	if u, ok := eval.Units[field]; ok {
		field = u // 'mon', 'years', 'h', ...
	}
	f, ok := extractFields[field]
	isDate := src.t.Kind == engine.KindDate
	if !ok || !isDate && src.t.Kind != engine.KindTimestamp {
		return val{}, unsupported("extract(%s from %s)", k.S, src.t)
	}
	asFloat := e.T.Kind == engine.KindFloat64 // date_part
	if !asFloat && e.T.Kind != engine.KindNumeric || len(e.Args) != 2 {
		return val{}, unsupported("date_part(%s, %s)", k.S, src.t) // wall-clock time in a zone
	}
	scale := f.scale
	if !isDate {
		scale = f.tsScale
	}
	if scale < 0 || asFloat && (scale != 0 || isDate || field == "epoch") {
		// date_part's doubles of second, milliseconds, epoch and julian
		// are not the numeric's closest double (eval's extractTimestamp)
		return val{}, unsupported("date_part(%s, %s)", k.S, src.t)
	}
	out := val{cls: clsDec, scale: scale, t: e.T}
	if asFloat {
		out.t = engine.Numeric
	}
	var err error
	out.reg, err = c.p.emit(opExtract, src.reg, 0, int32(boolInt(isDate)), mask, int64(f.code))
	if err != nil || !asFloat {
		return out, err
	}
	// an integer field: its double is exact
	return c.cast(out, engine.Float64, mask)
}

func likeEndsInEscape(s string, esc int32) bool {
	if esc < 0 {
		return false
	}
	n := 0
	for i := len(s) - 1; i >= 0 && int32(s[i]) == esc; i-- {
		n++
	}
	return n%2 == 1
}

func (c *compiler) cast(a val, to engine.Type, mask int32) (val, error) {
	p := c.p
	from := a.t
	out := val{t: to, reg: a.reg}
	cls, err := clsOf(to)
	if err != nil {
		return val{}, err
	}
	out.cls = cls
	if from == to {
		out = a
		return out, nil
	}
	if to.IsString() {
		return c.castToString(a, to, mask)
	}
	switch {
	case (from.IsInteger() || from.Kind == engine.KindBool) && to.IsInteger():
		out.reg, err = p.emit(opI2I, a.reg, 0, 0, mask, rangeClass(to.Kind))
	case isInt(a.cls) && a.cls != clsBool && isFloat(cls) && from.IsInteger():
		f32 := int64(0)
		if cls == clsF32 {
			f32 = 1
		}
		out.reg, err = p.emit(opI2F, a.reg, 0, 0, mask, f32)
	case isFloat(a.cls) && isInt(cls) && to.IsInteger():
		out.reg, err = p.emit(opF2I, a.reg, 0, 0, mask, rangeClass(to.Kind))
	case a.cls == clsF64 && cls == clsF32:
		out.reg, err = p.emit(opF2F32, a.reg, 0, 0, mask, 0)
	case a.cls == clsF32 && cls == clsF64:
	case from.IsInteger() && cls == clsDec:
		if out.reg, err = p.emit(opI2D, a.reg, 0, 0, mask, 0); err != nil {
			return val{}, err
		}
		out.scale = 0
		return c.fitNumeric(out, to, mask)
	case a.cls == clsDec && cls == clsDec:
		return c.fitNumeric(a, to, mask)
	case isFloat(a.cls) && cls == clsDec:
		return c.floatToNumeric(a, to, mask)
	case a.cls == clsDec && to.IsInteger():
		if a.scaleReg != 0 {
			if a, err = c.fitScale(a, 0, mask); err != nil {
				return val{}, err
			}
		}
		out.reg, err = p.emit(opD2I, a.reg, 0, int32(rangeClass(to.Kind)), mask, int64(a.scale))
	case a.cls == clsDec && isFloat(cls):
		f32 := int32(0)
		if cls == clsF32 {
			f32 = 1
		}
		// b: the per-row scale register, if any
		out.reg, err = p.emit(opD2F, a.reg, a.scaleReg, f32, mask, int64(a.scale))
	case from.Kind == engine.KindDate && to.Kind == engine.KindTimestamp:
		out.reg, err = p.emit(opDate2Ts, a.reg, 0, 0, mask, 0)
	case from.Kind == engine.KindTimestamp && to.Kind == engine.KindDate:
		out.reg, err = p.emit(opTs2Date, a.reg, 0, 0, mask, 0)
	default:
		return val{}, unsupported("casting %s to %s", from, to)
	}
	return out, err
}

// fitNumeric is eval's fitNumeric: round or extend to to's scale, then
// check the precision.
func (c *compiler) fitNumeric(a val, to engine.Type, mask int32) (val, error) {
	a.t = to
	if to.Prec == 0 {
		return a, nil
	}
	p := c.p
	s := int32(to.Scale)
	a, err := c.fitScale(a, s, mask)
	if err != nil {
		return val{}, err
	}
	p.checks = append(p.checks, to)
	a.reg, err = p.emit(opDCheck, a.reg, 0, int32(len(p.checks)-1), mask, int64(to.Prec))
	return a, err
}

func (c *compiler) caseExpr(e *engine.Case, mask int32) (val, error) {
	p := c.p
	reach := mask
	isIntv := e.T.Kind == engine.KindInterval
	var takes []int32
	var results []val
	for k := range e.Conds {
		cv, err := c.compile(e.Conds[k], reach)
		if err != nil {
			return val{}, err
		}
		take, err := p.emit(opMask, reach, cv.reg, 0, mask, 0)
		if err != nil {
			return val{}, err
		}
		c.intvOK = isIntv // interval results: rowkeys.go
		rv, err := c.compile(e.Results[k], take)
		if err != nil {
			return val{}, err
		}
		if reach, err = p.emit(opMaskNot, reach, cv.reg, 0, mask, 0); err != nil {
			return val{}, err
		}
		takes = append(takes, take)
		results = append(results, rv)
	}
	c.intvOK = isIntv
	out, err := c.compile(e.Else, reach)
	if err != nil {
		return val{}, err
	}
	// numeric results keep each row's branch's scale (as the CPU's
	// values do) unless every branch has the same static one; NULL
	// constants have none
	isNull := func(x engine.Expr) bool {
		k, ok := x.(*engine.Const)
		return ok && k.Null
	}
	dyn, static := false, int32(-1)
	if rc, _ := clsOf(e.T); rc == clsDec {
		for k, x := range append(append([]engine.Expr{}, e.Results...), e.Else) {
			r := out
			if k < len(results) {
				r = results[k]
			}
			switch {
			case isNull(x):
			case r.scaleReg != 0 || static >= 0 && r.scale != static:
				dyn = true
			default:
				static = r.scale
			}
		}
	}
	if dyn {
		sc, err := c.scaleOf(out)
		if err != nil {
			return val{}, err
		}
		for k := len(takes) - 1; k >= 0; k-- {
			rs, err := c.scaleOf(results[k])
			if err != nil {
				return val{}, err
			}
			if sc, err = p.emit(opSel, rs, sc, takes[k], mask, 0); err != nil {
				return val{}, err
			}
		}
		out.scale, out.scaleReg = 0, sc
	} else if static >= 0 {
		out.scale = static
	}
	for k := len(takes) - 1; k >= 0; k-- {
		r := results[k]
		reg, err := p.emit(opSel, r.reg, out.reg, takes[k], mask, 0)
		if err != nil {
			return val{}, err
		}
		out.reg = reg
		out.width = max(out.width, r.width)
	}
	cls := int32(clsIntv)
	if !isIntv {
		if cls, err = clsOf(e.T); err != nil {
			return val{}, err
		}
	}
	out.cls = cls
	out.t = e.T
	return out, nil
}

// concat compiles a || b into the first register its operands took and
// frees the others: every register from there on was taken by the
// operands and is dead once the result is written (opConcat reads both
// operands before it writes), so a chain of concatenations, concat()
// of many arguments, needs the registers of one argument and the
// chain's result rather than the sum over all arguments.
func (c *compiler) concat(e *engine.Call, mask int32) (val, error) {
	p := c.p
	mark := p.next
	args, err := c.args(e.Args, mask)
	if err != nil {
		return val{}, err
	}
	v, err := c.strCall(e, args, mask)
	if err != nil {
		return val{}, err
	}
	last := &p.ins[len(p.ins)-1]
	if last.Op != opConcat || last.Dst != v.reg || v.reg < mark {
		return val{}, engine.Errorf(engine.CodeInternalError, "concat compiled to an unexpected instruction")
	}
	last.Dst = mark
	v.reg = mark
	p.next = mark + 1
	return v, nil
}

// intervalHi packs an interval's months and days as an interval
// register's hi word (its lo word holds the microseconds).
func intervalHi(v engine.IntervalVal) int64 {
	return int64(uint64(uint32(v.Months))<<32 | uint64(uint32(v.Days)))
}

// intervalCall compiles the interval operators as engine/eval's
// evalDatetime: timestamp ± interval (months, then days, then
// microseconds, as PostgreSQL), timestamp - timestamp, interval ±
// interval and -interval, with its range errors.
func (c *compiler) intervalCall(e *engine.Call, mask int32) (val, error) {
	args := make([]val, len(e.Args))
	for i, a := range e.Args {
		isIntv := a.Type().Kind == engine.KindInterval
		c.intvOK = isIntv
		v, err := c.compile(a, mask)
		c.intvOK = false
		if err != nil {
			return val{}, err
		}
		stamp := a.Type().Kind == engine.KindTimestamp || e.Op == engine.OpTsDiff && a.Type().Kind == engine.KindTimestampTZ
		if isIntv && v.cls != clsIntv || !isIntv && (v.cls != clsI64 || !stamp) {
			return val{}, unsupported("%s on %s", e.Op, a.Type())
		}
		args[i] = v
	}
	out := val{cls: clsIntv, t: e.T}
	var err error
	p := c.p
	switch e.Op {
	case engine.OpTsAddIntv, engine.OpTsSubIntv:
		out.cls = clsI64
		out.reg, err = p.emit(opTsAddIntv, args[0].reg, args[1].reg, 0, mask, boolInt(e.Op == engine.OpTsSubIntv))
	case engine.OpTsDiff:
		out.reg, err = p.emit(opTsDiff, args[0].reg, args[1].reg, 0, mask, 0)
	case engine.OpIntvAdd, engine.OpIntvSub:
		out.reg, err = p.emit(opIntvAdd, args[0].reg, args[1].reg, 0, mask, boolInt(e.Op == engine.OpIntvSub))
	case engine.OpIntvNeg:
		out.reg, err = p.emit(opIntvNeg, args[0].reg, 0, 0, mask, 0)
	}
	return out, err
}

// floatToNumeric is eval's float to numeric cast (engine.DecFromFloat:
// 15 significant digits, 6 for real, then fitNumeric): OP_F2D rounds
// straight to a typmod's scale, else gives each row's scale in a scale
// register.
func (c *compiler) floatToNumeric(a val, to engine.Type, mask int32) (val, error) {
	p := c.p
	imm := int64(0)
	if a.cls == clsF32 {
		imm = 1 << 16
	}
	out := val{t: to, cls: clsDec}
	var err error
	if to.Prec == 0 {
		if out.scaleReg, err = p.newReg(); err != nil {
			return val{}, err
		}
		out.reg, err = p.emit(opF2D, a.reg, 0, out.scaleReg, mask, imm)
		return out, err
	}
	p.checks = append(p.checks, to)
	check := int32(len(p.checks) - 1)
	if out.reg, err = p.emit(opF2D, a.reg, 0, check, mask, imm|int64(to.Scale+1)); err != nil {
		return val{}, err
	}
	out.scale = int32(to.Scale)
	out.reg, err = p.emit(opDCheck, out.reg, 0, check, mask, int64(to.Prec))
	return out, err
}

// cmpOperand compiles a comparison operand; an interval becomes its span
// (engine.IntervalVal.Span as one number of microseconds, a scale-0
// numeric), which compares, sorts and groups as eval's cmpInterval.
func (c *compiler) cmpOperand(e engine.Expr, mask int32) (val, error) {
	if e.Type().Kind != engine.KindInterval {
		return c.compile(e, mask)
	}
	c.intvOK = true
	v, err := c.compile(e, mask)
	if err != nil {
		return val{}, err
	}
	return c.span(v)
}

// span turns an interval register into its span.
func (c *compiler) span(v val) (val, error) {
	r, err := c.p.emit(opSpanV, v.reg, 0, 0, 0, 0)
	return val{reg: r, cls: clsDec, t: engine.NumericType(38, 0)}, err
}

// intervalCmp compiles =, <>, <, <=, >, >= and IS [NOT] DISTINCT FROM
// over intervals by their spans.
func (c *compiler) intervalCmp(e *engine.Call, mask int32) (val, error) {
	a, err := c.cmpOperand(e.Args[0], mask)
	if err != nil {
		return val{}, err
	}
	b, err := c.cmpOperand(e.Args[1], mask)
	if err != nil {
		return val{}, err
	}
	if e.Op != engine.OpIsDistinct {
		return c.cmp(e.Op, a, b, mask)
	}
	eq, err := c.cmp(engine.OpEq, a, b, mask)
	if err != nil {
		return val{}, err
	}
	r, err := c.p.emit(opDistinct, a.reg, b.reg, eq.reg, mask, 0)
	return val{reg: r, cls: clsBool, t: engine.Bool}, err
}
