package query

import (
	"bytes"

	"github.com/gpusql/gpusql/engine"
)

// copyEncoder writes values as COPY TO writes them, after PostgreSQL's
// CopyAttributeOutText and CopyAttributeOutCSV. A value arrives in
// PostgreSQL's text output format; NULLs are written by the caller as the
// NULL string, as they are.
type copyEncoder struct {
	opts  engine.CSVOptions
	force []bool // per column: FORCE_QUOTE (csv)
	// special marks the bytes that make a CSV value need quotes, or a
	// text value need escapes.
	special [256]bool
}

func newCopyEncoder(o engine.CSVOptions, force []bool) *copyEncoder {
	e := &copyEncoder{opts: o, force: force}
	if o.Format == engine.FormatText {
		for c := 0; c < 0x20; c++ {
			switch c {
			case '\b', '\f', '\n', '\r', '\t', '\v':
				e.special[c] = true
			}
		}
		e.special['\\'] = true
	} else {
		e.special['\n'], e.special['\r'], e.special[o.Quote] = true, true, true
	}
	e.special[o.Delimiter] = true
	return e
}

// appendHeader appends the header line of column names.
func (e *copyEncoder) appendHeader(dst []byte, names [][]byte) []byte {
	for i, n := range names {
		if i > 0 {
			dst = append(dst, e.opts.Delimiter)
		}
		if e.opts.Format == engine.FormatText {
			dst = e.appendText(dst, n)
		} else {
			dst = e.appendCSV(dst, n, false, len(names) == 1)
		}
	}
	return append(dst, '\n')
}

// appendValue appends the non-NULL value v of column col.
func (e *copyEncoder) appendValue(dst, v []byte, col int) []byte {
	if e.opts.Format == engine.FormatText {
		return e.appendText(dst, v)
	}
	return e.appendCSV(dst, v, e.force[col], len(e.force) == 1)
}

// appendText escapes a backslash and the delimiter with a backslash, and
// the control characters \b \f \n \r \t \v as those escapes; everything
// else is written as it is.
func (e *copyEncoder) appendText(dst, v []byte) []byte {
	start := 0
	for i, c := range v {
		if !e.special[c] {
			continue
		}
		dst = append(dst, v[start:i]...)
		start = i + 1
		switch c {
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\v':
			dst = append(dst, '\\', 'v')
		default: // backslash or the delimiter
			dst = append(dst, '\\', c)
		}
	}
	return append(dst, v[start:]...)
}

// appendCSV quotes a value when asked to (FORCE_QUOTE), when it equals
// the NULL string, when it is \. alone on a line (single), or when it
// holds the delimiter, the quote, CR or LF. Inside quotes the quote and
// the escape character are preceded by the escape character.
func (e *copyEncoder) appendCSV(dst, v []byte, quote, single bool) []byte {
	if !quote {
		quote = bytes.Equal(v, []byte(e.opts.Null)) || single && string(v) == `\.`
	}
	if !quote {
		for _, c := range v {
			if e.special[c] {
				quote = true
				break
			}
		}
	}
	if !quote {
		return append(dst, v...)
	}
	q, esc := e.opts.Quote, e.opts.Escape
	dst = append(dst, q)
	start := 0
	for i, c := range v {
		if c == q || c == esc {
			dst = append(dst, v[start:i]...)
			dst = append(dst, esc)
			start = i
		}
	}
	dst = append(dst, v[start:]...)
	return append(dst, q)
}
