package gpu

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// A plan tree's view of a stored table remembers each column's stored
// column, a view of a view the same one; what a stored table is made of
// (take, sharedCopy) remembers none, so no stored table refers to
// another table's version.
func TestViewColumnsKeepTheirOrigin(t *testing.T) {
	stored := &Table{N: 10, Cols: []*Column{{Type: engine.Int32}, {Type: engine.Int64}}}
	v := stored.view()
	for i, c := range v.Cols {
		if c.origin == nil || c.origin.t != stored || c.origin.col != i {
			t.Fatalf("view column %d: origin %+v, want the stored table's column %d", i, c.origin, i)
		}
	}
	vv := v.view()
	if o := vv.Cols[1].origin; o == nil || o.t != stored || o.col != 1 {
		t.Fatalf("a view of a view: origin %+v, want the stored table's column 1", o)
	}
	if v.Cols[0].take().origin != nil || v.Cols[0].sharedCopy().origin != nil {
		t.Fatal("take or sharedCopy kept an origin: a stored table made of them would point to another version")
	}
	if stored.Cols[0].origin != nil {
		t.Fatal("the stored table's own column got an origin")
	}
}
