package gpu

import (
	"strconv"

	"github.com/gpusql/gpusql/engine"
)

// The long tail of functions the CPU backend runs over user columns:
// nullif() over intervals, quote_ident/quote_literal/quote_nullable over
// strings (OP_QUOTE, the tail section of cuda/query.cu) and format() with
// a constant format string of %s, %I, %L and %%.

// opQuote (OP_QUOTE in query.cu): a quoted into the scratch slot c; imm
// is the quoteMode.
const opQuote = 700

// quote modes (QUOTE_* in query.cu)
const (
	quoteLiteral     = iota // quote_literal: 'a''b', E'a\\b' when a has a backslash
	quoteNullable           // quote_nullable: as quote_literal, NULL gives the text NULL
	quoteIdent              // quote_ident: a as it is when it is a plain lower-case identifier and no reserved keyword, else "a""b"
	quoteFormatIdent        // format()'s %I: quoteIdent, a NULL raises errFormatNull
)

// errFormatNull is ERR_FORMAT_NULL: format()'s %I of a NULL.
const errFormatNull = 21

// maxFormatSpecs bounds the conversions of a format() on the device.
const maxFormatSpecs = 8

// intervalNullIf compiles nullif(a, b) over intervals: NULL where a = b
// by span (eval's compare), else a with its own months, days and
// microseconds.
func (c *compiler) intervalNullIf(e *engine.Call, mask int32) (val, error) {
	args := make([]val, 2)
	for i, a := range e.Args[:2] {
		if a.Type().Kind != engine.KindInterval {
			return val{}, unsupported("nullif() of %s and %s", e.Args[0].Type(), e.Args[1].Type())
		}
		c.intvOK = true
		v, err := c.compile(a, mask)
		c.intvOK = false
		if err != nil {
			return val{}, err
		}
		if v.cls != clsIntv {
			return val{}, unsupported("nullif() of %s", a.Type())
		}
		args[i] = v
	}
	sa, err := c.span(args[0])
	if err != nil {
		return val{}, err
	}
	sb, err := c.span(args[1])
	if err != nil {
		return val{}, err
	}
	eq, err := c.cmp(engine.OpEq, sa, sb, mask)
	if err != nil {
		return val{}, err
	}
	r := args[0]
	r.reg, err = c.p.emit(opNullIf, args[0].reg, eq.reg, 0, mask, 0)
	r.t = e.T
	return r, err
}

// quoteFunc compiles quote_ident, quote_literal and quote_nullable over a
// string: at most 2*width+2 bytes for an identifier ("" around, every "
// doubled), 2*width+3 for a literal (E, ” around, every ' and \
// doubled), at least 4 for quote_nullable's NULL. ok is false for other
// names.
func (c *compiler) quoteFunc(e *engine.HostFunc, mask int32) (v val, ok bool, err error) {
	if e.Name == "format" {
		v, err := c.format(e, mask)
		return v, true, err
	}
	mode := map[string]int64{"quote_literal": quoteLiteral, "quote_nullable": quoteNullable, "quote_ident": quoteIdent}
	m, ok := mode[e.Name]
	if !ok {
		return val{}, false, nil
	}
	if len(e.Args) != 1 {
		return val{}, true, unsupported("%s with %d arguments", e.Name, len(e.Args))
	}
	a, err := c.compile(e.Args[0], mask)
	if err != nil {
		return val{}, true, err
	}
	if a.cls != clsStr {
		// the CPU quotes other types' text forms, and char(n) values as
		// stored; those stay on the host
		return val{}, true, unsupported("%s of %s", e.Name, a.t)
	}
	v, err = c.computed(val{cls: clsStr, t: e.T}, quoteWidth(a.width, m), opQuote, a.reg, 0, mask, m)
	return v, true, err
}

// quoteWidth is the most bytes OP_QUOTE writes for a value of w bytes.
func quoteWidth(w int, mode int64) int {
	switch mode {
	case quoteIdent, quoteFormatIdent:
		return 2*w + 2
	case quoteNullable:
		return max(2*w+3, 4)
	}
	return 2*w + 3
}

// format compiles format(fmt, args...) as the CPU's formatText when fmt
// is a constant: its text between conversions as constants, %s as the
// argument (NULL: nothing), %L as quote_nullable, %I as quote_ident (NULL
// raises 22004), %% as %, with %n$ positions; the pieces are
// concatenated in order. Formats the CPU would reject stay on the host.
func (c *compiler) format(e *engine.HostFunc, mask int32) (val, error) {
	k, ok := e.Args[0].(*engine.Const)
	if !ok || k.Null {
		return val{}, unsupported("format() with a non-constant format")
	}
	type spec struct {
		lit  string
		arg  int
		conv byte
	}
	var specs []spec
	f, lit, next := k.S, []byte{}, 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			lit = append(lit, f[i])
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			lit = append(lit, '%')
			continue
		}
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j > i && j < len(f) && f[j] == '$' {
			n, _ := strconv.Atoi(f[i:j])
			next = n - 1
			i = j + 1
		}
		if i >= len(f) || next < 0 || next >= len(e.Args)-1 || f[i] != 's' && f[i] != 'I' && f[i] != 'L' {
			return val{}, unsupported("format() with this format")
		}
		specs = append(specs, spec{lit: string(lit), arg: next + 1, conv: f[i]})
		lit = lit[:0]
		next++
	}
	if len(specs) > maxFormatSpecs {
		return val{}, unsupported("format() with more than %d conversions", maxFormatSpecs)
	}
	p := c.p
	var acc val
	have := false
	add := func(v val) error {
		if !have {
			acc, have = v, true
			return nil
		}
		r, err := c.computed(val{cls: clsStr, t: engine.Text}, acc.width+v.width, opConcat, acc.reg, v.reg, mask, 0)
		acc = r
		return err
	}
	str := func(s string) error {
		v, err := c.compile(&engine.Const{T: engine.Text, S: s}, mask)
		if err != nil {
			return err
		}
		return add(v)
	}
	args := map[int]val{}
	for _, sp := range specs {
		if sp.lit != "" {
			if err := str(sp.lit); err != nil {
				return val{}, err
			}
		}
		a, ok := args[sp.arg]
		if !ok {
			var err error
			if a, err = c.compile(e.Args[sp.arg], mask); err != nil {
				return val{}, err
			}
			if a.cls != clsStr {
				return val{}, unsupported("format() of %s", a.t)
			}
			args[sp.arg] = a
		}
		var v val
		var err error
		switch sp.conv {
		case 's':
			empty, err := c.compile(&engine.Const{T: engine.Text, S: ""}, mask)
			if err != nil {
				return val{}, err
			}
			v = a
			if v.reg, err = p.emit(opCoalesce, a.reg, empty.reg, 0, mask, 0); err != nil {
				return val{}, err
			}
		case 'I':
			v, err = c.computed(val{cls: clsStr, t: engine.Text}, quoteWidth(a.width, quoteFormatIdent), opQuote, a.reg, 0, mask, quoteFormatIdent)
		case 'L':
			v, err = c.computed(val{cls: clsStr, t: engine.Text}, quoteWidth(a.width, quoteNullable), opQuote, a.reg, 0, mask, quoteNullable)
		}
		if err != nil {
			return val{}, err
		}
		if err := add(v); err != nil {
			return val{}, err
		}
	}
	if len(lit) > 0 || !have {
		if err := str(string(lit)); err != nil {
			return val{}, err
		}
	}
	acc.t = e.T
	return acc, nil
}
