package main

// Deterministic test data for the differential test: CSV files written to a
// temp dir, loaded the same way into PostgreSQL (COPY FROM STDIN) and into
// gpusql (CREATE TABLE ... FROM CSV for lineitem, CREATE TABLE + COPY FROM
// file for obs).

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpusql/gpusql/tools/hitsgen/hits"
)

// diffTable is one generated table.
type diffTable struct {
	Name    string
	Columns string // the column list of CREATE TABLE, without parentheses
	File    string // CSV file name (in the data dir)
	// ViaCopy: load into gpusql with CREATE TABLE + COPY t FROM 'file'
	// instead of CREATE TABLE ... FROM CSV.
	ViaCopy bool
	Rows    int
	// GPURefuses: the table holds numerics past 18 digits, which the GPU
	// backend refuses to load (0A000); TestDeviceCorpus checks that and
	// leaves out the entries that read it.
	GPURefuses bool
}

const diffLineitemRows = 20000

var diffTables = []*diffTable{
	{
		Name: "lineitem",
		Columns: `l_orderkey integer, l_partkey bigint, l_linenumber integer,
  l_quantity numeric(12,2), l_extendedprice numeric(12,2), l_discount numeric(12,2), l_tax numeric(12,2),
  l_returnflag char(1), l_linestatus char(1),
  l_shipdate date, l_commitdate date, l_receiptdate date,
  l_shipinstruct text, l_shipmode varchar(10), l_comment varchar(60), l_urgent boolean`,
		File: "lineitem.csv",
	},
	{
		Name: "obs",
		Columns: `id smallint, s smallint, i integer, big bigint, r real, d double precision, d2 double precision,
  ts timestamp, n numeric(10,3), grp text, code char(4), note varchar(20), flag boolean`,
		File:    "obs.csv",
		ViaCopy: true,
	},
	// Small hand-written tables for the join corpus (joins.sql): NULL and
	// duplicate keys, keys of different but comparable types, char(n)
	// against text and varchar, and an empty table.
	{
		Name:    "ja",
		Columns: `id integer, k integer, kb bigint, kn numeric(8,2), s text, c char(4), v varchar(10), d date, g text`,
		File:    "ja.csv",
		ViaCopy: true,
	},
	{
		Name:    "jb",
		Columns: `id integer, k smallint, kb bigint, kn numeric(10,3), s text, c char(6), v varchar(10), d date, w integer`,
		File:    "jb.csv",
	},
	{
		Name:    "jc",
		Columns: `k integer, name text, region integer`,
		File:    "jc.csv",
		ViaCopy: true,
	},
	{
		Name:    "jd",
		Columns: `region integer, rname varchar(10)`,
		File:    "jd.csv",
	},
	{
		Name:    "jempty",
		Columns: `k integer, s text, d date`,
		File:    "jempty.csv",
		ViaCopy: true,
	},
	// Negative, zero and NULL keys, repeated, for the joins that tables
	// in parts run over copies redistributed by key (joins.sql, the
	// jr_ queries; TestSplitCorpus runs them so on three parts): a
	// key's part is its value modulo the parts, NULL on the first.
	{
		Name:    "jneg",
		Columns: `id integer, k integer, kb bigint, v integer`,
		File:    "jneg.csv",
	},
	// A hierarchy for WITH RECURSIVE (recursive.sql): employees and
	// their managers, two roots, a manager id that names no one, and a
	// cycle (ids 20 and 21 manage each other).
	{
		Name:    "emp",
		Columns: `id integer, mgr integer, name text, dept varchar(10), salary numeric(8,2)`,
		File:    "emp.csv",
	},
	// Times for the time-zone and time-function corpus (time.sql): DST
	// transitions in Europe/Berlin and America/New_York, leap days, ISO
	// week boundaries, fractional seconds, dates before 1893 (local mean
	// time in Berlin) and after 9999, NULLs; tz written with offsets in
	// several notations (writeDiffTimes).
	{
		Name:    "tz",
		Columns: `id integer, ts timestamp, tz timestamptz, d date, t time, ts3 timestamp(3), grp text`,
		File:    "tz.csv",
	},
	// Numerics declared past 18 digits (wide_numeric.sql), as Spark and
	// BigQuery export them: wn and wn2 (through COPY) hold values of at
	// most 18 significant digits at their scale, which the GPU backend
	// stores as int64s; wx holds the largest magnitudes of each scale,
	// which only the CPU backend stores (GPURefuses).
	{
		Name:    "wn",
		Columns: `id integer, a numeric(38,2), b numeric(38,0), c numeric(38,10), d numeric(20,5), g text`,
		File:    "wn.csv",
	},
	{
		Name:    "wn2",
		Columns: `id integer, a numeric(38,2), k numeric(25,3)`,
		File:    "wn2.csv",
		ViaCopy: true,
	},
	{
		Name:       "wx",
		Columns:    `id integer, a numeric(38,2), b numeric(38,0), c numeric(38,10), g text`,
		File:       "wx.csv",
		GPURefuses: true,
	},
	// An unconstrained numeric column (numeric_scales.sql): each value
	// keeps the scale it is written with; nu2 through COPY.
	{
		Name:    "nu",
		Columns: `id integer, v numeric, g text`,
		File:    "nu.csv",
	},
	{
		Name:    "nu2",
		Columns: `id integer, v numeric`,
		File:    "nu2.csv",
		ViaCopy: true,
	},
	// ClickBench's table (clickbench.sql), made by tools/hitsgen.
	{
		Name:    "hits",
		Columns: diffHitsColumns(),
		File:    "hits.csv",
		ViaCopy: true,
	},
}

