package engine

import (
	"testing"
)

var intCol = []ColumnDef{{Name: "x", Type: Int64}}

func TestViewsAndDependents(t *testing.T) {
	c := NewCatalog()
	if _, err := c.CreateWith("t", intCol, &fakeData{n: 1}); err != nil {
		t.Fatal(err)
	}
	dep := func(name string) []ViewDep { return []ViewDep{{Name: name, Rel: RelRef{Name: name}}} }
	v1 := &View{Name: "v1", Columns: intCol, SQL: "SELECT x FROM t", Deps: dep("t")}
	v2 := &View{Name: "v2", Columns: intCol, SQL: "SELECT x FROM v1", Deps: dep("v1")}
	for _, v := range []*View{v1, v2} {
		if err := c.CreateView(v, false); err != nil {
			t.Fatal(err)
		}
	}
	if v1.OID == 0 || v1.OID == v2.OID {
		t.Fatalf("OIDs %d, %d", v1.OID, v2.OID)
	}
	if err := c.CreateView(&View{Name: "t", Columns: intCol}, true); Code(err) != CodeDuplicateTable {
		t.Errorf("view named as a table: %v", err)
	}
	if _, err := c.CreateWith("v1", intCol, nil); Code(err) != CodeDuplicateTable {
		t.Errorf("table named as a view: %v", err)
	}
	// v1 may not read v2, which reads v1
	if err := c.CreateView(&View{Name: "v1", Columns: intCol, Deps: dep("v2")}, true); Code(err) != CodeInvalidRecursion {
		t.Errorf("a cycle: %v", err)
	}
	if err := c.CreateView(&View{Name: "v1", Columns: append(intCol, ColumnDef{Name: "y", Type: Text}), Deps: dep("t")}, true); err != nil {
		t.Errorf("replace adding a column: %v", err)
	}
	if tb, v := c.LookupIn("", "v1"); tb != nil || v == nil || v.OID != v1.OID || len(v.Columns) != 2 {
		t.Errorf("replaced view: %+v", v)
	}
	deps := c.Dependents(RelRef{Name: "t"})
	if len(deps) != 2 || deps[0].Name != "v2" || deps[1].Name != "v1" {
		t.Fatalf("dependents of t: %v", deps)
	}
	_, err := c.DropRelation(RelRef{Name: "t"}, false)
	if e := AsError(err); e.Code != CodeDependentObjects || e.Detail != "view v1 depends on table t\nview v2 depends on view v1" {
		t.Errorf("drop without cascade: %v (%q)", err, e.Detail)
	}
	dropped, err := c.DropRelation(RelRef{Name: "t"}, true)
	if err != nil || len(dropped) != 2 || len(c.Views("")) != 0 {
		t.Errorf("drop cascade: %v, %v, views left %v", dropped, err, c.Views(""))
	}
	if c.LiveVersions() != 0 {
		t.Errorf("%d live versions", c.LiveVersions())
	}
}

func TestTempSchemaRenameTruncate(t *testing.T) {
	c := NewCatalog()
	d := &fakeData{n: 3}
	pub, err := c.CreateWith("t", intCol, &fakeData{n: 1})
	if err != nil {
		t.Fatal(err)
	}
	tmp, err := c.CreateIn("pg_temp_3", "t", intCol, d)
	if err != nil || tmp.Schema != "pg_temp_3" || tmp.OID == pub.OID {
		t.Fatalf("temporary table: %+v, %v", tmp, err)
	}
	if got, _ := c.LookupIn("pg_temp_3", "t"); got != tmp {
		t.Error("lookup in the temporary schema")
	}
	if got, ok := c.Lookup("t"); !ok || got != pub {
		t.Error("the public table")
	}
	if len(c.Tables()) != 1 || len(c.TempTables("pg_temp_3")) != 1 || len(c.TempTables("pg_temp_4")) != 0 {
		t.Error("listings")
	}
	// A rename is a successor with the version; the old value is dead.
	snap := tmp.Pin()
	v := &View{Name: "tv", Schema: "pg_temp_3", Columns: intCol, Deps: []ViewDep{{Name: "t", Rel: tmp.Ref()}}}
	if err := c.CreateView(v, false); err != nil {
		t.Fatal(err)
	}
	renamed, err := c.Alter(tmp, "u", []ColumnDef{{Name: "y", Type: Int64}})
	if err != nil || renamed.OID != tmp.OID || renamed.Rows() != 3 || renamed.Columns[0].Name != "y" {
		t.Fatalf("rename: %+v, %v", renamed, err)
	}
	if _, nv := c.LookupIn("pg_temp_3", "tv"); nv.Deps[0].Rel != renamed.Ref() || nv.Deps[0].Name != "t" {
		t.Errorf("the view reads %+v after the rename", nv.Deps)
	}
	if err := tmp.Write(&fakeData{n: 1}, nil); Code(err) != CodeUndefinedTable {
		t.Errorf("write to the renamed-away table: %v", err)
	}
	if _, err := c.Alter(tmp, "w", intCol); Code(err) != CodeUndefinedTable {
		t.Errorf("alter of a stale table: %v", err)
	}
	if err := renamed.Truncate(); err != nil || renamed.Rows() != 0 {
		t.Fatalf("truncate: %v, %d rows", err, renamed.Rows())
	}
	if d.released != 0 || snap.Data() != d {
		t.Fatal("the pinned version was freed by truncate")
	}
	snap.Release()
	if d.released != 1 {
		t.Fatalf("released %d times", d.released)
	}
	c.DropSchema("pg_temp_3")
	if tb, vw := c.LookupIn("pg_temp_3", "u"); tb != nil || vw != nil {
		t.Error("DropSchema left relations")
	}
	if c.LiveVersions() != 1 {
		t.Errorf("%d live versions, want the public table's", c.LiveVersions())
	}
}
