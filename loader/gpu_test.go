package loader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/gpu"
)

// The GPU loader must give exactly the CPU loader's results: the same rows
// byte for byte (validity and string widths included), the same skipped
// rows, or the same error.

var (
	testDevOnce sync.Once
	testDev     *cuda.Device
	testDevErr  error
)

func gpuDevice(t testing.TB) *cuda.Device {
	t.Helper()
	testDevOnce.Do(func() { testDev, testDevErr = cuda.Open(0) })
	if errors.Is(testDevErr, cuda.ErrNoDriver) || errors.Is(testDevErr, cuda.ErrNoDevice) {
		t.Skipf("no GPU: %v", testDevErr)
	}
	if testDevErr != nil {
		t.Fatal(testDevErr)
	}
	return testDev
}

// gpuConfigs are GPU loader settings that must not change any result.
func gpuConfigs() []GPUConfig {
	return []GPUConfig{{poison: true}, {BatchSize: 1, poison: true}, {BatchSize: 7, poison: true},
		{BatchSize: 64, poison: true}, {BatchSize: 4099, Readers: 3, poison: true}}
}

type loadOutcome struct {
	host    *engine.HostTable
	skipped []engine.LoadError
	count   int64
	err     *engine.Error
}

func cpuLoad(input []byte, cols []engine.ColumnDef, o engine.CSVOptions) loadOutcome {
	res, err := loadBytes(input, cols, o, Config{})
	if err != nil {
		return loadOutcome{err: engine.AsError(err)}
	}
	return loadOutcome{host: res.Data.(*engine.HostTable), skipped: res.Skipped, count: res.SkippedCount}
}

func gpuLoad_(t testing.TB, dev *cuda.Device, src *engine.LoadRequest, cfg GPUConfig) loadOutcome {
	t.Helper()
	res, err := NewGPU(dev, cfg).Load(context.Background(), src)
	if err != nil {
		e := engine.AsError(err)
		if e.Code == engine.CodeInternalError || strings.Contains(err.Error(), "CUDA") {
			t.Fatalf("GPU load failed: %v", err)
		}
		return loadOutcome{err: e}
	}
	tab := res.Data.(*gpu.Table)
	defer tab.Release()
	h, err := tab.Download()
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != h.N {
		t.Fatalf("Rows %d, table has %d", res.Rows, h.N)
	}
	return loadOutcome{host: h, skipped: res.Skipped, count: res.SkippedCount}
}

// sameOutcome reports how two outcomes differ ("" if they do not).
func sameOutcome(want, got loadOutcome) string {
	if want.err != nil || got.err != nil {
		if want.err == nil || got.err == nil {
			return fmt.Sprintf("error %v, want %v", got.err, want.err)
		}
		w, g := *want.err, *got.err
		w.Err, g.Err = nil, nil
		if w != g {
			return fmt.Sprintf("error %#v, want %#v", g, w)
		}
		return ""
	}
	if !reflect.DeepEqual(want.skipped, got.skipped) || want.count != got.count {
		return fmt.Sprintf("skipped %d %+v, want %d %+v", got.count, got.skipped, want.count, want.skipped)
	}
	a, b := want.host, got.host
	if a.N != b.N || len(a.Cols) != len(b.Cols) {
		return fmt.Sprintf("rows %d, want %d", b.N, a.N)
	}
	for k := range a.Cols {
		ca, cb := a.Cols[k], b.Cols[k]
		if ca.Type != cb.Type || ca.Width != cb.Width {
			return fmt.Sprintf("column %d: type %v width %d, want %v width %d", k, cb.Type, cb.Width, ca.Type, ca.Width)
		}
		n := int(a.N)
		da, db := colBytes(ca, n), colBytes(cb, n)
		if !bytes.Equal(da, db) {
			for i := range da {
				if da[i] != db[i] {
					return fmt.Sprintf("column %d: byte %d is %#x, want %#x", k, i, db[i], da[i])
				}
			}
		}
		if len(ca.Valid) != len(cb.Valid) || !reflect.DeepEqual(ca.Valid[:len(ca.Valid)], cb.Valid[:len(cb.Valid)]) {
			if !(len(ca.Valid) == 0 && len(cb.Valid) == 0) {
				return fmt.Sprintf("column %d: validity %x, want %x", k, cb.Valid, ca.Valid)
			}
		}
	}
	return ""
}

func colBytes(c *engine.Column, n int) []byte {
	switch {
	case c.Type.IsString():
		return c.Str[:n*c.Width]
	case c.B != nil:
		return c.B[:n]
	case c.I16 != nil:
		return asBytes(c.I16[:n])
	case c.I32 != nil:
		return asBytes(c.I32[:n])
	case c.I64 != nil:
		return asBytes(c.I64[:n])
	case c.F32 != nil:
		return asBytes(c.F32[:n])
	case c.F64 != nil:
		return asBytes(c.F64[:n])
	}
	return nil
}

