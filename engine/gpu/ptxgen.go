package gpu

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// The fused path compiles one aggregate query into one kernel of PTX,
// generated here from the same register program the interpreter runs
// (compile.go). The driver JIT-compiles it once per distinct program text
// (Backend.fused caches it). In the generated code every program register
// is a 64-bit PTX register and every NULL flag a predicate, so the
// compiler keeps them in hardware registers; filter, group key and
// aggregate arguments are evaluated in one pass over the rows and reduced
// in registers (no grouping) or in a per-block shared-memory hash table
// (small group counts), with one global merge per block.
//
// Only programs whose results the 64-bit arithmetic provably reproduces
// are generated: value ranges (ranges.go, from the columns' stats) must
// show that no instruction can overflow or raise an error. Everything
// else returns errNotFused and runs on the interpreter.

var errNotFused = errors.New("not fusable")

func notFused(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errNotFused}, args...)...)
}

// keyPart is one GROUP BY key packed into the 64-bit group key.
type keyPart struct {
	v        val
	str      bool     // raw bytes of a string column (width 4 or 8)
	char     bool     // char(n): trailing spaces do not count
	lo       *big.Int // integers: code = v - lo + 1, 0 for NULL
	nullable bool     // strings: a NULL bit below the bytes
	preKey   int      // 1 + the index of the precomputed dictionary code it holds, 0 none
	shift    int
	bits     int
}

// ptxGen writes the kernel.
type ptxGen struct {
	body    strings.Builder
	n64     int
	n32     int
	npred   int
	nlabel  int
	val     []string // program register -> PTX b64 register
	nul     []string // program register -> PTX predicate, "" never NULL
	rng     []ival   // program register -> value range (integers, numerics)
	strCol  []int    // program register -> column for string columns, else -1
	colRegs map[int][2]string
	params  []string // kernel parameter names, in order
	colArgs []int    // columns whose data (and validity) pointers follow the fixed parameters
	colPtr  map[int][2]string
	cols    []*Column
	stats   func(k int) (colStats, error)

	// precomputed values (precomp.go)
	pres     []*pre
	prePtr   []string        // pre -> its bitmap or table parameter
	preValid []string        // pre -> its column's validity parameter (preBits)
	codePtr  map[int]string  // column -> its codes parameter
	codeRegs map[int]string  // column -> the row's code, once loaded
	preOf    map[int32]int   // program register -> 1 + the precomputed value it holds
	fitScale map[int32]int32 // opDFitR's register -> the scale it extends to
}

func (g *ptxGen) f(format string, args ...any) {
	g.body.WriteString("\t")
	fmt.Fprintf(&g.body, format, args...)
	g.body.WriteString("\n")
}

func (g *ptxGen) r64() string  { g.n64++; return fmt.Sprintf("%%x%d", g.n64) }
func (g *ptxGen) r32() string  { g.n32++; return fmt.Sprintf("%%w%d", g.n32) }
func (g *ptxGen) pred() string { g.npred++; return fmt.Sprintf("%%p%d", g.npred) }
func (g *ptxGen) label() string {
	g.nlabel++
	return fmt.Sprintf("L%d", g.nlabel)
}

func (g *ptxGen) param(name string) string {
	g.params = append(g.params, name)
	r := g.r64()
	g.f("ld.param.u64 %s, [%s];", r, name)
	return r
}

// imm returns a register holding v.
func (g *ptxGen) imm(v int64) string {
	r := g.r64()
	g.f("mov.b64 %s, %d;", r, v)
	return r
}

// truthy is the predicate "value true and not NULL" of register r.
func (g *ptxGen) truthy(r int32) string {
	p := g.pred()
	g.f("setp.ne.s64 %s, %s, 0;", p, g.val[r])
	if n := g.nul[r]; n != "" {
		q := g.pred()
		g.f("not.pred %s, %s;", q, n)
		g.f("and.pred %s, %s, %s;", p, p, q)
	}
	return p
}

