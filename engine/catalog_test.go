package engine

import (
	"sync"
	"testing"
)

// fakeData is table data that records its release.
type fakeData struct {
	n        int64
	released int
}

func (f *fakeData) Rows() int64        { return f.n }
func (f *fakeData) DeviceBytes() int64 { return 8 * f.n }
func (f *fakeData) Release()           { f.released++ }

func TestSnapshotOutlivesReplaceAndDrop(t *testing.T) {
	c := NewCatalog()
	v1 := &fakeData{n: 1}
	tb, err := c.CreateWith("r", []ColumnDef{{Name: "x", Type: Type{Kind: KindInt64}}}, v1)
	if err != nil {
		t.Fatal(err)
	}
	s1 := tb.Pin()
	v2 := &fakeData{n: 2}
	if err := tb.Write(v2, nil); err != nil {
		t.Fatal(err)
	}
	if v1.released != 0 {
		t.Fatalf("version 1 freed while pinned")
	}
	if s1.Data() != v1 || tb.Rows() != 2 {
		t.Fatalf("snapshot sees %v, table %d rows", s1.Data(), tb.Rows())
	}
	s2 := tb.Pin()
	if err := c.Drop("r"); err != nil {
		t.Fatal(err)
	}
	if v2.released != 0 || c.LiveVersions() != 2 {
		t.Fatalf("after drop: v2 released %d times, %d live versions", v2.released, c.LiveVersions())
	}
	s1.Release()
	s1.Release() // idempotent
	if v1.released != 1 {
		t.Fatalf("version 1 released %d times, want 1", v1.released)
	}
	s2.Release()
	if v2.released != 1 || c.LiveVersions() != 0 {
		t.Fatalf("v2 released %d times, %d live versions", v2.released, c.LiveVersions())
	}
	// A write after the drop publishes nothing and releases what it got.
	v3 := &fakeData{n: 3}
	if err := tb.Write(v3, nil); Code(err) != CodeUndefinedTable || v3.released != 1 {
		t.Fatalf("write after drop: %v, released %d", err, v3.released)
	}
}

func TestWriteMerge(t *testing.T) {
	c := NewCatalog()
	tb, err := c.Create("r", []ColumnDef{{Name: "x", Type: Type{Kind: KindInt64}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := tb.Pin(); s.Data() != nil {
		t.Fatalf("a table never loaded pins data %v", s.Data())
	}
	sum := func(cur, add TableData) (TableData, error) {
		if cur == nil {
			return add, nil
		}
		return &fakeData{n: cur.Rows() + add.Rows()}, nil
	}
	// Appends from many goroutines all land: Write serialises them.
	var wg sync.WaitGroup
	adds := make([]*fakeData, 50)
	for i := range adds {
		adds[i] = &fakeData{n: 1}
		wg.Add(1)
		go func(d *fakeData) {
			defer wg.Done()
			if err := tb.Write(d, sum); err != nil {
				t.Error(err)
			}
		}(adds[i])
	}
	wg.Wait()
	if tb.Rows() != 50 || c.LiveVersions() != 1 {
		t.Fatalf("%d rows, %d live versions; want 50 and 1", tb.Rows(), c.LiveVersions())
	}
	// Every add was released once: the first when the version it was
	// published as was replaced, the others after being merged.
	for i, d := range adds {
		if d.released != 1 {
			t.Fatalf("add %d released %d times, want 1", i, d.released)
		}
	}
	// A merge that keeps the current version publishes nothing new.
	before := tb.Pin()
	defer before.Release()
	empty := &fakeData{}
	if err := tb.Write(empty, func(cur, add TableData) (TableData, error) { return cur, nil }); err != nil {
		t.Fatal(err)
	}
	after := tb.Pin()
	defer after.Release()
	if after.Data() != before.Data() || empty.released != 1 {
		t.Fatalf("keeping the current version: data %v -> %v, add released %d", before.Data(), after.Data(), empty.released)
	}
	// A failing merge changes nothing.
	bad := &fakeData{n: 5}
	if err := tb.Write(bad, func(cur, add TableData) (TableData, error) { return nil, Errorf(CodeOutOfMemory, "full") }); Code(err) != CodeOutOfMemory {
		t.Fatalf("failing merge: %v", err)
	}
	if bad.released != 1 || tb.Rows() != 50 {
		t.Fatalf("failing merge: add released %d, %d rows", bad.released, tb.Rows())
	}
}

func TestCreateWithFailsCleanly(t *testing.T) {
	c := NewCatalog()
	if _, err := c.Create("r", []ColumnDef{{Name: "x"}}); err != nil {
		t.Fatal(err)
	}
	d := &fakeData{n: 1}
	if _, err := c.CreateWith("r", []ColumnDef{{Name: "x"}}, d); Code(err) != CodeDuplicateTable || d.released != 1 {
		t.Fatalf("duplicate: %v, released %d", err, d.released)
	}
	d2 := &fakeData{n: 1}
	if _, err := c.CreateWith("s", []ColumnDef{{Name: "x"}, {Name: "x"}}, d2); Code(err) != CodeDuplicateColumn || d2.released != 1 {
		t.Fatalf("duplicate column: %v, released %d", err, d2.released)
	}
}
