package gpu

import (
	"encoding/binary"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Arrays in their text form ('{a,"b c",NULL}'; gpusql has no array
// types) over user columns: string_to_array, array_length, array_upper,
// array_lower, a[i], x = ANY (a), array_cat (|| of arrays) and
// array_to_string run in the arrays section of cuda/query.cu, which
// parses and quotes exactly as the CPU backend's HostFuncs
// (query/pgfunc_defs.go's parseTextArray, query/bindexpr.go's
// appendArrayElem).
//
// A malformed array raises 22P02 "malformed array literal: %q" with the
// array's text. The kernel's error word holds no text, so each
// instruction that parses an array owns an error record in the
// program's constant pool (arrayRecord): the failing thread whose key is
// the smallest writes the text there, and check reads it back
// (malformedArray).

// opcodes (OP_STR2ARR... in query.cu)
const (
	opStrToArr = 800 + iota // string_to_array(a, b) into the scratch slot imm
	opArrLen                // array_length/array_upper of a in dimension b (imm bit 0: array_lower); imm >> 32: error record
	opArrSub                // a[b]; imm: scratch slot, imm >> 32: error record
	opArrHas                // b = ANY (a); imm as opArrSub
	opArrCat                // array_cat(a, b) into the scratch slot imm
	opArrToStr              // array_to_string(a, b, c); imm as opArrSub
)

// errArrayMalformed is ERR_ARRAY_MALFORMED: the array's text is in the
// failing instruction's error record.
const errArrayMalformed = 28

// arrayFunc compiles the array functions; ok is false for other names.
func (c *compiler) arrayFunc(e *engine.HostFunc, mask int32) (v val, ok bool, err error) {
	var want int
	switch e.Name {
	case "string_to_array", "array_upper", "array_lower", "array_length", "__gpusql_subscript", "__gpusql_array_has", "array_cat":
		want = 2
	case "array_to_string":
		want = len(e.Args)
		if want != 2 && want != 3 {
			return val{}, true, unsupported("array_to_string with %d arguments", want)
		}
	default:
		return val{}, false, nil
	}
	if len(e.Args) != want {
		return val{}, true, unsupported("%s with %d arguments", e.Name, len(e.Args))
	}
	args, err := c.args(e.Args, mask)
	if err != nil {
		return val{}, true, err
	}
	intArg := e.Name == "array_upper" || e.Name == "array_lower" || e.Name == "array_length" || e.Name == "__gpusql_subscript"
	for i, a := range args {
		if i == 1 && intArg {
			if !isInt(a.cls) || a.cls == clsBool {
				return val{}, true, unsupported("%s with a %s argument", e.Name, a.t)
			}
			continue
		}
		if a.cls != clsStr {
			// char(n) values reach the CPU's functions as stored; they stay
			// on the host
			return val{}, true, unsupported("%s of %s", e.Name, a.t)
		}
	}
	p := c.p
	a := args[0]
	out := val{cls: clsStr, t: e.T}
	switch e.Name {
	case "string_to_array", "array_cat":
		op, width := opStrToArr, stringToArrayWidth(a.width, e.Args[1])
		if e.Name == "array_cat" {
			op, width = opArrCat, a.width+args[1].width
		}
		slot, err := p.strSlot(width)
		if err != nil {
			return val{}, true, err
		}
		out.width = width
		out.reg, err = p.emit(op, a.reg, args[1].reg, 0, mask, int64(slot))
		return out, true, err
	}
	rec, err := c.arrayRecord(a.width)
	if err != nil {
		return val{}, true, err
	}
	op, width, third := opArrSub, a.width, int32(0)
	switch e.Name {
	case "array_upper", "array_lower", "array_length":
		mode := int64(0)
		if e.Name == "array_lower" {
			mode = 1
		}
		out.cls = clsI32
		out.reg, err = p.emit(opArrLen, a.reg, args[1].reg, 0, mask, mode|int64(rec)<<32)
		return out, true, err
	case "__gpusql_array_has":
		op = opArrHas
		out.cls = clsBool
	case "array_to_string":
		op = opArrToStr
		wn := 0
		var ns val
		if len(args) == 3 {
			ns = args[2]
			wn = ns.width
		} else if ns, err = c.compile(&engine.Const{T: engine.Text, Null: true}, mask); err != nil {
			return val{}, true, err
		}
		third = ns.reg
		width = arrayToStringWidth(a.width, args[1].width, wn)
	}
	slot, err := p.strSlot(width)
	if err != nil {
		return val{}, true, err
	}
	if out.cls == clsStr {
		out.width = width
	}
	out.reg, err = p.emit(op, a.reg, args[1].reg, third, mask, int64(slot)|int64(rec)<<32)
	return out, true, err
}

// stringToArrayWidth bounds the bytes of string_to_array(s, d)'s text
// form for s of at most ws bytes. An element e costs at most 2 + 2|e|
// bytes (quotes, every byte escaped) and a comma: with k cuts by a
// delimiter of ld bytes, 2 + k + 2(k+1) + 2(ws - k*ld) = 4 + 2ws +
// k(3 - 2ld), at most 4 + 3ws for ld = 1 (k <= ws) and 4 + 2ws for
// longer ones (and for an empty delimiter: s whole). With a NULL
// delimiter each character is an element: at most 4 bytes ("\"", or the
// 3 bytes of U+FFFD for an invalid byte) and a comma per byte.
func stringToArrayWidth(ws int, delim engine.Expr) int {
	perChar, oneByte, longer := 2+5*ws, 4+3*ws, 4+2*ws
	if k, ok := delim.(*engine.Const); ok {
		switch {
		case k.Null:
			return perChar
		case len(k.S) == 1:
			return oneByte
		}
		return longer
	}
	return max(perChar, oneByte)
}

// arrayToStringWidth bounds array_to_string(a, d, ns) for a of at most
// wa bytes, d of wd and ns of wn (0: none): the elements come from the
// wa - 2 bytes between the braces, so they hold at most that many bytes
// and number at most wa - 1 (one more than the commas); between them
// go at most wa - 2 delimiters, and every element may be a NULL shown as
// ns.
func arrayToStringWidth(wa, wd, wn int) int {
	body := max(0, wa-2)
	return body + body*wd + max(1, wa-1)*wn
}

// arrayRecord reserves an error record for an instruction that parses
// arrays of at most width bytes: 8-aligned in the constant pool, a u64
// key, an int lock, an int length and the bytes (arBad in query.cu), and
// returns the register holding its address.
func (c *compiler) arrayRecord(width int) (int32, error) {
	p := c.p
	for len(p.strPool)%8 != 0 {
		p.strPool = append(p.strPool, 0)
	}
	off := len(p.strPool)
	p.strPool = append(p.strPool, make([]byte, 16+width)...)
	p.strConst = append(p.strConst, len(p.consts))
	p.consts = append(p.consts, qConst{Lo: int64(off), Hi: int64(16 + width)})
	return p.emit(opConst, int32(len(p.consts)-1), 0, 0, 0, 0)
}

// malformedArray words ERR_ARRAY_MALFORMED as the CPU backend does, with
// the text the failing instruction (the key's pc) left in its error
// record.
func (r *run) malformedArray(p *program, key uint64) error {
	pc := int(key >> 28 & maxIns)
	if pc < len(p.ins) && p.poolAddr != 0 {
		rec := int32(p.ins[pc].Imm >> 32)
		for i := pc - 1; i >= 0; i-- {
			in := p.ins[i]
			if in.Op != opConst || in.Dst != rec {
				continue
			}
			addr := cuda.DevPtr(p.poolAddr + uint64(p.consts[in.A].Lo))
			var hdr [16]byte
			if err := r.b.dev.CopyDtoH(hdr[:], addr, nil); err != nil {
				return err
			}
			n := int64(binary.LittleEndian.Uint32(hdr[12:16]))
			if binary.LittleEndian.Uint64(hdr[0:8]) != key || n > p.consts[in.A].Hi-16 {
				break
			}
			buf := make([]byte, n)
			if n > 0 {
				if err := r.b.dev.CopyDtoH(buf, addr+16, nil); err != nil {
					return err
				}
			}
			return engine.Errorf(engine.CodeInvalidTextRepresent, "malformed array literal: %q", string(buf))
		}
	}
	return engine.Errorf(engine.CodeInternalError, "GPU kernel error: a malformed array literal whose text was not recorded")
}