func (g *ptxGen) falsy(r int32) string {
	p := g.pred()
	g.f("setp.eq.s64 %s, %s, 0;", p, g.val[r])
	if n := g.nul[r]; n != "" {
		q := g.pred()
		g.f("not.pred %s, %s;", q, n)
		g.f("and.pred %s, %s, %s;", p, p, q)
	}
	return p
}

func (g *ptxGen) or(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	p := g.pred()
	g.f("or.pred %s, %s, %s;", p, a, b)
	return p
}

func (g *ptxGen) and(a, b string) string {
	if a == "" || b == "" {
		return ""
	}
	p := g.pred()
	g.f("and.pred %s, %s, %s;", p, a, b)
	return p
}

func (g *ptxGen) not(a string) string {
	p := g.pred()
	g.f("not.pred %s, %s;", p, a)
	return p
}

// boolOf turns a predicate into a 0/1 value register.
func (g *ptxGen) boolOf(p string) string {
	r := g.r64()
	g.f("selp.b64 %s, 1, 0, %s;", r, p)
	return r
}

// use checks that register r is something the generated code can read.
func (g *ptxGen) use(r int32) error {
	if r < 0 || int(r) >= len(g.val) || g.val[r] == "" {
		if r >= 0 && int(r) < len(g.strCol) && g.strCol[r] >= 0 {
			return notFused("string values in expressions")
		}
		return notFused("register %d has no 64-bit value", r)
	}
	return nil
}

func (g *ptxGen) set(d int32, v, n string, r ival) {
	g.val[d], g.nul[d], g.rng[d] = v, n, r
}

var cmpName = [...]string{"eq", "ne", "lt", "le", "gt", "ge"}

// column loads column k for the current row (once per row).
func (g *ptxGen) column(k int, row string) ([2]string, error) {
	if r, ok := g.colRegs[k]; ok {
		return r, nil
	}
	c := g.cols[k]
	cls, err := clsOf(c.Type)
	if err != nil {
		return [2]string{}, err
	}
	ptr := g.colPtr[k]
	v := g.r64()
	addr := g.r64()
	size := map[int32]int{clsBool: 1, clsI16: 2, clsI32: 4, clsI64: 8, clsDec: 8}[cls]
	w := g.r32()
	switch size {
	case 1:
		g.f("add.u64 %s, %s, %s;", addr, ptr[0], row)
		g.f("ld.global.nc.u8 %s, [%s];", w, addr)
		g.f("cvt.u64.u32 %s, %s;", v, w)
	case 2:
		g.f("mad.lo.u64 %s, %s, 2, %s;", addr, row, ptr[0])
		g.f("ld.global.nc.s16 %s, [%s];", w, addr)
		g.f("cvt.s64.s32 %s, %s;", v, w)
	case 4:
		g.f("mad.lo.u64 %s, %s, 4, %s;", addr, row, ptr[0])
		g.f("ld.global.nc.s32 %s, [%s];", w, addr)
		g.f("cvt.s64.s32 %s, %s;", v, w)
	case 8:
		g.f("mad.lo.u64 %s, %s, 8, %s;", addr, row, ptr[0])
		g.f("ld.global.nc.s64 %s, [%s];", v, addr)
	default:
		return [2]string{}, notFused("columns of type %s", c.Type)
	}
	n := ""
	if c.Valid != nil {
		n = g.validBit(ptr[1], row)
	}
	r := [2]string{v, n}
	g.colRegs[k] = r
	return r, nil
}

// validBit is the predicate "row is NULL" of a validity bitmap.
func (g *ptxGen) validBit(bm, row string) string {
	a, word, sh := g.r64(), g.r64(), g.r32()
	g.f("shr.u64 %s, %s, 6;", a, row)
	g.f("mad.lo.u64 %s, %s, 8, %s;", a, a, bm)
	g.f("ld.global.nc.u64 %s, [%s];", word, a)
	g.f("cvt.u32.u64 %s, %s;", sh, row)
	g.f("and.b32 %s, %s, 63;", sh, sh)
	g.f("shr.u64 %s, %s, %s;", word, word, sh)
	g.f("and.b64 %s, %s, 1;", word, word)
	p := g.pred()
	g.f("setp.eq.u64 %s, %s, 0;", p, word)
	return p
}