func checkGPU(t *testing.T, dev *cuda.Device, input []byte, cols []engine.ColumnDef, o engine.CSVOptions, cfgs []GPUConfig) {
	t.Helper()
	want := cpuLoad(input, cols, o)
	for _, cfg := range cfgs {
		got := gpuLoad_(t, dev, &engine.LoadRequest{Table: "t", Columns: cols, Options: o, Source: bytes.NewReader(input), Size: int64(len(input))}, cfg)
		if d := sameOutcome(want, got); d != "" {
			t.Fatalf("input %q options %+v config %+v: %s", clipTest(input), o, cfg, d)
		}
	}
}

func clipTest(b []byte) []byte {
	if len(b) > 600 {
		return b[:600]
	}
	return b
}

func TestGPUFiles(t *testing.T) {
	dev := gpuDevice(t)
	for _, tc := range csvFileCases {
		t.Run(tc.file, func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join("..", "testdata", "csv", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, onErr := range []engine.OnError{engine.OnErrorStop, engine.OnErrorIgnore} {
				o := engine.DefaultCSVOptions()
				if tc.opts != nil {
					tc.opts(&o)
				}
				o.OnError = onErr
				checkGPU(t, dev, input, tc.cols, o, gpuConfigs())
			}
		})
	}
}

func TestGPUEquivalentCases(t *testing.T) {
	dev := gpuDevice(t)
	cols := []engine.ColumnDef{{Name: "a", Type: engine.Int32}, {Name: "b", Type: engine.Text}}
	for _, onErr := range []engine.OnError{engine.OnErrorStop, engine.OnErrorIgnore} {
		o := engine.DefaultCSVOptions()
		o.OnError = onErr
		for _, in := range equivCases {
			checkGPU(t, dev, []byte(in), cols, o, gpuConfigs())
		}
	}
}

// randomCSV builds a random file for a random schema: quoted fields,
// embedded delimiters and newlines, NULLs, multibyte UTF-8, CRLF, and a
// sprinkling of bad rows.
func randomCSV(rng *rand.Rand, rows int) ([]engine.ColumnDef, engine.CSVOptions, []byte) {
	kinds := []engine.Type{engine.Int16, engine.Int32, engine.Int64, engine.Bool, engine.Float32, engine.Float64,
		engine.NumericType(12, 3), engine.Date, engine.Timestamp, engine.Text,
		{Kind: engine.KindVarchar, Len: 6}, {Kind: engine.KindChar, Len: 4}}
	ncols := 1 + rng.IntN(6)
	var cols []engine.ColumnDef
	for i := 0; i < ncols; i++ {
		cols = append(cols, engine.ColumnDef{Name: fmt.Sprintf("c%d", i), Type: kinds[rng.IntN(len(kinds))], NotNull: rng.IntN(6) == 0})
	}
	o := engine.DefaultCSVOptions()
	if rng.IntN(4) == 0 {
		o.Delimiter = '|'
	}
	if rng.IntN(5) == 0 {
		o.Escape = '\\'
	}
	if rng.IntN(5) == 0 {
		o.Null = "NA"
	}
	if rng.IntN(2) == 0 {
		o.OnError = engine.OnErrorIgnore
	}
	errRate := []int{0, 50, 5}[rng.IntN(3)]
	eol := "\n"
	if rng.IntN(4) == 0 {
		eol = "\r\n"
	}
	strs := []string{"", "a", "héllo", "日本語", "x,y", "q\"q", "line\nbreak", "  pad  ", "abcdefgh", "ab  ", "tab\t", "\\", "é"}
	var b bytes.Buffer
	for r := 0; r < rows; r++ {
		for c, col := range cols {
			if c > 0 {
				b.WriteByte(o.Delimiter)
			}
			var v string
			switch col.Type.Kind {
			case engine.KindInt16:
				v = fmt.Sprint(rng.IntN(70000) - 35000)
			case engine.KindInt32, engine.KindInt64:
				v = fmt.Sprint(rng.Int64N(1<<40) - 1<<39)
			case engine.KindBool:
				v = []string{"t", "f", "true", "no", "ON", " yes"}[rng.IntN(6)]
			case engine.KindFloat32, engine.KindFloat64:
				v = []string{"1.5", "-0", "3.14159", "1e10", "2.5e-3", "123456789012345678", "NaN", "0.1", "-7"}[rng.IntN(9)]
			case engine.KindNumeric:
				v = []string{"1.5", "-0.0005", "123456789.123", "1e3", "999999999.9995", "12.3456", "7"}[rng.IntN(7)]
			case engine.KindDate:
				v = []string{"2021-03-04", "1999-12-31", "2000-02-29", "20210304", " 2021-01-01", "2021-02-30"}[rng.IntN(6)]
			case engine.KindTimestamp:
				v = []string{"2021-03-04 05:06:07", "2021-03-04T05:06:07.123", "2021-03-04", "2021-03-04 24:00:00", "2021-03-04 05:06:07.1234567"}[rng.IntN(5)]
			default:
				v = strs[rng.IntN(len(strs))]
			}
			if errRate > 0 && rng.IntN(errRate*ncols) == 0 {
				v = []string{"x", "\xff", "9999999999999999999999", ""}[rng.IntN(4)]
			}
			switch {
			case rng.IntN(12) == 0:
				if o.Null != "" {
					v = o.Null
				} else {
					v = ""
				}
			case strings.ContainsAny(v, string(o.Delimiter)+"\"\n\r\\") || rng.IntN(5) == 0:
				esc := string(o.Escape)
				v = strings.ReplaceAll(v, "\\", "\\"+map[bool]string{true: "\\", false: ""}[o.Escape == '\\'])
				v = "\"" + strings.ReplaceAll(v, "\"", esc+"\"") + "\""
			}
			b.WriteString(v)
		}
		if errRate > 0 && rng.IntN(errRate*3) == 0 {
			b.WriteString(string(o.Delimiter) + "extra")
		}
		if r < rows-1 || rng.IntN(2) == 0 {
			b.WriteString(eol)
		}
	}
	return cols, o, b.Bytes()
}

