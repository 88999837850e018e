package persist

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// TestReloadCUDA reloads a 1.5 GB table from the page cache onto the GPU,
// by both paths: mapped (the GPU backend is an engine.MappedStorer: the
// file is mapped, page-locked and copied by DMA while its checksum runs)
// and read (the file read into host memory by parallel preads, then
// Store), checks every value against what was saved (downloaded again),
// and logs each reload rate (the target is 10 GB/s on one H200; the test
// does not assert a rate). It skips without a GPU.
func TestReloadCUDA(t *testing.T) {
	dev, err := cuda.Open(0)
	if err != nil {
		t.Skipf("no usable GPU: %v", err)
	}
	defer dev.Close()
	const n = 1 << 26
	h := engine.NewHostTable([]*engine.Column{
		engine.NewColumn(engine.Int64, n, 0, true),
		engine.NewColumn(engine.Type{Kind: engine.KindFloat64}, n, 0, false),
		engine.NewColumn(engine.Type{Kind: engine.KindDate}, n, 0, false),
		engine.NewColumn(engine.Type{Kind: engine.KindInt32}, n, 0, false),
	}, n)
	for i := 0; i < n; i++ {
		h.Cols[0].I64[i] = int64(i) * 7919
		h.Cols[1].F64[i] = float64(i) / 3
		h.Cols[2].I32[i] = int32(i % 40000)
		h.Cols[3].I32[i] = int32(i ^ 0x5555)
		if i%97 == 0 {
			h.Cols[0].SetNull(i)
		}
	}
	cols := []engine.ColumnDef{{Name: "a", Type: engine.Int64}, {Name: "b", Type: engine.Type{Kind: engine.KindFloat64}},
		{Name: "c", Type: engine.Type{Kind: engine.KindDate}}, {Name: "d", Type: engine.Type{Kind: engine.KindInt32}}}
	dir := t.TempDir()
	d, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := d.Save("big", h)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(&engine.DurableState{NextOID: 16385, Tables: []engine.DurableTable{{Name: "big", OID: 16384, Columns: cols, File: f, Rows: n}}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil { // the next Opens take the directory
		t.Fatal(err)
	}
	path := filepath.Join(dir, SubDir, f)
	if _, err := os.ReadFile(path); err != nil { // into the page cache
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	// read hides the backend's StoreMapped: the read path
	read := struct{ engine.TableStore }{gpu.New(dev, nil)}
	for run := 0; run < 6; run++ {
		var b engine.TableStore = gpu.New(dev, nil)
		path := "mapped"
		if run%2 == 1 {
			b, path = read, "read"
		}
		d2, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, tables, _, err := d2.Load(b)
		el := time.Since(start)
		if err != nil || len(tables) != 1 {
			t.Fatalf("%v, %d tables", err, len(tables))
		}
		t.Logf("%s: reloaded %d MB onto the GPU in %v: %.1f GB/s", path, st.Size()>>20, el, float64(st.Size())/el.Seconds()/1e9)
		if run < 2 {
			back, err := tables[0].Data.(engine.Downloader).Download()
			if err != nil {
				t.Fatal(err)
			}
			sameTable(t, back, h)
		}
		tables[0].Data.Release()
		if err := d2.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
