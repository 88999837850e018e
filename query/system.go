package query

import (
	"context"
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/engine"
)

// System tables are built from the catalog when a query names them.
const (
	sysLoadErrors = "gpusql_load_errors"
	sysTables     = "gpusql_tables"
	sysColumns    = "gpusql_columns"
)

// isSystemTable reports whether a source or plan table name is a system
// relation, built in host memory and run by the host executor: the
// gpusql_* tables and the pg_catalog and information_schema relations
// (whose sources are named schema-qualified).
func isSystemTable(name string) bool {
	return name == sysLoadErrors || name == sysTables || name == sysColumns ||
		strings.HasPrefix(name, "pg_catalog.") || strings.HasPrefix(name, "information_schema.")
}

// lookupSource resolves a FROM name to a table snapshot. As with
// PostgreSQL's search_path, an unqualified name is looked up in pg_catalog
// first, then among the user tables (schema public).
//
// A user table is pinned in the statement's pin set (snapshot.go): ctx
// must be the statement's.
func (s *Session) lookupSource(ctx context.Context, schema, name string) (source, error) {
	switch schema {
	case "", "pg_catalog", "information_schema":
		src, ok, err := s.catalogSource(schema, name)
		if err != nil || ok {
			return src, err
		}
		if schema != "" {
			return source{}, engine.Errorf(engine.CodeUndefinedTable, "relation \"%s.%s\" does not exist", schema, name)
		}
	case "public", "gpusql":
	default:
		return source{}, engine.Errorf(engine.CodeUndefinedTable, "relation \"%s.%s\" does not exist", schema, name)
	}
	switch name {
	case sysLoadErrors:
		return s.loadErrorsSource(), nil
	case sysTables:
		return s.tablesSource(), nil
	case sysColumns:
		return s.columnsSource(), nil
	}
	pins := pinsOf(ctx)
	if pins == nil {
		return source{}, engine.Errorf(engine.CodeInternalError, "table %q read outside a statement", name)
	}
	t, data, err := pins.table(name, func() (*engine.Table, error) { return s.publicTable(name) })
	if err != nil {
		return source{}, err
	}
	if d, ok := s.pending(t, name); ok {
		data = d // written in the open transaction block
	}
	pins.source(data, t)
	return source{name: name, cols: t.Columns, data: data, oid: t.OID, present: true}, nil
}

// hostBuilder assembles a small host table column by column.
type hostBuilder struct {
	cols []engine.ColumnDef
	data []*engine.Column
	n    int
}

func (h *hostBuilder) text(name string, vals []string, null []bool) {
	w := 0
	for _, v := range vals {
		w = max(w, len(v))
	}
	c := engine.NewColumn(engine.Text, len(vals), w, null != nil)
	for i, v := range vals {
		copy(c.Str[i*c.Width:], v)
		if null != nil && null[i] {
			c.SetNull(i)
		}
	}
	h.add(name, engine.Text, c)
}

func (h *hostBuilder) int64s(name string, vals []int64) {
	c := engine.NewColumn(engine.Int64, len(vals), 0, false)
	copy(c.I64, vals)
	h.add(name, engine.Int64, c)
}

func (h *hostBuilder) int64sNull(name string, vals []int64, null []bool) {
	c := engine.NewColumn(engine.Int64, len(vals), 0, true)
	copy(c.I64, vals)
	for i, n := range null {
		if n {
			c.SetNull(i)
		}
	}
	h.add(name, engine.Int64, c)
}

func (h *hostBuilder) add(name string, t engine.Type, c *engine.Column) {
	h.cols = append(h.cols, engine.ColumnDef{Name: name, Type: t})
	h.data = append(h.data, c)
	h.n = c.Len
}

func (h *hostBuilder) source(name string) source {
	return source{name: name, cols: h.cols, data: &engine.HostTable{Cols: h.data, N: int64(h.n)}, present: true, host: true}
}

