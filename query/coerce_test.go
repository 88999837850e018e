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
		// an unknown literal (or NULL) takes the other's type, without
		// its length: CASE WHEN ... THEN a_varchar END is varchar, as in
		// PostgreSQL (lib/pq showed it as text)
		{engine.Unknown, vc10, engine.Type{Kind: engine.KindVarchar}},
		{vc10, engine.Unknown, engine.Type{Kind: engine.KindVarchar}},
		{engine.Unknown, char4, bpchar},
		{engine.Unknown, engine.Unknown, engine.Text},
	} {
		got, ok := commonType(c.a, c.b)
		if !ok || got != c.want {
			t.Errorf("commonType(%s, %s) = %s, %v; want %s", c.a, c.b, got, ok, c.want)
		}
	}
}
