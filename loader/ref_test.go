package loader

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// refLoad is the obviously-correct sequential reference: PostgreSQL's COPY
// FROM (FORMAT csv) loop written out byte by byte, one record at a time.
// It returns the rows as display strings ("\N" for NULL), the skipped rows,
// and the first error when bad rows stop the load.
func refLoad(input []byte, cols []engine.ColumnDef, o engine.CSVOptions) (rows [][]string, skipped []engine.LoadError, err *engine.Error) {
	delim, quote, esc := o.Delimiter, o.Quote, o.Escape
	if esc == 0 {
		esc = quote
	}
	// Field mapping: table column -> file field.
	mapping := make([]int, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		mapping[i] = i
		names[i] = c.Name
	}
	nFields := len(cols)
	pos := 0
	lineno := int64(0)
	eolKnown := false
	recNo := 0
	for pos < len(input) {
		// Read one record (PostgreSQL's CopyReadLineText).
		lineno++
		start := pos
		inQuote, lastEsc := false, false
		var bad *engine.Error
		badCtxNone := false
		badLine := int64(0)
		validTo := 0
		end := -1
		for pos < len(input) {
			c := input[pos]
			if bad == nil && pos >= validTo && (c >= 0x80 || c == 0) {
				r, n := utf8.DecodeRune(input[pos:])
				validTo = pos + n
				if c == 0 || (r == utf8.RuneError && n <= 1) {
					bad = encodingError(input, pos)
					badCtxNone = true
					badLine = lineno
				}
			}
			if !inQuote && c == '\n' {
				end = pos
				pos++
				break
			}
			if !inQuote && c == '\r' && bad == nil {
				if !(pos+1 < len(input) && input[pos+1] == '\n') {
					bad = engine.Errorf("22P04", "unquoted carriage return found in data")
					badCtxNone = true
					badLine = lineno
				}
			}
			if inQuote && c == esc && esc != quote {
				lastEsc = !lastEsc
			}
			if c == quote && !lastEsc {
				inQuote = !inQuote
			}
			if c != esc {
				lastEsc = false
			}
			if inQuote && c == '\n' && eolKnown {
				lineno++
			}
			pos++
		}
		errLine := lineno
		if end < 0 {
			end = len(input)
		} else {
			eolKnown = true
		}
		text := input[start:end]
		if len(text) > 0 && text[len(text)-1] == '\r' && end < len(input) {
			text = text[:len(text)-1]
		}
		rowText := text
		if inQuote {
			rowText = input[start:]
		}
		isHeader := recNo == 0 && o.Header != engine.HeaderNone
		recNo++
		var fields []string
		var quoted []bool
		if bad == nil {
			// Split (PostgreSQL's CopyReadAttributesCSV).
			i := 0
			for {
				var sb strings.Builder
				saw := false
				for i < len(text) && text[i] != delim {
					c := text[i]
					i++
					if c != quote {
						sb.WriteByte(c)
						continue
					}
					saw = true
					closed := false
					for i < len(text) {
						c = text[i]
						i++
						if c == esc && i < len(text) && (text[i] == esc || text[i] == quote) {
							sb.WriteByte(text[i])
							i++
							continue
						}
						if c == quote {
							closed = true
							break
						}
						sb.WriteByte(c)
					}
					if !closed {
						bad = engine.Errorf("22P04", "unterminated CSV quoted field")
						break
					}
				}
				if bad != nil {
					break
				}
				fields = append(fields, sb.String())
				quoted = append(quoted, saw)
				if i >= len(text) {
					break
				}
				i++
			}
			if inQuote && bad == nil {
				bad = engine.Errorf("22P04", "unterminated CSV quoted field")
			}
		}
		isNullF := func(k int) bool { return !quoted[k] && fields[k] == o.Null }
		where := func(col, val string) string {
			if col != "" {
				return fmt.Sprintf("COPY t, line %d, column %s: \"%s\"", errLine, col, clip([]byte(val)))
			}
			return fmt.Sprintf("COPY t, line %d: \"%s\"", errLine, clip(rowText))
		}
		if isHeader {
			if bad != nil {
				if badCtxNone {
					bad.Where = fmt.Sprintf("COPY t, line %d", badLine)
				} else {
					bad.Where = where("", "")
				}
				return nil, nil, bad
			}
			if o.Header == engine.HeaderMatch {
				idx := map[string]int{}
				for k, f := range fields {
					idx[f] = k
				}
				for c := range cols {
					mapping[c] = idx[cols[c].Name]
				}
				nFields = len(fields)
				names = fields
			}
			continue
		}
		var badCol, badVal string
		var row []string
		if bad == nil && len(fields) > nFields {
			bad = engine.Errorf("22P04", "extra data after last expected column")
		}
		if bad == nil {
			for c, cd := range cols {
				f := mapping[c]
				if f >= len(fields) {
					bad = engine.Errorf("22P04", "missing data for column \"%s\"", cd.Name)
					break
				}
				if isNullF(f) {
					row = append(row, `\N`)
					continue
				}
				s, e := refValue(fields[f], cd.Type, o)
				if e != nil {
					bad, badCol, badVal = e, cd.Name, fields[f]
					break
				}
				row = append(row, s)
			}
		}
		if bad == nil && len(fields) < nFields {
			bad = engine.Errorf("22P04", "missing data for column \"%s\"", names[len(fields)])
		}
		if bad == nil {
			for c, cd := range cols {
				if cd.NotNull && isNullF(mapping[c]) {
					bad, badCol = engine.Errorf("23502", "null value in column \"%s\" of relation \"t\" violates not-null constraint", cd.Name), ""
					badCol = ""
					bad.Detail = cd.Name // marker, see below
					break
				}
			}
		}
		if bad != nil {
			colName := badCol
			if bad.Code == "23502" {
				colName = bad.Detail
				bad.Detail = ""
			}
			w := where(badCol, badVal)
			line := errLine
			if badCtxNone {
				line = badLine
				w = fmt.Sprintf("COPY t, line %d", line)
			}
			bad.Where = w
			if o.OnError == engine.OnErrorStop {
				return nil, nil, bad
			}
			skipped = append(skipped, engine.LoadError{Line: line, Column: colName, Code: bad.Code, Reason: bad.Message})
			continue
		}
		rows = append(rows, row)
	}
	return rows, skipped, nil
}

