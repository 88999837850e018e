package gpusql

import (
	"context"

	"github.com/gpusql/gpusql/engine"
)

// Limits of one chunk of rows handed from the query to the reader, and
// of the queue between them: at most queueChunks chunks wait, so a query
// that produces faster than its reader consumes waits, holding a few MB.
const (
	chunkRows     = 1024
	chunkBytes    = 256 << 10
	queueChunks   = 4
	maxKeptBuffer = 4 << 20 // a chunk whose buffer grew beyond this is not reused
)

type chunkKind uint8

const (
	chunkRowsKind chunkKind = iota // rows of the current result set
	chunkDescribe                  // a result set begins: cols
	chunkComplete                  // a statement completed: tag
)

// chunk is what the query's goroutine sends the reader: a result set's
// description, a run of rows, or a statement's completion.
//
// Rows are stored as one byte buffer of the values' PostgreSQL text forms,
// end to end, and one entry per value in ends: the offset in buf where
// the value ends, or, for NULL, -(offset+1) (a NULL takes no bytes).
type chunk struct {
	kind chunkKind
	cols []engine.ResultColumn
	tag  string
	n    int // rows
	buf  []byte
	ends []int
}

func (c *chunk) reset() {
	c.kind, c.cols, c.tag, c.n = chunkRowsKind, nil, "", 0
	c.buf, c.ends = c.buf[:0], c.ends[:0]
}

// rowWriter is the ResultWriter of a streaming query: it copies rows into
// chunks and queues them for the reader.
type rowWriter struct {
	ctx    context.Context
	ch     chan<- *chunk
	free   chan *chunk
	cur    *chunk // rows not yet sent
	notice func(engine.Notice)
}

func (w *rowWriter) get() *chunk {
	select {
	case c := <-w.free:
		c.reset()
		return c
	default:
		return &chunk{}
	}
}

// send queues c, waiting while the queue is full; it gives up when the
// query's context ends (the reader closed the Rows, the caller's context
// ended, or the DB closed).
func (w *rowWriter) send(c *chunk) error {
	if w.ctx.Err() != nil {
		// Ended: send nothing more even when the queue has room.
		return context.Cause(w.ctx)
	}
	select {
	case w.ch <- c:
		return nil
	case <-w.ctx.Done():
		return context.Cause(w.ctx)
	}
}

func (w *rowWriter) flush() error {
	if w.cur == nil {
		return nil
	}
	c := w.cur
	w.cur = nil
	return w.send(c)
}

func (w *rowWriter) Describe(cols []engine.ResultColumn) error {
	if err := w.flush(); err != nil {
		return err
	}
	c := w.get()
	c.kind = chunkDescribe
	c.cols = append([]engine.ResultColumn(nil), cols...)
	return w.send(c)
}

func (w *rowWriter) Row(values [][]byte) error {
	if w.cur == nil {
		w.cur = w.get()
	}
	c := w.cur
	for _, v := range values {
		if v == nil {
			c.ends = append(c.ends, -len(c.buf)-1)
			continue
		}
		c.buf = append(c.buf, v...)
		c.ends = append(c.ends, len(c.buf))
	}
	c.n++
	if c.n >= chunkRows || len(c.buf) >= chunkBytes {
		return w.flush()
	}
	return nil
}

func (w *rowWriter) Complete(tag string) error {
	if err := w.flush(); err != nil {
		return err
	}
	c := w.get()
	c.kind = chunkComplete
	c.tag = tag
	return w.send(c)
}

func (w *rowWriter) Notice(n engine.Notice) error {
	if w.notice != nil {
		w.notice(n)
	}
	return nil
}

func (w *rowWriter) EmptyQuery() error { return nil }

// Rows are the result of a query, read one row at a time:
//
//	defer rows.Close()
//	for rows.Next() {
//		err := rows.Scan(&a, &b)
//	}
//	err := rows.Err()
//
// Rows are not for concurrent use.
type Rows struct {
	conn    *Conn
	ownConn bool // the Conn was made for these Rows and ends with them
	st      *statement

	ch      chan *chunk // from the query's goroutine; closed when it ends
	free    chan *chunk // chunks read, for reuse
	prodErr error       // the query's error (errorOf), set before ch is closed

	done     bool // ch was seen closed, or drained at Close
	released bool // the Conn was given back
	closed   bool
	err      error

	cols    []engine.ResultColumn
	names   []string
	inSet   bool   // a result set is being read
	pending *chunk // the next result set's description, read ahead
	cur     *chunk
	row     int      // the current row of cur
	vals    [][]byte // the current row's values; nil for NULL
	tag     string
}

func newRows(c *Conn, st *statement) *Rows {
	return &Rows{
		conn: c,
		st:   st,
		ch:   make(chan *chunk, queueChunks),
		free: make(chan *chunk, queueChunks+2),
	}
}

// produce runs the query; it is the goroutine behind the Rows.
func (r *Rows) produce(run runner) {
	w := &rowWriter{ctx: r.st.ctx, ch: r.ch, free: r.free, notice: r.conn.db.notice}
	err := run(r.st.ctx, w)
	if err == nil {
		err = w.flush()
	}
	r.prodErr = r.st.errorOf(err)
	close(r.ch)
	r.st.end() // DB.Close waits for this, not for the reader
}

func (r *Rows) recycle(c *chunk) {
	if c == nil || cap(c.buf) > maxKeptBuffer {
		return
	}
	select {
	case r.free <- c:
	default:
	}
}

