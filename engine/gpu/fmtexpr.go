package gpu

import "github.com/gpusql/gpusql/engine"

// format() in general and the text form of any value (the tail3 section
// of cuda/query.cu). The CPU's format (query's formatText) and
// quote_literal/quote_nullable read their arguments' text forms
// (engine.AppendText: booleans as t/f, char(n) as stored); format() runs
// as one instruction over the format and every argument, so a format that
// varies by row is parsed on the device and the CPU's errors come from
// the same place.

// opcodes of the tail3 section (900-999)
const (
	opFormat   = 900 + iota // format(a, registers b.. b+imm-1) into the slot c
	opIntvText              // interval a's text form into the slot c
)

// intvTextWidth bounds an interval's text form (t3Interval): years,
// months and days with signs and units, and a clock of up to 11 hour
// digits with six fraction digits, under 96 bytes.
const intvTextWidth = 96

// format()'s errors: errFormatNull's argument (t3Format's FMT_*)
const (
	fmtNullIdent    = 0
	fmtUnterminated = 1
	fmtTooFew       = 2
	fmtBadSpec      = 256 // + the byte
)

// formatError is the CPU's error for errFormatNull's argument arg.
func formatError(arg int32) error {
	switch {
	case arg == fmtUnterminated:
		return engine.Errorf(engine.CodeInvalidParameterValue, "unterminated format() type specifier")
	case arg == fmtTooFew:
		return engine.Errorf(engine.CodeInvalidParameterValue, "too few arguments for format()")
	case arg >= fmtBadSpec:
		// formatText writes string(f[i]): the byte as a rune
		return engine.Errorf(engine.CodeInvalidParameterValue, "unrecognized format() type specifier %q", string(rune(byte(arg-fmtBadSpec))))
	}
	return engine.Errorf(engine.CodeNullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
}

// textArg compiles e and returns its text form as the CPU's host
// functions read an argument of any type (query's vecVal with argAny).
func (c *compiler) textArg(e engine.Expr, mask int32) (val, error) {
	c.intvOK = true
	a, err := c.compile(e, mask)
	c.intvOK = false
	if err != nil {
		return val{}, err
	}
	return c.textForm(a, mask)
}

// textForm is a value's text form (engine.AppendText): strings as they
// are (char(n) as stored, without its padding, as the host functions read
// it), booleans as t and f, intervals by OP_INTVTEXT, the other types as
// their casts to text.
func (c *compiler) textForm(a val, mask int32) (val, error) {
	switch {
	case isStr(a.cls):
		return a, nil
	case a.cls == clsIntv:
		return c.computed(val{cls: clsStr, t: engine.Text}, intvTextWidth, opIntvText, a.reg, 0, mask, 0)
	case a.cls == clsBool:
		// true/false cut to their first character
		v, err := c.castToString(a, engine.Text, mask)
		if err != nil {
			return val{}, err
		}
		v.reg, err = c.p.emit(opLimitChars, v.reg, 0, 0, mask, 1)
		v.width = 1
		return v, err
	}
	return c.castToString(a, engine.Text, mask)
}

// formatFunc compiles format(fmt, args...): every argument's text form
// is moved into consecutive registers and OP_FORMAT parses the format per
// row, as the CPU's formatText (%s, %I, %L, %%, %n$; its errors: too few
// arguments, an unterminated or unrecognized specifier, %I of NULL).
func (c *compiler) formatFunc(e *engine.HostFunc, mask int32) (val, error) {
	f, err := c.compile(e.Args[0], mask)
	if err != nil {
		return val{}, err
	}
	if !isStr(f.cls) {
		return val{}, unsupported("format() with a %s format", f.t)
	}
	args := make([]val, len(e.Args)-1)
	widths := make([]int, len(args))
	for i, x := range e.Args[1:] {
		if args[i], err = c.textArg(x, mask); err != nil {
			return val{}, err
		}
		widths[i] = args[i].width
	}
	first := int32(0)
	for i, a := range args {
		r, err := c.p.emit(opCoalesce, a.reg, a.reg, 0, mask, 0)
		if err != nil {
			return val{}, err
		}
		if i == 0 {
			first = r
		} else if r != first+int32(i) {
			return val{}, engine.Errorf(engine.CodeInternalError, "format(): argument registers not consecutive")
		}
	}
	w := formatBoundAny(f.width, widths)
	if k, ok := e.Args[0].(*engine.Const); ok && !k.Null {
		w = formatBound(k.S, widths)
	}
	v, err := c.computed(val{cls: clsStr, t: e.T}, w, opFormat, f.reg, first, mask, int64(len(args)))
	return v, err
}

// fmtConvWidth is the most bytes a conversion writes for an argument of
// w bytes: itself, quoted as an identifier or a literal, or NULL.
func fmtConvWidth(conv byte, w int) int {
	switch conv {
	case 's':
		return w
	case 'I':
		return quoteWidth(w, quoteFormatIdent)
	}
	return quoteWidth(w, quoteNullable)
}

// formatBound is the most bytes format f writes over arguments of the
// given widths: it walks f as t3Format does (stopping at an error).
func formatBound(f string, widths []int) int {
	n, next := 0, 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			n++
			continue
		}
		i++
		if i >= len(f) {
			break
		}
		if f[i] == '%' {
			n++
			continue
		}
		j, v := i, 0
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			if v < 1<<40 {
				v = v*10 + int(f[j]-'0')
			}
			j++
		}
		if j > i && j < len(f) && f[j] == '$' {
			next, i = v-1, j+1
		}
		if i >= len(f) || next < 0 || next >= len(widths) || f[i] != 's' && f[i] != 'I' && f[i] != 'L' {
			break
		}
		n += fmtConvWidth(f[i], widths[next])
		next++
	}
	return n
}

// formatBoundAny bounds format() of a format of at most fw bytes: a
// literal byte or %% writes at most one byte per format byte, and a
// conversion, at least two format bytes, at most the widest argument's
// quoted or NULL form.
func formatBoundAny(fw int, widths []int) int {
	m := 0
	for _, w := range widths {
		m = max(m, fmtConvWidth('L', w), fmtConvWidth('I', w))
	}
	return fw * max(1, (m+1)/2)
}
