package gpu_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/query"
)

// The arrays section of cuda/query.cu (between "arrays begin" and
// "arrays end") is plain C apart from the error record's atomics: this
// test compiles it with the host's C compiler, with Go-like stand-ins for
// the atomics and the character decoders of the regex section, and
// compares arWalk and arSplit with the CPU backend's functions (constant
// arguments fold through them) over random arrays and strings, so CI
// checks the parser without a GPU. TestArraysMatchCPU runs the same code
// on the device.

// arraysCSource is the arrays section with the functions it uses.
func arraysCSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "cuda", "query.cu"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	fn := func(sig string) string {
		i := strings.Index(s, sig)
		if i < 0 {
			t.Fatalf("query.cu has no %s", sig)
		}
		j := strings.Index(s[i:], "\n}\n")
		return s[i:i+j+3] + "\n"
	}
	i := strings.Index(s, "// ---- arrays begin")
	j := strings.Index(s, "// ---- arrays end")
	if i < 0 || j < i {
		t.Fatal("query.cu has no arrays section")
	}
	return fn("__device__ int runeW(") + fn("__device__ __forceinline__ unsigned reRune(") + fn("__device__ unsigned reLastRune(") + s[i:j]
}

const arraysHarness = `#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
typedef long long i64; typedef unsigned long long u64;
#define __device__
#define __forceinline__ static inline
#define __threadfence()
#define ERR_BATCH_BITS 12
#define MAXPC 4095
typedef struct { u64 word; i64 pad; } QErr;
static void raiseAt(QErr *e, int code, int arg, i64 row, int pc) { (void)e; (void)code; (void)arg; (void)row; (void)pc; }
static int atomicCAS(int *p, int a, int b) { int o = *p; if (o == a) *p = b; return o; }
static int atomicExch(int *p, int v) { int o = *p; *p = v; return o; }
%s
static unsigned char *unhex(const char *h, int *n) {
    if (h[0] == '-') { *n = -1; return 0; }
    *n = h[0] == '@' ? 0 : (int)strlen(h) / 2; // @: the empty string
    unsigned char *b = malloc(*n + 1);
    for (int i = 0; i < *n; i++) { unsigned v; sscanf(h + 2 * i, "%%2x", &v); b[i] = (unsigned char)v; }
    return b;
}
static void put(const unsigned char *b, int n) {
    if (n < 0) { fputs(" N", stdout); return; }
    putchar(' '); putchar('x');
    for (int i = 0; i < n; i++) printf("%%02x", b[i]);
}
static char hs[3][1 << 16];
int main(void) {
    static unsigned char o[1 << 18];
    char cmd[8];
    while (scanf("%%7s %%65535s %%65535s %%65535s", cmd, hs[0], hs[1], hs[2]) == 4) {
        int sn, bn, cn;
        unsigned char *s = unhex(hs[0], &sn), *b = unhex(hs[1], &bn), *c = unhex(hs[2], &cn);
        if (cmd[0] == 'S') { // string_to_array(s, b)
            if (sn < 0) put(0, -1);
            else put(o, arSplit(o, s, sn, b, bn));
        } else { // array probes: length, lower, [1], [2], [3], ANY b, ANY '', to_string(|), to_string(b, c)
            bool bad = false;
            for (int k = 0; k < 9 && !bad; k++) {
                int op = k < 2 ? OP_ARRLEN : k < 5 ? OP_ARRSUB : k < 7 ? OP_ARRHAS : OP_ARR2STR;
                i64 bi = k - 1, bl = 0, ci = 0, cl = 0, lo = 0;
                bool bnul = false, cnul = true, nul = false;
                if (k == 5) { bi = (i64)b; bl = bn; bnul = bn < 0; }
                if (k == 6) { bi = (i64)""; bl = 0; }
                if (k == 7) { bi = (i64)"|"; bl = 1; }
                if (k == 8) { bi = (i64)b; bl = bn; bnul = bn < 0; ci = (i64)c; cl = cn; cnul = cn < 0; }
                int len = 0;
                if (op == OP_ARR2STR && bnul) { put(0, -1); continue; }
                if (!arWalk(op, k == 1, s, sn, bnul, bi, bl, cnul, ci, cl, o, &lo, &len, &nul)) { bad = true; break; }
                if (nul) put(0, -1);
                else if (op == OP_ARRLEN) { char t[24]; int m = sprintf(t, "%%lld", lo); put((unsigned char *)t, m); }
                else if (op == OP_ARRHAS) put((unsigned char *)(lo ? "t" : "f"), 1);
                else put((unsigned char *)lo, len);
            }
            if (bad) fputs(" E", stdout);
        }
        putchar('\n');
        free(s); free(b); free(c);
    }
    return 0;
}
`

// cells keeps a result row as the harness prints it: x and the hex of
// each value, N for NULL.
type cells struct{ row string }

