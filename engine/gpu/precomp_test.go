package gpu

import (
	"testing"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// TestOneColumn checks which expressions precomp may evaluate over a
// dictionary: those reading exactly one string column, with nothing
// whose value changes from row to row by itself.
func TestOneColumn(t *testing.T) {
	s := &engine.ColRef{Idx: 1, Name: "s", T: engine.Type{Kind: engine.KindVarchar}}
	s2 := &engine.ColRef{Idx: 2, Name: "s2", T: engine.Type{Kind: engine.KindVarchar}}
	x := &engine.ColRef{Idx: 0, Name: "x", T: engine.Int64}
	k := &engine.Const{T: engine.Type{Kind: engine.KindVarchar}, S: "AIR"}
	eq := func(a, b engine.Expr) engine.Expr {
		return &engine.Call{Op: engine.OpEq, Args: []engine.Expr{a, b}, T: engine.Bool}
	}
	for _, tc := range []struct {
		e    engine.Expr
		want string
	}{
		{eq(s, k), "s"},
		{&engine.Case{Conds: []engine.Expr{eq(s, k)}, Results: []engine.Expr{&engine.Const{T: engine.Int64, I: 1}}, Else: &engine.Const{T: engine.Int64}, T: engine.Int64}, "s"},
		{eq(s, s), "s"},
		{eq(s, s2), ""},
		{eq(x, &engine.Const{T: engine.Int64, I: 1}), ""},
		{&engine.Call{Op: engine.OpAnd, Args: []engine.Expr{eq(s, k), eq(x, x)}, T: engine.Bool}, ""},
		{&engine.Call{Op: engine.OpLt, Args: []engine.Expr{&engine.Call{Op: engine.OpRandom, T: engine.Float64}, &engine.Const{T: engine.Float64, F: 0.5}}, T: engine.Bool}, ""},
		{&engine.HostFunc{Name: "f", Args: []engine.Expr{s}, T: engine.Bool}, ""},
		{k, ""},
	} {
		got := ""
		if ref := oneColumn(tc.e, 3, true); ref != nil {
			got = ref.Name
		}
		if got != tc.want {
			t.Errorf("oneColumn(%s) = %q, want %q", tc.e, got, tc.want)
		}
	}
}

// TestStoredValue checks that a dictionary reads stored strings as the
// CPU backend does: up to the first zero byte, char(n) without trailing
// blanks.
func TestStoredValue(t *testing.T) {
	for _, tc := range []struct {
		in   string
		char bool
		want string
	}{
		{"AIR\x00\x00\x00", false, "AIR"},
		{"AIR \x00\x00", false, "AIR "},
		{"AIR   ", true, "AIR"},
		{"A IR\x00 ", true, "A IR"},
		{"\x00abc", false, ""},
		{"abcd", false, "abcd"},
		{"    ", true, ""},
	} {
		if got := string(storedValue([]byte(tc.in), tc.char)); got != tc.want {
			t.Errorf("storedValue(%q, %v) = %q, want %q", tc.in, tc.char, got, tc.want)
		}
	}
}

// TestLikeLiteral checks which LIKE patterns q_like_sub runs: '%lit%'
// with lit free of wildcards once unescaped.
func TestLikeLiteral(t *testing.T) {
	for _, tc := range []struct {
		pat  string
		esc  int32
		want string
		ok   bool
	}{
		{"%furiously%", '\\', "furiously", true},
		{"%%fur%%%", '\\', "fur", true},
		{`%al\%l%`, '\\', "al%l", true},
		{`%b#\c%`, '#', `b\c`, true},
		{"% #1%", '\\', " #1", true},
		{"%x_y%", '\\', "", false},
		{"%a%b%", '\\', "", false},
		{"fur%", '\\', "", false},
		{"%fur", '\\', "", false},
		{"%%", '\\', "", false},
		{"%", '\\', "", false},
		{`%abc\%`, '\\', "", false},
		{`%abc\`, '\\', "", false},
		{"%%a%", '%', "", false},
		{"%a%", -1, "a", true},
	} {
		got, ok := likeLiteral(tc.pat, tc.esc)
		if got != tc.want || ok != tc.ok {
			t.Errorf("likeLiteral(%q, %q) = %q, %v; want %q, %v", tc.pat, tc.esc, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRangeColumn checks which expressions get a table over an integer
// column's values: those reading one integer-like column and calling
// extract or date_trunc.
func TestRangeColumn(t *testing.T) {
	d := &engine.ColRef{Idx: 0, Name: "d", T: engine.Date}
	x := &engine.ColRef{Idx: 1, Name: "x", T: engine.Int64}
	s := &engine.ColRef{Idx: 2, Name: "s", T: engine.Type{Kind: engine.KindVarchar}}
	year := func(e engine.Expr) engine.Expr {
		return &engine.Call{Op: engine.OpExtract, Args: []engine.Expr{&engine.Const{T: engine.Text, S: "year"}, e}, T: engine.Type{Kind: engine.KindNumeric}}
	}
	one := &engine.Const{T: engine.Int64, I: 1}
	for _, tc := range []struct {
		e    engine.Expr
		want string
	}{
		{year(d), "d"},
		{&engine.Call{Op: engine.OpAdd, Args: []engine.Expr{year(d), one}, T: engine.Type{Kind: engine.KindNumeric}}, "d"},
		{&engine.Call{Op: engine.OpAdd, Args: []engine.Expr{d, one}, T: engine.Date}, ""}, // nothing the kernels cannot do
		{&engine.Call{Op: engine.OpAdd, Args: []engine.Expr{year(d), x}, T: engine.Type{Kind: engine.KindNumeric}}, ""},
		{year(s), ""},
	} {
		got := ""
		if ref := rangeColumn(tc.e, 3); ref != nil {
			got = ref.Name
		}
		if got != tc.want {
			t.Errorf("rangeColumn(%s) = %q, want %q", tc.e, got, tc.want)
		}
	}
}

// TestScratchOwns checks that a run tells its own scratch buffers (a host
// step's column, whose dictionary must not outlive the run) from others.
func TestScratchOwns(t *testing.T) {
	a, b := &cuda.Buffer{}, &cuda.Buffer{}
	s := &scratch{bufs: []*cuda.Buffer{a}}
	if !s.owns(a) || s.owns(b) || s.owns(nil) {
		t.Errorf("owns: %v %v %v", s.owns(a), s.owns(b), s.owns(nil))
	}
}
