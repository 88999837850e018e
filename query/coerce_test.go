package query

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestCommonTypeStrings: the type two strings compare in, as
// PostgreSQL's operator resolution picks it (bpchar = varchar is
// bpchar = bpchar; against text, text = text).
func TestCommonTypeStrings(t *testing.T) {
	char4 := engine.Type{Kind: engine.KindChar, Len: 4}
	char6 := engine.Type{Kind: engine.KindChar, Len: 6}
	vc10 := engine.Type{Kind: engine.KindVarchar, Len: 10}
	bpchar := engine.Type{Kind: engine.KindChar}
	for _, c := range []struct {
		a, b, want engine.Type
	}{
		{char4, char4, char4},
		{char4, char6, bpchar},
		{char4, vc10, bpchar},
		{vc10, char4, bpchar},
		{char4, engine.Text, engine.Text},
		{engine.Text, char4, engine.Text},
		{vc10, engine.Text, engine.Text},
		{vc10, engine.Type{Kind: engine.KindVarchar, Len: 3}, engine.Type{Kind: engine.KindVarchar}},
		// an operator resolves varchar = unknown as text = text
		{engine.Unknown, vc10, engine.Text},
		{vc10, engine.Unknown, engine.Text},
		{engine.Unknown, char4, bpchar},
		{engine.Unknown, engine.Unknown, engine.Text},
	} {
		got, ok := commonType(c.a, c.b)
		if !ok || got != c.want {
			t.Errorf("commonType(%s, %s) = %s, %v; want %s", c.a, c.b, got, ok, c.want)
		}
	}
}

// TestCoerceAllUnknown: CASE, COALESCE and IN lists (select_common_type)
// pass over unknown values, so a NULL or a literal next to a varchar is a
// varchar, as in PostgreSQL (lib/pq showed CASE ... THEN a_varchar END as
// text); the length goes, so that no literal is cut.
func TestCoerceAllUnknown(t *testing.T) {
	vc10 := engine.Type{Kind: engine.KindVarchar, Len: 10}
	null := &engine.Const{T: engine.Unknown, Null: true}
	col := &engine.ColRef{Name: "v", T: vc10}
	lit := &engine.Const{T: engine.Unknown, S: "a literal longer than ten"}
	for _, es := range [][]engine.Expr{{null, col}, {col, null}, {col, lit}, {lit, col, null}} {
		out, got, err := coerceAll("CASE", es)
		if err != nil || got != (engine.Type{Kind: engine.KindVarchar}) {
			t.Errorf("%v: %s, %v; want varchar", es, got, err)
			continue
		}
		for _, e := range out {
			if c, ok := e.(*engine.Const); ok && !c.Null && c.S != lit.S {
				t.Errorf("the literal became %q", c.S)
			}
		}
	}
	if _, got, _ := coerceAll("CASE", []engine.Expr{null, lit}); got != engine.Text {
		t.Errorf("unknown values alone: %s, want text", got)
	}
}
