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
	next  int     // the next row FETCH returns
	hold  bool
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
	if len(s.ext.cursors) >= maxNamed {
		return engine.Errorf(engine.CodeProgramLimitExceeded, "too many cursors (at most %d per session)", maxNamed)
	}
	if env != nil {
		env.limits = st.Query.LimitParams
	}
	plan, cols, err := s.bindSelectParams(ctx, st.Query.AST, env)
	if err != nil {
		return err
	}
	c := &cursor{hold: st.Hold, fresh: s.inTx}
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
	n := int64(len(c.ends) - c.next)
	if st.Count >= 0 && st.Count < n {
		n = st.Count
	}
	if st.Move {
		c.next += int(n)
		return w.Complete("MOVE " + strconv.FormatInt(n, 10))
	}
	if err := w.Describe(c.cols); err != nil {
		return err
	}
	vals := make([][]byte, len(c.cols))
	for k := int64(0); k < n; k++ {
		ends := c.ends[c.next]
		start := c.rowAt[c.next]
		for i, e := range ends {
			if e < 0 {
				vals[i] = nil
				continue
			}
			vals[i] = c.buf[start:e:e]
			start = e
		}
		c.next++
		if err := w.Row(vals); err != nil {
			return err
		}
	}
	return w.Complete("FETCH " + strconv.FormatInt(n, 10))
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
