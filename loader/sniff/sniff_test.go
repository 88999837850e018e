package sniff

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// schema renders a result as "name type, ..." for comparison.
func schema(r *Result) string {
	var b strings.Builder
	for i, c := range r.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", c.Name, c.Type)
	}
	return b.String()
}

func inferText(t *testing.T, text string, given map[string]bool, mod func(*engine.CSVOptions)) *Result {
	t.Helper()
	opts := engine.DefaultCSVOptions()
	if mod != nil {
		mod(&opts)
	}
	smp, err := ReadSample(strings.NewReader(text), int64(len(text)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Infer(smp, opts, given)
	if err != nil {
		t.Fatalf("Infer(%q): %v", text, err)
	}
	return r
}

func TestInferTypes(t *testing.T) {
	tests := []struct {
		name, file, want string
		header           bool
		null             string
	}{
		{"basic with header", "id,name,price,ok,day\n1,ann,1.50,true,2024-01-05\n2,bob,22.125,false,2024-12-31\n",
			"id integer, name text, price numeric(18,3), ok boolean, day date", true, ""},
		{"no header", "1,2.5\n3,4\n", "column1 integer, column2 numeric(18,1)", false, ""},
		{"all text with header", "a,b\nx,y\nz,w\n", "a text, b text", true, ""},
		{"all text, repeated first values: no header", "x,x\nx,y\n", "column1 text, column2 text", false, ""},
		{"empty fields are NULL", "a,b\n1,\n,2\n,\n", "a integer, b integer", true, ""},
		{"empty column", "a,b\n1,\n2,\n", "a integer, b text", true, ""},
		{"quoted numbers", "a,b\n\"1\",\"2.5\"\n\"3\",\"4\"\n", "a integer, b numeric(18,1)", true, ""},
		{"quoted empty string is text", "a,b\n1,\"\"\n2,3\n", "a integer, b text", true, ""},
		{"thousands separators stay text", "a,b\n\"1,234\",1\n\"5,678\",2\n", "a text, b integer", true, ""},
		{"leading zeros stay text", "zip,n\n01234,1\n98765,2\n", "zip text, n integer", true, ""},
		{"zero and signs are numbers", "a\n0\n-5\n+7\n", "a integer", true, ""},
		{"bigint", "a\n1\n3000000000\n", "a bigint", true, ""},
		{"beyond bigint is text", "a\n1\n123456789012345678901234\n", "a text", true, ""},
		{"int64 bounds", "a\n-9223372036854775808\n9223372036854775807\n", "a bigint", true, ""},
		{"int32 bounds", "a\n-2147483648\n2147483647\n", "a integer", true, ""},
		{"decimals beyond 18 digits are double", "a\n1.5\n0.000012345678901234567\n", "a double precision", true, ""},
		{"exponents are double", "a\n1\n1.5e3\n", "a double precision", true, ""},
		{"NaN and Infinity are double", "a\n1.5\nNaN\n-Infinity\n", "a double precision", true, ""},
		{"mixed dates and timestamps", "d\n2024-01-05\n2024-01-05 10:30:00\n2024-02-29T23:59:59.123456\n", "d timestamp without time zone", true, ""},
		{"dates in other orders stay text", "d\n01/05/2024\n12/31/2024\n", "d text", true, ""},
		{"dates mixed with other orders are text", "d\n2024-01-05\n05.01.2024\n", "d text", true, ""},
		{"invalid date is text", "d\n2024-01-05\n2021-02-30\n", "d text", true, ""},
		{"zones make timestamptz", "t\n2024-01-05 10:00:00+02\n2024-01-05 10:00:00Z\n", "t timestamp with time zone", true, ""},
		{"zone and no zone", "t\n2024-01-05 10:00:00\n2024-01-05 10:00:00+05:30\n", "t timestamp with time zone", true, ""},
		{"booleans in any case", "b\nTRUE\nfalse\nt\nF\nyes\nNo\n", "b boolean", true, ""},
		{"1 and 0 are integers", "b\n1\n0\n", "b integer", true, ""},
		{"booleans mixed with numbers are text", "b\ntrue\n1\n", "b text", true, ""},
		{"NA as NULL", "a,b\n1,x\nNA,y\n3,NA\n", "a integer, b text", true, "NA"},
		{"two NULL words: text", "a,b\n1,2\nNA,3\n4,NULL\n", "a text, b text", true, ""},
		{"NULL word with empty fields: text", "a,b\n1,\nNA,3\n", "a text, b integer", true, ""},
		{"NULL word only among text", "a,b\nx,1\nNA,2\n", "a text, b integer", true, ""},
		{"spaces around numbers", "a\n 1 \n2\n", "a integer", true, ""},
		{"blank field is text", "a\n1\n \n", "a text", true, ""},
		{"semicolons", "a;b;c\n1;2,5;x\n3;4,5;y\n", "a integer, b text, c text", true, ""},
		{"tabs", "a\tb\n1\tx\n2\ty\n", "a integer, b text", true, ""},
		{"pipes with quotes", "a|b\n1|\"x|y\"\n2|z\n", "a integer, b text", true, ""},
		{"CRLF", "a,b\r\n1,2024-01-01\r\n2,2024-01-02\r\n", "a integer, b date", true, ""},
		{"no final newline", "a,b\n1,2\n3,4", "a integer, b integer", true, ""},
		{"quoted newline", "a,b\n1,\"x\ny\"\n2,z\n", "a integer, b text", true, ""},
		{"header names", "id,,id,\"a \"\"q\"\"\"\n1,2,3,4\n", `id integer, column2 integer, id_1 integer, a "q" integer`, true, ""},
		{"header only", "a,b\n", "a text, b text", true, ""},
		{"one column of text", "hello\nworld\n", "hello text", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := inferText(t, tt.file, nil, nil)
			if got := schema(r); got != tt.want {
				t.Errorf("schema %q\n got %s\nwant %s", tt.file, got, tt.want)
			}
			if got := r.Options.Header != engine.HeaderNone; got != tt.header {
				t.Errorf("header = %v, want %v", got, tt.header)
			}
			if r.Options.Null != tt.null {
				t.Errorf("null = %q, want %q", r.Options.Null, tt.null)
			}
			if !r.Whole {
				t.Errorf("a small file should be read whole")
			}
		})
	}
}

func TestInferGivenOptions(t *testing.T) {
	// HEADER false: the first line is data, the names are column1..N.
	r := inferText(t, "a,b\n1,2\n", map[string]bool{"header": true}, nil)
	if got := schema(r); got != "column1 text, column2 text" {
		t.Errorf("header false: %s", got)
	}
	// HEADER true over numbers: the first line's numbers are names.
	r = inferText(t, "1,2\n3,4\n", map[string]bool{"header": true}, func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })
	if got := schema(r); got != "1 integer, 2 integer" {
		t.Errorf("header true: %s", got)
	}
	// A given delimiter is used as is.
	r = inferText(t, "a;b\n1;2\n", map[string]bool{"delimiter": true}, nil)
	if got := schema(r); got != "a;b text" {
		t.Errorf("delimiter ',': %s", got)
	}
	// A given NULL string: the empty field is an empty string, so text.
	r = inferText(t, "a,b\n1,\nNA,2\n", map[string]bool{"null": true}, func(o *engine.CSVOptions) { o.Null = "NA" })
	if got := schema(r); got != "a integer, b text" || r.Options.Null != "NA" {
		t.Errorf("null NA: %s, %q", got, r.Options.Null)
	}
	// The text format is not inferred.
	opts := engine.DefaultCSVOptions()
	opts.Format = engine.FormatText
	if _, err := Infer(&Sample{Head: []byte("1\n"), Whole: true}, opts, nil); err == nil || err.(*engine.Error).Code != engine.CodeFeatureNotSupported {
		t.Errorf("text format: %v", err)
	}
	if _, err := Infer(&Sample{Whole: true}, engine.DefaultCSVOptions(), nil); err == nil || err.(*engine.Error).Code != engine.CodeBadCopyFileFormat {
		t.Errorf("empty file: %v", err)
	}
}

