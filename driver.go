package gpusql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"io"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/gpusql/gpusql/engine"
)

// The database/sql driver. Two ways in:
//
//	c, err := gpusql.NewConnector(gpusql.Options{FileRoot: "/data"})
//	db := sql.OpenDB(c)            // db.Close also closes the engine
//
//	db, err := sql.Open("gpusql", "file_root=/data device=cpu")
//
// or, to share an embedded DB: sql.OpenDB(gpusql.Connector(gdb)). Each
// database/sql connection is one engine session. Parameters are $1, $2...
// as in PostgreSQL, typed by their context (see Conn.Exec).

func init() { sql.Register("gpusql", Driver{}) }

// Driver is the database/sql driver registered as "gpusql".
type Driver struct{}

var (
	_ driver.Driver        = Driver{}
	_ driver.DriverContext = Driver{}
)

// OpenConnector parses dsn (see ParseDSN) and starts one engine for the
// sql.DB; database/sql calls it once per sql.Open.
func (Driver) OpenConnector(dsn string) (driver.Connector, error) {
	opts, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return NewConnector(opts)
}

// Open starts an engine of its own for one connection, which ends with
// it. database/sql does not call it (it uses OpenConnector); it is here
// for callers of the driver.Driver interface.
func (d Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	conn, err := c.Connect(context.Background())
	if err != nil {
		c.(*connector).Close()
		return nil, err
	}
	conn.(*driverConn).closeDB = true
	return conn, nil
}

// ParseDSN reads a data source name of key=value pairs separated by
// spaces, as libpq writes them; a value with spaces is single-quoted, with
// \' and \\ inside. Keys: file_root, data_dir, device, max_text_width
// (the fields of Options).
//
//	file_root=/data device=cpu
//	file_root='/my data' max_text_width=65536
func ParseDSN(dsn string) (Options, error) {
	var o Options
	bad := func(format string, args ...any) (Options, error) {
		return Options{}, engine.Errorf(engine.CodeInvalidParameterValue, "gpusql: DSN: "+format, args...)
	}
	s := dsn
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return o, nil
		}
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return bad("want key=value, found %q", s)
		}
		key := strings.TrimSpace(s[:eq])
		s = strings.TrimLeft(s[eq+1:], " \t")
		var val string
		if strings.HasPrefix(s, "'") {
			var b strings.Builder
			i := 1
			for ; i < len(s) && s[i] != '\''; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return bad("unterminated quoted value of %s", key)
			}
			val, s = b.String(), s[i+1:]
		} else {
			end := strings.IndexAny(s, " \t\n\r")
			if end < 0 {
				end = len(s)
			}
			val, s = s[:end], s[end:]
		}
		switch key {
		case "file_root":
			o.FileRoot = val
		case "data_dir":
			o.DataDir = val
		case "device":
			o.Device = val
		case "max_text_width":
			n, err := strconv.Atoi(val)
			if err != nil {
				return bad("max_text_width %q: want a number of bytes", val)
			}
			o.MaxTextWidth = n
		default:
			return bad("unknown key %q (want file_root, data_dir, device or max_text_width)", key)
		}
	}
}

// connector makes database/sql connections: sessions of one DB.
type connector struct {
	db    *DB
	ownDB bool // the connector opened db, and closes it with sql.DB.Close
}

var (
	_ driver.Connector = (*connector)(nil)
	_ io.Closer        = (*connector)(nil)
)

// NewConnector starts an engine for sql.OpenDB; closing the sql.DB closes
// the engine.
func NewConnector(opts Options) (driver.Connector, error) {
	db, err := Open(opts)
	if err != nil {
		return nil, err
	}
	return &connector{db: db, ownDB: true}, nil
}

// Connector serves db to database/sql (sql.OpenDB): the embedded API and
// database/sql then see the same tables. Closing the sql.DB leaves db open.
func Connector(db *DB) driver.Connector { return &connector{db: db} }

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &driverConn{c: conn}, nil
}

func (c *connector) Driver() driver.Driver { return Driver{} }

// Close closes the engine if the connector started it; database/sql calls
// it from sql.DB.Close.
func (c *connector) Close() error {
	if c.ownDB {
		return c.db.Close()
	}
	return nil
}

// driverConn is one database/sql connection: one session.
type driverConn struct {
	c       *Conn
	closeDB bool // made by Driver.Open: the engine ends with the connection
}

var (
	_ driver.Conn               = (*driverConn)(nil)
	_ driver.ConnBeginTx        = (*driverConn)(nil)
	_ driver.ConnPrepareContext = (*driverConn)(nil)
	_ driver.QueryerContext     = (*driverConn)(nil)
	_ driver.ExecerContext      = (*driverConn)(nil)
	_ driver.Pinger             = (*driverConn)(nil)
	_ driver.Validator          = (*driverConn)(nil)
	_ driver.SessionResetter    = (*driverConn)(nil)
	_ driver.NamedValueChecker  = (*driverConn)(nil)
)

