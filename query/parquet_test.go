package query_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/engine/multi"
	"github.com/gpusql/gpusql/loader"
	"github.com/gpusql/gpusql/loader/pqfile/pqgen"
	"github.com/gpusql/gpusql/query"
)

// A Parquet column of the comparison file: its node, the SQL type it
// reads as, and each value both as Parquet and as the CSV text that
// PostgreSQL reads as the same value ("" for NULL: every such column is
// optional; empty strings are quoted in the CSV).
type pqCase struct {
	name string
	node parquet.Node
	sql  string
	gen  func(i int) (parquet.Value, string)
}

func pqCases() []pqCase {
	null := func() (parquet.Value, string) { return parquet.NullValue(), "" }
	opt := parquet.Optional
	pick := func(i int, edges []int64) (int64, bool) {
		if i < len(edges) {
			return edges[i], true
		}
		return 0, false
	}
	intCol := func(name, sql string, node parquet.Node, edges []int64, wide bool) pqCase {
		return pqCase{name, opt(node), sql, func(i int) (parquet.Value, string) {
			v, ok := pick(i, edges)
			if !ok {
				if i%5 == 0 {
					return null()
				}
				v = int64(i*37) % (edges[1] + 1)
			}
			if wide {
				return parquet.Int64Value(v), strconv.FormatInt(v, 10)
			}
			return parquet.Int32Value(int32(v)), strconv.FormatInt(v, 10)
		}}
	}
	usFrom := func(t time.Time) int64 { return t.Unix()*1e6 + int64(t.Nanosecond()/1000) }
	tsEdges := []time.Time{
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999999000, time.UTC),
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2150, 6, 1, 12, 30, 45, 123456000, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
	}
	tsAt := func(i int) time.Time {
		if i < len(tsEdges) {
			return tsEdges[i]
		}
		return time.Date(1900+i%300, time.Month(1+i%12), 1+i%28, i%24, i%60, i%60, (i*7919)%1000000*1000, time.UTC)
	}
	decimal := func(v int64, scale int) string {
		neg := v < 0
		u := strconv.FormatUint(uint64(max(v, -v)), 10)
		if v == math.MinInt64 {
			panic("decimal")
		}
		for len(u) <= scale {
			u = "0" + u
		}
		s := u[:len(u)-scale]
		if scale > 0 {
			s += "." + u[len(u)-scale:]
		}
		if neg {
			s = "-" + s
		}
		return s
	}
	texts := []string{"", "héllo wörld ✓ 日本語 🎉", "comma, \"quote\"\nnewline", strings.Repeat("long ", 40), "plain"}
	csvText := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	return []pqCase{
		{"a_id", parquet.Leaf(parquet.Int64Type), "bigint", func(i int) (parquet.Value, string) {
			return parquet.Int64Value(int64(i)), strconv.Itoa(i)
		}},
		{"b_bool", opt(parquet.Leaf(parquet.BooleanType)), "boolean", func(i int) (parquet.Value, string) {
			if i%4 == 3 {
				return null()
			}
			return parquet.BooleanValue(i%3 == 0), strconv.FormatBool(i%3 == 0)
		}},
		intCol("c_i8", "smallint", parquet.Int(8), []int64{-128, 127, 0}, false),
		intCol("d_i16", "smallint", parquet.Int(16), []int64{math.MinInt16, math.MaxInt16, -1}, false),
		intCol("e_i32", "integer", parquet.Leaf(parquet.Int32Type), []int64{math.MinInt32, math.MaxInt32, 0}, false),
		intCol("f_i64", "bigint", parquet.Int(64), []int64{math.MinInt64, math.MaxInt64, 0}, true),
		intCol("g_u8", "smallint", parquet.Uint(8), []int64{0, 255}, false),
		intCol("h_u16", "integer", parquet.Uint(16), []int64{0, 65535}, false),
		{"i_u32", opt(parquet.Uint(32)), "bigint", func(i int) (parquet.Value, string) {
			if i%6 == 5 {
				return null()
			}
			v := uint32(math.MaxUint32 - uint32(i*104729))
			return parquet.Int32Value(int32(v)), strconv.FormatUint(uint64(v), 10)
		}},
		{"j_date", opt(parquet.Date()), "date", func(i int) (parquet.Value, string) {
			if i%9 == 8 {
				return null()
			}
			t := tsAt(i)
			days := t.Unix() / 86400
			if t.Unix()%86400 < 0 {
				days--
			}
			return parquet.Int32Value(int32(days)), t.Format("2006-01-02")
		}},
		{"k_ts_ms", opt(parquet.TimestampAdjusted(parquet.Millisecond, false)), "timestamp without time zone", func(i int) (parquet.Value, string) {
			if i%7 == 6 {
				return null()
			}
			t := tsAt(i).Truncate(time.Millisecond)
			return parquet.Int64Value(t.UnixMilli()), t.Format("2006-01-02 15:04:05.000")
		}},
		{"l_ts_us", opt(parquet.TimestampAdjusted(parquet.Microsecond, true)), "timestamp with time zone", func(i int) (parquet.Value, string) {
			if i%8 == 7 {
				return null()
			}
			t := tsAt(i)
			return parquet.Int64Value(usFrom(t)), t.Format("2006-01-02 15:04:05.000000") + "+00"
		}},
		{"m_ts_ns", opt(parquet.TimestampAdjusted(parquet.Nanosecond, false)), "timestamp without time zone", func(i int) (parquet.Value, string) {
			if i%10 == 9 {
				return null()
			}
			// Nanoseconds that round: halves, either side of 1970.
			t := time.Date(1960+i%20, time.Month(1+i%12), 1+i%28, i%24, i%60, i%60, (i*104723)%1000000000, time.UTC)
			if i == 0 {
				t = time.Date(1969, 12, 31, 23, 59, 59, 999999500, time.UTC)
			}
			if i == 1 {
				t = time.Date(2000, 1, 1, 0, 0, 0, 1500, time.UTC)
			}
			return parquet.Int64Value(t.UnixNano()), t.Format("2006-01-02 15:04:05.000000000")
		}},
		{"n_dec32", opt(parquet.Decimal(2, 9, parquet.Int32Type)), "numeric", func(i int) (parquet.Value, string) {
			edges := []int64{999999999, -999999999, 0, 1, -1}
			v, ok := pick(i, edges)
			if !ok {
				if i%5 == 2 {
					return null()
				}
				v = int64(i*7919-3000000) % 999999999
			}
			return parquet.Int32Value(int32(v)), decimal(v, 2)
		}},
		{"o_dec64", opt(parquet.Decimal(4, 18, parquet.Int64Type)), "numeric", func(i int) (parquet.Value, string) {
			edges := []int64{999999999999999999, -999999999999999999}
			v, ok := pick(i, edges)
			if !ok {
				if i%5 == 3 {
					return null()
				}
				v = int64(i)*int64(i)*1234567891 - 99999999
			}
			return parquet.Int64Value(v), decimal(v, 4)
		}},
		{"p_decflba", opt(parquet.Decimal(3, 12, parquet.FixedLenByteArrayType(6))), "numeric", func(i int) (parquet.Value, string) {
			edges := []int64{999999999999, -999999999999, 0}
			v, ok := pick(i, edges)
			if !ok {
				if i%5 == 4 {
					return null()
				}
				v = int64(i*i*31337) - 5000000
			}
			b := make([]byte, 6)
			for k := 5; k >= 0; k-- {
				b[k] = byte(v >> (8 * (5 - k)))
			}
			return parquet.FixedLenByteArrayValue(b), decimal(v, 3)
		}},
		{"q_float", opt(parquet.Leaf(parquet.FloatType)), "real", func(i int) (parquet.Value, string) {
			edges := []float32{math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 0, float32(math.Inf(1)), float32(math.Inf(-1))}
			if i < len(edges) {
				v := edges[i]
				return parquet.FloatValue(v), pgFloat(float64(v), 32)
			}
			if i%6 == 1 {
				return null()
			}
			v := float32(i)*1.25 - 300
			return parquet.FloatValue(v), pgFloat(float64(v), 32)
		}},
		{"r_double", opt(parquet.Leaf(parquet.DoubleType)), "double precision", func(i int) (parquet.Value, string) {
			edges := []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN()}
			if i < len(edges) {
				return parquet.DoubleValue(edges[i]), pgFloat(edges[i], 64)
			}
			if i%6 == 2 {
				return null()
			}
			v := float64(i)/3 - 100
			return parquet.DoubleValue(v), pgFloat(v, 64)
		}},
		{"s_text", opt(parquet.String()), "text", func(i int) (parquet.Value, string) {
			if i%5 == 1 {
				return null()
			}
			s := texts[i%len(texts)]
			if i >= len(texts) {
				s = fmt.Sprintf("%s %d", s, i)
			}
			return parquet.ByteArrayValue([]byte(s)), csvText(s)
		}},
		{"t_enum", opt(parquet.Enum()), "text", func(i int) (parquet.Value, string) {
			s := []string{"red", "green", "blue"}[i%3]
			return parquet.ByteArrayValue([]byte(s)), s
		}},
		{"u_dict", opt(parquet.Encoded(parquet.String(), &parquet.RLEDictionary)), "text", func(i int) (parquet.Value, string) {
			if i%11 == 10 {
				return null()
			}
			s := texts[i%len(texts)]
			return parquet.ByteArrayValue([]byte(s)), csvText(s)
		}},
		{"v_dictint", parquet.Encoded(parquet.Leaf(parquet.Int64Type), &parquet.RLEDictionary), "bigint", func(i int) (parquet.Value, string) {
			v := int64(i%13) * 1000000007
			return parquet.Int64Value(v), strconv.FormatInt(v, 10)
		}},
		{"w_time", opt(parquet.TimeAdjusted(parquet.Microsecond, false)), "time without time zone", func(i int) (parquet.Value, string) {
			if i%7 == 3 {
				return null()
			}
			us := int64(i*1234567891) % (86400 * 1000000)
			if i == 0 {
				us = 86400 * 1000000
			}
			return parquet.Int64Value(us), fmt.Sprintf("%02d:%02d:%02d.%06d", us/3600e6, us/60e6%60, us/1e6%60, us%1e6)
		}},
	}
}

