package gpu

import (
	"github.com/gpusql/gpusql/engine"
)

// Keys whose values compare equal in more than one form: numerics whose
// scale varies by row (1.5 and 1.50, a quotient, a CASE over numerics of
// different scales, a double cast to numeric without a typmod) and
// intervals ('1 mon' and '30 days'). The CPU backend sorts and groups them
// by value (eval's DecCmp, normDec, IntervalVal.Span) and shows each row's
// own form: a group shows its first row's value.
//
//   - ORDER BY: a per-row-scale numeric sorts by mm_norm's three words
//     (cuda/stragg.cu: sign, decimal exponent, 38-digit mantissa), whose
//     order is the values' order whatever the scales; ties keep row order.
//     An interval sorts by its span (sort.go).
//   - GROUP BY: the hash table groups by a canonical form, the mantissa
//     without trailing zero digits and the scale left (OP_DNORM, as eval's
//     normDec), or the interval's span; the key values shown are each
//     group's first row's, evaluated again (firstRowKeys).

// opDNorm (OP_DNORM in query.cu): a at the scale in register b without
// trailing zero digits; register c receives the scale left.
const opDNorm = 600

// opColR (OP_COLR in query.cu) reads column A of numerics stored at scale
// imm whose rows keep their own scales (Column.rowScales): the value at
// its row's scale to the destination, the scale to register C.
const opColR = 1600

// scaledKeyWords turns a per-row-scale numeric sort key (its value vk and
// its scale sk, as q_project wrote them for n rows) into three int64 sort
// keys in vk's direction, whose order is the values' order.
func (r *run) scaledKeyWords(vk, sk sKey, n int64) ([]sKey, error) {
	words := make([]sKey, 3)
	for k := range words {
		w, err := r.s.alloc(8 * n)
		if err != nil {
			return nil, err
		}
		words[k] = sKey{Lo: uint64(w.Ptr()), Nul: vk.Nul, Cls: clsI64, Desc: vk.Desc, NullsFirst: vk.NullsFirst}
	}
	if n == 0 {
		return words, nil
	}
	return words, r.saLaunch("mm_norm", r.sortGrid(n), saTPB, n, vk.Lo, vk.Hi, sk.Lo, words[0].Lo, words[1].Lo, words[2].Lo)
}

// groupKeyRegs compiles the hash-table form of a GROUP BY key v: itself,
// or for a per-row-scale numeric its mantissa and scale without trailing
// zeros (two keys), or for an interval its span.
func (c *compiler) groupKeyRegs(v val, mask int32) ([]val, error) {
	switch {
	case v.cls == clsIntv:
		s, err := c.span(v)
		return []val{s}, err
	case v.cls == clsDec && v.scaleReg != 0:
		sc, err := c.p.newReg()
		if err != nil {
			return nil, err
		}
		m, err := c.p.emit(opDNorm, v.reg, v.scaleReg, sc, mask, 0)
		if err != nil {
			return nil, err
		}
		return []val{{reg: m, cls: clsDec, t: engine.NumericType(38, 0)}, {reg: sc, cls: clsI64, t: engine.Int64}}, nil
	}
	return []val{v}, nil
}

// needsFirstRow reports whether a GROUP BY key's shown value is its
// group's first row's rather than the hash table's (floats: -0 and 0;
// per-row scales; intervals).
func needsFirstRow(e engine.Expr, v val) bool {
	return e.Type().IsFloat() || v.scaleReg != 0 || v.cls == clsIntv
}

// intervalCoalesce compiles coalesce() over intervals: the first non-NULL
// argument, as it is (its months, days and microseconds).
func (c *compiler) intervalCoalesce(e *engine.Call, mask int32) (val, error) {
	args := make([]val, len(e.Args))
	for i, a := range e.Args {
		c.intvOK = true
		v, err := c.compile(a, mask)
		c.intvOK = false
		if err != nil {
			return val{}, err
		}
		if v.cls != clsIntv {
			return val{}, unsupported("coalesce() of %s", a.Type())
		}
		args[i] = v
	}
	r := args[len(args)-1]
	for i := len(args) - 2; i >= 0; i-- {
		reg, err := c.p.emit(opCoalesce, args[i].reg, r.reg, 0, mask, 0)
		if err != nil {
			return val{}, err
		}
		r.reg = reg
	}
	r.t = e.T
	return r, nil
}
