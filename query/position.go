package query

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// withPosition gives an error about an unknown column, relation or
// function the position of the reference in sql, as PostgreSQL does;
// the statement is sql[start:end]. Other errors, and errors that already
// have a position, are returned as they are.
func withPosition(err error, sql string, start, end int) error {
	var e *engine.Error
	if !errors.As(err, &e) || e.Position != 0 || errors.Unwrap(err) != nil && err != error(e) {
		return err
	}
	kind, qual, name, ok := refOf(e)
	if !ok {
		return err
	}
	pos := parse.RefPosition(sql, start, end, kind, qual, name)
	if pos == 0 {
		return err
	}
	ne := *e
	ne.Position = pos
	return &ne
}

// refOf reads the name an error is about from its message.
func refOf(e *engine.Error) (kind int, qual, name string, ok bool) {
	m := e.Message
	switch e.Code {
	case engine.CodeUndefinedColumn:
		s, found := strings.CutPrefix(m, "column ")
		if !found {
			return 0, "", "", false
		}
		s, found = strings.CutSuffix(s, " does not exist")
		if !found {
			return 0, "", "", false
		}
		if n, err := strconv.Unquote(s); err == nil {
			return parse.RefColumn, "", n, true
		}
		if q, n, found := strings.Cut(s, "."); found {
			return parse.RefColumn, q, n, true
		}
	case engine.CodeUndefinedTable:
		if s, found := strings.CutPrefix(m, "missing FROM-clause entry for table "); found {
			if q, err := strconv.Unquote(s); err == nil {
				return parse.RefQualifier, q, "", true
			}
			return 0, "", "", false
		}
		s, found := strings.CutPrefix(m, "relation ")
		if !found {
			return 0, "", "", false
		}
		s, found = strings.CutSuffix(s, " does not exist")
		if n, err := strconv.Unquote(s); found && err == nil {
			if i := strings.LastIndexByte(n, '.'); i >= 0 {
				n = n[i+1:]
			}
			return parse.RefRelation, "", n, true
		}
	case engine.CodeUndefinedFunction:
		s, found := strings.CutPrefix(m, "function ")
		if !found {
			return 0, "", "", false
		}
		if i := strings.IndexAny(s, "( "); i > 0 {
			n := s[:i]
			if j := strings.LastIndexByte(n, '.'); j >= 0 {
				n = n[j+1:]
			}
			return parse.RefFunction, "", n, true
		}
	}
	return 0, "", "", false
}

// stmtSpan finds statement st's text in sql at or after byte from: its
// start and end. The statements of one Parse are substrings of its input,
// in order.
func stmtSpan(sql string, st parse.Stmt, from int) (start, end int) {
	text := st.SQL()
	if from > len(sql) {
		from = len(sql)
	}
	i := strings.Index(sql[from:], text)
	if i < 0 {
		return from, from
	}
	return from + i, from + i + len(text)
}
