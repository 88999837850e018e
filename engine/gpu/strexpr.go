package gpu

import "github.com/gpusql/gpusql/engine"

// Computed strings. A string register points at bytes; a function whose
// result is new bytes (upper, ||, casts to text, replace...) writes them
// to a scratch slot of the running thread, as wide as the longest result
// the operands' widths allow (program.strSlot), so the width of every
// string value is known when the program compiles and the kernels never
// allocate. Functions that select part of a string (substring, trim, a
// cast to varchar(n)) point into their operand.

// text output widths of the types a cast to text handles (toText kinds of
// query.cu's putText)
const (
	textInt = iota
	textBool
	textNumeric
	textDate
	textTimestamp
	textFloat64 // engine.AppendFloat: putFloat, at most 25 bytes
	textFloat32
)

func (c *compiler) strCall(e *engine.Call, args []val, mask int32) (val, error) {
	p := c.p
	out := val{cls: clsStr, t: e.T}
	for i, a := range args {
		if (i == 0 || e.Op == engine.OpConcat) && !isStr(a.cls) {
			return val{}, unsupported("%s of %s", e.Op, a.t)
		}
		if i > 0 && e.Op == engine.OpSubstr && (!isInt(a.cls) || a.cls == clsBool) {
			return val{}, unsupported("%s with %s positions", e.Op, a.t)
		}
	}
	a := args[0]
	var err error
	switch e.Op {
	case engine.OpLength:
		out.cls = clsI32
		out.reg, err = p.emit(opLength, a.reg, 0, 0, mask, 0)
		return out, err
	case engine.OpUpper, engine.OpLower:
		op := opUpper
		if e.Op == engine.OpLower {
			op = opLower
		}
		return c.computed(out, a.width, op, a.reg, 0, mask, 0)
	case engine.OpConcat:
		return c.computed(out, a.width+args[1].width, opConcat, a.reg, args[1].reg, mask, 0)
	case engine.OpPadChar:
		n := e.Args[0].Type().Len
		return c.computed(out, a.width+n, opPadChar, a.reg, 0, mask, int64(n))
	case engine.OpSubstr:
		cnt, has := int32(0), int64(0)
		if len(args) > 2 {
			cnt, has = args[2].reg, 1
		}
		out.width = a.width
		out.reg, err = p.emit(opSubstr, a.reg, args[1].reg, cnt, mask, has)
		return out, err
	}
	return val{}, unsupported("the operator %s", e.Op)
}

// computed emits op writing a new string of at most width bytes into a
// scratch slot (c operand).
func (c *compiler) computed(out val, width int, op int, a, b, mask int32, imm int64) (val, error) {
	slot, err := c.p.strSlot(width)
	if err != nil {
		return val{}, err
	}
	out.width = width
	out.reg, err = c.p.emit(op, a, b, slot, mask, imm)
	return out, err
}

// castToString is eval's castToString: the value's text form (booleans
// as true/false), then at most to.Len characters for varchar(n) and
// char(n), char(n) without trailing blanks.
func (c *compiler) castToString(a val, to engine.Type, mask int32) (val, error) {
	cls, err := clsOf(to)
	if err != nil {
		return val{}, err
	}
	from := a.t
	if !isStr(a.cls) {
		kind, width, sreg := int64(0), 0, int32(0)
		switch {
		case from.IsInteger():
			kind, width = textInt, 20
		case from.Kind == engine.KindBool:
			kind, width = textBool, 5
		case from.Kind == engine.KindNumeric && a.scaleReg != 0:
			// the row's scale from its register (OP_TOTEXT's b), at most
			// the bound numtext.go proves (imm >> 8)
			sb := c.p.scaleBound(a.scaleReg)
			kind, width, sreg = textNumeric|int64(sb)<<8, 3+max(40, sb), a.scaleReg
		case from.Kind == engine.KindNumeric:
			kind, width = textNumeric|int64(a.scale)<<8, 3+max(40, int(a.scale))
		case from.Kind == engine.KindDate:
			kind, width = textDate, 20
		case from.Kind == engine.KindTimestamp:
			kind, width = textTimestamp, 40
		case from.Kind == engine.KindFloat64:
			kind, width = textFloat64, 25
		case from.Kind == engine.KindFloat32:
			kind, width = textFloat32, 25
		default:
			return val{}, unsupported("casting %s to %s", from, to)
		}
		if a, err = c.computed(val{cls: clsStr, t: engine.Text}, width, opToText, a.reg, sreg, mask, kind); err != nil {
			return val{}, err
		}
	}
	out := a
	out.cls, out.t = cls, to
	limit := (to.Kind == engine.KindChar || to.Kind == engine.KindVarchar) && to.Len > 0
	if limit || to.Kind == engine.KindChar && a.cls != clsChar {
		imm := int64(0)
		if limit {
			imm = int64(to.Len)
		}
		if to.Kind == engine.KindChar {
			imm |= 1 << 32
		}
		out.reg, err = c.p.emit(opLimitChars, a.reg, 0, 0, mask, imm)
	}
	return out, err
}