// recv takes the next chunk; ok is false when the query has ended, and
// then r.err holds its error.
func (r *Rows) recv() (c *chunk, ok bool) {
	if r.done {
		return nil, false
	}
	c, ok = <-r.ch
	if !ok {
		r.done = true
		r.err = r.prodErr
		r.releaseStatement()
	}
	return c, ok
}

// releaseStatement gives the Conn back once the query's goroutine has
// ended (ch closed).
func (r *Rows) releaseStatement() {
	if r.released {
		return
	}
	r.released = true
	r.conn.release()
}

// skipSet drops the rest of the current result set.
func (r *Rows) skipSet() {
	r.recycle(r.cur)
	r.cur, r.vals = nil, nil
	for r.inSet {
		c, ok := r.recv()
		if !ok {
			r.inSet = false
			return
		}
		if c.kind == chunkComplete {
			r.tag = c.tag
			r.inSet = false
		}
		r.recycle(c)
	}
}

// peekSet reads ahead, past the current result set and statements without
// rows, to the next result set's description; it reports whether there is
// one.
func (r *Rows) peekSet() bool {
	if r.closed {
		return false
	}
	r.skipSet()
	for r.pending == nil {
		c, ok := r.recv()
		if !ok {
			return false
		}
		switch c.kind {
		case chunkDescribe:
			r.pending = c
		case chunkComplete:
			r.tag = c.tag
			r.recycle(c)
		default:
			r.recycle(c) // rows outside a result set: none are sent
		}
	}
	return true
}

// advanceSet moves to the next result set.
func (r *Rows) advanceSet() bool {
	if !r.peekSet() {
		return false
	}
	r.cols, r.names = r.pending.cols, nil
	r.recycle(r.pending)
	r.pending = nil
	r.inSet = true
	return true
}

// NextResultSet moves to the result set of the next query of a
// multi-statement Query, dropping what is left of the current one. It
// reports whether there is one; call Next to read its rows.
func (r *Rows) NextResultSet() bool { return r.advanceSet() }

// Next moves to the next row, reporting whether there is one. When it
// returns false, the result set has ended (or an error stopped it: see
// Err).
func (r *Rows) Next() bool {
	if r.closed || !r.inSet {
		return false
	}
	for {
		if r.cur != nil {
			r.row++
			if r.row < r.cur.n {
				r.setRow()
				return true
			}
			r.recycle(r.cur)
			r.cur, r.vals = nil, nil
		}
		c, ok := r.recv()
		if !ok {
			r.inSet = false
			return false
		}
		switch c.kind {
		case chunkRowsKind:
			r.cur, r.row = c, -1
		case chunkComplete:
			r.tag = c.tag
			r.inSet = false
			r.recycle(c)
			return false
		default: // a description inside a result set: none is sent
			r.pending = c
			r.inSet = false
			return false
		}
	}
}

// setRow points r.vals at the values of row r.row of r.cur.
func (r *Rows) setRow() {
	n := len(r.cols)
	if cap(r.vals) < n {
		r.vals = make([][]byte, n)
	}
	r.vals = r.vals[:n]
	c := r.cur
	first := r.row * n
	start := 0
	if first > 0 {
		start = decodeEnd(c.ends[first-1])
	}
	for k := 0; k < n; k++ {
		e := c.ends[first+k]
		if e < 0 {
			r.vals[k] = nil
			continue
		}
		r.vals[k] = c.buf[start:e:e]
		start = e
	}
}

func decodeEnd(e int) int {
	if e < 0 {
		return -e - 1
	}
	return e
}

// Columns are the names of the current result set's columns.
func (r *Rows) Columns() []string {
	if r.names == nil && r.cols != nil {
		r.names = make([]string, len(r.cols))
		for i, c := range r.cols {
			r.names[i] = c.Name
		}
	}
	return r.names
}

// ColumnTypes describe the current result set's columns as the PostgreSQL
// protocol does (type OID, modifier, source table and column).
func (r *Rows) ColumnTypes() []engine.ResultColumn { return r.cols }

// CommandTag is the tag of the last statement completed so far, such as
// "SELECT 42" once all rows of a query have been read.
func (r *Rows) CommandTag() string { return r.tag }

// Err is the error that ended the query, if any. Closing the Rows early
// is not an error.
func (r *Rows) Err() error { return r.err }

// Values returns the current row's values in PostgreSQL's text format, nil
// for NULL. They are valid until the next call to Next or Close.
func (r *Rows) Values() [][]byte { return r.vals }

// Scan copies the current row's values into dest, one per column. See
// scanValue for the Go types each SQL type scans into.
func (r *Rows) Scan(dest ...any) error {
	if r.vals == nil || r.closed {
		return engine.Errorf(engine.CodeObjectNotInPrereqState, "gpusql: Scan called without calling Next")
	}
	if len(dest) != len(r.cols) {
		return engine.Errorf(engine.CodeDatatypeMismatch, "gpusql: Scan: %d destinations for %d columns", len(dest), len(r.cols))
	}
	for i, d := range dest {
		if err := scanValue(d, &r.cols[i], r.vals[i]); err != nil {
			return err
		}
	}
	return nil
}

// Close ends the Rows. A query still running is cancelled, the rows it
// had not yet handed over are dropped, and Close waits until it has
// stopped. Close is idempotent.
func (r *Rows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if !r.done {
		r.st.cancel(errRowsClosed)
		for c := range r.ch {
			_ = c
		}
		r.done = true
		r.releaseStatement()
	}
	r.recycle(r.cur)
	r.cur, r.vals, r.pending, r.inSet = nil, nil, nil, false
	if r.ownConn {
		return r.conn.Close()
	}
	return nil
}