func TestGPURandom(t *testing.T) {
	dev := gpuDevice(t)
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 300; i++ {
		cols, o, in := randomCSV(rng, 1+rng.IntN(60))
		checkGPU(t, dev, in, cols, o, []GPUConfig{{poison: true}, {BatchSize: 1 + rng.IntN(200), poison: true}, {BatchSize: 1 + rng.IntN(20), poison: true}})
	}
	for i := 0; i < 10; i++ { // larger files across many chunks and batches
		cols, o, in := randomCSV(rng, 20000+rng.IntN(20000))
		checkGPU(t, dev, in, cols, o, []GPUConfig{{poison: true}, {BatchSize: 4096 + rng.IntN(100000), poison: true}})
	}
}

// TestGPULineitem loads 10 M generated lineitem rows from a file, through
// both read modes, and compares with the CPU loader.
func TestGPULineitem(t *testing.T) {
	dev := gpuDevice(t)
	if testing.Short() {
		t.Skip("-short")
	}
	path := filepath.Join(t.TempDir(), "lineitem.csv")
	if err := WriteLineitemFile(path, 10_000_000, 1, 16); err != nil {
		t.Fatal(err)
	}
	input, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cols := LineitemColumns()
	o := engine.DefaultCSVOptions()
	want := cpuLoad(input, cols, o)
	if want.err != nil || want.host.N != 10_000_000 {
		t.Fatalf("CPU load: %v", want.err)
	}
	for _, cfg := range []GPUConfig{{Read: ReadPread, poison: true}, {Read: ReadMmap, BatchSize: 100 << 20}} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var progress []int64
		got := gpuLoad_(t, dev, &engine.LoadRequest{Table: "lineitem", Columns: cols, Options: o, Source: f, Size: int64(len(input)),
			Progress: func(n int64) { progress = append(progress, n) }}, cfg)
		f.Close()
		if d := sameOutcome(want, got); d != "" {
			t.Fatalf("config %+v: %s", cfg, d)
		}
		if len(progress) == 0 || progress[len(progress)-1] != int64(len(input)) {
			t.Fatalf("progress %v", progress)
		}
	}
}

