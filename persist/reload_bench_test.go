package persist

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/cpu"
	"github.com/gpusql/gpusql/loader"
)

// reloadRows sizes the benchmark's table: 4 columns, 28 bytes a row and
// a validity bitmap, about 470 MB.
const reloadRows = 1 << 24

// BenchmarkReload reloads one table file from the page cache through
// Dir.Load into the CPU backend (whose Store keeps the host columns:
// what is measured is reading, checking and slicing the file), and
// reports the rate as bytes/s of file. TestReloadCUDA measures the same
// onto the GPU.
func BenchmarkReload(b *testing.B) {
	_, dir, path, size := reloadFile(b, reloadRows)
	store := cpu.New(loader.NewCPU(loader.Config{}), 1)
	b.SetBytes(size)
	b.ResetTimer()
	var total time.Duration
	for range b.N {
		d2, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		_, tables, _, err := d2.Load(store)
		total += time.Since(start)
		if err != nil || len(tables) != 1 || tables[0].Data.Rows() != reloadRows {
			b.Fatalf("%v, %d tables", err, len(tables))
		}
		tables[0].Data.Release()
		if err := d2.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	logRate(b, "reloaded", path, size, total)
}

// BenchmarkReloadMappedCPU is the host's share of a reload onto the GPU
// (engine.MappedStorer): mapping the file and checking it (the parallel
// checksum, which also faults the mapping in) and slicing its columns;
// the GPU backend then copies the columns from the page-locked mapping.
func BenchmarkReloadMappedCPU(b *testing.B) {
	_, _, path, size := reloadFile(b, reloadRows)
	b.SetBytes(size)
	b.ResetTimer()
	var total time.Duration
	for range b.N {
		start := time.Now()
		m, unmap, err := mapFile(path)
		if err != nil {
			b.Fatal(err)
		}
		h, err := readTableSum(m, nil)
		if err != nil || h.N != reloadRows {
			b.Fatal(err)
		}
		unmap()
		total += time.Since(start)
	}
	b.StopTimer()
	logRate(b, "mapped and checked", path, size, total)
}

func logRate(b *testing.B, what, path string, size int64, total time.Duration) {
	rate := float64(size) * float64(b.N) / total.Seconds()
	b.Logf("%s %s (%s) from the page cache in %v: %s/s", what, humanize.Bytes(uint64(size)), filepath.Base(path),
		total/time.Duration(b.N), humanize.Bytes(uint64(rate)))
}

// reloadFile writes the reload table of n rows (4 columns, 28 bytes a
// row and a validity bitmap), committed in a data directory as "big", and
// reads its file once into the page cache. It returns the table as saved
// too.
func reloadFile(tb testing.TB, n int) (h *engine.HostTable, dir, path string, size int64) {
	h = engine.NewHostTable([]*engine.Column{
		engine.NewColumn(engine.Int64, n, 0, true),
		engine.NewColumn(engine.Type{Kind: engine.KindFloat64}, n, 0, false),
		engine.NewColumn(engine.Type{Kind: engine.KindDate}, n, 0, false),
		engine.NewColumn(engine.Type{Kind: engine.KindInt32}, n, 0, false),
	}, int64(n))
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
	dir = tb.TempDir()
	d, err := Open(dir, nil)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := d.Save("big", h)
	if err != nil {
		tb.Fatal(err)
	}
	if err := d.Commit(&engine.DurableState{NextOID: 16385, Tables: []engine.DurableTable{{Name: "big", OID: 16384, Columns: cols, File: f, Rows: int64(n)}}}); err != nil {
		tb.Fatal(err)
	}
	if err := d.Close(); err != nil { // the next Opens take the directory
		tb.Fatal(err)
	}
	path = filepath.Join(dir, SubDir, f)
	if _, err := os.ReadFile(path); err != nil { // into the page cache
		tb.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return h, dir, path, st.Size()
}

// BenchmarkSave writes the benchmarks' table as a new table file, synced
// (Dir.Save: what a durable load, INSERT or CREATE TABLE AS adds before it
// reports success), and reports the rate.
func BenchmarkSave(b *testing.B) {
	_, dir, path, size := reloadFile(b, reloadRows)
	d, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	h, err := readTable(raw)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	var total time.Duration
	for range b.N {
		start := time.Now()
		f, err := d.Save("big", h)
		total += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		d.Discard(f)
	}
	b.StopTimer()
	logRate(b, "saved", path, size, total)
}