func (dc *driverConn) Close() error {
	err := dc.c.Close()
	if dc.closeDB {
		dc.c.db.Close()
	}
	return err
}

func (dc *driverConn) Prepare(query string) (driver.Stmt, error) {
	return dc.PrepareContext(context.Background(), query)
}

// PrepareContext prepares query in the connection's session: it is
// parsed and bound once, and its parameters' types inferred.
func (dc *driverConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if dc.c.closed.Load() {
		return nil, driver.ErrBadConn
	}
	s, err := dc.c.Prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	return &stmt{dc: dc, s: s}, nil
}

func (dc *driverConn) Begin() (driver.Tx, error) {
	return dc.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx runs BEGIN. gpusql accepts transaction blocks for the sake of
// clients, but every statement takes effect when it completes: ROLLBACK
// undoes nothing. Isolation levels other than the default and read-only
// transactions are refused (0A000) rather than not honoured.
func (dc *driverConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if opts.Isolation != driver.IsolationLevel(sql.LevelDefault) {
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "gpusql: isolation level %s is not supported", sql.IsolationLevel(opts.Isolation))
	}
	if opts.ReadOnly {
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "gpusql: read-only transactions are not supported")
	}
	if _, err := dc.c.Exec(ctx, "BEGIN"); err != nil {
		return nil, err
	}
	return &tx{dc: dc}, nil
}

func (dc *driverConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	vals, err := positional(args)
	if err != nil {
		return nil, err
	}
	r, err := dc.c.Query(ctx, query, vals...)
	if err != nil {
		return nil, err
	}
	return &driverRows{r: r, db: dc.c.db}, nil
}

func (dc *driverConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	vals, err := positional(args)
	if err != nil {
		return nil, err
	}
	tag, err := dc.c.Exec(ctx, query, vals...)
	if err != nil {
		return nil, err
	}
	return result(tag), nil
}

// Ping checks that the connection and its engine are open.
func (dc *driverConn) Ping(ctx context.Context) error {
	if !dc.IsValid() {
		return driver.ErrBadConn
	}
	return ctx.Err()
}

// IsValid reports whether database/sql may reuse the connection.
func (dc *driverConn) IsValid() bool {
	if dc.c.closed.Load() {
		return false
	}
	dc.c.db.mu.Lock()
	defer dc.c.db.mu.Unlock()
	return !dc.c.db.closed
}

// ResetSession refuses a connection left in a transaction block, so that
// database/sql does not hand it to the next user.
func (dc *driverConn) ResetSession(ctx context.Context) error {
	if !dc.IsValid() || dc.c.TxStatus() != 'I' {
		return driver.ErrBadConn
	}
	return nil
}

// CheckNamedValue lets *big.Rat through as an exact decimal; every other
// argument is converted as database/sql converts by default.
func (dc *driverConn) CheckNamedValue(nv *driver.NamedValue) error {
	switch nv.Value.(type) {
	case *big.Rat, big.Rat:
		return nil
	}
	return driver.ErrSkip
}

// positional returns args in order; names (sql.Named) are refused:
// PostgreSQL's parameters are $1, $2...
func positional(args []driver.NamedValue) ([]any, error) {
	vals := make([]any, len(args))
	for _, a := range args {
		if a.Name != "" {
			return nil, engine.Errorf(engine.CodeFeatureNotSupported, "gpusql: named parameter %q: use $1, $2... instead", a.Name)
		}
		vals[a.Ordinal-1] = a.Value
	}
	return vals, nil
}

// result is a statement's outcome, from its command tag.
type result string

// LastInsertId is not a PostgreSQL notion.
func (r result) LastInsertId() (int64, error) {
	return 0, engine.Errorf(engine.CodeFeatureNotSupported, "gpusql: LastInsertId is not supported")
}

// RowsAffected is the count ending the command tag ("COPY 1000": 1000),
// 0 for tags without one ("CREATE TABLE").
func (r result) RowsAffected() (int64, error) {
	s := string(r)
	if i := strings.LastIndexByte(s, ' '); i >= 0 {
		if n, err := strconv.ParseInt(s[i+1:], 10, 64); err == nil {
			return n, nil
		}
	}
	return 0, nil
}

// stmt is a prepared statement of a connection.
type stmt struct {
	dc *driverConn
	s  *Stmt
}

var (
	_ driver.StmtExecContext  = (*stmt)(nil)
	_ driver.StmtQueryContext = (*stmt)(nil)
)

func (s *stmt) Close() error { return nil }

// NumInput is the number of parameters, so that database/sql checks the
// count of arguments.
func (s *stmt) NumInput() int { return len(s.s.ParamOIDs()) }

