package loader

import (
	"sync/atomic"

	"github.com/gpusql/gpusql/engine"
)

// Stage 6: per-column deserialisation. Each block converts its good rows
// column by column (one tight loop per column keeps the block's bytes in
// cache) into the typed arrays, at the output rows fixed by compaction.
// A value that does not parse marks its row failed; failed rows are
// removed afterwards.

// convertBlock is stage 6 for one block.
func (ld *load) convertBlock(b *batch, blk *rowBlockState, scratch *[]byte) {
	d := &ld.d
	for c := range ld.cols {
		cp := &ld.cols[c]
		col := ld.out[c]
		f := cp.field
		bi := 0
		row := blk.outBase
		for r := blk.r0; r < blk.r1; r++ {
			if bi < len(blk.bad) && int(blk.bad[bi]) == r {
				bi++
				continue
			}
			raw, mq := b.field(r, f)
			val, null := raw, false
			if mq || len(raw) == len(d.null) {
				val, null = d.resolve(raw, mq, scratch)
			}
			if null {
				atomic.AndUint64(&col.Valid[row>>6], ^(uint64(1) << (uint(row) & 63)))
				row++
				continue
			}
			if !store(col, cp, row, val) {
				blk.fail = append(blk.fail, int32(r))
			}
			row++
		}
	}
}

// store converts one value into row of col; false if it does not parse.
func store(col *engine.Column, cp *colPlan, row int, val []byte) bool {
	var st engine.ParseStatus
	switch cp.kind {
	case engine.KindBool:
		var v bool
		v, st = engine.ParseBool(val)
		if v {
			col.B[row] = 1
		}
	case engine.KindInt16:
		var v int64
		v, st = engine.ParseInt(val, engine.KindInt16)
		col.I16[row] = int16(v)
	case engine.KindInt32:
		var v int64
		v, st = engine.ParseInt(val, engine.KindInt32)
		col.I32[row] = int32(v)
	case engine.KindInt64:
		col.I64[row], st = engine.ParseInt(val, engine.KindInt64)
	case engine.KindFloat32:
		var v float64
		v, st = engine.ParseFloat(val, engine.KindFloat32)
		col.F32[row] = float32(v)
	case engine.KindFloat64:
		col.F64[row], st = engine.ParseFloat(val, engine.KindFloat64)
	case engine.KindNumeric:
		if cp.def.Type.Prec == 0 {
			// unconstrained: each value at its own scale
			col.D[row], st = engine.ParseNumericOwnScale(val)
		} else if col.D != nil {
			col.D[row], st = engine.ParseNumericWide(val, cp.def.Type.Prec, cp.def.Type.Scale)
		} else {
			col.I64[row], st = engine.ParseNumeric(val, cp.def.Type.Prec, cp.def.Type.Scale)
		}
	case engine.KindDate:
		col.I32[row], st = engine.ParseDate(val)
	case engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
		var v int64
		v, st = parseTime(val, cp)
		col.I64[row] = engine.RoundTimePrec(cp.def.Type, v)
	default:
		n, sst := strStored(val, cp)
		if sst != strOK || n > col.Width {
			return false
		}
		copy(col.Str[row*col.Width:], val[:n])
		return true
	}
	return st == engine.ParseOK
}

// parseTime parses a timestamp, timestamptz or time value.
func parseTime(val []byte, cp *colPlan) (int64, engine.ParseStatus) {
	switch cp.kind {
	case engine.KindTimestampTZ:
		return engine.ParseTimestampTZ(val, cp.zone)
	case engine.KindTime:
		return engine.ParseTime(val)
	}
	return engine.ParseTimestamp(val)
}

func zoneOr(z *engine.Zone) *engine.Zone {
	if z == nil {
		return engine.UTCZone
	}
	return z
}
