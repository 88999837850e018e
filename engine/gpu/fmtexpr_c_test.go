package gpu

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/query"
)

// The format() and interval-text code of cuda/query.cu (the tail and
// tail3 sections: tlQuote, t3Format, t3Interval) is plain C: these tests
// compile it with the host's C compiler and compare it with the CPU
// backend (format() folded by the binder over constants, which runs
// query's formatText; engine.AppendInterval), so CI checks it without a
// GPU; TestFormatMatchesCPU runs it on the device.

func tail3Section(t *testing.T) string { return querySection(t, "tail begin", "tail3 end") }

// tail3Harness compiles the sections with a main that reads one case a
// line: "F nargs fmt-hex (null arg-hex)..." formats, "I months days
// micros" writes an interval; it prints "err hex-output" for each.
func tail3Harness(t *testing.T) string {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler here: ", err)
		}
	}
	dir := t.TempDir()
	harness := `#include <stdio.h>
#include <string.h>
#include <stdbool.h>
typedef long long i64; typedef unsigned long long u64;
#define __device__ static
#define __constant__
#define __forceinline__ inline
` + tail3Section(t) + `
static int unhex(const char *h, unsigned char *o) {
    int n = 0;
    if (h[0] == '-') return 0;
    for (; h[0] && h[1]; h += 2) { unsigned v; sscanf(h, "%2x", &v); o[n++] = (unsigned char)v; }
    return n;
}
static unsigned char fb[4096], ab[8][4096], out[1 << 16];
static char hb[1 << 14];
int main(void) {
    char kind[4];
    while (scanf("%3s", kind) == 1) {
        int n = 0, err = 0;
        if (kind[0] == 'I') {
            int m, d; i64 us;
            if (scanf("%d %d %lld", &m, &d, &us) != 3) return 2;
            n = t3Interval(out, m, d, us);
        } else {
            int nargs;
            if (scanf("%d %8191s", &nargs, hb) != 2) return 2;
            int fn = unhex(hb, fb);
            i64 rl[9], rh[9]; unsigned char rn[9];
            for (int k = 0; k < nargs; k++) {
                int nul;
                if (scanf("%d %8191s", &nul, hb) != 2) return 2;
                rh[1 + k] = unhex(hb, ab[k]);
                rl[1 + k] = (i64)(u64)ab[k];
                rn[1 + k] = (unsigned char)nul;
            }
            n = t3Format(fb, fn, nargs, 1, rl, rh, rn, out, &err);
        }
        printf("%d ", err);
        for (int k = 0; k < n; k++) printf("%02x", out[k]);
        printf("-\n");
    }
    return 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "h.c"), []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "h")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Wno-unused-function", "-Werror", "-o", bin, filepath.Join(dir, "h.c")).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	return bin
}

// runHarness feeds lines to the harness and returns its (err, output)
// pairs.
func runHarness(t *testing.T, bin string, in []string) [][2]string {
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(in, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var r [][2]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		b, err := hex.DecodeString(strings.TrimSuffix(f[1], "-"))
		if err != nil {
			t.Fatal(err)
		}
		r = append(r, [2]string{f[0], string(b)})
	}
	if len(r) != len(in) {
		t.Fatalf("%d outputs for %d inputs", len(r), len(in))
	}
	return r
}

func hexArg(s string) string {
	if s == "" {
		return "-"
	}
	return hex.EncodeToString([]byte(s))
}

// fmtPieces build random formats: conversions of every kind, positions
// (0, past the arguments, with leading zeros, past 64 bits), widths the
// CPU does not know, unterminated ends, multibyte and control bytes.
var fmtPieces = []string{"%s", "%I", "%L", "%%", "%1$s", "%2$I", "%3$L", "%1$L", "%0$s", "%9$s", "%5s", "%-3s",
	"%d", "%x", "%$s", "%1$", "%00000000000000000000002$s", "%99999999999999999999$s", "%é", "%\x01", "%\x7f",
	"%'", "%*s", "abc", " ", "'", `\`, "é", "日本", "$", "1", "%S"}

// fmtArgs are argument values (nil: NULL).
var fmtArgs = []*string{nil, sp(""), sp("abc"), sp("Select"), sp("user"), sp(`a"b`), sp("it's"), sp(`a\b`), sp("日本語"), sp("_x1"), sp("1abc"), sp("NULL")}

func sp(s string) *string { return &s }

// sqlLit is s as a SQL literal (standard_conforming_strings: a backslash
// is itself), or NULL::text.
func sqlLit(s *string) string {
	if s == nil {
		return "NULL::text"
	}
	return "'" + strings.ReplaceAll(*s, "'", "''") + "'::text"
}

