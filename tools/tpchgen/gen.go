package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pingcap/go-tpc/tpch/dbgen"
)

// Tables lists the eight TPC-H tables in the order of testdata/tpch/schema.sql.
var Tables = []string{"region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem"}

// Options says what generate writes.
type Options struct {
	SF  float64 // scale factor: a whole number, or a multiple of 0.001 below 1
	Dir string  // output directory, created if missing
	// Workers is the number of worker processes (parallel.go); 0 or 1
	// makes the tables in this process.
	Workers int
	// Progress, when set, receives progress lines.
	Progress io.Writer
}

// Stats counts the rows and bytes written per table.
type Stats struct {
	Rows  map[string]int64
	Bytes map[string]int64
}

// generate writes Dir/<table>.csv for every table in Tables: '|'-separated
// CSV, no header, no trailing delimiter, LF line ends. A field that CSV
// would misread (one holding '|', '"', CR or LF, or an empty one, which
// reads as NULL) is quoted; dbgen's text never needs it. Each file is
// written under a temporary name and renamed when complete.
//
// dbgen keeps its state in package variables, so generate must not run
// concurrently with itself.
func generate(opt Options) (*Stats, error) {
	if opt.Workers > 1 {
		return generateParallel(opt)
	}
	if err := initScale(opt.SF); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, err
	}
	return makeTables(opt.Dir, "", 0, 1, opt.Progress)
}

// genOrder is the order in which the tables are made, as dbgen.DbGen would
// be given them; TPartPsupp and TOrderLine make part with partsupp, and
// orders with lineitem, in one pass, as C dbgen does.
var genOrder = []dbgen.Table{dbgen.TRegion, dbgen.TNation, dbgen.TPartPsupp, dbgen.TSupp, dbgen.TCust, dbgen.TOrderLine}

// makeTables writes part k of n of every table (all of it when n is 1;
// parallel.go says how parts are made) to dir/<table>.csv<suffix>, once
// initScale has run. With n = 1 it makes the rows that dbgen.DbGen would,
// in the same order.
func makeTables(dir, suffix string, k, n int, progress io.Writer) (*Stats, error) {
	if n < 1 || k < 0 || k >= n {
		return nil, fmt.Errorf("part %d of %d", k, n)
	}
	files := map[string]*tableFile{}
	defer func() {
		for _, f := range files {
			f.abort()
		}
	}()
	for _, t := range Tables {
		f, err := createTableFile(filepath.Join(dir, t+".csv"+suffix))
		if err != nil {
			return nil, err
		}
		files[t] = f
	}
	loaders := map[dbgen.Table]dbgen.Loader{
		dbgen.TRegion: &loader{f: files["region"], row: regionRow},
		dbgen.TNation: &loader{f: files["nation"], row: nationRow},
		dbgen.TPart:   &loader{f: files["part"], row: partRow},
		dbgen.TPsupp:  &loader{f: files["partsupp"], row: partsuppRows},
		dbgen.TSupp:   &loader{f: files["supplier"], row: supplierRow},
		dbgen.TCust:   &loader{f: files["customer"], row: customerRow},
		dbgen.TOrder:  &loader{f: files["orders"], row: ordersRow},
		dbgen.TLine:   &loader{f: files["lineitem"], row: lineitemRows},
	}
	// TPartPsupp's and TOrderLine's own loaders (set by initTDefs) call
	// these.
	for t, l := range loaders {
		tdefs[t].loader = l
	}
	for _, t := range genOrder {
		total := rowCount(t)
		lo, hi := total*int64(k)/int64(n), total*int64(k+1)/int64(n)
		if t == dbgen.TNation || t == dbgen.TRegion {
			// Not split (their seed function does nothing): part 0
			// has them.
			lo, hi = 0, 0
			if k == 0 {
				hi = total
			}
		}
		if hi <= lo {
			continue
		}
		if progress != nil {
			fmt.Fprintf(progress, "generating %s\n", tdefs[t].comment)
		}
		if lo > 0 {
			// Move the table's random streams on to row lo+1.
			tdefs[t].genSeed(dbgen.TNone, lo)
			if c := tdefs[t].child; c != dbgen.TNone {
				tdefs[c].genSeed(dbgen.TNone, lo)
			}
		}
		if err := genTbl(t, lo+1, hi-lo); err != nil {
			return nil, fmt.Errorf("fail to generate %s, err: %v", tdefs[t].name, err)
		}
	}
	st := &Stats{Rows: map[string]int64{}, Bytes: map[string]int64{}}
	for _, t := range Tables {
		f := files[t]
		if err := f.commit(); err != nil {
			return nil, err
		}
		delete(files, t)
		st.Rows[t], st.Bytes[t] = f.rows, f.bytes
	}
	return st, nil
}

