package persist

import (
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
	h, dir, _, size := reloadFile(t, 1<<26)
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
		t.Logf("%s: reloaded %d MB onto the GPU in %v: %.1f GB/s", path, size>>20, el, float64(size)/el.Seconds()/1e9)
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