func TestLongNames(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes
	r := inferText(t, long+","+long+"\n1,2\n", nil, nil)
	a, b := r.Columns[0].Name, r.Columns[1].Name
	if len(a) > 63 || len(b) > 63 || a == b || !strings.HasSuffix(b, "_1") || a != strings.Repeat("é", 31) {
		t.Errorf("names %q %q", a, b)
	}
}

func TestSplitter(t *testing.T) {
	tests := []struct {
		in   string
		want []string // fields, with * for quoted ones
	}{
		{"a,b\n", []string{"a", "b"}},
		{"\n", []string{""}},
		{"\"a,b\",c\r\n", []string{"*a,b", "c"}},
		{"a\"b,c\"d\n", []string{"*ab,cd"}},
		{"\"x\"\"y\"\n", []string{`*x"y`}},
		{"\"\"\n", []string{"*"}},
		{"a\rb\n", []string{"a\rb"}},
		{"a,b", []string{"a", "b"}},
	}
	for _, tt := range tests {
		sp := newSplitter(',', '"', '"')
		if n := sp.next([]byte(tt.in), true); n != len(tt.in) {
			t.Errorf("%q: took %d", tt.in, n)
		}
		var got []string
		for i := 0; i < sp.fields(); i++ {
			f := string(sp.field(i))
			if sp.quoted[i] {
				f = "*" + f
			}
			got = append(got, f)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
		// Cut anywhere before its end, the record is incomplete.
		for k := 0; k < len(tt.in)-1; k++ {
			if n := sp.next([]byte(tt.in[:k]), false); n != 0 && n != len(tt.in[:k]) {
				if !strings.HasSuffix(tt.in[:k], "\n") {
					t.Errorf("%q cut at %d: took %d", tt.in, k, n)
				}
			}
		}
	}
	// A different escape.
	sp := newSplitter(',', '"', '\\')
	sp.next([]byte(`"a\"b\\c\d",e`+"\n"), true)
	if got := string(sp.field(0)); got != `a"b\c\d` {
		t.Errorf("escape: %q", got)
	}
}

func TestWiden(t *testing.T) {
	tests := []struct {
		t    engine.Type
		v    string
		want engine.Type
	}{
		{engine.Int32, "3000000000", engine.Int64},
		{engine.Int32, "1.5", engine.NumericType(18, 1)},
		{engine.Int32, "12a", engine.Text},
		{engine.Int64, "1e10", engine.Float64},
		{engine.Int64, "99999999999999999999", engine.Text},
		{engine.NumericType(18, 2), "1234567890123456789.5", engine.Float64},
		{engine.Date, "2024-01-01 10:00", engine.Timestamp},
		{engine.Timestamp, "2024-01-01 10:00+01", engine.TimestampTZ},
		{engine.Bool, "maybe", engine.Text},
		{engine.Float64, "x", engine.Text},
		{engine.Int32, "5", engine.Text}, // it loads: something else failed
	}
	for _, tt := range tests {
		if got := Widen(tt.t, []byte(tt.v)); got != tt.want {
			t.Errorf("Widen(%s, %q) = %s, want %s", tt.t, tt.v, got, tt.want)
		}
	}
}

// bigFile writes n rows of id,amount,day,name with one bad value in row
// bad (1-based; 0: none) of column col, and returns its path.
func bigFile(t *testing.T, n, bad int, col int, badValue string) string {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("id,amount,day,name\n")
	for i := 1; i <= n; i++ {
		vals := []string{fmt.Sprint(i), fmt.Sprintf("%d.%02d", i%1000, i%100), fmt.Sprintf("2024-%02d-%02d", 1+i%12, 1+i%28), fmt.Sprintf("n%d", i%97)}
		if i == bad {
			vals[col] = badValue
		}
		b.WriteString(strings.Join(vals, ","))
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func inferFile(t *testing.T, path string) *Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	smp, err := ReadSample(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	r, err := Infer(smp, engine.DefaultCSVOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLargeFileTypo(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 1,000,000-row file")
	}
	const rows = 1200000
	want := "id integer, amount numeric(18,2), day date, name text"
	for _, tc := range []struct {
		col      int
		bad      string
		sampled  string // the sample misses row 1,000,000
		scanned  string // the whole file
		widening string // what the failed load widens the column to
	}{
		{1, "12.345", want, "id integer, amount numeric(18,3), day date, name text", ""},
		{1, "1x", want, "id integer, amount text, day date, name text", "text"},
		{2, "2024-03-01 12:00", want, "id integer, amount numeric(18,2), day timestamp without time zone, name text", ""},
		{0, "x1000000", want, "id text, amount numeric(18,2), day date, name text", "text"},
		{0, "5000000000", want, "id bigint, amount numeric(18,2), day date, name text", "bigint"},
	} {
		path := bigFile(t, rows, 1000000, tc.col, tc.bad)
		r := inferFile(t, path)
		if got := schema(r); got != tc.sampled {
			t.Errorf("%q: sampled %s", tc.bad, got)
		}
		if r.Whole || !r.Risky() {
			t.Errorf("%q: a large file's sample is not whole; numerics and dates are risky", tc.bad)
		}
		if r.Records < 10000 || r.Records > 100000 {
			t.Errorf("sampled %d records", r.Records)
		}
		f, _ := os.Open(path)
		s, err := Scan(f, r)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := schema(s); got != tc.scanned || s.Records != rows {
			t.Errorf("%q: scanned %s over %d records", tc.bad, got, s.Records)
		}
		if tc.widening != "" {
			if got := Widen(r.Columns[tc.col].Type, []byte(tc.bad)).String(); got != tc.widening {
				t.Errorf("%q: widens to %s", tc.bad, got)
			}
		}
	}
}

// TestSampleSpread: the windows reach the end of a file, so a column
// that changes only in its last part is seen.
func TestSampleSpread(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("a,b\n")
	for i := 0; i < 300000; i++ {
		v := fmt.Sprint(i)
		if i > 290000 {
			v = fmt.Sprintf("x%d", i)
		}
		fmt.Fprintf(&b, "%d,%s\n", i, v)
	}
	p := filepath.Join(t.TempDir(), "f.csv")
	os.WriteFile(p, b.Bytes(), 0o644)
	r := inferFile(t, p)
	if r.Whole {
		t.Fatal("sample should not be whole")
	}
	if got := schema(r); got != "a integer, b text" {
		t.Errorf("got %s", got)
	}
	if r.Risky() {
		t.Errorf("integers and text are not risky")
	}
}

// TestWindowInsideQuotes: windows that start inside a quoted field with
// newlines do not spoil the types.
func TestWindowInsideQuotes(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("a,b,c\n")
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&b, "%d,\"line one\nline,two\n3,4,5\",%d\n", i, i*2)
	}
	p := filepath.Join(t.TempDir(), "q.csv")
	os.WriteFile(p, b.Bytes(), 0o644)
	r := inferFile(t, p)
	if got := schema(r); got != "a integer, b text, c integer" {
		t.Errorf("got %s", got)
	}
}
