package loader

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// The exact error of a rejected row. Stages 4 and 6 only decide that a row
// is bad; this slow path, run for rejected rows only, reads the row again
// the way PostgreSQL's COPY does, in its order: encoding errors and
// unquoted carriage returns (when the line is read), an unterminated
// quote and extra fields (when it is split), then each table column in
// order (missing field, invalid value, string limits), then NOT NULL.

// Kinds of error context, as PostgreSQL's COPY prints them.
const (
	ctxNone  = iota // COPY t, line N
	ctxRow          // COPY t, line N: "row text"
	ctxValue        // COPY t, line N, column c: "value"
)

type rowErr struct {
	err    *engine.Error
	column string
	ctx    int
	value  []byte
	off    int // batch offset that fixes the reported line
}

// pgMblen is PostgreSQL's byte length of a UTF-8 sequence from its lead.
func pgMblen(c byte) int {
	switch {
	case c&0x80 == 0:
		return 1
	case c&0xe0 == 0xc0:
		return 2
	case c&0xf0 == 0xe0:
		return 3
	case c&0xf8 == 0xf0:
		return 4
	}
	return 1
}

// encodingError is PostgreSQL's message for invalid UTF-8 at data[i:].
func encodingError(data []byte, i int) *engine.Error {
	n := pgMblen(data[i])
	if n > len(data)-i {
		n = len(data) - i
	}
	parts := make([]string, n)
	for k := 0; k < n; k++ {
		parts[k] = fmt.Sprintf("0x%02x", data[i+k])
	}
	return engine.Errorf(engine.CodeCharacterNotInRepertoir, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(parts, " "))
}

// splitFields splits a record's text into fields as PostgreSQL's CSV
// splitter does. ok is false for an unterminated quoted field.
func splitFields(text []byte, d *dialect) (fields [][]byte, quoted []bool, ok bool) {
	i := 0
	for {
		var out []byte
		saw := false
		for i < len(text) && text[i] != d.delim {
			c := text[i]
			i++
			if c != d.quote {
				out = append(out, c)
				continue
			}
			saw = true
			closed := false
			for i < len(text) {
				c = text[i]
				i++
				if c == d.esc && i < len(text) && (text[i] == d.esc || text[i] == d.quote) {
					out = append(out, text[i])
					i++
					continue
				}
				if c == d.quote {
					closed = true
					break
				}
				out = append(out, c)
			}
			if !closed {
				return fields, quoted, false
			}
		}
		fields = append(fields, out)
		quoted = append(quoted, saw)
		if i >= len(text) {
			return fields, quoted, true
		}
		i++ // the delimiter
	}
}

// checkRow finds the error of record r of the batch, or nil if it has
// none.
func (ld *load) checkRow(b *batch, r int) *rowErr {
	d := &ld.d
	start, end := b.recBounds(r)
	term := b.recTerm(r)
	data := b.data
	if d.text {
		if re := checkTextLine(data, start, term); re != nil {
			return re
		}
		vals, nulls, err := textFields(data[start:end], d)
		if err != nil {
			return &rowErr{err: err, ctx: ctxRow, value: data[start:end], off: term}
		}
		return ld.checkFields(data[start:end], vals, nulls, term)
	}
	// Reading the line: encoding and carriage returns.
	s := uint8(stOut)
	for i := start; i < term; i++ {
		c := data[i]
		if c >= utf8.RuneSelf || c == 0 {
			rr, n := utf8.DecodeRune(data[i:])
			if c == 0 || (rr == utf8.RuneError && n <= 1) {
				return &rowErr{err: encodingError(data, i), ctx: ctxNone, off: i}
			}
			i += n - 1 // continuation bytes are never special
			continue
		}
		if c == '\r' && s == stOut && !(i+1 == term && term < len(data)) {
			e := engine.Errorf(engine.CodeBadCopyFileFormat, "unquoted carriage return found in data")
			e.Hint = "Use quoted CSV field to represent carriage return."
			return &rowErr{err: e, ctx: ctxNone, off: i}
		}
		if d.fsm {
			s = step(s, c, d)
		} else if c == d.quote {
			s ^= 1
		}
	}
	rowText := data[start:end]
	if r == b.unterminated {
		rowText = data[start:]
	}
	fields, quoted, ok := splitFields(data[start:end], d)
	if !ok || r == b.unterminated {
		return &rowErr{err: engine.Errorf(engine.CodeBadCopyFileFormat, "unterminated CSV quoted field"), ctx: ctxRow, value: rowText, off: term}
	}
	nulls := make([]bool, len(fields))
	for i := range fields {
		nulls[i] = isNull(fields[i], quoted[i], d)
	}
	return ld.checkFields(rowText, fields, nulls, term)
}

