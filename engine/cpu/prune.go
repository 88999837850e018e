package cpu

import (
	"cmp"
	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Block skipping: a filter's comparisons of a stored column with a
// constant are checked against the column's zone map (engine.ZoneMap),
// and a scan does not read the blocks where no row can pass. The test is
// conservative: a block is skipped only when every row of it must make
// the filter false or NULL.

// zoneTest reports whether zone k may hold a row that passes.
type zoneTest func(k int) bool

// zoneFilter builds the zone test of filter e over table h, or nil when
// the zone maps cannot rule out any block.
//
// Skipping a block must not hide an error that evaluating the filter
// there would raise. eval evaluates AND and OR left to right, the right
// operand only on rows the left leaves undecided (all rows, when it
// cannot fail), so zoneTests says which tests stay exact under that.
func zoneFilter(e engine.Expr, h *engine.HostTable) zoneTest {
	return zoneTests(e, h, false)
}

// zoneTests returns a test whose false for zone k means: evaluating e on
// every row of zone k raises no error and gives false, or (unless
// strict) NULL; nil when it cannot tell.
func zoneTests(e engine.Expr, h *engine.HostTable, strict bool) zoneTest {
	c, ok := e.(*engine.Call)
	if !ok {
		return nil
	}
	switch c.Op {
	case engine.OpAnd:
		// false where the left is false (not NULL) everywhere, the right
		// then never being evaluated; NULL counts too when the right
		// cannot fail. Or where the left cannot fail and the right is
		// false (or NULL) wherever it is evaluated.
		a := zoneTests(c.Args[0], h, strict || eval.CanFail(c.Args[1]))
		var b zoneTest
		if !eval.CanFail(c.Args[0]) {
			b = zoneTests(c.Args[1], h, strict)
		}
		switch {
		case a == nil:
			return b
		case b == nil:
			return a
		}
		return func(k int) bool { return a(k) && b(k) }
	case engine.OpOr:
		a, b := zoneTests(c.Args[0], h, strict), zoneTests(c.Args[1], h, strict)
		if a == nil || b == nil {
			return nil
		}
		return func(k int) bool { return a(k) || b(k) }
	case engine.OpIsNull, engine.OpIsNotNull:
		ref, ok := c.Args[0].(*engine.ColRef)
		if !ok {
			return nil
		}
		z := h.ZoneMap(ref.Idx)
		if z == nil {
			return nil
		}
		if c.Op == engine.OpIsNull {
			return func(k int) bool { return z.HasNull[k] }
		}
		return func(k int) bool { return !z.AllNull[k] }
	case engine.OpEq, engine.OpLt, engine.OpLe, engine.OpGt, engine.OpGe:
		op := c.Op
		ref, okRef := c.Args[0].(*engine.ColRef)
		k, okConst := c.Args[1].(*engine.Const)
		if !okRef || !okConst {
			// constant op column: flip
			ref, okRef = c.Args[1].(*engine.ColRef)
			k, okConst = c.Args[0].(*engine.Const)
			op = op.Mirrored()
		}
		if !okRef || !okConst {
			return nil
		}
		z, cmp := zoneBound(h, ref, k)
		if z == nil {
			return nil
		}
		return cmpZoneTest(z, op, cmp, strict)
	case engine.OpIn:
		ref, ok := c.Args[0].(*engine.ColRef)
		if !ok || len(c.Args) < 2 {
			return nil
		}
		tests := make([]zoneTest, 0, len(c.Args)-1)
		for _, a := range c.Args[1:] {
			k, ok := a.(*engine.Const)
			if !ok {
				return nil
			}
			if k.Null {
				if strict {
					return nil // a miss is then NULL, not false
				}
				continue // never equal: the IN is NULL or true, never through this item
			}
			z, cmp := zoneBound(h, ref, k)
			if z == nil {
				return nil
			}
			tests = append(tests, cmpZoneTest(z, engine.OpEq, cmp, strict))
		}
		return func(k int) bool {
			for _, t := range tests {
				if t(k) {
					return true
				}
			}
			return false
		}
	}
	return nil
}

// cmpZoneTest is the zone test of "column op constant", where cmp(x)
// orders a stored value x against the constant. A NULL row makes the
// comparison NULL: strict keeps every zone that has one.
func cmpZoneTest(z *engine.ZoneMap, op engine.Op, cmp func(int64) int, strict bool) zoneTest {
	return func(k int) bool {
		if strict && z.HasNull[k] {
			return true
		}
		if z.AllNull[k] {
			return false
		}
		switch op {
		case engine.OpEq:
			return cmp(z.Min[k]) <= 0 && cmp(z.Max[k]) >= 0
		case engine.OpLt:
			return cmp(z.Min[k]) < 0
		case engine.OpLe:
			return cmp(z.Min[k]) <= 0
		case engine.OpGt:
			return cmp(z.Max[k]) > 0
		default: // OpGe
			return cmp(z.Max[k]) >= 0
		}
	}
}

// zoneBound returns the zone map of the column ref reads and a function
// that orders a stored value of it against constant k exactly as the
// comparison does, or nil when they do not compare in the stored domain.
func zoneBound(h *engine.HostTable, ref *engine.ColRef, k *engine.Const) (*engine.ZoneMap, func(int64) int) {
	if k.Null || ref.Idx >= len(h.Cols) {
		return nil, nil
	}
	col := h.Cols[ref.Idx]
	if col.Type.Kind != ref.T.Kind {
		return nil, nil
	}
	var order func(int64) int
	switch col.Type.Kind {
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		if !k.T.IsInteger() {
			return nil, nil
		}
		c := k.I
		order = func(x int64) int { return cmp.Compare(x, c) }
	case engine.KindBool, engine.KindDate, engine.KindTime, engine.KindTimestamp, engine.KindTimestampTZ:
		if k.T.Kind != col.Type.Kind {
			return nil, nil
		}
		c := k.I
		order = func(x int64) int { return cmp.Compare(x, c) }
	case engine.KindNumeric:
		if k.T.Kind != engine.KindNumeric {
			return nil, nil
		}
		c, scale := k.D, col.Type.Scale
		order = func(x int64) int { return engine.DecCmp(engine.DecFromScaled(x, scale), c) }
	default:
		return nil, nil
	}
	z := h.ZoneMap(ref.Idx)
	if z == nil {
		return nil, nil
	}
	return z, order
}

// liveMorsels returns the morsels of a scan of rows rows that the zone
// test t allows (every one when t is nil), in order.
func liveMorsels(rows int, t zoneTest) []int {
	n := (rows + batchRows - 1) / batchRows
	live := make([]int, 0, n)
	for m := 0; m < n; m++ {
		if t == nil || morselMayPass(m, rows, t) {
			live = append(live, m)
		}
	}
	return live
}

// morselMayPass reports whether any zone under morsel m may hold a
// passing row.
func morselMayPass(m, rows int, t zoneTest) bool {
	lo := m * batchRows
	hi := min(lo+batchRows, rows)
	for k := lo / engine.ZoneRows; k <= (hi-1)/engine.ZoneRows; k++ {
		if t(k) {
			return true
		}
	}
	return false
}
