// Package parse turns PostgreSQL-dialect SQL text into statements.
//
// SELECT statements are parsed by tidb's (MySQL-dialect) parser after a
// token-level rewrite of PostgreSQL-only syntax into calls of functions
// named __gpusql_*; see docs/sql.md and rewrite.go. DDL, COPY and session
// statements are parsed here directly.
package parse

import (
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Stmt is one parsed statement.
type Stmt interface {
	// SQL is the statement's original text, without the ";".
	SQL() string
}

// Select is a query. AST is an *ast.SelectStmt or *ast.SetOprStmt, parsed
// from the rewritten text: every name in it is spelled as the binder
// should use it (CIStr.O): unquoted names folded to lower case, quoted
// ones as written.
type Select struct {
	Text string
	AST  ast.StmtNode
	// LimitParams are the parameter numbers of LIMIT $n and OFFSET $n,
	// which tidb holds as "?" markers, in the order of the markers' offsets.
	LimitParams []int
}

// CreateTable is CREATE TABLE, optionally with gpusql's FROM CSV source.
type CreateTable struct {
	Text, Name  string
	Schema      string // as written: "", public or a temporary schema
	IfNotExists bool
	Temp        bool               // CREATE TEMP TABLE
	Columns     []engine.ColumnDef // nil with CSV: the file's columns are inferred
	CSV         *CSVSource         // nil for a plain CREATE TABLE
}

// CSVSource is the FROM CSV 'path' [WITH (...)] of CREATE TABLE.
type CSVSource struct {
	Path    string
	Options engine.CSVOptions
	Format  string // "csv", "text", "binary" or "parquet"
	// Given holds the options written in WITH (...), by lower-case name:
	// schema inference guesses only the others.
	Given map[string]bool
}

// Copy is COPY table [(columns)] FROM 'path' | STDIN [options], or COPY
// table [(columns)] | (query) TO 'path' | STDOUT [options].
type Copy struct {
	Text, Table string
	Schema      string   // the table's, as written
	Columns     []string // the optional column list
	Query       *Select  // COPY (query) TO; Table is "" then
	To          bool     // COPY TO
	Path        string
	Stdin       bool // FROM STDIN
	Stdout      bool // TO STDOUT
	Options     engine.CSVOptions
	Format      string // "csv", "text" or "binary"
	// FORCE_QUOTE (COPY TO, csv): the columns whose non-NULL values are
	// always quoted, or all of them.
	ForceQuote    []string
	ForceQuoteAll bool
	// Parquet holds COPY TO's FORMAT parquet options.
	Parquet ParquetWrite
}

// ParquetWrite is what COPY ... TO ... WITH (FORMAT parquet, ...) asks of
// the file: zero values mean the writer's defaults.
type ParquetWrite struct {
	RowGroupSize int64  // ROW_GROUP_SIZE: rows per row group
	Compression  string // COMPRESSION: snappy, zstd, gzip or uncompressed
}

// maxRowGroupSize bounds ROW_GROUP_SIZE: a row group is buffered whole
// before it is written.
const maxRowGroupSize = 1 << 26

// DropTable is DROP TABLE [IF EXISTS] names [CASCADE | RESTRICT].
type DropTable struct {
	Text     string
	Names    []string
	Schemas  []string // each name's schema as written (nil: all unqualified)
	IfExists bool
	Cascade  bool
}

// Set is SET name = value. SET TIME ZONE has Name "timezone".
type Set struct {
	Text, Name, Value string
	Local             bool
}

// Show is SHOW name; SHOW ALL has Name "all".
type Show struct{ Text, Name string }

// Reset is RESET name (Name "all" for RESET ALL), also SET name TO DEFAULT.
type Reset struct{ Text, Name string }

// Transaction is a transaction control statement. Kind is "BEGIN",
// "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE" or "ROLLBACK TO" (Name is
// the savepoint), or "SET TRANSACTION" or "SET CHARACTERISTICS" (SET
// SESSION CHARACTERISTICS AS TRANSACTION). Isolation is the ISOLATION
// LEVEL given, lower case ("" if none).
type Transaction struct {
	Text      string
	Kind      string
	Name      string
	Isolation string
}

func (s *Select) SQL() string      { return s.Text }
func (s *CreateTable) SQL() string { return s.Text }
func (s *Copy) SQL() string        { return s.Text }
func (s *DropTable) SQL() string   { return s.Text }
func (s *Set) SQL() string         { return s.Text }
func (s *Show) SQL() string        { return s.Text }
func (s *Reset) SQL() string       { return s.Text }
func (s *Transaction) SQL() string { return s.Text }

// Parse splits sql into statements at top-level semicolons and parses
// each. Empty statements are dropped, so an empty query gives none. Errors
// are *engine.Error; Position, when set, counts characters from 1 at the
// start of sql.
func Parse(sql string) ([]Stmt, error) {
	toks, err := lex(sql)
	if err != nil {
		return nil, err
	}
	var out []Stmt
	start := 0
	for i, t := range toks {
		if !t.isOp(";") && t.kind != kEOF {
			continue
		}
		if piece := toks[start:i]; len(piece) > 0 {
			st, err := parseStmt(sql, piece, t)
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		}
		start = i + 1
	}
	return out, nil
}

// parseStmt parses the tokens of one statement; end is the ";" or end of
// input after it.
func parseStmt(src string, toks []token, end token) (Stmt, error) {
	text := src[toks[0].pos:toks[len(toks)-1].end]
	items, err := tree(src, toks, end)
	if err != nil {
		return nil, err
	}
	c := &cursor{src: src, items: items, end: end}
	first := toks[0]
	if first.isOp("(") {
		return parseSelect(src, text, items, end)
	}
	if first.kind != kIdent {
		return nil, syntaxErr(src, first)
	}
	if st, ok, err := parseRoleStmt(c, text, first.text); ok {
		return st, err
	}
	if st, ok, err := parseWrite(c, text, first.text); ok {
		return st, err
	}
	switch first.text {
	case "select", "with", "table":
		return parseSelect(src, text, items, end)
	case "create":
		return parseCreate(c, text)
	case "drop":
		return parseDrop(c, text)
	case "copy":
		return parseCopy(c, text)
	case "set":
		return parseSet(c, text)
	case "show":
		return parseShow(c, text)
	case "reset":
		return parseReset(c, text)
	case "begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release":
		return parseTransaction(c, text)
	}
	if st, ok, err := parseSession2(c, text, first.text); ok {
		return st, err
	}
	if kind := unsupportedKind(items); kind != "" {
		return nil, notSupported(src, first, kind+" is not supported by gpusql")
	}
	return nil, syntaxErr(src, first)
}

// unsupportedKind names a PostgreSQL statement that gpusql does not run,
// or returns "" if items do not start like one.
func unsupportedKind(items []*node) string {
	w := items[0].tok.text
	switch w {
	case "insert", "update", "delete", "merge", "truncate", "grant", "revoke", "explain", "analyze",
		"vacuum", "prepare", "execute", "deallocate", "listen", "notify", "unlisten", "discard",
		"declare", "fetch", "move", "close", "comment", "checkpoint", "cluster",
		"reindex", "refresh", "call", "do", "load", "import", "security", "reassign", "values":
		return strings.ToUpper(w)
	case "alter", "create", "drop":
		kind := strings.ToUpper(w)
		for _, n := range items[1:] {
			if n.group || n.tok.kind != kIdent {
				break
			}
			switch n.tok.text {
			case "or", "replace", "temp", "temporary", "unlogged", "unique", "global", "local", "materialized",
				"foreign", "recursive", "trusted", "procedural", "default", "concurrently":
				kind += " " + strings.ToUpper(n.tok.text)
				continue
			}
			return kind + " " + strings.ToUpper(n.tok.text)
		}
		return kind
	}
	return ""
}