// pgFloat is a float's text as PostgreSQL reads it back exactly.
func pgFloat(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

// writePQCompare writes n rows of pqCases as name.parquet and name.csv
// under root, returning the CSV load's column list.
func writePQCompare(t testing.TB, root, name string, n int, o pqgen.Options) string {
	cases := pqCases()
	var cols []pqgen.Col
	var defs []string
	for _, c := range cases {
		cols = append(cols, pqgen.Col{Name: c.name, Node: c.node})
		typ := c.sql
		if strings.HasPrefix(c.name, "n_") {
			typ = "numeric(9,2)"
		} else if strings.HasPrefix(c.name, "o_") {
			typ = "numeric(18,4)"
		} else if strings.HasPrefix(c.name, "p_") {
			typ = "numeric(12,3)"
		}
		defs = append(defs, c.name+" "+typ)
	}
	rows := make([][]parquet.Value, n)
	var csv strings.Builder
	for i := range rows {
		rows[i] = make([]parquet.Value, len(cases))
		for k, c := range cases {
			v, text := c.gen(i)
			rows[i][k] = v
			if k > 0 {
				csv.WriteByte(',')
			}
			csv.WriteString(text)
		}
		csv.WriteByte('\n')
	}
	if err := pqgen.Write(filepath.Join(root, name+".parquet"), cols, rows, o); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, name+".csv"), []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Join(defs, ", ")
}

