package gpu

import (
	"encoding/binary"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// Simple filters. A WHERE that is a conjunction of comparisons of integer
// columns (smallint, integer, bigint, date, timestamp, time) with
// constants of the same kind (`l_orderkey = 1000004`, `d >= date
// '1994-01-01' AND d < date '1995-01-01'`) needs no interpreter: the
// register program's filter kernel spends its time dispatching
// instructions and, at 164 registers a thread, cannot keep enough loads
// in flight to stream a column (2.97 ms for 60 M rows of one bigint on
// an H200, about 160 GB/s). q_cmpfilter (cuda/query.cu) reads the terms
// from shared memory and the columns directly, and writes the same
// bitmap and chunk counts as q_filter, so compaction is unchanged. A NULL
// fails its term, as WHERE treats an unknown comparison; comparisons
// raise no errors, so nothing else can differ from the interpreter.

// cmpTerm mirrors CmpTerm of cuda/query.cu.
type cmpTerm struct {
	Data, Valid uint64
	Width, Op   int32
	K           int64
}

const maxCmpTerms = 8

// cmpOps are q_cmpfilter's comparison codes.
var cmpOps = map[engine.Op]int32{engine.OpEq: 0, engine.OpNe: 1, engine.OpLt: 2, engine.OpLe: 3, engine.OpGt: 4, engine.OpGe: 5}

// cmpTerms returns filter's terms when it is such a conjunction over the
// columns cols; ok is false otherwise.
func cmpTerms(filter engine.Expr, cols []*Column) (terms []cmpTerm, ok bool) {
	var walk func(e engine.Expr) bool
	walk = func(e engine.Expr) bool {
		c, isCall := e.(*engine.Call)
		if !isCall {
			return false
		}
		if c.Op == engine.OpAnd && len(c.Args) == 2 {
			return walk(c.Args[0]) && walk(c.Args[1])
		}
		op, isCmp := cmpOps[c.Op]
		if !isCmp || len(c.Args) != 2 || len(terms) == maxCmpTerms {
			return false
		}
		ref, isRef := widened(c.Args[0])
		k, isConst := c.Args[1].(*engine.Const)
		if !isRef || !isConst {
			if ref, isRef = widened(c.Args[1]); !isRef {
				return false
			}
			if k, isConst = c.Args[0].(*engine.Const); !isConst {
				return false
			}
			op = cmpOps[c.Op.Mirrored()]
		}
		if ref.Idx < 0 || ref.Idx >= len(cols) || k.Null {
			return false
		}
		col := cols[ref.Idx]
		width, ok := intWidth(col.Type, k.T)
		if !ok || col.Data == nil {
			return false
		}
		t := cmpTerm{Data: uint64(col.Data.Ptr()), Width: int32(width), Op: op, K: k.I}
		if col.Valid != nil {
			t.Valid = uint64(col.Valid.Ptr())
		}
		terms = append(terms, t)
		return true
	}
	if !walk(filter) {
		return nil, false
	}
	return terms, true
}

// widened is e when it is a column, or a column under casts that widen
// an integer (smallint to integer or bigint, integer to bigint), which
// keep every value.
func widened(e engine.Expr) (*engine.ColRef, bool) {
	rank := map[engine.Kind]int{engine.KindInt16: 1, engine.KindInt32: 2, engine.KindInt64: 3}
	for {
		switch x := e.(type) {
		case *engine.ColRef:
			return x, true
		case *engine.Call:
			if x.Op != engine.OpCast || len(x.Args) != 1 {
				return nil, false
			}
			from, to := rank[x.Args[0].Type().Kind], rank[x.T.Kind]
			if from == 0 || to < from {
				return nil, false
			}
			e = x.Args[0]
		default:
			return nil, false
		}
	}
}

// intWidth is the byte width of a column of type col whose values compare
// with a constant of type k as int64s; ok is false for other pairs.
func intWidth(col, k engine.Type) (int, bool) {
	isInt := func(k engine.Kind) bool {
		return k == engine.KindInt16 || k == engine.KindInt32 || k == engine.KindInt64
	}
	switch {
	case isInt(col.Kind) && isInt(k.Kind):
	case col.Kind == k.Kind && (col.Kind == engine.KindDate || col.Kind == engine.KindTimestamp ||
		col.Kind == engine.KindTimestampTZ || col.Kind == engine.KindTime):
	default:
		return 0, false
	}
	switch col.Kind {
	case engine.KindInt16:
		return 2, true
	case engine.KindInt32, engine.KindDate:
		return 4, true
	}
	return 8, true
}

// cmpFilter fills bitmap and counts (q_filter's layout) for terms.
func (r *run) cmpFilter(terms []cmpTerm, bm, counts *cuda.Buffer) error {
	b := make([]byte, 0, 32*len(terms))
	for _, t := range terms {
		b = binary.LittleEndian.AppendUint64(b, t.Data)
		b = binary.LittleEndian.AppendUint64(b, t.Valid)
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Width))
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Op))
		b = binary.LittleEndian.AppendUint64(b, uint64(t.K))
	}
	tp, err := r.s.upload(b)
	if err != nil {
		return err
	}
	return r.launch("q_cmpfilter", r.grid(r.n), 0, tp, int32(len(terms)), r.n, bm.Ptr(), counts.Ptr())
}