func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	vals, err := positional(args)
	if err != nil {
		return nil, err
	}
	tag, err := s.s.Exec(ctx, vals...)
	if err != nil {
		return nil, err
	}
	return result(tag), nil
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	vals, err := positional(args)
	if err != nil {
		return nil, err
	}
	r, err := s.s.Query(ctx, vals...)
	if err != nil {
		return nil, err
	}
	return &driverRows{r: r, db: s.dc.c.db}, nil
}

func named(args []driver.Value) []driver.NamedValue {
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return nv
}

// tx is a transaction block.
type tx struct{ dc *driverConn }

// Commit runs COMMIT; in a block that failed, PostgreSQL rolls back
// instead, and Commit reports that as 25P02.
func (t *tx) Commit() error {
	tag, err := t.dc.c.Exec(context.Background(), "COMMIT")
	if err != nil {
		return err
	}
	if tag == "ROLLBACK" {
		return engine.Errorf(engine.CodeInFailedTransaction, "gpusql: commit unexpectedly resulted in rollback")
	}
	return nil
}

func (t *tx) Rollback() error {
	_, err := t.dc.c.Exec(context.Background(), "ROLLBACK")
	return err
}

// driverRows adapts Rows to database/sql.
type driverRows struct {
	r  *Rows
	db *DB
}

var (
	_ driver.Rows                           = (*driverRows)(nil)
	_ driver.RowsNextResultSet              = (*driverRows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*driverRows)(nil)
	_ driver.RowsColumnTypeScanType         = (*driverRows)(nil)
	_ driver.RowsColumnTypeNullable         = (*driverRows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*driverRows)(nil)
	_ driver.RowsColumnTypeLength           = (*driverRows)(nil)
)

func (dr *driverRows) Columns() []string { return dr.r.Columns() }
func (dr *driverRows) Close() error      { return dr.r.Close() }

// Next fills dest with the next row's values (see driverValue).
func (dr *driverRows) Next(dest []driver.Value) error {
	if !dr.r.Next() {
		if err := dr.r.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	for i, v := range dr.r.vals {
		val, err := driverValue(&dr.r.cols[i], v)
		if err != nil {
			return err
		}
		dest[i] = val
	}
	return nil
}

func (dr *driverRows) HasNextResultSet() bool { return dr.r.peekSet() }

func (dr *driverRows) NextResultSet() error {
	if !dr.r.advanceSet() {
		if err := dr.r.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	return nil
}

// ColumnTypeDatabaseTypeName is the PostgreSQL type name in upper case
// ("INT8", "NUMERIC", "VARCHAR", "TIMESTAMP"...), as PostgreSQL drivers
// report it.
func (dr *driverRows) ColumnTypeDatabaseTypeName(i int) string { return typeName(&dr.r.cols[i]) }

var (
	typeBool   = reflect.TypeFor[bool]()
	typeInt64  = reflect.TypeFor[int64]()
	typeFloat  = reflect.TypeFor[float64]()
	typeTime   = reflect.TypeFor[time.Time]()
	typeString = reflect.TypeFor[string]()
)

// ColumnTypeScanType is the Go type of the values Next gives.
func (dr *driverRows) ColumnTypeScanType(i int) reflect.Type {
	switch classOf(dr.r.cols[i].TypeOID) {
	case classBool:
		return typeBool
	case classInt:
		return typeInt64
	case classFloat:
		return typeFloat
	case classDate, classTimestamp:
		return typeTime
	}
	return typeString
}

// ColumnTypeNullable is known for columns read straight from a table
// (NOT NULL or not); a computed column may always be NULL as far as
// gpusql knows, and reports ok false.
func (dr *driverRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	col := &dr.r.cols[i]
	if col.TableOID == 0 || col.ColNum <= 0 {
		return true, false
	}
	for _, t := range dr.db.Catalog().Tables() {
		if t.OID == col.TableOID && int(col.ColNum) <= len(t.Columns) {
			return !t.Columns[col.ColNum-1].NotNull, true
		}
	}
	return true, false
}

// ColumnTypePrecisionScale is numeric(p,s)'s precision and scale; ok is
// false for an unconstrained numeric and other types.
func (dr *driverRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	col := &dr.r.cols[i]
	if col.TypeOID != engine.OIDNumeric || col.Typmod < 4 {
		return 0, 0, false
	}
	m := col.Typmod - 4
	return int64(m >> 16), int64(m & 0xffff), true
}

// ColumnTypeLength is char(n) and varchar(n)'s n; ok is false for text
// and other types.
func (dr *driverRows) ColumnTypeLength(i int) (length int64, ok bool) {
	col := &dr.r.cols[i]
	if (col.TypeOID != engine.OIDBpchar && col.TypeOID != engine.OIDVarchar) || col.Typmod < 4 {
		return 0, false
	}
	return int64(col.Typmod - 4), true
}