func (s *Session) loadErrorsSource() source {
	rows := s.srv.cat.LoadErrors()
	var tables, cols, codes, reasons, raws, files []string
	var lines []int64
	colNull := make([]bool, len(rows))
	fileNull := make([]bool, len(rows))
	for i, r := range rows {
		files = append(files, r.File)
		fileNull[i] = r.File == ""
		tables = append(tables, r.Table)
		lines = append(lines, r.Line)
		cols = append(cols, r.Column)
		colNull[i] = r.Column == ""
		codes = append(codes, r.Code)
		reasons = append(reasons, r.Reason)
		raws = append(raws, r.Raw)
	}
	h := &hostBuilder{}
	h.text("table_name", tables, nil)
	h.int64s("line", lines)
	h.text("column_name", cols, colNull)
	h.text("sqlstate", codes, nil)
	h.text("reason", reasons, nil)
	h.text("raw", raws, nil)
	h.text("file_name", files, fileNull)
	return h.source(sysLoadErrors)
}

func (s *Session) tablesSource() source {
	var names, sizes, backends, places []string
	var rows, ncols, bytes []int64
	var unplaced []bool
	for _, t := range s.srv.cat.Tables() {
		if s.droppedInBlock(t) {
			continue
		}
		names = append(names, t.Name)
		ncols = append(ncols, int64(len(t.Columns)))
		n, b := t.Stats()
		rows = append(rows, n)
		bytes = append(bytes, b)
		sizes = append(sizes, humanize.Bytes(uint64(b)))
		backends = append(backends, s.srv.backend.Name())
		pl := t.Placement()
		places, unplaced = append(places, placement(pl)), append(unplaced, pl == nil)
	}
	h := &hostBuilder{}
	h.text("table_name", names, nil)
	h.int64s("rows", rows)
	h.int64s("columns", ncols)
	h.int64s("device_bytes", bytes)
	h.text("device_size", sizes, nil)
	h.text("backend", backends, nil)
	h.text("placement", places, unplaced)
	return h.source(sysTables)
}

// columnsSource lists every column of every table with how the backend
// holds it: bytes a row, resident bytes, and its encoding (a GPU builds a
// string column's dictionary the first time a query can use one).
func (s *Session) columnsSource() source {
	var tables, names, types, sizes, encs []string
	var rowBytes, bytes, codes []int64
	var unknown, noCodes []bool
	for _, t := range s.srv.cat.Tables() {
		if s.droppedInBlock(t) {
			continue
		}
		st := t.Storage()
		for k, c := range t.Columns {
			tables, names, types = append(tables, t.Name), append(names, c.Name), append(types, c.Type.String())
			var cs engine.ColumnStorage
			if st != nil {
				cs = st[k]
			}
			unknown = append(unknown, st == nil)
			rowBytes, bytes = append(rowBytes, int64(cs.RowBytes)), append(bytes, cs.Bytes)
			sizes = append(sizes, humanize.Bytes(uint64(cs.Bytes)))
			enc := cs.Encoding
			if enc == "dictionary" {
				enc = fmt.Sprintf("dictionary: %s values, %d-byte codes", humanize.Comma(int64(cs.Values)), cs.CodeBytes)
			}
			encs = append(encs, enc)
			codes, noCodes = append(codes, cs.CodesBytes), append(noCodes, cs.Encoding != "dictionary")
		}
	}
	h := &hostBuilder{}
	h.text("table_name", tables, nil)
	h.text("column_name", names, nil)
	h.text("data_type", types, nil)
	h.int64sNull("row_bytes", rowBytes, unknown)
	h.int64sNull("device_bytes", bytes, unknown)
	h.text("device_size", sizes, unknown)
	h.text("encoding", encs, unknown)
	h.int64sNull("encoded_bytes", codes, noCodes)
	return h.source(sysColumns)
}

// placement describes a table's share on each device, e.g.
// "gpu0: 30,000,000 rows, 4.2 GB; gpu1: ...".
func placement(parts []engine.PartBytes) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s rows, %s", p.Device, humanize.Comma(p.Rows), humanize.Bytes(uint64(p.Bytes)))
		if p.Gathered {
			b.WriteString(" (with a gathered copy of every row)")
		}
		if p.Redistributed {
			b.WriteString(" (with its share of a copy redistributed by a join key)")
		}
	}
	return b.String()
}