// mustRun is run failing the test on an error.
func mustRun(t *testing.T, run func(string) (*recorder, error)) func(string) *recorder {
	return func(sql string) *recorder {
		t.Helper()
		r, err := run(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return r
	}
}

func pqSession(t *testing.T) (engine.Session, string, func(string) (*recorder, error)) {
	srv, root := newTestServer(t)
	sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		t.Fatal(err)
	}
	run := func(sql string) (*recorder, error) {
		var r recorder
		err := sess.Query(context.Background(), sql, &r)
		return &r, err
	}
	return sess, root, run
}

func sqlstate(err error) string {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TestParquetMatchesCSV: every supported Parquet type, with NULLs and
// edge values, over several row groups and pages, loads as the same rows
// as the equivalent CSV file, with the types docs/parquet.md lists.
func TestParquetMatchesCSV(t *testing.T) {
	_, root, run := pqSession(t)
	must := mustRun(t, run)
	defs := writePQCompare(t, root, "all", 1000, pqgen.Options{RowsPerGroup: 97, PageBytes: 512})
	must(`CREATE TABLE c (` + defs + `) FROM CSV 'all.csv'`)
	var wantTypes []string
	for _, c := range pqCases() {
		wantTypes = append(wantTypes, c.name+"|"+c.sql)
	}
	cr := must(`SELECT * FROM c ORDER BY a_id`).rows
	if len(cr) != 1000 {
		t.Fatalf("csv rows: %d", len(cr))
	}
	// The same rows, written in data pages of both versions, compressed
	// or not, in one row group or many.
	variants := []pqgen.Options{
		{RowsPerGroup: 97, PageBytes: 512},
		{PageVersion: 1, Codec: &parquet.Snappy},
		{RowsPerGroup: 333, PageVersion: 1, PageBytes: 4096, Codec: &parquet.Gzip},
		{RowsPerGroup: 500, Codec: &parquet.Zstd},
	}
	for v, o := range variants {
		name := fmt.Sprintf("v%d", v)
		writePQCompare(t, root, name, 1000, o)
		r := must(`CREATE TABLE ` + name + ` FROM PARQUET '` + name + `.parquet'`)
		if len(r.notices) == 0 || !strings.Contains(r.notices[len(r.notices)-1], "loaded 1,000 rows") {
			t.Errorf("%s notices: %q", name, r.notices)
		}
		got := must(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '` + name + `' ORDER BY ordinal_position`).rows
		if strings.Join(got, "\n") != strings.Join(wantTypes, "\n") {
			t.Errorf("%s types:\n got %q\nwant %q", name, got, wantTypes)
		}
		pr := must(`SELECT * FROM ` + name + ` ORDER BY a_id`).rows
		if len(pr) != 1000 {
			t.Fatalf("%s rows: %d", name, len(pr))
		}
		bad := 0
		for i := range pr {
			if pr[i] != cr[i] && bad < 5 {
				bad++
				t.Errorf("%s row %d:\nparquet %s\n    csv %s", name, i, pr[i], cr[i])
			}
		}
	}
	// The same file into an existing table, and a glob of three copies
	// into one table.
	must(`CREATE TABLE q (` + defs + `)`)
	if r := must(`COPY q FROM 'all.parquet' WITH (FORMAT parquet)`); r.tags[0] != "COPY 1000" {
		t.Errorf("COPY tag %q", r.tags)
	}
	if got := must(`SELECT count(*) FROM (SELECT * FROM q EXCEPT ALL SELECT * FROM c) x`).rows; got[0] != "0" {
		t.Errorf("COPY: %s rows differ", got[0])
	}
	for _, n := range []string{"g1", "g2", "g3"} {
		b, _ := os.ReadFile(filepath.Join(root, "all.parquet"))
		os.WriteFile(filepath.Join(root, n+".parquet"), b, 0o644)
	}
	must(`CREATE TABLE g FROM PARQUET 'g*.parquet'`)
	if got := must(`SELECT count(*), count(DISTINCT a_id) FROM g`).rows; got[0] != "3000|1000" {
		t.Errorf("glob: %q", got)
	}
	if got := must(`SELECT count(*) FROM (SELECT * FROM g EXCEPT SELECT * FROM c) x`).rows; got[0] != "0" {
		t.Errorf("glob: %s rows differ", got[0])
	}
}

// TestParquetEmpty: a file of no rows makes an empty table with the
// file's columns.
func TestParquetEmpty(t *testing.T) {
	_, root, run := pqSession(t)
	cols := []pqgen.Col{{Name: "a", Node: parquet.Int(32)}, {Name: "b", Node: parquet.Optional(parquet.String())}}
	if err := pqgen.Write(filepath.Join(root, "empty.parquet"), cols, nil, pqgen.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := run(`CREATE TABLE e FROM PARQUET 'empty.parquet'`); err != nil {
		t.Fatal(err)
	}
	r, err := run(`SELECT count(*), (SELECT string_agg(data_type, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'e') FROM e`)
	if err != nil || strings.Join(r.rows, "") != "0|integer,text" {
		t.Errorf("got %q, %v", r.rows, err)
	}
}

// TestParquetErrors: damaged files and types gpusql does not read fail
// cleanly with their SQLSTATE, and leave no table and no rows, even when
// the bad file is the last of a glob.
func TestParquetErrors(t *testing.T) {
	_, root, run := pqSession(t)
	writePQCompare(t, root, "good", 300, pqgen.Options{RowsPerGroup: 50})
	good, err := os.ReadFile(filepath.Join(root, "good.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gen := func(name string, cols []pqgen.Col, rows ...[]parquet.Value) {
		if err := pqgen.Write(filepath.Join(root, name), cols, rows, pqgen.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	write("truncated.parquet", good[:len(good)/2])
	footer := append([]byte(nil), good...)
	// The footer's length, the 4 bytes before the closing magic, now
	// points before the start of the file.
	copy(footer[len(footer)-8:], []byte{0xff, 0xff, 0xff, 0x7f})
	write("badfooter.parquet", footer)
	garbled := append([]byte(nil), good...)
	// Overwrite the footer's own bytes (thrift) with garbage.
	for i := len(garbled) - 200; i < len(garbled)-8; i++ {
		garbled[i] = 0xee
	}
	write("garbled.parquet", garbled)
	write("tiny.parquet", []byte("PAR1"))
	write("notparquet.parquet", []byte(strings.Repeat("a,b,c\n", 100)))
	// Damaged pages: the data between the magic and the footer.
	pages := append([]byte(nil), good...)
	for i := 4; i < len(pages)/3; i++ {
		pages[i] ^= 0x5a
	}
	write("pages.parquet", pages)
	gen("int96.parquet", []pqgen.Col{{Name: "a", Node: parquet.Int(32)}, {Name: "ts", Node: parquet.Leaf(parquet.Int96Type)}})
	gen("uuid.parquet", []pqgen.Col{{Name: "id", Node: parquet.UUID()}})
	gen("json.parquet", []pqgen.Col{{Name: "doc", Node: parquet.JSON()}})
	gen("binary.parquet", []pqgen.Col{{Name: "blob", Node: parquet.Leaf(parquet.ByteArrayType)}})
	gen("bigdec.parquet", []pqgen.Col{{Name: "d", Node: parquet.Decimal(2, 40, parquet.FixedLenByteArrayType(17))}})
	gen("u64.parquet", []pqgen.Col{{Name: "u", Node: parquet.Uint(64)}})
	gen("list.parquet", []pqgen.Col{{Name: "xs", Node: parquet.Repeated(parquet.Int(32))}})
	gen("nested.parquet", []pqgen.Col{{Name: "a", Node: parquet.Int(32)}, {Name: "s", Node: parquet.Group{"x": parquet.Int(32)}}})
	gen("onecol.parquet", []pqgen.Col{{Name: "a", Node: parquet.Int(64)}}, []parquet.Value{parquet.Int64Value(1)})
	gen("farday.parquet", []pqgen.Col{{Name: "d", Node: parquet.Date()}}, []parquet.Value{parquet.Int32Value(math.MaxInt32)})
	gen("nul.parquet", []pqgen.Col{{Name: "s", Node: parquet.String()}}, []parquet.Value{parquet.ByteArrayValue([]byte("a\x00b"))})
	gen("latin1.parquet", []pqgen.Col{{Name: "s", Node: parquet.String()}}, []parquet.Value{parquet.ByteArrayValue([]byte("caf\xe9"))})
	gen("nulls.parquet", []pqgen.Col{{Name: "a", Node: parquet.Optional(parquet.Int(64))}}, []parquet.Value{parquet.NullValue()})
	write("zz-bad.parquet", good[:len(good)-100])

	cases := []struct {
		sql, code, msg string
	}{
		{`CREATE TABLE x FROM PARQUET 'truncated.parquet'`, engine.CodeBadCopyFileFormat, "truncated.parquet"},
		{`CREATE TABLE x FROM PARQUET 'badfooter.parquet'`, engine.CodeBadCopyFileFormat, "badfooter.parquet"},
		{`CREATE TABLE x FROM PARQUET 'garbled.parquet'`, engine.CodeBadCopyFileFormat, "garbled.parquet"},
		{`CREATE TABLE x FROM PARQUET 'tiny.parquet'`, engine.CodeBadCopyFileFormat, "too short"},
		{`CREATE TABLE x FROM PARQUET 'notparquet.parquet'`, engine.CodeBadCopyFileFormat, "notparquet.parquet"},
		{`CREATE TABLE x FROM PARQUET 'pages.parquet'`, engine.CodeDataCorrupted, "pages.parquet"},
		{`CREATE TABLE x FROM PARQUET 'int96.parquet'`, engine.CodeFeatureNotSupported, `column "ts"`},
		{`CREATE TABLE x FROM PARQUET 'uuid.parquet'`, engine.CodeFeatureNotSupported, `column "id"`},
		{`CREATE TABLE x FROM PARQUET 'json.parquet'`, engine.CodeFeatureNotSupported, `column "doc"`},
		{`CREATE TABLE x FROM PARQUET 'binary.parquet'`, engine.CodeFeatureNotSupported, `column "blob"`},
		{`CREATE TABLE x FROM PARQUET 'bigdec.parquet'`, engine.CodeFeatureNotSupported, `DECIMAL(40,2)`},
		{`CREATE TABLE x FROM PARQUET 'u64.parquet'`, engine.CodeFeatureNotSupported, `column "u"`},
		{`CREATE TABLE x FROM PARQUET 'list.parquet'`, engine.CodeFeatureNotSupported, `column "xs"`},
		{`CREATE TABLE x FROM PARQUET 'nested.parquet'`, engine.CodeFeatureNotSupported, `column "s"`},
		{`CREATE TABLE x FROM PARQUET 'farday.parquet'`, engine.CodeDatetimeFieldOverflow, "date out of range"},
		{`CREATE TABLE x FROM PARQUET 'nul.parquet'`, engine.CodeCharacterNotInRepertoir, "UTF8"},
		{`CREATE TABLE x FROM PARQUET 'latin1.parquet'`, engine.CodeCharacterNotInRepertoir, "UTF8"},
		{`CREATE TABLE x FROM PARQUET 'missing.parquet'`, engine.CodeUndefinedFile, "missing.parquet"},
		{`CREATE TABLE x FROM PARQUET '../outside.parquet'`, engine.CodeInsufficientPrivilege, "file root"},
		{`CREATE TABLE x FROM PARQUET '*.parquet'`, engine.CodeBadCopyFileFormat, "badfooter.parquet"}, // the first file, in name order
		{`CREATE TABLE x FROM PARQUET 'nomatch*.parquet'`, engine.CodeUndefinedFile, "no file matches"},
		{`CREATE TABLE x FROM PARQUET 'good.parquet'`, "", ""},
		{`CREATE TABLE y (a integer) FROM PARQUET 'onecol.parquet'`, engine.CodeDatatypeMismatch, `column "a" is of type integer`},
		{`CREATE TABLE y (a bigint, b text) FROM PARQUET 'onecol.parquet'`, engine.CodeBadCopyFileFormat, "has 1 columns, but 2"},
		{`CREATE TABLE y (a bigint NOT NULL) FROM PARQUET 'nulls.parquet'`, engine.CodeNotNullViolation, `column "a"`},
		{`CREATE TABLE y (a numeric(40,2)) FROM PARQUET 'onecol.parquet'`, engine.CodeFeatureNotSupported, ""},
		{`COPY x FROM 'onecol.parquet' WITH (FORMAT parquet)`, engine.CodeBadCopyFileFormat, "columns"},
		{`COPY x FROM STDIN WITH (FORMAT parquet)`, engine.CodeFeatureNotSupported, "STDIN"},
		{`COPY x (a_id) FROM 'onecol.parquet' WITH (FORMAT parquet)`, "", ""},
		{`COPY x (e_i32) FROM 'onecol.parquet' WITH (FORMAT parquet)`, engine.CodeDatatypeMismatch, `column "e_i32" is of type integer`},
		{`COPY x FROM 'zz-bad.parquet' WITH (FORMAT parquet)`, engine.CodeBadCopyFileFormat, "zz-bad.parquet"},
		{`COPY x FROM '[gz][oz]*.parquet' WITH (FORMAT parquet)`, engine.CodeBadCopyFileFormat, "zz-bad.parquet"},
		{`CREATE TABLE z FROM PARQUET '[gz][oz]*.parquet'`, engine.CodeBadCopyFileFormat, "zz-bad.parquet"},
	}
	for _, c := range cases {
		_, err := run(c.sql)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.sql, err)
			}
			continue
		}
		if got := sqlstate(err); got != c.code || !strings.Contains(fmt.Sprint(err), c.msg) {
			t.Errorf("%s: got %s %v, want %s containing %q", c.sql, got, err, c.code, c.msg)
		}
	}
	// Nothing of the failed statements is left: no table y or z, and x
	// holds good.parquet's rows and the one appended row.
	for _, tbl := range []string{"y", "z"} {
		if _, err := run(`SELECT * FROM ` + tbl); sqlstate(err) != engine.CodeUndefinedTable {
			t.Errorf("table %s: %v", tbl, err)
		}
	}
	if r, err := run(`SELECT count(*), count(a_id), count(e_i32) FROM x`); err != nil || r.rows[0] != "301|301|241" {
		t.Errorf("x: %q %v", r.rows, err)
	}
}

// The Parquet files testdata/sql/parquet.slt reads, made by pqgen. The
// test checks that the committed files are what this code makes; run it
// with GPUSQL_WRITE_FIXTURES=1 to write them again.
func parquetFixtures() map[string]func(w *bytes.Buffer) error {
	cols := []pqgen.Col{
		{Name: "a_id", Node: parquet.Int(32)},
		{Name: "b_name", Node: parquet.Optional(parquet.String())},
		{Name: "c_fare", Node: parquet.Optional(parquet.Decimal(2, 8, parquet.Int32Type))},
		{Name: "d_day", Node: parquet.Optional(parquet.Date())},
		{Name: "e_at", Node: parquet.Optional(parquet.TimestampAdjusted(parquet.Microsecond, false))},
		{Name: "f_ok", Node: parquet.Optional(parquet.Leaf(parquet.BooleanType))},
	}
	row := func(id int32, name string, fare int32, day int32, at int64, ok int) []parquet.Value {
		r := []parquet.Value{parquet.Int32Value(id), parquet.ByteArrayValue([]byte(name)), parquet.Int32Value(fare),
			parquet.Int32Value(day), parquet.Int64Value(at), parquet.BooleanValue(ok == 1)}
		if name == "-" {
			r[1] = parquet.NullValue()
		}
		if fare < 0 {
			r[2] = parquet.NullValue()
		}
		if ok < 0 {
			r[5] = parquet.NullValue()
		}
		return r
	}
	day := func(y, m, d int) int32 {
		return int32(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	}
	us := func(y, m, d, h, mi int) int64 {
		return time.Date(y, time.Month(m), d, h, mi, 0, 0, time.UTC).UnixMicro()
	}
	return map[string]func(w *bytes.Buffer) error{
		"trips-a.parquet": func(w *bytes.Buffer) error {
			return pqgen.WriteTo(w, cols, [][]parquet.Value{
				row(1, "Zoë", 1250, day(2024, 1, 5), us(2024, 1, 5, 8, 30), 1),
				row(2, "", 99, day(1969, 7, 20), us(1969, 7, 20, 20, 17), 0),
				row(3, "-", -1, day(2100, 3, 1), us(2100, 3, 1, 0, 0), -1),
				row(4, "東京", 999999, day(2024, 2, 29), us(2024, 2, 29, 23, 59), 1),
			}, pqgen.Options{RowsPerGroup: 2})
		},
		"trips-b.parquet": func(w *bytes.Buffer) error {
			return pqgen.WriteTo(w, cols, [][]parquet.Value{
				row(5, "late", -99999999+99999998, day(2024, 3, 1), us(2024, 3, 1, 12, 0), 0),
			}, pqgen.Options{})
		},
		"legacy-int96.parquet": func(w *bytes.Buffer) error {
			return pqgen.WriteTo(w, []pqgen.Col{{Name: "id", Node: parquet.Int(32)}, {Name: "ts", Node: parquet.Leaf(parquet.Int96Type)}}, nil, pqgen.Options{})
		},
	}
}

func TestParquetFixtures(t *testing.T) {
	for name, gen := range parquetFixtures() {
		var b bytes.Buffer
		if err := gen(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("../testdata/sql/files", name)
		if os.Getenv("GPUSQL_WRITE_FIXTURES") != "" {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(old, b.Bytes()) {
			t.Errorf("%s differs from what pqgen writes (%v); run this test with GPUSQL_WRITE_FIXTURES=1", path, err)
		}
	}
}

// TestParquetMultiBackend: on a backend of several parts (engine/multi,
// here two CPU parts) the Parquet rows are stored through its Store and
// read as the same rows as the CSV load, which splits the file over the
// parts.
func TestParquetMultiBackend(t *testing.T) {
	root := t.TempDir()
	part := cpu.New(loader.NewCPU(loader.Config{}), 1)
	srv, err := query.NewServer(query.Options{
		FileRoot:     root,
		MaxTextWidth: 256,
		Backend:      multi.New([]engine.Backend{part, cpu.New(loader.NewCPU(loader.Config{}), 1)}, []string{"cpu.0", "cpu.1"}, part, multi.Options{}),
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := srv.NewSession(engine.SessionParams{User: "tester", Database: "gpusql"})
	if err != nil {
		t.Fatal(err)
	}
	must := func(sql string) []string {
		t.Helper()
		var r recorder
		if err := sess.Query(context.Background(), sql, &r); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return r.rows
	}
	defs := writePQCompare(t, root, "m", 700, pqgen.Options{RowsPerGroup: 100})
	must(`CREATE TABLE p FROM PARQUET 'm.parquet'`)
	must(`CREATE TABLE c (` + defs + `) FROM CSV 'm.csv'`)
	must(`COPY p FROM 'm.parquet' WITH (FORMAT parquet)`)
	pr := must(`SELECT * FROM p ORDER BY a_id, s_text`)
	cr := must(`SELECT * FROM c, (VALUES (1), (2)) v(x) ORDER BY a_id, s_text`)
	if len(pr) != 1400 || len(cr) != 1400 {
		t.Fatalf("rows: %d, %d", len(pr), len(cr))
	}
	for i := range pr {
		if pr[i]+"|" != cr[i][:len(pr[i])+1] {
			t.Fatalf("row %d:\nparquet %s\n    csv %s", i, pr[i], cr[i])
		}
	}
}

// TestParquetDuckDB: files written by another Parquet implementation
// (DuckDB; testdata/parquet/README.md), in both data page versions with
// its encodings and legacy annotations, load as the same rows as DuckDB's
// CSV of them.
func TestParquetDuckDB(t *testing.T) {
	_, root, run := pqSession(t)
	for _, name := range []string{"duckdb-v1.parquet", "duckdb-v2.parquet", "duckdb-v2-wide.parquet", "duckdb.csv.gz"} {
		b, err := os.ReadFile(filepath.Join("../testdata/parquet", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(sql string) []string {
		t.Helper()
		r, err := run(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return r.rows
	}
	types := []string{"id bigint", "b boolean", "i8 smallint", "i16 smallint", "i32 integer", "i64 bigint", "u8 smallint",
		"u16 integer", "u32 bigint", "d date", "ts timestamp without time zone", "ts_ms timestamp without time zone",
		"ts_ns timestamp without time zone", "tstz timestamp with time zone", "dec9 numeric(9,2)", "dec18 numeric(18,4)",
		"dec4 numeric(4,0)", "r real", "dbl double precision", "s text", "dict text", "t time without time zone"}
	must(`CREATE TABLE c (` + strings.Join(types, ", ") + `) FROM CSV 'duckdb.csv.gz'`)
	want := must(`SELECT * FROM c ORDER BY id`)
	if len(want) != 2000 {
		t.Fatalf("csv: %d rows", len(want))
	}
	// DuckDB's V2 pages of INT32 columns are refused (docs/parquet.md):
	// parquet-go would read their 64-bit deltas as wrong numbers.
	if _, err := run(`CREATE TABLE v2 FROM PARQUET 'duckdb-v2.parquet'`); sqlstate(err) != engine.CodeFeatureNotSupported || !strings.Contains(err.Error(), "DELTA_BINARY_PACKED") {
		t.Errorf("duckdb-v2.parquet: %v", err)
	}
	// Its other columns, with DELTA_BINARY_PACKED int64s, BYTE_STREAM_SPLIT
	// floats and dictionary pages, read as the CSV's.
	wide := "id, b, i64, ts, ts_ms, ts_ns, tstz, dec18, r, dbl, s, dict, t"
	must(`CREATE TABLE v2w FROM PARQUET 'duckdb-v2-wide.parquet'`)
	if got, want := must(`SELECT * FROM v2w ORDER BY id`), must(`SELECT `+wide+` FROM c ORDER BY id`); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("duckdb-v2-wide.parquet differs from the CSV")
	}
	for _, v := range []string{"v1"} {
		must(`CREATE TABLE ` + v + ` FROM PARQUET 'duckdb-` + v + `.parquet'`)
		got := must(`SELECT column_name || ' ' || CASE WHEN data_type = 'numeric' THEN format('numeric(%s,%s)', numeric_precision, numeric_scale) ELSE data_type END FROM information_schema.columns WHERE table_name = '` + v + `' ORDER BY ordinal_position`)
		if strings.Join(got, ", ") != strings.Join(types, ", ") {
			t.Errorf("%s types:\n got %s\nwant %s", v, strings.Join(got, ", "), strings.Join(types, ", "))
		}
		rows := must(`SELECT * FROM ` + v + ` ORDER BY id`)
		if len(rows) != len(want) {
			t.Fatalf("%s: %d rows", v, len(rows))
		}
		bad := 0
		for i := range rows {
			if rows[i] != want[i] && bad < 5 {
				bad++
				t.Errorf("%s row %d:\nparquet %s\n    csv %s", v, i, rows[i], want[i])
			}
		}
	}
}