// refValue converts one value the simple way and renders it as display
// text, or returns its error.
func refValue(v string, t engine.Type, o engine.CSVOptions) (string, *engine.Error) {
	b := []byte(v)
	bad := func(st engine.ParseStatus) (string, *engine.Error) { return "", engine.InputError(t, st, b) }
	switch t.Kind {
	case engine.KindBool:
		x, st := engine.ParseBool(b)
		if st != engine.ParseOK {
			return bad(st)
		}
		return strconv.FormatBool(x), nil
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		x, st := engine.ParseInt(b, t.Kind)
		if st != engine.ParseOK {
			return bad(st)
		}
		return strconv.FormatInt(x, 10), nil
	case engine.KindFloat32, engine.KindFloat64:
		x, st := engine.ParseFloat(b, t.Kind)
		if st != engine.ParseOK {
			return bad(st)
		}
		if t.Kind == engine.KindFloat32 {
			return strconv.FormatFloat(float64(float32(x)), 'g', -1, 32), nil
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case engine.KindNumeric:
		x, st := engine.ParseNumeric(b, t.Prec, t.Scale)
		if st != engine.ParseOK {
			return bad(st)
		}
		return strconv.FormatInt(x, 10), nil
	case engine.KindDate:
		x, st := engine.ParseDate(b)
		if st != engine.ParseOK {
			return bad(st)
		}
		y, m, d := engine.CivilFromDays(x)
		return fmt.Sprintf("%04d-%02d-%02d", y, m, d), nil
	case engine.KindTimestamp:
		x, st := engine.ParseTimestamp(b)
		if st != engine.ParseOK {
			return bad(st)
		}
		return strconv.FormatInt(x, 10), nil
	}
	// Strings: characters, not bytes.
	if t.Kind == engine.KindChar {
		v = strings.TrimRight(v, " ")
	}
	if n := t.Len; n > 0 && utf8.RuneCountInString(v) > n {
		r := []rune(v)
		if strings.Trim(string(r[n:]), " ") != "" {
			return "", engine.Errorf("22001", "value too long for type %s", t)
		}
		v = string(r[:n])
	}
	maxW := o.MaxTextWidth
	if maxW <= 0 {
		maxW = 1 << 16
	}
	if len(v) > maxW {
		return "", engine.Errorf("54000", "value of %d bytes exceeds the maximum text width of %d bytes", len(b), maxW)
	}
	return v, nil
}

// display renders a loaded table the way refLoad does.
func display(h *engine.HostTable) [][]string {
	rows := make([][]string, h.N)
	for i := range rows {
		row := make([]string, len(h.Cols))
		for c, col := range h.Cols {
			if col.IsNull(i) {
				row[c] = `\N`
				continue
			}
			switch col.Type.Kind {
			case engine.KindBool:
				row[c] = strconv.FormatBool(col.B[i] != 0)
			case engine.KindInt16:
				row[c] = strconv.FormatInt(int64(col.I16[i]), 10)
			case engine.KindInt32:
				row[c] = strconv.FormatInt(int64(col.I32[i]), 10)
			case engine.KindInt64, engine.KindNumeric, engine.KindTimestamp:
				row[c] = strconv.FormatInt(col.I64[i], 10)
			case engine.KindFloat32:
				row[c] = strconv.FormatFloat(float64(col.F32[i]), 'g', -1, 32)
			case engine.KindFloat64:
				row[c] = strconv.FormatFloat(col.F64[i], 'g', -1, 64)
			case engine.KindDate:
				y, m, d := engine.CivilFromDays(col.I32[i])
				row[c] = fmt.Sprintf("%04d-%02d-%02d", y, m, d)
			default:
				row[c] = string(col.StrAt(i))
			}
		}
		rows[i] = row
	}
	return rows
}
