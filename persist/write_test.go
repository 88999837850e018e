package persist

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// byColumn is a host table handed out column by column, as a GPU table
// is (engine.ColumnDownloader).
type byColumn struct{ *engine.HostTable }

func (b byColumn) NumColumns() int                              { return len(b.Cols) }
func (b byColumn) DownloadColumn(k int) (*engine.Column, error) { return b.Cols[k], nil }

// TestWriteTableAt: the parallel writer makes exactly the bytes of the
// sequential one (writeTable), from whole host tables and column by
// column, for tables of no rows to several checksum chunks.
func TestWriteTableAt(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	empty := engine.NewHostTable([]*engine.Column{engine.NewColumn(engine.Int64, 0, 0, true),
		engine.NewColumn(engine.Type{Kind: engine.KindText}, 0, 8, false)}, 0)
	for _, n := range []int{0, 1, 70, 100_000} {
		h := empty
		if n > 0 {
			h = allKinds(n, rng)
		}
		want := encode(t, h)
		for _, data := range []engine.TableData{h, byColumn{h}} {
			src, err := sourceOf(data)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "t.gtab")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := writeTableAt(f, src); err != nil {
				t.Fatal(err)
			}
			f.Close()
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%d rows (%T): %d bytes differ from writeTable's %d", n, data, len(got), len(want))
			}
			back, err := readTable(got)
			if err != nil {
				t.Fatal(err)
			}
			sameTable(t, back, h)
		}
	}
}