// tableFile is one output file, written to a temporary name first.
type tableFile struct {
	path, tmp string
	f         *os.File
	w         *bufio.Writer
	rows      int64
	bytes     int64
	buf       []byte // one row, reused
}

func createTableFile(path string) (*tableFile, error) {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return nil, err
	}
	return &tableFile{path: path, tmp: tmp, f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

func (t *tableFile) commit() error {
	if err := t.w.Flush(); err != nil {
		return err
	}
	if err := t.f.Close(); err != nil {
		return err
	}
	t.f = nil
	return os.Rename(t.tmp, t.path)
}

// abort removes the temporary file of a table that was not committed.
func (t *tableFile) abort() {
	if t.f != nil {
		t.f.Close()
		os.Remove(t.tmp)
	}
}

// loader is a dbgen.Loader that appends the rows of each item to a file.
// row appends one item's rows (partsupp and lineitem have several per
// item) to dst, each ending in '\n', and returns how many.
type loader struct {
	f   *tableFile
	row func(dst []byte, item any) ([]byte, int)
}

func (l *loader) Load(item any) error {
	var n int
	l.f.buf, n = l.row(l.f.buf[:0], item)
	l.f.rows += int64(n)
	l.f.bytes += int64(len(l.f.buf))
	_, err := l.f.w.Write(l.f.buf)
	return err
}

// Flush does nothing: tableFile.commit flushes once all tables are made
// (go-tpc's combined loaders drop the first Flush error anyway).
func (l *loader) Flush() error { return nil }

// Row formats. Columns follow testdata/tpch/schema.sql.

func regionRow(b []byte, item any) ([]byte, int) {
	r := item.(*dbgen.Region)
	b = strconv.AppendInt(b, int64(r.Code), 10)
	b = appendText(b, r.Text)
	b = appendText(b, r.Comment)
	return append(b, '\n'), 1
}

func nationRow(b []byte, item any) ([]byte, int) {
	n := item.(*dbgen.Nation)
	b = strconv.AppendInt(b, int64(n.Code), 10)
	b = appendText(b, n.Text)
	b = appendInt(b, int64(n.Join))
	b = appendText(b, n.Comment)
	return append(b, '\n'), 1
}

func partRow(b []byte, item any) ([]byte, int) {
	p := item.(*dbgen.Part)
	b = strconv.AppendInt(b, int64(p.PartKey), 10)
	b = appendText(b, p.Name)
	b = appendText(b, p.Mfgr)
	b = appendText(b, p.Brand)
	b = appendText(b, p.Type)
	b = appendInt(b, int64(p.Size))
	b = appendText(b, p.Container)
	b = appendMoney(b, int64(p.RetailPrice))
	b = appendText(b, p.Comment)
	return append(b, '\n'), 1
}

func partsuppRows(b []byte, item any) ([]byte, int) {
	p := item.(*dbgen.Part)
	for _, s := range p.S {
		b = strconv.AppendInt(b, int64(s.PartKey), 10)
		b = appendInt(b, int64(s.SuppKey))
		b = appendInt(b, int64(s.Qty))
		b = appendMoney(b, int64(s.SCost))
		b = appendText(b, s.Comment)
		b = append(b, '\n')
	}
	return b, len(p.S)
}

func supplierRow(b []byte, item any) ([]byte, int) {
	s := item.(*dbgen.Supp)
	b = strconv.AppendInt(b, int64(s.SuppKey), 10)
	b = appendText(b, s.Name)
	b = appendText(b, s.Address)
	b = appendInt(b, int64(s.NationCode))
	b = appendText(b, s.Phone)
	b = appendMoney(b, int64(s.Acctbal))
	b = appendText(b, s.Comment)
	return append(b, '\n'), 1
}

func customerRow(b []byte, item any) ([]byte, int) {
	c := item.(*dbgen.Cust)
	b = strconv.AppendInt(b, int64(c.CustKey), 10)
	b = appendText(b, c.Name)
	b = appendText(b, c.Address)
	b = appendInt(b, int64(c.NationCode))
	b = appendText(b, c.Phone)
	b = appendMoney(b, int64(c.Acctbal))
	b = appendText(b, c.MktSegment)
	b = appendText(b, c.Comment)
	return append(b, '\n'), 1
}

func ordersRow(b []byte, item any) ([]byte, int) {
	o := item.(*dbgen.Order)
	b = strconv.AppendInt(b, int64(o.OKey), 10)
	b = appendInt(b, int64(o.CustKey))
	b = append(b, '|', o.Status)
	b = appendMoney(b, int64(o.TotalPrice))
	b = appendText(b, o.Date)
	b = appendText(b, o.OrderPriority)
	b = appendText(b, o.Clerk)
	b = appendInt(b, o.ShipPriority)
	b = appendText(b, o.Comment)
	return append(b, '\n'), 1
}

func lineitemRows(b []byte, item any) ([]byte, int) {
	o := item.(*dbgen.Order)
	for i := range o.Lines {
		l := &o.Lines[i]
		b = strconv.AppendInt(b, int64(l.OKey), 10)
		b = appendInt(b, int64(l.PartKey))
		b = appendInt(b, int64(l.SuppKey))
		b = appendInt(b, int64(l.LCnt))
		b = appendInt(b, int64(l.Quantity))
		b = appendMoney(b, int64(l.EPrice))
		b = appendMoney(b, int64(l.Discount))
		b = appendMoney(b, int64(l.Tax))
		b = append(b, '|', l.RFlag, '|', l.LStatus)
		b = appendText(b, l.SDate)
		b = appendText(b, l.CDate)
		b = appendText(b, l.RDate)
		b = appendText(b, l.ShipInstruct)
		b = appendText(b, l.ShipMode)
		b = appendText(b, l.Comment)
		b = append(b, '\n')
	}
	return b, len(o.Lines)
}

// appendInt appends '|' and v.
func appendInt(b []byte, v int64) []byte {
	return strconv.AppendInt(append(b, '|'), v, 10)
}

// appendMoney appends '|' and cents as a decimal with two fractional
// digits, as dbgen.FmtMoney prints it (-5 cents is -0.05).
func appendMoney(b []byte, cents int64) []byte {
	b = append(b, '|')
	if cents < 0 {
		b = append(b, '-')
		cents = -cents
	}
	b = strconv.AppendInt(b, cents/100, 10)
	return append(b, '.', byte('0'+cents%100/10), byte('0'+cents%10))
}

// appendText appends '|' and s as a CSV field, quoted only when needed.
func appendText(b []byte, s string) []byte {
	b = append(b, '|')
	if s != "" && !strings.ContainsAny(s, "|\"\r\n") {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// summary formats st as one line per table.
func (st *Stats) summary() string {
	var sb strings.Builder
	for _, t := range Tables {
		fmt.Fprintf(&sb, "%-9s %10d rows %12d bytes\n", t, st.Rows[t], st.Bytes[t])
	}
	return sb.String()
}
