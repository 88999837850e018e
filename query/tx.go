package query

// Transaction blocks. Outside a block a statement commits on its own, or
// with the other statements of its Query message when there are several
// (an implicit block, as PostgreSQL has). Inside one (BEGIN ... COMMIT), writes to tables are kept in
// the session: the statements of the block read the table with its new
// rows, other sessions still read the committed version, and COMMIT
// publishes every written table at once (engine.CommitWrites). ROLLBACK
// drops the writes; ROLLBACK TO SAVEPOINT returns them to the state they
// had at the savepoint. A table created in the block is dropped again by
// a rollback past its creation. A table the block drops is hidden from
// the block's statements at once and stays in the catalog, with its data,
// for every other session until COMMIT drops it (droppedTable); a
// rollback past the DROP brings it back to the block.
//
// Each statement reads the latest committed versions of the tables it did
// not write, so the isolation gpusql gives is READ COMMITTED whatever
// level is asked for; SHOW transaction_isolation says so. If another
// session commits a write to a table this block also wrote, COMMIT fails
// with 40001 and the block's writes are dropped.

import (
	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// txData is one table's data written in the block; refs counts the
// block's current state and the savepoints that hold it.
type txData struct {
	data engine.TableData
	refs int
}

func (d *txData) hold() *txData { d.refs++; return d }

func (d *txData) drop() {
	d.refs--
	if d.refs == 0 && d.data != nil {
		d.data.Release()
		d.data = nil
	}
}

// txWrite is a table written in the block: base is the committed data the
// block read first (pinned until the block ends), cur the data now.
type txWrite struct {
	table *engine.Table
	base  engine.TableData
	cur   *txData
}

type savepoint struct {
	name    string
	writes  map[string]txWrite
	created int // len(txState.created) when the savepoint was set
	undo    int // len(txState.undo) when the savepoint was set
	roles   int // the block's role changes when the savepoint was set
	dropped int // len(txState.dropped) when the savepoint was set
	cursors map[*cursor]bool
}

// droppedTable is a table DROP TABLE removed in the block: found by its
// OID, which a rename's successor keeps. cascade: the DROP said CASCADE
// (its views were dropped as it ran, as DROP VIEW drops them).
type droppedTable struct {
	table   *engine.Table
	cascade bool
}

type txState struct {
	writes  map[string]txWrite
	bases   []*engine.Snapshot
	created []*engine.Table
	// dropped are the tables the block dropped, dropped from the catalog
	// at COMMIT
	dropped []droppedTable
	// undo reverses the block's changes to views and names (CREATE
	// VIEW, DROP VIEW, ALTER ... RENAME), which the catalog makes as
	// they run; a rollback runs them last first
	undo       []func()
	savepoints []*savepoint
	// roles are the block's role statements (roles.go); nil if none ran
	roles *auth.Tx
	// local holds, by name, the session values of the settings the
	// block set with SET LOCAL: COMMIT restores them (a rollback's undo
	// restores every setting the block changed).
	local map[string]localPrev
	// queried: a statement that reads or writes data ran in the block,
	// after which its isolation level can no longer change.
	queried bool
	// implicit: the statements of one Query message run outside a
	// block, which PostgreSQL runs as one transaction: their writes are
	// kept as a block's are, and published when the last one succeeds.
	implicit bool
	// inserted counts, by table, the rows the block inserted and no
	// TRUNCATE of the block discarded: pg_stat_user_tables counts them
	// at COMMIT (countInserts).
	inserted map[*engine.TableCounters]int64
	// truncated holds, by table, the places in undo of the block's
	// TRUNCATEs of it not rolled back; undoingTo is the place a running
	// rollback returns to (undoTo).
	truncated map[*engine.TableCounters][]int
	undoingTo int
}

// pending is the block's data of user table name, if the block wrote it
// and the table is still the one it wrote.
func (s *Session) pending(t *engine.Table, name string) (engine.TableData, bool) {
	w, ok := s.tx.writes[name]
	if !ok || w.table != t {
		return nil, false
	}
	return w.cur.data, true
}

// writeTable appends data to table t: at once outside a block, into the
// block's writes inside one. It owns data. merge builds the new contents
// from the current ones and data, as Table.Write's merge does.
func (s *Session) writeTable(t *engine.Table, name string, data engine.TableData, merge func(cur, add engine.TableData) (engine.TableData, error)) error {
	if !s.inTx && !s.tx.implicit {
		return t.Write(data, merge)
	}
	w, ok := s.tx.writes[name]
	if !ok || w.table != t {
		snap := t.Pin()
		s.tx.bases = append(s.tx.bases, snap)
		w = txWrite{table: t, base: snap.Data()}
	}
	cur := w.base
	if w.cur != nil {
		cur = w.cur.data
	}
	merged, err := merge(cur, data)
	if err != nil {
		data.Release()
		return err
	}
	if merged != data {
		defer data.Release()
	}
	if cur != nil && merged == cur {
		return nil // nothing added
	}
	if w.cur != nil {
		w.cur.drop()
	}
	w.cur = &txData{data: merged, refs: 1}
	if s.tx.writes == nil {
		s.tx.writes = map[string]txWrite{}
	}
	s.tx.writes[name] = w
	return nil
}

// countInserts counts n rows inserted into t for pg_stat_user_tables, as
// PostgreSQL counts them: n_tup_ins counts every row a statement inserted,
// whether its transaction commits or rolls back, n_mod_since_analyze only
// the committed ones. Outside a block both count at once; in one, at
// COMMIT, or n_tup_ins alone when a rollback (of the block or to a
// savepoint) undoes the insert: unless the rollback also undoes a
// TRUNCATE of t made after the insert, as PostgreSQL forgets the counts
// a rolled-back TRUNCATE's (sub)transaction made after it.
func (s *Session) countInserts(t *engine.Table, n int64) {
	c := t.Counters()
	if !s.inBlock() {
		c.Inserted(n)
		c.ModSinceAnalyze.Add(n)
		return
	}
	if s.tx.inserted == nil {
		s.tx.inserted = map[*engine.TableCounters]int64{}
	}
	s.tx.inserted[c] += n
	s.logUndo(func() {
		s.tx.inserted[c] -= n
		// the TRUNCATEs after this insert are undone already
		if ts := s.tx.truncated[c]; len(ts) == 0 || ts[len(ts)-1] < s.tx.undoingTo {
			c.Inserted(n)
		}
	})
}

// countTruncate notes a TRUNCATE of t for pg_stat_user_tables: in a block
// that commits, the rows the block inserted into t before it count in
// neither n_tup_ins nor n_mod_since_analyze, as in PostgreSQL, whose
// TRUNCATE discards its transaction's counts. A rollback restores them.
func (s *Session) countTruncate(t *engine.Table) {
	if !s.inBlock() {
		return
	}
	c := t.Counters()
	if s.tx.inserted == nil {
		s.tx.inserted = map[*engine.TableCounters]int64{}
	}
	if s.tx.truncated == nil {
		s.tx.truncated = map[*engine.TableCounters][]int{}
	}
	n := s.tx.inserted[c]
	s.tx.inserted[c] = 0
	s.tx.truncated[c] = append(s.tx.truncated[c], len(s.tx.undo))
	s.logUndo(func() {
		s.tx.inserted[c] += n
		s.tx.truncated[c] = s.tx.truncated[c][:len(s.tx.truncated[c])-1]
	})
}

// created records a table made in the block, which a rollback drops.
func (s *Session) createdTable(t *engine.Table) {
	if s.inTx || s.tx.implicit {
		s.tx.created = append(s.tx.created, t)
	}
}

// forgetTable drops the block's writes to a table it drops.
func (s *Session) forgetTable(name string) {
	if w, ok := s.tx.writes[name]; ok {
		w.cur.drop()
		delete(s.tx.writes, name)
	}
}

// commitTx publishes the block's writes and role changes, drops the
// tables it dropped, and ends it. The role changes are checked first and
// written last: a failure to publish the writes keeps neither.
func (s *Session) commitTx() error {
	var ws []engine.TxWrite
	for _, w := range s.tx.writes {
		if !s.droppedInBlock(w.table) {
			ws = append(ws, engine.TxWrite{Table: w.table, Base: w.base, Data: w.cur.data})
		}
	}
	published := false
	err := s.checkDrops()
	if err == nil {
		publish := func() error {
			err := engine.CommitWrites(ws)
			published = err == nil
			return err
		}
		if s.tx.roles != nil {
			err = s.tx.roles.Commit(publish)
		} else {
			err = publish()
		}
	}
	if published {
		for name, w := range s.tx.writes {
			if s.droppedInBlock(w.table) {
				w.cur.drop() // written, then dropped
				delete(s.tx.writes, name)
			}
		}
		for _, d := range s.tx.dropped {
			if derr := s.dropNow(d); derr != nil && err == nil {
				err = derr
			}
		}
		s.tx.dropped = nil
		for name, w := range s.tx.writes {
			w.cur.data = nil // the table owns it now
			w.cur.drop()
			delete(s.tx.writes, name)
		}
		for c, n := range s.tx.inserted {
			c.Inserted(n)
			c.ModSinceAnalyze.Add(n)
		}
		s.tx.created = nil
		s.tx.undo = nil
		s.endLocalSettings()
	}
	s.endTx()
	return err
}

// endTx drops whatever the block still holds: its writes (a rollback,
// or a commit that failed), the tables it created, its savepoints and
// its pins.
func (s *Session) endTx() {
	for name, w := range s.tx.writes {
		w.cur.drop()
		delete(s.tx.writes, name)
	}
	for _, sp := range s.tx.savepoints {
		for _, w := range sp.writes {
			w.cur.drop()
		}
	}
	s.undoTo(0)
	for i := len(s.tx.created) - 1; i >= 0; i-- {
		s.dropCreated(s.tx.created[i])
	}
	for _, b := range s.tx.bases {
		b.Release()
	}
	s.tx = txState{}
}

// inBlock reports whether a statement runs in a transaction block,
// explicit or implicit.
func (s *Session) inBlock() bool { return s.inTx || s.tx.implicit }

// droppedInBlock reports whether the block dropped table t (or the table
// t renamed).
func (s *Session) droppedInBlock(t *engine.Table) bool {
	for _, d := range s.tx.dropped {
		if d.table.OID == t.OID && d.table.Schema == t.Schema {
			return true
		}
	}
	return false
}

// current is the catalog's table now of a table the block dropped: the
// same, or its successor under another name; nil when it is gone.
func (s *Session) current(d droppedTable) *engine.Table {
	t := d.table
	if cur, _ := s.srv.cat.LookupIn(t.Schema, t.Name); cur != nil && cur.OID == t.OID {
		return cur
	}
	all := s.srv.cat.Tables()
	if t.Schema != "" {
		all = s.srv.cat.TempTables(t.Schema)
	}
	for _, cur := range all {
		if cur.OID == t.OID {
			return cur
		}
	}
	return nil
}

// checkDrops fails, before COMMIT changes anything, when a view another
// session made meanwhile reads a table the block drops without CASCADE
// (2BP01, as the DROP itself would have failed).
func (s *Session) checkDrops() error {
	for _, d := range s.tx.dropped {
		if t := s.current(d); t != nil && !d.cascade {
			if deps := s.srv.cat.Dependents(t.Ref()); len(deps) > 0 {
				return engine.DependencyError("table", t.Ref(), deps)
			}
		}
	}
	return nil
}

// dropNow drops a table the block dropped from the catalog (COMMIT, or a
// later statement of the block that takes its name); its data file goes
// with it. One another session dropped meanwhile is passed over.
func (s *Session) dropNow(d droppedTable) error {
	t := s.current(d)
	if t == nil {
		return nil
	}
	s.forgetTable(txKey(t))
	_, err := s.srv.cat.DropRelation(t.Ref(), true)
	if engine.Code(err) == engine.CodeUndefinedTable {
		return nil
	}
	if err != nil {
		return err
	}
	if t.Schema == "" {
		return s.srv.opts.Roles.TableDropped(t.Name)
	}
	return nil
}

// claimName makes room for a relation named schema.name that a statement
// of the block creates (CREATE, ALTER ... RENAME TO): a table of that name
// the block dropped is dropped from the catalog now, and a ROLLBACK can
// no longer bring it back (it says so: warnWrites).
func (s *Session) claimName(schema, name string) error {
	for i, d := range s.tx.dropped {
		if t := s.current(d); t != nil && t.Schema == schema && t.Name == name {
			s.tx.dropped = append(s.tx.dropped[:i:i], s.tx.dropped[i+1:]...)
			for _, sp := range s.tx.savepoints {
				if sp.dropped > i {
					sp.dropped--
				}
			}
			s.txWrote = s.inTx
			return s.dropNow(d)
		}
	}
	return nil
}

// lookup is the catalog's relation schema.name as the session sees it:
// without the tables its block dropped.
func (s *Session) lookup(schema, name string) (*engine.Table, *engine.View) {
	t, v := s.srv.cat.LookupIn(schema, name)
	if t != nil && s.droppedInBlock(t) {
		return nil, v
	}
	return t, v
}

// logUndo records how to reverse a change to the catalog that a block
// (or the implicit block of a Query message) made.
func (s *Session) logUndo(f func()) {
	if s.inTx || s.tx.implicit {
		s.tx.undo = append(s.tx.undo, f)
	}
}

// undoTo reverses the block's catalog changes after the first n, the
// last first, so that each finds the catalog as its change left it.
// Another session may have changed the relations meanwhile: an undo
// that no longer applies does nothing.
func (s *Session) undoTo(n int) {
	s.tx.undoingTo = n
	for i := len(s.tx.undo) - 1; i >= n; i-- {
		s.tx.undo[i]()
	}
	s.tx.undo = s.tx.undo[:n]
}

// renamedCreated follows a rename of a table the block created, which a
// rollback must find to drop it.
func (s *Session) renamedCreated(from, to *engine.Table) {
	for i, t := range s.tx.created {
		if t == from {
			s.tx.created[i] = to
		}
	}
}

// dropCreated drops a table the block created, if it is still there,
// with the views made on it since.
func (s *Session) dropCreated(t *engine.Table) {
	if cur, _ := s.srv.cat.LookupIn(t.Schema, t.Name); cur == t {
		_, _ = s.srv.cat.DropRelation(engine.RelRef{Schema: t.Schema, Name: t.Name}, true)
		if t.Schema == "" {
			_ = s.srv.opts.Roles.TableDropped(t.Name)
		}
	}
}

// txKey names table t among the block's writes: its name, qualified by
// its schema for a temporary table.
func txKey(t *engine.Table) string {
	if t.Schema != "" {
		return t.Schema + "." + t.Name
	}
	return t.Name
}

func (s *Session) findSavepoint(name string) int {
	for i := len(s.tx.savepoints) - 1; i >= 0; i-- {
		if s.tx.savepoints[i].name == name {
			return i
		}
	}
	return -1
}

// dropSavepoints forgets savepoints from index i up.
func (s *Session) dropSavepoints(i int) {
	for _, sp := range s.tx.savepoints[i:] {
		for _, w := range sp.writes {
			w.cur.drop()
		}
	}
	s.tx.savepoints = s.tx.savepoints[:i]
}

func (s *Session) savepointStmt(t *parse.Transaction, w engine.ResultWriter) error {
	if !s.inTx {
		kind := map[string]string{"SAVEPOINT": "SAVEPOINT", "RELEASE": "RELEASE SAVEPOINT", "ROLLBACK TO": "ROLLBACK TO SAVEPOINT"}[t.Kind]
		return engine.Errorf(engine.CodeNoActiveSQLTransaction, "%s can only be used in transaction blocks", kind)
	}
	switch t.Kind {
	case "SAVEPOINT":
		sp := &savepoint{name: t.Name, writes: map[string]txWrite{}, created: len(s.tx.created), undo: len(s.tx.undo),
			dropped: len(s.tx.dropped), cursors: map[*cursor]bool{}}
		if s.tx.roles != nil {
			sp.roles = s.tx.roles.Len()
		}
		for name, wr := range s.tx.writes {
			wr.cur.hold()
			sp.writes[name] = wr
		}
		for _, c := range s.ext.cursors {
			sp.cursors[c] = true
		}
		s.tx.savepoints = append(s.tx.savepoints, sp)
		return w.Complete("SAVEPOINT")
	case "RELEASE":
		i := s.findSavepoint(t.Name)
		if i < 0 {
			return engine.Errorf(engine.CodeInvalidSavepointSpec, "savepoint %q does not exist", t.Name)
		}
		s.dropSavepoints(i)
		return w.Complete("RELEASE")
	}
	// ROLLBACK TO: the writes, created tables and cursors as they were at
	// the savepoint, which stays.
	i := s.findSavepoint(t.Name)
	if i < 0 {
		return engine.Errorf(engine.CodeInvalidSavepointSpec, "savepoint %q does not exist", t.Name)
	}
	s.dropSavepoints(i + 1)
	sp := s.tx.savepoints[i]
	for name, wr := range s.tx.writes {
		wr.cur.drop()
		delete(s.tx.writes, name)
	}
	for name, wr := range sp.writes {
		wr.cur.hold()
		if s.tx.writes == nil {
			s.tx.writes = map[string]txWrite{}
		}
		s.tx.writes[name] = wr
	}
	s.undoTo(sp.undo)
	if s.tx.roles != nil {
		s.tx.roles.Truncate(sp.roles)
	}
	s.tx.dropped = s.tx.dropped[:sp.dropped]
	for k := len(s.tx.created) - 1; k >= sp.created; k-- {
		s.dropCreated(s.tx.created[k])
	}
	s.tx.created = s.tx.created[:sp.created]
	for name, c := range s.ext.cursors {
		if !sp.cursors[c] {
			delete(s.ext.cursors, name)
		}
	}
	s.failedTx = false
	return w.Complete("ROLLBACK")
}

// setTransaction runs SET TRANSACTION and SET SESSION CHARACTERISTICS AS
// TRANSACTION. Every level is accepted; gpusql gives READ COMMITTED.
func (s *Session) setTransaction(t *parse.Transaction, w engine.ResultWriter) error {
	if t.Kind == "SET CHARACTERISTICS" {
		if t.Isolation != "" {
			s.settings["default_transaction_isolation"] = t.Isolation
		}
		return w.Complete("SET")
	}
	if !s.inTx {
		_ = w.Notice(engine.Notice{Severity: "WARNING", Code: engine.CodeNoActiveSQLTransaction,
			Message: "SET TRANSACTION can only be used in transaction blocks"})
		return w.Complete("SET")
	}
	if t.Isolation != "" && s.tx.queried {
		return engine.Errorf(engine.CodeActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
	}
	return w.Complete("SET")
}

// noteQuery records that st, run in a block, took the block's first
// snapshot if it reads or writes data.
func (s *Session) noteQuery(st parse.Stmt) {
	if !s.inTx || s.tx.queried {
		return
	}
	switch st.(type) {
	case *parse.Transaction, *parse.Set, *parse.Show, *parse.Reset:
		return
	}
	s.tx.queried = true
}

// implicitBlock reports whether the statements of one Query message run
// as an implicit block: several of them, outside a block, none of them a
// transaction statement (which would make the block explicit).
func (s *Session) implicitBlock(stmts []parse.Stmt) bool {
	if s.inTx || len(stmts) < 2 {
		return false
	}
	for _, st := range stmts {
		if _, ok := st.(*parse.Transaction); ok {
			return false
		}
	}
	return true
}
