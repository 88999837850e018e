package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSF001 generates SF 0.01 and checks the row counts that C dbgen
// gives at that scale (lineitem's 60175 rows depend on every random
// stream of orders) and the files' SHA-256, so any change to the output
// (another go-tpc version, a changed row format) shows up here.
func TestSF001(t *testing.T) {
	dir := t.TempDir()
	st, err := generate(Options{SF: 0.01, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := sf001
	for _, w := range want {
		if st.Rows[w.table] != w.rows {
			t.Errorf("%s: %d rows, want %d", w.table, st.Rows[w.table], w.rows)
		}
		data, err := os.ReadFile(filepath.Join(dir, w.table+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(data)) != st.Bytes[w.table] {
			t.Errorf("%s: %d bytes in the file, %d counted", w.table, len(data), st.Bytes[w.table])
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != w.sha256 {
			t.Errorf("%s: sha256 %s, want %s", w.table, got, w.sha256)
		}
	}
	// The first lineitem row, as C dbgen writes it at SF 0.01 but without
	// the trailing '|'.
	data, _ := os.ReadFile(filepath.Join(dir, "lineitem.csv"))
	first, _, _ := strings.Cut(string(data), "\n")
	if want := "1|1552|93|1|17|24710.35|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the"; first != want {
		t.Errorf("first lineitem row\n got %s\nwant %s", first, want)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestScaleFactorRefused(t *testing.T) {
	for _, sf := range []float64{0, -1, 0.0005, 1.5} {
		if err := initScale(sf); err == nil {
			t.Errorf("scale factor %g accepted", sf)
		}
	}
}

func TestAppendText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain, text", "|plain, text"},
		{"", `|""`},
		{"a|b", `|"a|b"`},
		{`say "hi"`, `|"say ""hi"""`},
		{"two\nlines", "|\"two\nlines\""},
	} {
		if got := string(appendText(nil, c.in)); got != c.want {
			t.Errorf("appendText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestAppendMoney(t *testing.T) {
	for _, c := range []struct {
		cents int64
		want  string
	}{{0, "|0.00"}, {5, "|0.05"}, {-5, "|-0.05"}, {-99999, "|-999.99"}, {123456, "|1234.56"}} {
		if got := string(appendMoney(nil, c.cents)); got != c.want {
			t.Errorf("appendMoney(%d) = %q, want %q", c.cents, got, c.want)
		}
	}
}

// sf001 is the row counts and SHA-256 of the tables at SF 0.01.
var sf001 = []struct {
	table  string
	rows   int64
	sha256 string
}{
	{"region", 5, "5a7c2fe9718db00ff5e5bc82a9ebfa8abc492cc75260d3c0ffb411974f235ab0"},
	{"nation", 25, "7d47bc9397da331054fa92b8fb92e4c074004bad72dcbb893012093218dccf6c"},
	{"part", 2000, "604232ee10e95dca875c196f759c07babf34293dfac8c99b9f1f0c2708f0561b"},
	{"supplier", 100, "b199bef3350840676cfe4be096091851bc47b6a57cd8a71b3f559d42b7d9dacd"},
	{"partsupp", 8000, "906f58419af6ad5d62489a7e2105257654bb6d8458a7fd8fe19b76655aac50c7"},
	{"customer", 1500, "22156f2770387f5adadbc72774f2282d353aedd5092bd8fc54871b3bf5e74cba"},
	{"orders", 15000, "a444603dfba6c47e902e24b517608a5eb3b117127e99dff16a40f4eaa47b812c"},
	{"lineitem", 60175, "517b566190fbeadc638602554d109a463631e19788936ccb97196ebd407b51f1"},
}
