package loader

import (
	"unsafe"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// The plain-data views that the kernels of cuda/csv.cu receive. Their
// layouts must match the C structs of the same names (gpu_layout_test.go).

// gpuChunk is the size of a chunk: one warp, 32 lanes of 64 bytes.
const gpuChunk = 2048

// countWarps is COUNT_WARPS, the chunks per block of csv_count and
// csv_index; rowsPerBlock is ROWS_PER_BLOCK, the rows per block of
// csv_validate and csv_convert.
const (
	countWarps   = 8
	rowsPerBlock = 128
)

// chunkFnSize and chunkCtxSize are sizeof(ChunkFn) and sizeof(ChunkCtx).
const (
	chunkFnSize  = 32
	chunkCtxSize = 16
)

// gpuColPlan is ColPlan: how one table column is loaded.
type gpuColPlan struct {
	Kind, Field, NotNull, Lim, MaxBytes, Prec, Scale, Elem int32
}

// gpuColOut is ColOut: one column's output in a batch.
type gpuColOut struct {
	Data, Valid uint64
	Width, Pad  int32
}

// rowParams is RowParams, passed by value to csv_validate and csv_convert.
type rowParams struct {
	Data, Base, Entries, RecStart, Fns, Cols, Nul uint64
	Lo                                            int64
	First, Nrec, LastOpen, Ncols, NFields, NulLen int32
	Fsm                                           int32
	Quote, Esc, Pad                               uint32
}

// elemSize is the stored bytes per row of a fixed-width kind (0 for
// strings).
func elemSize(k engine.Kind) int {
	switch k {
	case engine.KindBool:
		return 1
	case engine.KindInt16:
		return 2
	case engine.KindInt32, engine.KindDate, engine.KindFloat32:
		return 4
	case engine.KindInt64, engine.KindNumeric, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime, engine.KindFloat64:
		return 8
	}
	return 0
}

// colPlans builds the kernels' column plans from the load's.
func colPlans(cols []colPlan) []gpuColPlan {
	out := make([]gpuColPlan, len(cols))
	for i, c := range cols {
		nn := int32(0)
		if c.def.NotNull {
			nn = 1
		}
		out[i] = gpuColPlan{Kind: int32(c.kind), Field: int32(c.field), NotNull: nn, Lim: int32(c.def.Type.Len),
			MaxBytes: int32(c.maxBytes), Prec: int32(c.def.Type.Prec), Scale: int32(c.def.Type.Scale), Elem: int32(elemSize(c.kind))}
	}
	return out
}

// asBytes views a slice of plain values as bytes, for copies.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

// gpuKernels are the functions of the csv module.
type gpuKernels struct {
	count, scan, index, validate, convert, patch, clearBits, repad, bitsCopy, terms *cuda.Function
}

func loadKernels(dev *cuda.Device) (*gpuKernels, error) {
	m, _, err := dev.LoadKernels("csv") // shipped machine code, or the PTX
	if err != nil {
		return nil, err
	}
	k := &gpuKernels{}
	for _, f := range []struct {
		dst  **cuda.Function
		name string
	}{
		{&k.count, "csv_count"}, {&k.scan, "csv_scan"}, {&k.index, "csv_index"}, {&k.validate, "csv_validate"},
		{&k.convert, "csv_convert"}, {&k.patch, "csv_patch"}, {&k.clearBits, "csv_clear_bits"},
		{&k.repad, "csv_repad"}, {&k.bitsCopy, "csv_bits_copy"}, {&k.terms, "csv_terms"},
	} {
		if *f.dst, err = m.Function(f.name); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// blocks returns the grid size covering n items with per-block items.
func blocks(n, per int) uint32 { return uint32(max(1, (n+per-1)/per)) }