// diffHitsRows is the size of the differential test's hits: enough for
// CounterID 62 (0.6% of rows) to have some, small enough to load in
// a second.
const diffHitsRows = 5000

// diffHitsColumns is ClickBench's column list (testdata/clickbench/schema.sql).
func diffHitsColumns() string {
	var cols []string
	for _, c := range hits.Columns {
		cols = append(cols, c.Name+" "+c.Type+" NOT NULL")
	}
	return strings.Join(cols, ", ")
}

// writeDiffHits writes hitsgen's rows (seed 1) with a header line.
func writeDiffHits(path string) error {
	g, err := hits.New(hits.Options{Rows: diffHitsRows, Seed: 1, Format: hits.CSV})
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	var names []string
	for _, c := range hits.Columns {
		names = append(names, c.Name)
	}
	w.WriteString(strings.Join(names, ",") + "\n")
	if _, err := g.Write(w, 2); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// The join tables' rows: fields separated by |, ~ is NULL, an empty field
// the empty string. Values keep their trailing blanks (char(n) and
// varchar compare differently with them).
var diffJoinRows = map[string][]string{
	"ja": {
		"id|k|kb|kn|s|c|v|d|g",
		"1|1|1|1.00|apple|ab|ab|2024-01-01|x",
		"2|2|2|2.50|Banana|ab|ab |2024-01-02|x",
		"3|2|2|2.5|banana|abc|abc|2024-01-02|y",
		"4|3|3|3.00|cherry|||2024-02-29|y",
		"5|~|~|~|~|~|~|~|z",
		"6|~|6|6.00|date|x|x|2023-12-31|z",
		"7|5|5|5.10|elder|x |x |2024-03-01|~",
		"8|7|7|7.00|fig|ÄÖ|ÄÖ|2024-01-01|x",
		"9|8|8|-1.00|grape|ab|AB|1999-12-31|",
		"10|1|1|1.000|Apple|a|a|2024-01-01|y",
		"11|9|9|9.99||zz|zz|2024-04-01|~",
		"12|2|2|2.50|kiwi|ab|ab|2024-01-02|x",
	},
	"jb": {
		"id|k|kb|kn|s|c|v|d|w",
		"1|2|2|2.500|banana|ab|ab|2024-01-02|10",
		"2|2|2|2.5|Banana|abc|abc |2024-01-03|20",
		"3|3|3|3|CHERRY|||2024-02-29|30",
		"4|4|4|4.000|durian|ab  |ab|2024-05-05|40",
		"5|~|~|~|~|~|~|~|50",
		"6|~|~|~|apple|x|x|~|60",
		"7|5|5|5.100|elder|x |x|2024-03-01|~",
		"8|10|10|10.000|fig|ÄÖ|ÄÖ|2024-01-01|80",
		"9|1|1|1.000|apple|a|a|2024-01-01|90",
		"10|2|2|2.50|kiwi|ab|ab|2024-01-02|100",
	},
	"jc": {
		"k|name|region",
		"1|one|1",
		"2|two|1",
		"3|three|2",
		"4|four|2",
		"5|five|~",
		"6|six|3",
		"7|seven|3",
		"9|nine|4",
		"~|none|1",
	},
	"jd": {
		"region|rname",
		"1|north",
		"2|south",
		"3|east",
		"5|west",
	},
	"jempty": {
		"k|s|d",
	},
	"jneg": {
		"id|k|kb|v",
		"1|-3|-3|10",
		"2|-2|1|20",
		"3|-1|-1|30",
		"4|0|0|40",
		"5|1|-2|50",
		"6|2|2|60",
		"7|3|3|70",
		"8|~|3|80",
		"9|-3|~|90",
		"10|-2|-2|20",
		"11|~|~|110",
		"12|5|-3|120",
		"13|-1|7|30",
		"14|2|2|140",
	},
	"wn": {
		"id|a|b|c|d|g",
		"1|9999999999999999.99|999999999999999999|99999999.9999999999|9999999999999.99999|x",
		"2|-9999999999999999.99|-999999999999999999|-0.0000000001|-9999999999999.99999|y",
		"3|~|~|~|~|x",
		"4|0.01|1|5|0|y",
		"5|1234567890123456.78|123456789012345678|12345678.0123456789|1234567890123.45678|x",
		"6|-0.01|-1|-12345678.0123456789|-0.00001|z",
		"7|123.45|-7|0|42|~",
		"8|1234567890123456.78|5|3.5|1.5|z",
		"9|0|0|0.0000000001|-1.5|x",
		"10|-123.45|100000000000000000|-3.5|99999.99999|~",
	},
	"nu": {
		"id|v|g",
		"1|1.5|a",
		"2|2.25|b",
		"3|0|a",
		"4|-1.50e1|b",
		"5|~|a",
		"6|7.000|b",
		"7|123456789012.123456|a",
		"8|-0.000001|b",
		"9|1.5|a",
		"10|  42  |b",
	},
	"nu2": {
		"id|v",
		"1|0.10",
		"2|3",
		"3|~",
		"4|-2.5e-3",
	},
	"wn2": {
		"id|a|k",
		"1|1234567890123456.78|1.5",
		"2|0.01|42",
		"3|~|~",
		"4|-123.45|1.500",
		"5|9999999999999999.99|-1.5",
	},
	"wx": {
		"id|a|b|c|g",
		"1|12345678901234567890123456789012.34|99999999999999999999999999999999999999|1234567890123456789012345678.0123456789|x",
		"2|-999999999999999999999999999999999999.99|-99999999999999999999999999999999999999|-0.0000000001|y",
		"3|~|~|~|x",
		"4|0.01|1|5|y",
		"5|999999999999999999999999999999999999.99|12345678901234567890123456789012345678|9999999999999999999999999999.9999999999|x",
		"6|-0.01|-1|-1234567890123456789012345678.0123456789|z",
		"7|123.45|-7|0|~",
		"8|12345678901234567890123456789012.34|5|3.5|z",
		"9|1234567890123456789.01|1000000000000000000000000000000|-3.5|~",
		"10|1234567890123456789.02|1000000000000000000000000000001|0.0000000001|x",
	},
	"emp": {
		"id|mgr|name|dept|salary",
		"1|~|Ada|exec|300.00",
		"2|1|Bo|eng|200.00",
		"3|1|Cy|sales|180.50",
		"4|2|Di|eng|150.00",
		"5|2|Ed|eng|150.00",
		"6|4|Flo|eng|99.99",
		"7|3|Gus|sales|120.00",
		"8|7|Hal|sales|~",
		"9|6|Ida|eng|80.00",
		"10|~|Jo|ops|250.00",
		"11|10|Kim|ops|110.00",
		"12|99|Lu|ops|90.00",
		"20|21|Max|lab|70.00",
		"21|20|Ned|lab|75.00",
	},
}

// writeDiffJoinTable writes one of diffJoinRows' tables.
func writeDiffJoinTable(path string, lines []string) error {
	c, err := newDiffCSV(path, strings.Split(lines[0], "|"))
	if err != nil {
		return err
	}
	for _, line := range lines[1:] {
		var vals []*string
		for _, f := range strings.Split(line, "|") {
			if f == "~" {
				vals = append(vals, nil)
			} else {
				vals = append(vals, diffStr(f))
			}
		}
		c.row(vals...)
	}
	return c.close()
}

// diffCSVField quotes a value as PostgreSQL's CSV format needs: an unquoted
// empty field is NULL, so the empty string is written as "".
func diffCSVField(v string) string {
	if v == "" || strings.ContainsAny(v, ",\"\r\n") || strings.TrimSpace(v) != v {
		return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
	}
	return v
}

type diffCSVWriter struct {
	w *bufio.Writer
	f *os.File
}

func newDiffCSV(path string, header []string) (*diffCSVWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	c := &diffCSVWriter{w: bufio.NewWriter(f), f: f}
	c.w.WriteString(strings.Join(header, ",") + "\n")
	return c, nil
}

// row writes one record; nil is NULL.
func (c *diffCSVWriter) row(vals ...*string) {
	for i, v := range vals {
		if i > 0 {
			c.w.WriteByte(',')
		}
		if v != nil {
			c.w.WriteString(diffCSVField(*v))
		}
	}
	c.w.WriteByte('\n')
}

func (c *diffCSVWriter) close() error {
	if err := c.w.Flush(); err != nil {
		c.f.Close()
		return err
	}
	return c.f.Close()
}

func diffStr(s string) *string { return &s }

// writeDiffData writes every table's CSV into dir.
func writeDiffData(dir string) error {
	if err := writeDiffLineitem(filepath.Join(dir, "lineitem.csv")); err != nil {
		return err
	}
	if err := writeDiffObs(filepath.Join(dir, "obs.csv")); err != nil {
		return err
	}
	if err := writeDiffTimes(filepath.Join(dir, "tz.csv")); err != nil {
		return err
	}
	if err := writeDiffHits(filepath.Join(dir, "hits.csv")); err != nil {
		return err
	}
	for name, lines := range diffJoinRows {
		if err := writeDiffJoinTable(filepath.Join(dir, name+".csv"), lines); err != nil {
			return err
		}
	}
	return nil
}

var diffEpoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

func diffDate(days int) string { return diffEpoch.AddDate(0, 0, days).Format("2006-01-02") }

func diffDays(y, m, d int) int {
	return int(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Sub(diffEpoch).Hours() / 24)
}

// diffCents renders an amount in hundredths as a numeric(12,2) literal.
func diffCents(v int) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

var diffCommentWords = []string{
	"carefully", "final", "deposits", "detect", "slyly", "bold", "requests",
	"ironic", "pinto", "beans", "quick,", "\"special\"", "packages", "wake",
	"it's", "Zürich", "naïve", "crème", "brûlée", "北京", "東京", "café",
	"ÅNGSTRÖM", "Ελλάδα", "🚀", "a,b", "x\"y", "%", "_", "under_score", "100%",
}

var diffShipModes = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
var diffShipInstructs = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN", "", "deliver in person"}
var diffBoolWords = []string{"t", "f", "true", "false"}

func writeDiffLineitem(path string) error {
	rng := rand.New(rand.NewPCG(20240521, 1))
	c, err := newDiffCSV(path, []string{"l_orderkey", "l_partkey", "l_linenumber", "l_quantity",
		"l_extendedprice", "l_discount", "l_tax", "l_returnflag", "l_linestatus", "l_shipdate",
		"l_commitdate", "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment", "l_urgent"})
	if err != nil {
		return err
	}
	start := diffDays(1992, 1, 2)
	cutoff := diffDays(1995, 6, 17)
	order, line := 1, 0
	for i := 0; i < diffLineitemRows; i++ {
		line++
		if line > 1+rng.IntN(7) {
			order += 1 + rng.IntN(3)
			line = 1
		}
		qty := 1 + rng.IntN(50)
		price := 90000 + rng.IntN(120001) // cents per unit
		ship := start + rng.IntN(2526)
		commit := ship - 30 + rng.IntN(91)
		receipt := ship + 1 + rng.IntN(30)
		flag := "N"
		if receipt <= cutoff {
			flag = []string{"R", "A"}[rng.IntN(2)]
		}
		status := "O"
		if ship <= cutoff {
			status = "F"
		}
		var partkey, discount, tax, commitS, mode, comment, urgent *string
		if rng.IntN(50) != 0 {
			partkey = diffStr(strconv.Itoa(1 + rng.IntN(200000)))
		}
		if rng.IntN(33) != 0 {
			discount = diffStr(diffCents(rng.IntN(11)))
		}
		if rng.IntN(100) != 0 {
			tax = diffStr(diffCents(rng.IntN(9)))
		}
		if rng.IntN(50) != 0 {
			commitS = diffStr(diffDate(commit))
		}
		if rng.IntN(100) != 0 {
			mode = diffStr(diffShipModes[rng.IntN(len(diffShipModes))])
		}
		switch k := rng.IntN(40); {
		case k < 2: // NULL
		case k < 3:
			comment = diffStr("")
		default:
			comment = diffStr(diffComment(rng))
		}
		if rng.IntN(10) != 0 {
			urgent = diffStr(diffBoolWords[rng.IntN(len(diffBoolWords))])
		}
		c.row(diffStr(strconv.Itoa(order)), partkey, diffStr(strconv.Itoa(line)), diffStr(diffCents(qty*100)),
			diffStr(diffCents(qty*price)), discount, tax, diffStr(flag), diffStr(status), diffStr(diffDate(ship)), commitS,
			diffStr(diffDate(receipt)), diffStr(diffShipInstructs[rng.IntN(len(diffShipInstructs))]), mode, comment, urgent)
	}
	return c.close()
}

func diffComment(rng *rand.Rand) string {
	n := 1 + rng.IntN(6)
	var words []string
	chars := 0
	for len(words) < n {
		w := diffCommentWords[rng.IntN(len(diffCommentWords))]
		if chars+len([]rune(w))+1 > 58 {
			break
		}
		words = append(words, w)
		chars += len([]rune(w)) + 1
	}
	s := strings.Join(words, " ")
	switch rng.IntN(20) {
	case 0:
		s = " " + s // leading blank
	case 1:
		s += "  " // trailing blanks are kept by varchar
	}
	return s
}

// obs is small and hand-shaped: every double in d and real in r is a
// multiple of 1/8 with few significant bits, so sums are exact in any
// summation order; d2 holds values such as 0.1 that are only displayed,
// compared and used in min/max.
func writeDiffObs(path string) error {
	c, err := newDiffCSV(path, []string{"id", "s", "i", "big", "r", "d", "d2", "ts", "n", "grp", "code", "note", "flag"})
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(7, 11))
	grps := []*string{diffStr("alpha"), diffStr("beta"), diffStr("gamma"), nil, diffStr("Beta"), diffStr("")}
	codes := []*string{diffStr("ab"), diffStr("abcd"), diffStr("x"), nil, diffStr("ÄÖ"), diffStr("")}
	notes := []*string{diffStr("hello, world"), diffStr("say \"hi\""), diffStr("naïve café"), nil, diffStr(""), diffStr("100% sure"), diffStr("a_b"), diffStr("日本語テキスト")}
	d2s := []string{"0.1", "-0.2", "3.14159", "1e-05", "123456789.123", "2.5", "-1.7976931348623157e+300", "6.02e+23", "1.0000000000000002", "0"}
	rs := []string{"0.5", "-2.25", "1024", "3.125", "-0.125", "100.75", "0", "7"}
	for id := 1; id <= 40; id++ {
		var s, i, big, r, d, d2, ts, n, flag *string
		if id%7 != 3 {
			s = diffStr(strconv.Itoa(rng.IntN(2001) - 1000))
		}
		if id%9 != 4 {
			i = diffStr(strconv.Itoa(rng.IntN(2000001) - 1000000))
		}
		if id%8 != 5 {
			big = diffStr(strconv.FormatInt(rng.Int64N(1<<50)-(1<<49), 10))
		}
		if id%6 != 1 {
			r = diffStr(rs[rng.IntN(len(rs))])
		}
		if id%10 != 7 {
			d = diffStr(strconv.FormatFloat(float64(rng.IntN(20001)-10000)/8, 'g', -1, 64))
		}
		if id%11 != 2 {
			d2 = diffStr(d2s[rng.IntN(len(d2s))])
		}
		if id%12 != 6 {
			t := time.Date(1995+rng.IntN(30), time.Month(1+rng.IntN(12)), 1+rng.IntN(28),
				rng.IntN(24), rng.IntN(60), rng.IntN(60), 0, time.UTC)
			switch id % 4 {
			case 1:
				t = t.Add(time.Duration(rng.IntN(1000000)) * time.Microsecond)
			case 2:
				t = t.Add(500 * time.Millisecond)
			}
			ts = diffStr(t.Format("2006-01-02 15:04:05.999999"))
		}
		if id%13 != 9 {
			n = diffStr(fmt.Sprintf("%.3f", float64(rng.IntN(2000001)-1000000)/1000))
			if id%5 == 0 {
				n = diffStr(strconv.Itoa(rng.IntN(200) - 100)) // no fraction in the input
			}
		}
		if id%5 != 2 {
			flag = diffStr(diffBoolWords[rng.IntN(len(diffBoolWords))])
		}
		c.row(diffStr(strconv.Itoa(id)), s, i, big, r, d, d2, ts, n,
			grps[rng.IntN(len(grps))], codes[rng.IntN(len(codes))], notes[rng.IntN(len(notes))], flag)
	}
	return c.close()
}

