package loader

import "github.com/gpusql/gpusql/engine"

// readHeader handles the file's first record when the load has a header.
// HEADER true only checks that it reads cleanly (it may span lines if
// quoted); HEADER MATCH maps every table column to the file field of the
// same name (exact, case-sensitive), so a table may load a subset of a
// file's columns, in any order. Unmapped file fields are never converted.
func (ld *load) readHeader(b *batch) error {
	d := &ld.d
	s, e := b.recBounds(0)
	// The header must be valid UTF-8 without bare carriage returns too.
	if len(b.anomaly) > 0 && int(b.anomaly[0]) <= b.recTerm(0) {
		if re := ld.checkRow(b, 0); re != nil && re.ctx == ctxNone {
			err, _ := ld.describe(re, 1, b.data[s:e])
			return err
		}
	}
	if d.text {
		vals, nulls, err := textFields(b.data[s:e], d)
		if err != nil {
			err, _ := ld.describe(&rowErr{err: err, ctx: ctxRow, value: b.data[s:e]}, 1, b.data[s:e])
			return err
		}
		return ld.matchHeader(b, vals, nulls)
	}
	fields, quoted, ok := splitFields(b.data[s:e], d)
	if !ok || b.unterminated == 0 {
		err, _ := ld.describe(&rowErr{err: engine.Errorf(engine.CodeBadCopyFileFormat, "unterminated CSV quoted field"),
			ctx: ctxRow, value: b.data[s:]}, 1, b.data[s:e])
		return err
	}
	nulls := make([]bool, len(fields))
	for i := range fields {
		nulls[i] = isNull(fields[i], quoted[i], d)
	}
	return ld.matchHeader(b, fields, nulls)
}

// matchHeader applies HEADER MATCH to the header's split fields.
func (ld *load) matchHeader(b *batch, fields [][]byte, nulls []bool) error {
	if ld.req.Options.Header != engine.HeaderMatch {
		return nil
	}
	s, e := b.recBounds(0)
	rowErrAt := func(msg *engine.Error) error {
		err, _ := ld.describe(&rowErr{err: msg, ctx: ctxRow, value: b.data[s:e]}, 1, b.data[s:e])
		return err
	}
	names := make([]string, len(fields))
	index := make(map[string]int, len(fields))
	for i, f := range fields {
		if nulls[i] {
			return rowErrAt(engine.Errorf(engine.CodeBadCopyFileFormat, "null value in header line field %d", i+1))
		}
		names[i] = string(f)
		if _, dup := index[names[i]]; dup {
			return rowErrAt(engine.Errorf(engine.CodeBadCopyFileFormat, "column name \"%s\" appears more than once in the header line", names[i]))
		}
		index[names[i]] = i
	}
	for c := range ld.cols {
		f, ok := index[ld.cols[c].def.Name]
		if !ok {
			return rowErrAt(engine.Errorf(engine.CodeBadCopyFileFormat, "column \"%s\" of relation \"%s\" is missing from the header line", ld.cols[c].def.Name, ld.req.Table))
		}
		ld.cols[c].field = f
	}
	ld.header = names
	ld.nFields = len(names)
	return nil
}