// hostFunc compiles the HostFuncs that have a kernel twin: trim, btrim,
// ltrim and rtrim, replace.
func (c *compiler) hostFunc(e *engine.HostFunc, mask int32) (val, error) {
	out := val{cls: clsStr, t: e.T}
	if v, ok, err := c.quoteFunc(e, mask); ok { // tail.go
		return v, err
	}
	if v, ok, err := c.arrayFunc(e, mask); ok { // arrays.go
		return v, err
	}
	switch e.Name {
	case "regexp_replace":
		return c.regexpReplace(e, mask) // regexvm.go
	case "trim", "btrim", "ltrim", "rtrim":
		var set engine.Expr = &engine.Const{T: engine.Text, S: " "}
		if len(e.Args) == 2 {
			set = e.Args[1]
		}
		// a constant ASCII set trims bytewise (OP_TRIM); any other set,
		// a column's too, character by character as Go's strings.Trim*
		// (OP_TRIMU, regex.go's section of query.cu)
		op := opTrim
		if k, ok := set.(*engine.Const); !ok {
			op = opTrimU
		} else {
			for i := 0; i < len(k.S); i++ {
				if k.S[i] >= 0x80 {
					op = opTrimU
				}
			}
		}
		s, err := c.compile(e.Args[0], mask)
		if err != nil {
			return val{}, err
		}
		k, err := c.compile(set, mask)
		if err != nil {
			return val{}, err
		}
		if !isStr(s.cls) || !isStr(k.cls) {
			return val{}, unsupported("%s of %s", e.Name, s.t)
		}
		mode := map[string]int64{"trim": 3, "btrim": 3, "ltrim": 1, "rtrim": 2}[e.Name]
		out.width = s.width
		out.reg, err = c.p.emit(op, s.reg, k.reg, 0, mask, mode)
		return out, err
	case "replace":
		if len(e.Args) != 3 {
			break
		}
		args, err := c.args(e.Args, mask)
		if err != nil {
			return val{}, err
		}
		for _, a := range args {
			if !isStr(a.cls) {
				return val{}, unsupported("replace() of %s", a.t)
			}
		}
		w := replaceWidth(args[0].width, e.Args[1], args[1].width, e.Args[2], args[2].width)
		slot, err := c.p.strSlot(w)
		if err != nil {
			return val{}, err
		}
		out.width = w
		out.reg, err = c.p.emit(opReplace, args[0].reg, args[1].reg, args[2].reg, mask, int64(slot))
		return out, err
	}
	return val{}, unsupported("the function %s", e.Name)
}

// replaceWidth bounds the bytes of replace(s, from, to) when s has at
// most ws bytes: each of at most ls/lf matches of from (lf >= 1 bytes; an
// empty from replaces nothing) turns lf bytes into lt, so the result has
// at most ls + (ls/lf)*(lt-lf) bytes, largest at ls = ws; lf and lt are
// the constants' lengths or range up to the operands' widths.
func replaceWidth(ws int, from engine.Expr, wf int, to engine.Expr, wt int) int {
	lfMin, lfMax, lt := 1, wf, wt
	if k, ok := from.(*engine.Const); ok {
		lfMin, lfMax = max(1, len(k.S)), len(k.S)
	}
	if k, ok := to.(*engine.Const); ok {
		lt = len(k.S)
	}
	w := ws
	for lf := lfMin; lf <= lfMax && lf <= ws; lf++ {
		w = max(w, ws+ws/lf*(lt-lf))
	}
	return w
}

// in compiles x IN (items): one comparison and OR per item, each item's
// registers reused by the next, so long lists (the uncorrelated
// subqueries that fold into one) fit the register file.
func (c *compiler) in(e *engine.Call, mask int32) (val, error) {
	p := c.p
	x, err := c.cmpOperand(e.Args[0], mask)
	if err != nil {
		return val{}, err
	}
	var acc val
	for i, item := range e.Args[1:] {
		mark := p.next
		v, err := c.cmpOperand(item, mask)
		if err != nil {
			return val{}, err
		}
		eq, err := c.cmp(engine.OpEq, x, v, mask)
		if err != nil {
			return val{}, err
		}
		if i == 0 {
			acc = eq
			continue
		}
		if err := p.emitTo(acc.reg, opOr, acc.reg, eq.reg, 0, mask, 0); err != nil {
			return val{}, err
		}
		p.next = mark // the item's registers are dead
	}
	return acc, nil
}