// TestFormatCMatchesCPU compares t3Format, compiled by the host's C
// compiler, with the CPU backend's format() over 4,000 random formats
// and arguments: output, or the error's SQLSTATE and message.
func TestFormatCMatchesCPU(t *testing.T) {
	bin := tail3Harness(t)
	srv, err := query.NewServer(query.Options{FileRoot: t.TempDir(), DataDir: t.TempDir(), Backend: cpu.New(nil, 1)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	type tc struct {
		f    string
		args []*string
	}
	var cases []tc
	var in []string
	for i := 0; i < 4000; i++ {
		var f strings.Builder
		for k := rng.IntN(5); k >= 0; k-- {
			f.WriteString(fmtPieces[rng.IntN(len(fmtPieces))])
		}
		c := tc{f: f.String()}
		line := ""
		for k := rng.IntN(4); k > 0; k-- {
			a := fmtArgs[rng.IntN(len(fmtArgs))]
			c.args = append(c.args, a)
			nul, h := 0, "-"
			if a == nil {
				nul = 1
			} else {
				h = hexArg(*a)
			}
			line += fmt.Sprintf(" %d %s", nul, h)
		}
		cases = append(cases, c)
		in = append(in, fmt.Sprintf("F %d %s%s", len(c.args), hexArg(c.f), line))
	}
	got := runHarness(t, bin, in)
	bad, errs := 0, map[string]int{}
	for i, c := range cases {
		q := "SELECT format(" + sqlLit(&c.f)
		for _, a := range c.args {
			q += ", " + sqlLit(a)
		}
		q += ")"
		var rows textRowsT
		werr := s.Query(context.Background(), q, &rows)
		var gerr error
		if got[i][0] != "0" {
			var arg int32
			fmt.Sscan(got[i][0], &arg)
			gerr = formatError(arg - 1)
		}
		want := ""
		if len(rows.rows) == 1 {
			want = rows.rows[0]
		}
		switch {
		case werr != nil || gerr != nil:
			errs[fmt.Sprint(werr)]++
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || engine.Code(werr) != engine.Code(gerr) {
				bad++
				t.Errorf("%q %v: CPU error %v, C error %v (%q)", c.f, c.args, werr, gerr, got[i][1])
			}
		case want != got[i][1]:
			bad++
			t.Errorf("%q: CPU %q, C %q", c.f, want, got[i][1])
		}
		if bad > 10 {
			t.FailNow()
		}
	}
	t.Logf("%d formats, errors: %v", len(cases), errs)
	if len(errs) < 5 || errs["<nil>"] != 0 {
		t.Errorf("the formats should reach every error")
	}
}

// TestIntervalTextCMatchesCPU compares t3Interval with
// engine.AppendInterval over random and extreme months, days and
// microseconds.
func TestIntervalTextCMatchesCPU(t *testing.T) {
	bin := tail3Harness(t)
	rng := rand.New(rand.NewPCG(5, 7))
	months := []int32{0, 1, -1, 11, 12, 13, -12, -13, 24, math.MaxInt32, math.MinInt32}
	days := []int32{0, 1, -1, 2, 30, -31, math.MaxInt32, math.MinInt32}
	micros := []int64{0, 1, -1, 1_000_000, -1_000_000, 3_600_000_000, 86_399_999_999, 86_400_000_000, -86_400_000_001, 1_500_000,
		100, 123456789012, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	var ivs []engine.IntervalVal
	for _, m := range months {
		for _, d := range days {
			for _, u := range micros {
				ivs = append(ivs, engine.IntervalVal{Months: m, Days: d, Micros: u})
			}
		}
	}
	for i := 0; i < 20000; i++ {
		iv := engine.IntervalVal{Months: int32(rng.IntN(2001) - 1000), Days: int32(rng.IntN(20001) - 10000), Micros: rng.Int64N(1<<50) - 1<<49}
		switch rng.IntN(4) {
		case 0:
			iv.Months = 0
		case 1:
			iv.Days = 0
		case 2:
			iv.Micros = rng.Int64N(3) * 1_000_000
		}
		ivs = append(ivs, iv)
	}
	var in []string
	for _, iv := range ivs {
		in = append(in, fmt.Sprintf("I %d %d %d", iv.Months, iv.Days, iv.Micros))
	}
	got := runHarness(t, bin, in)
	bad := 0
	for i, iv := range ivs {
		want := string(engine.AppendInterval(nil, iv))
		if got[i][1] != want || len(want) > intvTextWidth {
			if bad++; bad <= 10 {
				t.Errorf("%+v: Go %q, C %q", iv, want, got[i][1])
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d differ", bad, len(ivs))
	}
}

// textRowsT collects rows as text, one string a row (columns joined by
// |, NULL as NULL).
type textRowsT struct{ rows []string }

func (w *textRowsT) Describe([]engine.ResultColumn) error { return nil }
func (w *textRowsT) Row(r [][]byte) error {
	parts := make([]string, len(r))
	for i, v := range r {
		if v == nil {
			parts[i] = "NULL"
		} else {
			parts[i] = string(v)
		}
	}
	w.rows = append(w.rows, strings.Join(parts, "|"))
	return nil
}
func (w *textRowsT) Complete(string) error      { return nil }
func (w *textRowsT) Notice(engine.Notice) error { return nil }
func (w *textRowsT) EmptyQuery() error          { return nil }
