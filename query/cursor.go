package query

// Cursors: DECLARE, FETCH, MOVE and CLOSE. A cursor's query runs when it
// is declared and its rows are kept, in text format, up to
// maxCursorBytes; FETCH and MOVE then step forward through them. That is
// what an INSENSITIVE cursor promises, and every gpusql cursor is one:
// loads swap tables whole, so no cursor sees a half-loaded table.

import (
	"context"
	"strconv"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// maxCursorBytes bounds the rows one cursor keeps.
const maxCursorBytes = 256 << 20

type cursor struct {
	cols  []engine.ResultColumn
	buf   []byte  // every value, back to back
	ends  [][]int // per row, the end offset of each value in buf; -1 NULL
	rowAt []int   // per row, where its values start in buf
	// pos is the cursor's position as PostgreSQL counts it: 0 before
	// the first row, k on row k, len(ends)+1 after the last.
	pos  int
	hold bool
	// noScroll: declared NO SCROLL, so it only moves forward.
	noScroll bool
	// fresh: declared in the transaction block still open, so a
	// ROLLBACK removes it even WITH HOLD.
	fresh bool
}

// cursorWriter keeps a cursor's rows.
type cursorWriter struct{ c *cursor }

func (w *cursorWriter) Describe(cols []engine.ResultColumn) error {
	w.c.cols = append([]engine.ResultColumn(nil), cols...)
	return nil
}

func (w *cursorWriter) Row(values [][]byte) error {
	ends := make([]int, len(values))
	w.c.rowAt = append(w.c.rowAt, len(w.c.buf))
	for i, v := range values {
		if v == nil {
			ends[i] = -1
			continue
		}
		w.c.buf = append(w.c.buf, v...)
		ends[i] = len(w.c.buf)
	}
	if len(w.c.buf)+8*len(w.c.ends) > maxCursorBytes {
		return engine.Errorf(engine.CodeProgramLimitExceeded, "cursor result exceeds the %d-byte limit", maxCursorBytes).
			WithDetail("%s", "gpusql keeps a cursor's rows in memory; fetch large results with a plain query, which streams")
	}
	w.c.ends = append(w.c.ends, ends)
	return nil
}

func (w *cursorWriter) Complete(string) error      { return nil }
func (w *cursorWriter) Notice(engine.Notice) error { return nil }
func (w *cursorWriter) EmptyQuery() error          { return nil }

func (s *Session) declare(ctx context.Context, st *parse.Declare, w engine.ResultWriter, env *paramEnv) error {
	if !st.Hold && !s.inTx {
		return engine.Errorf(engine.CodeNoActiveSQLTransaction, "DECLARE CURSOR can only be used in transaction blocks")
	}
	if st.Binary {
		return engine.Errorf(engine.CodeFeatureNotSupported, "binary cursors are not supported by gpusql").
			WithHint("Declare the cursor without BINARY; drivers that want binary values use the extended query protocol.")
	}
	if _, ok := s.ext.cursors[st.Name]; ok {
		return engine.Errorf(engine.CodeDuplicateCursor, "cursor %q already exists", st.Name)
	}
	if n := s.srv.opts.MaxCursors; len(s.ext.cursors) >= n {
		return engine.Errorf(engine.CodeProgramLimitExceeded, "too many cursors (at most %d per session)", n)
	}
	if env != nil {
		env.limits = st.Query.LimitParams
	}
	plan, cols, err := s.bindSelectParams(ctx, st.Query.AST, env)
	if err != nil {
		return err
	}
	c := &cursor{hold: st.Hold, fresh: s.inTx, noScroll: st.NoScroll}
	if _, err := s.runPlan(ctx, plan, cols, &cursorWriter{c: c}, false); err != nil {
		return err
	}
	if s.ext.cursors == nil {
		s.ext.cursors = map[string]*cursor{}
	}
	s.ext.cursors[st.Name] = c
	return w.Complete("DECLARE CURSOR")
}

func (s *Session) fetch(st *parse.Fetch, w engine.ResultWriter) error {
	c, ok := s.ext.cursors[st.Cursor]
	if !ok {
		return engine.Errorf(engine.CodeInvalidCursorName, "cursor %q does not exist", st.Cursor)
	}
	rows := c.move(st)
	if rows == nil {
		return engine.Errorf(engine.CodeObjectNotInPrereqState, "cursor can only scan forward").
			WithHint("Declare it with SCROLL option to enable backward scan.")
	}
	if st.Move {
		return w.Complete("MOVE " + strconv.Itoa(len(rows)))
	}
	if err := w.Describe(c.cols); err != nil {
		return err
	}
	vals := make([][]byte, len(c.cols))
	for _, r := range rows {
		ends := c.ends[r]
		start := c.rowAt[r]
		for i, e := range ends {
			if e < 0 {
				vals[i] = nil
				continue
			}
			vals[i] = c.buf[start:e:e]
			start = e
		}
		if err := w.Row(vals); err != nil {
			return err
		}
	}
	return w.Complete("FETCH " + strconv.Itoa(len(rows)))
}

// move moves the cursor as FETCH or MOVE st does and returns the
// (0-based) rows it passes over to return, in order; nil (not empty) if
// the cursor may not move backward.
func (c *cursor) move(st *parse.Fetch) []int {
	n := len(c.ends)
	rows := []int{}
	at := func(p int) []int { // the row at position p, if any
		if p >= 1 && p <= n {
			return append(rows, p-1)
		}
		return rows
	}
	dir, count := st.Dir, st.Count
	if (dir == "forward" || dir == "backward") && count == 0 {
		dir = "relative" // FETCH 0: the current row again
	}
	backward := dir == "backward" || dir == "relative" && count < 0 ||
		dir == "absolute" && (count <= 0 || int(count) < c.pos)
	if backward && c.noScroll {
		return nil
	}
	switch dir {
	case "forward":
		for (count < 0 || int64(len(rows)) < count) && c.pos <= n {
			c.pos++
			rows = at(c.pos)
		}
	case "backward":
		for (count < 0 || int64(len(rows)) < count) && c.pos >= 1 {
			c.pos--
			rows = at(c.pos)
		}
	case "absolute":
		switch {
		case count > 0:
			c.pos = int(min(count, int64(n)+1))
		case count < 0:
			c.pos = max(n+1+int(max(count, -int64(n)-1)), 0)
		default:
			c.pos = 0
		}
		rows = at(c.pos)
	case "relative":
		p := int64(c.pos) + count
		c.pos = int(min(max(p, 0), int64(n)+1))
		rows = at(c.pos)
	}
	return rows
}

func (s *Session) closeCursor(st *parse.CloseCursor, w engine.ResultWriter) error {
	if st.All {
		clear(s.ext.cursors)
		return w.Complete("CLOSE CURSOR ALL")
	}
	if _, ok := s.ext.cursors[st.Name]; !ok {
		return engine.Errorf(engine.CodeInvalidCursorName, "cursor %q does not exist", st.Name)
	}
	delete(s.ext.cursors, st.Name)
	return w.Complete("CLOSE CURSOR")
}

// observeTransaction closes cursors as a transaction's end does: COMMIT
// closes those without HOLD, ROLLBACK (or COMMIT of a failed block) also
// those declared in the block.
func (s *Session) observeTransaction(st parse.Stmt) {
	t, ok := st.(*parse.Transaction)
	if !ok || t.Kind != "COMMIT" && t.Kind != "ROLLBACK" || !s.inTx {
		return
	}
	rollback := t.Kind == "ROLLBACK" || s.failedTx
	for name, c := range s.ext.cursors {
		if !c.hold || rollback && c.fresh {
			delete(s.ext.cursors, name)
			continue
		}
		c.fresh = false
	}
}
