package eval

import "github.com/gpusql/gpusql/engine"

// SumAcc is one group's running sum for sum() or avg(), as every backend
// finishes it: int2/int4 summed as int8 (sum) with PostgreSQL's overflow
// error, int8 and numeric as an exact numeric, floats exactly
// (engine.FloatSum: the result does not depend on the order of rows) and
// intervals field by field (IntervalSum). The CPU backend keeps one per
// group; the GPU backend fills them on the host for sum/avg(DISTINCT),
// from the distinct values its device pass finds.
type SumAcc struct {
	I int64
	D engine.Dec
	F engine.FloatSum
	V IntervalSum
}

// Add adds row i of arg (not NULL) for fn (AggSum or AggAvg).
func (a *SumAcc) Add(fn engine.AggFunc, arg *engine.Vec, i int) error {
	t := arg.T
	switch {
	case (t.Kind == engine.KindInt16 || t.Kind == engine.KindInt32) && fn == engine.AggSum:
		return a.addInt(arg.I[i])
	case t.Kind == engine.KindInt16 || t.Kind == engine.KindInt32 || t.Kind == engine.KindInt64:
		return a.addDec(engine.DecFromInt(arg.I[i]))
	case t.Kind == engine.KindNumeric:
		return a.addDec(arg.D[i])
	case t.IsFloat():
		a.F.Add(arg.F[i])
	case t.Kind == engine.KindInterval:
		a.V.Add(arg.V[i])
	}
	return nil
}

func (a *SumAcc) addInt(x int64) error {
	r := a.I + x
	if (x >= 0) == (a.I >= 0) && (r >= 0) != (x >= 0) {
		return engine.Errorf(engine.CodeNumericValueOutOfRange, "bigint out of range")
	}
	a.I = r
	return nil
}

func (a *SumAcc) addDec(x engine.Dec) error {
	r, ok := engine.DecAdd(a.D, x)
	if !ok {
		return engine.Errorf(engine.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	a.D = r
	return nil
}

// Merge adds o's sums (another worker's share of the same group).
func (a *SumAcc) Merge(o *SumAcc) error {
	if err := a.addInt(o.I); err != nil {
		return err
	}
	if err := a.addDec(o.D); err != nil {
		return err
	}
	a.F.Merge(&o.F)
	a.V.Merge(&o.V)
	return nil
}

// Put writes the result of fn over count values (count > 0) of type argT
// to row g of out.
func (a *SumAcc) Put(fn engine.AggFunc, argT engine.Type, count int64, out *engine.Vec, g int) error {
	var err error
	switch {
	case argT.Kind == engine.KindInterval && fn == engine.AggAvg:
		out.V[g], err = a.V.Avg(count)
	case argT.Kind == engine.KindInterval:
		out.V[g], err = a.V.Interval()
	case argT.IsFloat() && fn == engine.AggAvg:
		out.F[g], err = a.F.AvgResult(count)
	case argT.IsFloat():
		out.F[g], err = a.F.SumResult(argT.Kind == engine.KindFloat32)
	case fn == engine.AggAvg:
		q, ok := engine.DecDiv(a.D, engine.DecFromInt(count))
		if !ok {
			return engine.Errorf(engine.CodeNumericValueOutOfRange, "value overflows numeric format")
		}
		out.D[g] = q
	case argT.Kind == engine.KindInt16 || argT.Kind == engine.KindInt32:
		out.I[g] = a.I
	default:
		out.D[g] = a.D
	}
	return err
}