// checkFields is the part of checkRow after the record is split: extra
// fields, then each column (missing, value), then NOT NULL.
func (ld *load) checkFields(rowText []byte, fields [][]byte, nulls []bool, term int) *rowErr {
	if len(fields) > ld.nFields {
		return &rowErr{err: engine.Errorf(engine.CodeBadCopyFileFormat, "extra data after last expected column"), ctx: ctxRow, value: rowText, off: term}
	}
	for c := range ld.cols {
		cp := &ld.cols[c]
		if cp.field >= len(fields) {
			return &rowErr{err: engine.Errorf(engine.CodeBadCopyFileFormat, "missing data for column \"%s\"", cp.def.Name), ctx: ctxRow, value: rowText, off: term}
		}
		val := fields[cp.field]
		if nulls[cp.field] {
			continue
		}
		if e := checkValue(val, cp); e != nil {
			return &rowErr{err: e, column: cp.def.Name, ctx: ctxValue, value: val, off: term}
		}
	}
	if len(fields) < ld.nFields {
		name := ld.header[len(fields)]
		return &rowErr{err: engine.Errorf(engine.CodeBadCopyFileFormat, "missing data for column \"%s\"", name), ctx: ctxRow, value: rowText, off: term}
	}
	for c := range ld.cols {
		cp := &ld.cols[c]
		if cp.def.NotNull && nulls[cp.field] {
			return &rowErr{err: engine.Errorf(engine.CodeNotNullViolation,
				"null value in column \"%s\" of relation \"%s\" violates not-null constraint", cp.def.Name, ld.req.Table),
				column: cp.def.Name, ctx: ctxRow, value: rowText, off: term}
		}
	}
	return nil
}

// checkValue is one non-NULL value's type check.
func checkValue(val []byte, cp *colPlan) *engine.Error {
	t := cp.def.Type
	if cp.isStr {
		switch _, st := strStored(val, cp); st {
		case strTooLong:
			return engine.Errorf(engine.CodeStringDataRightTrunc, "value too long for type %s", t)
		case strTooWide:
			return engine.Errorf(engine.CodeProgramLimitExceeded,
				"value of %d bytes exceeds the maximum text width of %d bytes", len(val), cp.maxBytes)
		}
		return nil
	}
	var st engine.ParseStatus
	switch t.Kind {
	case engine.KindBool:
		_, st = engine.ParseBool(val)
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		_, st = engine.ParseInt(val, t.Kind)
	case engine.KindFloat32, engine.KindFloat64:
		_, st = engine.ParseFloat(val, t.Kind)
	case engine.KindNumeric:
		if t.WideNumeric() {
			_, st = engine.ParseNumericWide(val, t.Prec, t.Scale)
		} else {
			_, st = engine.ParseNumeric(val, t.Prec, t.Scale)
		}
	case engine.KindDate:
		_, st = engine.ParseDate(val)
	case engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		_, st = parseTime(val, cp)
	}
	if st != engine.ParseOK {
		return engine.InputError(t, st, val)
	}
	return nil
}

// clip shortens text for display as PostgreSQL does: at most 100 bytes,
// cut at a character boundary, then "...".
func clip(b []byte) string {
	if len(b) <= displayLimit {
		return string(b)
	}
	n := displayLimit
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "..."
}

// describe turns a row error at a known line into the client's error and
// the gpusql_load_errors row.
func (ld *load) describe(re *rowErr, line int64, rowText []byte) (*engine.Error, engine.LoadError) {
	e := *re.err
	switch re.ctx {
	case ctxNone:
		e.Where = fmt.Sprintf("COPY %s, line %d", ld.req.Table, line)
	case ctxRow:
		e.Where = fmt.Sprintf("COPY %s, line %d: \"%s\"", ld.req.Table, line, clip(re.value))
	case ctxValue:
		e.Where = fmt.Sprintf("COPY %s, line %d, column %s: \"%s\"", ld.req.Table, line, re.column, clip(re.value))
	}
	raw := rowText
	if len(raw) > rawPrefix {
		raw = raw[:rawPrefix]
	}
	le := engine.LoadError{Line: line, Column: re.column, Code: e.Code, Reason: e.Message, Raw: strings.ToValidUTF8(string(raw), "\uFFFD")}
	return &e, le
}