// program emits p for the row in register row; consts are the program's
// constants.
func (g *ptxGen) program(p *program, row string) error {
	g.colRegs = map[int][2]string{}
	g.codeRegs = map[int]string{}
	one := g.imm(1)
	g.set(0, one, "", iv(1, 1))
	for _, in := range p.ins {
		d, a := in.Dst, in.A
		switch in.Op {
		case opCol:
			k := int(a)
			cls, err := clsOf(g.cols[k].Type)
			if err != nil {
				return notFused("columns of type %s", g.cols[k].Type)
			}
			if isStr(cls) {
				g.strCol[d] = k
				continue
			}
			if !statable(cls) {
				return notFused("columns of type %s", g.cols[k].Type)
			}
			st, err := g.stats(k)
			if err != nil {
				return err
			}
			r, err := g.column(k, row)
			if err != nil {
				return err
			}
			rg := iv(st.lo, st.hi)
			if st.count == 0 {
				rg = iv(0, 0)
			}
			g.set(d, r[0], r[1], rg)
		case opPre:
			g.preOp(d, int(a), in.B, row)
		case opConst:
			k := p.consts[a]
			if k.Nul != 0 {
				pn := g.pred()
				z := g.imm(0)
				g.f("setp.eq.s64 %s, %s, 0;", pn, z)
				g.set(d, z, pn, iv(0, 0))
				continue
			}
			if containsInt(p.strConst, int(a)) {
				return notFused("string constants")
			}
			if k.Hi != k.Lo>>63 {
				return notFused("numeric constants beyond 64 bits")
			}
			g.set(d, g.imm(k.Lo), "", iv(k.Lo, k.Lo))
		default:
			if err := g.op(in); err != nil {
				return err
			}
			if g.val[d] != "" && !g.rng[d].fits64() {
				return notFused("values beyond 64 bits")
			}
		}
	}
	return nil
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func (g *ptxGen) op(in qIns) error {
	d, a, b, c := in.Dst, in.A, in.B, in.C
	needs := func(regs ...int32) error {
		for _, r := range regs {
			if err := g.use(r); err != nil {
				return err
			}
		}
		return nil
	}
	va := func() string { return g.val[a] }
	vb := func() string { return g.val[b] }
	boolRange := iv(0, 1)
	switch in.Op {
	case opAddI, opSubI, opMulI, opAddD, opSubD, opMulD:
		if err := needs(a, b); err != nil {
			return err
		}
		var rg ival
		var ins string
		switch in.Op {
		case opAddI, opAddD:
			rg, ins = g.rng[a].add(g.rng[b]), "add.s64"
		case opSubI, opSubD:
			rg, ins = g.rng[a].sub(g.rng[b]), "sub.s64"
		default:
			rg, ins = g.rng[a].mul(g.rng[b]), "mul.lo.s64"
		}
		if in.Op <= opMulI {
			lo, hi := classRange(in.Imm)
			if !rg.fits(lo, hi) {
				return notFused("integer arithmetic that may leave its type's range")
			}
		}
		r := g.r64()
		g.f("%s %s, %s, %s;", ins, r, va(), vb())
		g.set(d, r, g.or(g.nul[a], g.nul[b]), rg)
	case opDivI, opModI:
		if err := needs(a, b); err != nil {
			return err
		}
		y := g.rng[b]
		if y.lo.Sign() <= 0 && y.hi.Sign() >= 0 {
			return notFused("division by a value that may be zero")
		}
		rg := g.rng[a].abs()
		rg = ival{new(big.Int).Neg(rg.hi), rg.hi}
		lo, hi := classRange(in.Imm)
		if !rg.fits(lo, hi) {
			return notFused("integer division that may leave its type's range")
		}
		r := g.r64()
		if in.Op == opDivI {
			g.f("div.s64 %s, %s, %s;", r, va(), vb())
		} else {
			g.f("rem.s64 %s, %s, %s;", r, va(), vb())
		}
		g.set(d, r, g.or(g.nul[a], g.nul[b]), rg)
	case opNegI, opAbsI, opNegD, opAbsD:
		if err := needs(a); err != nil {
			return err
		}
		rg := g.rng[a].neg()
		ins := "neg.s64"
		if in.Op == opAbsI || in.Op == opAbsD {
			rg, ins = g.rng[a].abs(), "abs.s64"
		}
		if in.Op == opNegI || in.Op == opAbsI {
			lo, hi := classRange(in.Imm)
			if !rg.fits(lo, hi) {
				return notFused("integer negation that may leave its type's range")
			}
		}
		r := g.r64()
		g.f("%s %s, %s;", ins, r, va())
		g.set(d, r, g.nul[a], rg)
	case opDFitR:
		// only the fused form: to the largest scale the row's can be
		if in.Imm != -1 {
			return notFused("opcode %d", in.Op)
		}
		if err := needs(a, b); err != nil {
			return err
		}
		sr := g.rng[b]
		if !sr.lo.IsInt64() || !sr.hi.IsInt64() || sr.lo.Sign() < 0 || sr.hi.Int64() > 18 {
			return notFused("numerics of scales out of range")
		}
		lo, hi := sr.lo.Int64(), sr.hi.Int64()
		x := g.r64()
		g.f("mov.b64 %s, %s;", x, va())
		for s := lo; s < hi; s++ {
			p := g.pred()
			g.f("setp.eq.s64 %s, %s, %d;", p, g.val[b], s)
			g.f("@%s mul.lo.s64 %s, %s, %d;", p, x, va(), pow10i(int(hi-s)))
		}
		g.set(d, x, g.nul[a], g.rng[a].union(g.rng[a].scale(int(hi-lo))))
		if g.fitScale == nil {
			g.fitScale = map[int32]int32{}
		}
		g.fitScale[d] = int32(hi)
	case opRescale:
		if err := needs(a); err != nil {
			return err
		}
		if in.Imm > 18 {
			return notFused("rescaling by 10^%d", in.Imm)
		}
		r := g.r64()
		g.f("mul.lo.s64 %s, %s, %d;", r, va(), pow10i(int(in.Imm)))
		g.set(d, r, g.nul[a], g.rng[a].scale(int(in.Imm)))
	case opDRound:
		if err := needs(a); err != nil {
			return err
		}
		if in.Imm > 18 {
			return notFused("rounding by 10^%d", in.Imm)
		}
		r := g.roundDown(va(), int(in.Imm))
		g.set(d, r, g.nul[a], g.rng[a].shrink(int(in.Imm)))
	case opDCheck:
		if err := needs(a); err != nil {
			return err
		}
		lim := pow10(int(in.Imm))
		m := g.rng[a].abs()
		if m.hi.Cmp(lim) >= 0 {
			return notFused("a precision check that may fail")
		}
		g.set(d, va(), g.nul[a], g.rng[a])
	case opCmpI, opCmpD:
		if err := needs(a, b); err != nil {
			return err
		}
		p := g.pred()
		g.f("setp.%s.s64 %s, %s, %s;", cmpName[in.Imm], p, va(), vb())
		g.set(d, g.boolOf(p), g.or(g.nul[a], g.nul[b]), boolRange)
	case opAnd, opOr:
		if err := needs(a, b); err != nil {
			return err
		}
		ta, tb, fa, fb := g.truthy(a), g.truthy(b), g.falsy(a), g.falsy(b)
		var t, f string
		if in.Op == opAnd {
			t, f = g.and(ta, tb), g.or(fa, fb)
		} else {
			t, f = g.or(ta, tb), g.and(fa, fb)
		}
		n := ""
		if g.nul[a] != "" || g.nul[b] != "" {
			n = g.and(g.not(t), g.not(f))
		}
		g.set(d, g.boolOf(t), n, boolRange)
	case opNot:
		if err := needs(a); err != nil {
			return err
		}
		p := g.pred()
		g.f("setp.eq.s64 %s, %s, 0;", p, va())
		g.set(d, g.boolOf(p), g.nul[a], boolRange)
	case opIsNull, opIsNotNull:
		if a >= 0 && int(a) < len(g.strCol) && g.strCol[a] >= 0 {
			return notFused("string values in expressions")
		}
		if err := needs(a); err != nil {
			return err
		}
		n := g.nul[a]
		var v string
		switch {
		case n == "" && in.Op == opIsNull:
			v = g.imm(0)
		case n == "":
			v = g.imm(1)
		case in.Op == opIsNull:
			v = g.boolOf(n)
		default:
			v = g.boolOf(g.not(n))
		}
		g.set(d, v, "", boolRange)
	case opIsTrue, opIsFalse:
		if err := needs(a); err != nil {
			return err
		}
		p := g.truthy(a)
		if in.Op == opIsFalse {
			p = g.falsy(a)
		}
		g.set(d, g.boolOf(p), "", boolRange)
	case opMask, opMaskNot:
		if err := needs(a, b); err != nil {
			return err
		}
		pa, pb := g.truthy(a), g.truthy(b)
		if in.Op == opMaskNot {
			pb = g.not(pb)
		}
		g.set(d, g.boolOf(g.and(pa, pb)), "", boolRange)
	case opSel:
		if err := needs(a, b, c); err != nil {
			return err
		}
		t := g.truthy(c)
		r := g.r64()
		g.f("selp.b64 %s, %s, %s, %s;", r, va(), vb(), t)
		n := ""
		if g.nul[a] != "" || g.nul[b] != "" {
			na, nb := g.nul[a], g.nul[b]
			if na == "" {
				na = g.falsePred()
			}
			if nb == "" {
				nb = g.falsePred()
			}
			n = g.or(g.and(t, na), g.and(g.not(t), nb))
		}
		g.set(d, r, n, g.rng[a].union(g.rng[b]))
	case opCoalesce:
		if err := needs(a, b); err != nil {
			return err
		}
		if g.nul[a] == "" {
			g.set(d, va(), "", g.rng[a])
			break
		}
		r := g.r64()
		g.f("selp.b64 %s, %s, %s, %s;", r, vb(), va(), g.nul[a])
		n := ""
		if g.nul[b] != "" {
			n = g.and(g.nul[a], g.nul[b])
		}
		g.set(d, r, n, g.rng[a].union(g.rng[b]))
	case opNullIf:
		if err := needs(a, b); err != nil {
			return err
		}
		n := g.or(g.nul[a], g.truthy(b))
		r := g.r64()
		g.f("selp.b64 %s, 0, %s, %s;", r, va(), n)
		g.set(d, r, n, g.rng[a].union(iv(0, 0)))
	case opDistinct:
		if err := needs(a, b, c); err != nil {
			return err
		}
		ne := g.pred()
		g.f("setp.eq.s64 %s, %s, 0;", ne, g.val[c])
		na, nb := g.nul[a], g.nul[b]
		if na == "" && nb == "" {
			g.set(d, g.boolOf(ne), "", boolRange)
			break
		}
		if na == "" {
			na = g.falsePred()
		}
		if nb == "" {
			nb = g.falsePred()
		}
		diff := g.pred()
		g.f("xor.pred %s, %s, %s;", diff, na, nb)
		both := g.and(na, nb)
		res := g.and(g.not(both), g.or(diff, ne))
		g.set(d, g.boolOf(res), "", boolRange)
	case opI2I:
		if err := needs(a); err != nil {
			return err
		}
		lo, hi := classRange(in.Imm)
		if !g.rng[a].fits(lo, hi) {
			return notFused("an integer cast that may leave its type's range")
		}
		g.set(d, va(), g.nul[a], g.rng[a])
	case opI2D:
		if err := needs(a); err != nil {
			return err
		}
		g.set(d, va(), g.nul[a], g.rng[a])
	case opD2I:
		if err := needs(a); err != nil {
			return err
		}
		v, rg := va(), g.rng[a]
		if in.Imm > 18 {
			return notFused("rounding by 10^%d", in.Imm)
		}
		if in.Imm > 0 {
			v, rg = g.roundDown(v, int(in.Imm)), rg.shrink(int(in.Imm))
		}
		lo, hi := classRange(int64(c))
		if !rg.fits(lo, hi) {
			return notFused("a numeric to integer cast that may leave its type's range")
		}
		g.set(d, v, g.nul[a], rg)
	case opDate2Ts:
		if err := needs(a); err != nil {
			return err
		}
		r := g.r64()
		g.f("mul.lo.s64 %s, %s, 86400000000;", r, va())
		g.set(d, r, g.nul[a], g.rng[a].mul(iv(86400000000, 86400000000)))
	case opTs2Date:
		if err := needs(a); err != nil {
			return err
		}
		q, rm, t := g.r64(), g.r64(), g.r64()
		g.f("div.s64 %s, %s, 86400000000;", q, va())
		g.f("rem.s64 %s, %s, 86400000000;", rm, va())
		p := g.pred()
		g.f("setp.lt.s64 %s, %s, 0;", p, rm)
		g.f("selp.b64 %s, 1, 0, %s;", t, p)
		g.f("sub.s64 %s, %s, %s;", q, q, t)
		g.set(d, q, g.nul[a], g.rng[a].shrinkDays())
	default:
		return notFused("opcode %d", in.Op)
	}
	return nil
}

// shrinkDays is the range of floor(x / 86400000000), widened by one.
func (a ival) shrinkDays() ival {
	d := big.NewInt(86400000000)
	lo := new(big.Int).Quo(a.lo, d)
	hi := new(big.Int).Quo(a.hi, d)
	return ival{lo.Sub(lo, big.NewInt(1)), hi.Add(hi, big.NewInt(1))}
}

func (g *ptxGen) falsePred() string {
	p := g.pred()
	z := g.imm(0)
	g.f("setp.ne.s64 %s, %s, 0;", p, z)
	return p
}

func pow10i(k int) int64 {
	v := int64(1)
	for ; k > 0; k-- {
		v *= 10
	}
	return v
}

// roundDown divides x by 10^k rounding half away from zero (the
// interpreter's roundDown on values that fit 64 bits).
func (g *ptxGen) roundDown(x string, k int) string {
	if k == 0 {
		return x
	}
	m, q, t, r := g.r64(), g.r64(), g.r64(), g.r64()
	dv := pow10i(k)
	g.f("abs.s64 %s, %s;", m, x)
	g.f("div.u64 %s, %s, %d;", q, m, dv)
	g.f("mul.lo.u64 %s, %s, %d;", t, q, dv)
	g.f("sub.u64 %s, %s, %s;", r, m, t)
	g.f("sub.u64 %s, %d, %s;", t, dv, r)
	p := g.pred()
	g.f("setp.ge.u64 %s, %s, %s;", p, r, t)
	inc := g.r64()
	g.f("selp.b64 %s, 1, 0, %s;", inc, p)
	g.f("add.u64 %s, %s, %s;", q, q, inc)
	neg := g.pred()
	g.f("setp.lt.s64 %s, %s, 0;", neg, x)
	nq := g.r64()
	g.f("neg.s64 %s, %s;", nq, q)
	out := g.r64()
	g.f("selp.b64 %s, %s, %s, %s;", out, nq, q, neg)
	return out
}