// TestGPUWideRows covers rows that csv_validate and csv_convert cannot
// stage in shared memory (long records, many fields, strings wider than 64
// bytes), and the output table's growth when later batches hold more rows
// per byte than the first (the estimate falls short) or the size is unknown.
func TestGPUWideRows(t *testing.T) {
	dev := gpuDevice(t)
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 12; i++ {
		ncols := 1 + rng.IntN(40)
		var cols []engine.ColumnDef
		for c := 0; c < ncols; c++ {
			typ := []engine.Type{engine.Text, engine.Int64, {Kind: engine.KindVarchar, Len: 300}, {Kind: engine.KindChar, Len: 90}, engine.NumericType(15, 2)}[rng.IntN(5)]
			cols = append(cols, engine.ColumnDef{Name: fmt.Sprintf("c%d", c), Type: typ})
		}
		o := engine.DefaultCSVOptions()
		if i%2 == 1 {
			o.OnError = engine.OnErrorIgnore
		}
		rows := 2000 + rng.IntN(3000)
		var b bytes.Buffer
		for r := 0; r < rows; r++ {
			long := r < rows/3 // the first third is long, the rest short
			for c, col := range cols {
				if c > 0 {
					b.WriteByte(',')
				}
				switch {
				case rng.IntN(20) == 0:
					// NULL
				case col.Type.Kind == engine.KindInt64:
					fmt.Fprint(&b, rng.Int64N(1<<50)-1<<49)
				case col.Type.Kind == engine.KindNumeric:
					fmt.Fprintf(&b, "%d.%02d", rng.IntN(1000000), rng.IntN(100))
				default:
					n := rng.IntN(8)
					if long && col.Type.Kind == engine.KindText {
						n = rng.IntN(320)
					} else if long {
						n = rng.IntN(86)
					}
					v := strings.Repeat("ab, é\"x", n/7+1)[:n]
					for !utf8.ValidString(v) {
						v = v[:len(v)-1]
					}
					if rng.IntN(2) == 0 || strings.ContainsAny(v, ",\"") {
						v = "\"" + strings.ReplaceAll(v, "\"", "\"\"") + "\""
					}
					b.WriteString(v)
				}
			}
			if rng.IntN(500) == 0 {
				b.WriteString(",extra")
			}
			b.WriteByte('\n')
		}
		in := b.Bytes()
		checkGPU(t, dev, in, cols, o, []GPUConfig{{poison: true}, {BatchSize: 20000 + rng.IntN(50000), poison: true}})
		// The same with the size unknown (a stream).
		want := cpuLoad(in, cols, o)
		got := gpuLoad_(t, dev, &engine.LoadRequest{Table: "t", Columns: cols, Options: o, Source: bytes.NewReader(in), Size: -1},
			GPUConfig{BatchSize: 30000, poison: true})
		if d := sameOutcome(want, got); d != "" {
			t.Fatalf("size unknown: %s", d)
		}
	}
}

// TestGPUPinnedPool loads a file several times through one loader whose
// pinned buffers are kept between loads, the kept buffers filled with junk
// before each reuse: every load equals the CPU's, and the pool neither
// grows past its bound nor pins new buffers when it has enough.
func TestGPUPinnedPool(t *testing.T) {
	dev := gpuDevice(t)
	rng := rand.New(rand.NewPCG(7, 11))
	var b strings.Builder
	for i := 0; b.Len() < 60_000; i++ {
		fmt.Fprintf(&b, "%d,%d.%02d,\"w %d, %s\"\n", i, rng.IntN(1000), rng.IntN(100), rng.IntN(99), strings.Repeat("x", rng.IntN(40)))
	}
	input := []byte(b.String())
	cols := []engine.ColumnDef{{Name: "a", Type: engine.Int64}, {Name: "b", Type: engine.NumericType(12, 2)}, {Name: "c", Type: engine.Text}}
	o := engine.DefaultCSVOptions()
	want := cpuLoad(input, cols, o)
	if want.err != nil {
		t.Fatal(want.err)
	}
	path := filepath.Join(t.TempDir(), "p.csv")
	if err := os.WriteFile(path, input, 0o644); err != nil {
		t.Fatal(err)
	}
	// (buffers this small are pinned by the driver either way; the huge
	// pages of full-size buffers are TestGPULineitem's default config)
	for _, driver := range []bool{false, true} {
		g := NewGPU(dev, GPUConfig{BatchSize: 4096, HostBuffers: 3, DriverPinned: driver, poison: true})
		for round := range 3 {
			for _, hb := range g.pinned.free {
				for i := range hb.b {
					hb.b[i] = 0xAB
				}
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := g.Load(context.Background(), &engine.LoadRequest{Table: "p", Columns: cols, Options: o, Source: f, Size: int64(len(input))})
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			tab := res.Data.(*gpu.Table)
			h, err := tab.Download()
			tab.Release()
			if err != nil {
				t.Fatal(err)
			}
			if d := sameOutcome(want, loadOutcome{host: h, skipped: res.Skipped, count: res.SkippedCount}); d != "" {
				t.Fatalf("load %d: %s", round, d)
			}
			if n := len(g.pinned.free); n != 3 {
				t.Fatalf("DriverPinned %v, load %d: %d pinned buffers kept, want the 3 the load used", driver, round, n)
			}
		}
		for _, hb := range g.pinned.free {
			if err := hb.free(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
