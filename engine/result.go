package engine

import (
	"context"
	"io"
)

// ResultColumn describes one column of a result set, as RowDescription
// carries it.
type ResultColumn struct {
	Name     string
	TypeOID  uint32
	TypLen   int16
	Typmod   int32
	TableOID uint32 // 0 if not a plain table column
	ColNum   int16  // 1-based attribute number, 0 if none
}

// Notice is an asynchronous message to the client (NOTICE, WARNING, INFO).
type Notice struct {
	Severity string // "NOTICE", "WARNING", "INFO"
	Code     string // SQLSTATE, usually 00000 or 01000
	Message  string
	Detail   string
}

// ResultWriter receives the results of the statements of one query
// message, in order. For each statement that returns rows the session calls
// Describe, then Row for every row, then Complete; for other statements
// only Complete. Values passed to Row are in PostgreSQL text format, nil
// for NULL; they are valid only during the call.
type ResultWriter interface {
	Describe(cols []ResultColumn) error
	Row(values [][]byte) error
	Complete(tag string) error
	Notice(n Notice) error
	// EmptyQuery reports a query string that held no statement.
	EmptyQuery() error
}

// CopyStream is implemented by a ResultWriter that can carry COPY data
// over the connection (COPY ... FROM STDIN and TO STDOUT). format is the
// overall COPY format code (0 text, 1 binary); ncols the number of
// columns. Writers that cannot (a buffered portal) do not implement it.
type CopyStream interface {
	// CopyIn announces COPY FROM STDIN (CopyInResponse) and returns the
	// client's data: the payloads of its CopyData messages, io.EOF at
	// CopyDone, and a 57014 error at CopyFail. The reader is valid until
	// the statement completes; data the session does not read is
	// discarded. A read waiting for the client returns a 57014 error once
	// ctx ends (a cancel request or statement_timeout).
	CopyIn(ctx context.Context, format int8, ncols int) (io.Reader, error)
	// CopyOut announces COPY TO STDOUT (CopyOutResponse) and returns a
	// writer whose every Write is sent as one CopyData message. Complete
	// then ends the copy (CopyDone) before the command tag.
	CopyOut(format int8, ncols int) (io.Writer, error)
}

// Session runs SQL for one client connection.
type Session interface {
	// Query runs every statement in sql, in order, writing results to w.
	// It stops at the first error and returns it; the statements before it
	// have completed.
	Query(ctx context.Context, sql string, w ResultWriter) error
	// TxStatus is the ReadyForQuery status: 'I' idle, 'T' in a
	// transaction block, 'E' in a failed transaction block.
	TxStatus() byte
	Close() error
}

// SessionParams are what a client said at startup.
type SessionParams struct {
	User        string
	Database    string
	Application string
	Options     map[string]string
	// BackendPID is the process ID the client was given in BackendKeyData
	// (what pg_backend_pid() returns); 0 when the session has none, as in
	// embedded use, and the engine numbers it itself.
	BackendPID uint32
	// Backends reaches the other sessions of the protocol server that
	// made this one (pg_cancel_backend, pg_terminate_backend); nil for an
	// embedded session.
	Backends Backends
}

// Backends is the protocol server's hold on its sessions, by process ID.
type Backends interface {
	// CancelBackend cancels the session's running query, if any, which
	// then fails with 57014; false if no session has that process ID.
	CancelBackend(pid uint32) bool
	// TerminateBackend ends the session with FATAL 57P01 ("terminating
	// connection due to administrator command"), at once if it waits for
	// its client, or by cancelling its running query; false if no session
	// has that process ID. done is closed once the session has ended.
	TerminateBackend(pid uint32) (done <-chan struct{}, ok bool)
}

// Server is what the wire layer needs from the engine.
type Server interface {
	NewSession(p SessionParams) (Session, error)
	// ServerVersion is reported as the server_version parameter.
	ServerVersion() string
}

// Param is the value of one parameter of a prepared statement, in
// PostgreSQL text format (the wire layer decodes binary values first).
// Value is valid only during the call that receives it.
type Param struct {
	Value []byte
	Null  bool
}

// Preparer is an optional interface of a Session, used by the extended
// query protocol: a statement is prepared once (Parse), described without
// running, and run any number of times with parameters.
//
// Named statements live in the session's one namespace, which SQL
// PREPARE, EXECUTE, DEALLOCATE and DISCARD ALL share with the protocol.
type Preparer interface {
	// Prepare parses and binds sql, which holds at most one statement.
	// paramOIDs are the types the client gave; 0 (or a missing entry)
	// asks the server to infer the type from the parameter's context.
	Prepare(ctx context.Context, sql string, paramOIDs []uint32) (Prepared, error)
	// AddStatement names p in the session (42P05 if the name is taken).
	AddStatement(name string, p Prepared) error
	// Statement finds a named statement.
	Statement(name string) (Prepared, bool)
	// DropStatement forgets a named statement, if it exists.
	DropStatement(name string)
	// CursorColumns describes the rows of a cursor made by DECLARE.
	// Cursors are portals in PostgreSQL, so a Describe of a portal the
	// protocol does not know names one (psycopg 3 describes its named
	// cursors that way).
	CursorColumns(name string) ([]ResultColumn, bool)
}

// Prepared is a prepared statement.
type Prepared interface {
	// ParamOIDs are the parameter types, given or inferred.
	ParamOIDs() []uint32
	// Columns describe the result; nil for a statement without rows.
	Columns() []ResultColumn
	// Run runs the statement with len(ParamOIDs()) parameters. The rows
	// it writes match Columns (or it fails with 0A000 when the catalog
	// changed under it).
	Run(ctx context.Context, params []Param, w ResultWriter) error
}

// ParamChecker is an optional interface of a Prepared: CheckParams reads
// the parameter values as Run would and returns the error of the first
// that is not a valid value of its type, so that the protocol reports it
// at Bind, as PostgreSQL does.
type ParamChecker interface {
	CheckParams(params []Param) error
}

// BlockFailer is an optional interface of a Session: FailBlock marks an
// open transaction block failed (25P02 until it ends), as any error does
// in PostgreSQL; the protocol calls it for the errors it finds itself
// (an unknown statement or portal at Bind, Describe or Execute).
type BlockFailer interface {
	FailBlock()
}

// SettingReader is an optional interface of a Session: the current value
// of a run-time parameter (as SHOW gives it). The protocol reports the
// parameters PostgreSQL reports (TimeZone, application_name, ...) with
// ParameterStatus at startup and whenever a statement changes them.
type SettingReader interface {
	Setting(name string) string
}