func (*cells) Describe([]engine.ResultColumn) error { return nil }
func (c *cells) Row(r [][]byte) error {
	var b strings.Builder
	for _, v := range r {
		if v == nil {
			b.WriteString(" N")
			continue
		}
		b.WriteString(" x" + hex.EncodeToString(v))
	}
	c.row = b.String()
	return nil
}
func (*cells) Complete(string) error      { return nil }
func (*cells) Notice(engine.Notice) error { return nil }
func (*cells) EmptyQuery() error          { return nil }

// TestArraysCMatchesCPU: see above.
func TestArraysCMatchesCPU(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler here: ", err)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "h.c"), []byte(fmt.Sprintf(arraysHarness, arraysCSource(t))), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "h")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Wno-unused-function", "-Werror", "-o", bin, filepath.Join(dir, "h.c")).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	srv, err := query.NewServer(query.Options{FileRoot: dir, DataDir: t.TempDir(), Backend: cpu.New(nil, 1)})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := srv.NewSession(engine.SessionParams{User: "t", Database: "t"})
	if err != nil {
		t.Fatal(err)
	}
	lit := func(v *string) string {
		if v == nil {
			return "NULL"
		}
		return "'" + strings.ReplaceAll(*v, "'", "''") + "'"
	}
	hx := func(v *string) string {
		if v == nil {
			return "-"
		}
		return hex.EncodeToString([]byte(*v))
	}
	str := func(s string) *string { return &s }
	rng := rand.New(rand.NewSource(3))
	tokens := []string{"{", "}", ",", `"`, `\`, " ", "a", "b", "NULL", "null", "é", "\u00a0", "\u3000", "\t", "\n", "日", "🙂", "x y", `\"`}
	randText := func(n int) string {
		var b strings.Builder
		for ; n > 0; n-- {
			b.WriteString(tokens[rng.Intn(len(tokens))])
		}
		return b.String()
	}
	type tcase struct {
		cmd     string
		s, b, c *string
	}
	var cases []tcase
	probes := []*string{nil, str(""), str("a"), str("NULL"), str("x y"), str(`"`), str("é")}
	for _, a := range append(append([]string{}, arrGood...), arrBad...) {
		for _, p := range probes {
			cases = append(cases, tcase{"A", str(a), p, probes[rng.Intn(len(probes))]})
		}
	}
	for k := 0; k < 3000; k++ {
		body := randText(rng.Intn(8))
		a := body
		if rng.Intn(8) != 0 {
			a = strings.Repeat(" ", rng.Intn(2)) + "{" + body + "}" + strings.Repeat("\u3000", rng.Intn(2))
		}
		cases = append(cases, tcase{"A", str(a), probes[rng.Intn(len(probes))], probes[rng.Intn(len(probes))]})
	}
	delims := []*string{nil, str(""), str(","), str(" "), str("ab"), str("日"), str(`"`), str(",,")}
	for k := 0; k < 2000; k++ {
		s := randText(rng.Intn(8))
		cases = append(cases, tcase{"S", str(s), delims[rng.Intn(len(delims))], nil})
	}
	cases = append(cases, tcase{"S", nil, str(","), nil}, tcase{"S", str(""), nil, nil})
	var in bytes.Buffer
	for _, c := range cases {
		f := []string{hx(c.s), hx(c.b), hx(c.c)}
		for i := range f {
			if f[i] == "" {
				f[i] = "@" // the empty string (scanf reads no empty word)
			}
		}
		fmt.Fprintf(&in, "%s %s %s %s\n", c.cmd, f[0], f[1], f[2])
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	bad := regexp.MustCompile(`^malformed array literal: `)
	diff, errs := 0, 0
	for i, c := range cases {
		if !sc.Scan() {
			t.Fatalf("%d outputs for %d cases", i, len(cases))
		}
		got := sc.Text()
		var q string
		if c.cmd == "S" {
			q = "SELECT string_to_array(" + lit(c.s) + ", " + lit(c.b) + ")"
		} else {
			a, p := lit(c.s), lit(c.b)
			q = fmt.Sprintf("SELECT array_length(%s, 1), array_lower(%s, 1), (%s)[1], (%s)[2], (%s)[3], %s = ANY (%s), '' = ANY (%s), array_to_string(%s, '|'), array_to_string(%s, %s, %s)",
				a, a, a, a, a, p, a, a, a, a, p, lit(c.c))
		}
		var w cells
		err := sess.Query(context.Background(), q, &w)
		want := w.row
		if err != nil {
			if engine.Code(err) != engine.CodeInvalidTextRepresent || !bad.MatchString(err.Error()) {
				t.Fatalf("%s: %v", q, err)
			}
			want = " E"
			errs++
		}
		if got != want {
			if diff++; diff <= 10 {
				t.Errorf("%s\n C   %s\n CPU %s", q, got, want)
			}
		}
	}
	if diff > 0 {
		t.Fatalf("%d of %d differ", diff, len(cases))
	}
	t.Logf("%d cases identical (%d malformed arrays)", len(cases), errs)
}
