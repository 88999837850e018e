package gpu

import "github.com/gpusql/gpusql/engine"

// The long tail of functions the CPU backend runs over user columns:
// nullif() over intervals, quote_ident/quote_literal/quote_nullable
// (OP_QUOTE, the tail section of cuda/query.cu, over the argument's text
// form) and format() (fmtexpr.go).

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

// quoteFunc compiles quote_ident, quote_literal and quote_nullable over
// a value's text form: at most 2*width+2 bytes for an identifier (""
// around, every " doubled), 2*width+3 for a literal (E, ” around, every
// ' and \ doubled), at least 4 for quote_nullable's NULL. ok is false
// for other names.
func (c *compiler) quoteFunc(e *engine.HostFunc, mask int32) (v val, ok bool, err error) {
	if e.Name == "format" {
		v, err := c.formatFunc(e, mask) // fmtexpr.go
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
	// the CPU quotes other types' text forms (booleans as true/false),
	// char(n) values as stored
	textArg := c.textArg // fmtexpr.go
	if m != quoteIdent {
		textArg = c.castTextArg // quotearg.go
	}
	a, err := textArg(e.Args[0], mask)
	if err != nil {
		return val{}, true, err
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