// diffTimes are the instants of table tz (UTC).
var diffTimes = []string{
	"2024-03-31 00:30:00", "2024-03-31 01:00:00", "2024-03-31 01:30:00", // Berlin: clocks go forward at 01:00 UTC
	"2024-10-27 00:30:00", "2024-10-27 01:00:00", "2024-10-27 01:30:00", // and back at 01:00 UTC
	"2024-03-10 06:59:59.999999", "2024-03-10 07:00:00", // New York forward at 07:00 UTC
	"2024-11-03 05:30:00", "2024-11-03 06:30:00", // back at 06:00 UTC: 01:30 twice
	"2024-02-29 23:59:59.5", "2000-02-29 12:00:00", "1900-02-28 23:00:00", "2023-02-28 23:30:00",
	"2020-12-31 23:00:00", "2021-01-03 12:34:56.789", "2024-12-30 00:00:00", "2026-01-01 00:00:00",
	"1969-12-31 23:59:59.5", "1970-01-01 00:00:00", "1850-06-15 08:00:00", "9999-12-31 23:59:59.999999",
	"2023-06-15 14:45:30.25", "2022-01-01 00:00:00", "2024-07-04 18:05:00.0005", "2001-09-09 01:46:40",
}

// writeDiffTimes writes table tz: the instants above and random ones,
// every fifth row's tz without an offset (read in the session's zone,
// UTC) and the others with +00, Z, +05:30, -08 or an abbreviation.
func writeDiffTimes(path string) error {
	c, err := newDiffCSV(path, []string{"id", "ts", "tz", "d", "t", "ts3", "grp"})
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(19, 23))
	var times []time.Time
	for _, s := range diffTimes {
		t, err := time.Parse("2006-01-02 15:04:05.999999", s)
		if err != nil {
			return err
		}
		times = append(times, t)
	}
	for k := 0; k < 34; k++ {
		t := time.Date(1990+rng.IntN(40), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), 0, time.UTC)
		if k%3 == 0 {
			t = t.Add(time.Duration(rng.IntN(1000000)) * time.Microsecond)
		}
		times = append(times, t)
	}
	grps := []*string{diffStr("a"), diffStr("b"), diffStr("c"), nil}
	const layout = "2006-01-02 15:04:05.999999"
	for i, t := range times {
		id := i + 1
		ts, tz, d, tt, ts3 := diffStr(t.Format(layout)), diffStr(""), diffStr(t.Format("2006-01-02")), diffStr(t.Format("15:04:05.999999")), diffStr(t.Format(layout))
		switch id % 6 {
		case 0:
			*tz = t.Format(layout)
		case 1:
			*tz = t.Format(layout) + "+00"
		case 2:
			*tz = t.Format("2006-01-02T15:04:05.999999Z")
		case 3:
			*tz = t.Add(5*time.Hour+30*time.Minute).Format(layout) + "+05:30"
		case 4:
			*tz = t.Add(-8*time.Hour).Format(layout) + "-08"
		case 5:
			*tz = t.Add(-5*time.Hour).Format(layout) + " EST"
		}
		if t.Year() > 9000 || t.Year() < 1900 {
			*tz = t.Format(layout) + "+00"
		}
		// NULLs: a few rows entirely, others in one column
		if id%17 == 9 {
			ts, tz, d, tt, ts3 = nil, nil, nil, nil, nil
		}
		switch id % 13 {
		case 4:
			ts = nil
		case 7:
			tz = nil
		case 10:
			tt = nil
		}
		c.row(diffStr(strconv.Itoa(id)), ts, tz, d, tt, ts3, grps[rng.IntN(len(grps))])
	}
	return c.close()
}

// TestDiffWriteData writes the differential test's CSV files and a psql
// script that loads them (load.sql, with \copy) into $GPUSQL_DIFF_WRITE_DATA;
// scripts/pg-start.sh --diff-data uses it. Skipped when that is unset.
func TestDiffWriteData(t *testing.T) {
	dir := os.Getenv("GPUSQL_DIFF_WRITE_DATA")
	if dir == "" {
		t.Skip("set GPUSQL_DIFF_WRITE_DATA=dir to write the differential test's data")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeDiffData(dir); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("SET client_min_messages = warning;\n")
	for _, tb := range diffTables {
		fmt.Fprintf(&b, "DROP TABLE IF EXISTS %s;\nCREATE TABLE %s (%s);\n", tb.Name, tb.Name, tb.Columns)
		fmt.Fprintf(&b, "\\copy %s FROM '%s' WITH (FORMAT csv, HEADER true)\n", tb.Name, filepath.Join(dir, tb.File))
	}
	b.WriteString("ANALYZE;\n")
	if err := os.WriteFile(filepath.Join(dir, "load.sql"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
