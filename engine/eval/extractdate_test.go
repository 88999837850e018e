package eval

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestExtractDateMatchesGeneral: the typed loop for extract/date_part of
// year, month, day and quarter from a date gives evalExtractTime's values
// and NULLs, for dates around the epoch, BC dates, leap days, the ends of
// the date range (whose day-to-microsecond product wraps in the general
// path, so the batch is handed to it) and NULLs, as numeric and as
// double precision.
func TestExtractDateMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	edges := []int64{0, -1, 1, 18321, 18322, -719163, -719162, -735160, -2440588, 2145042905, 106751991, -106751991, 106751992,
		math.MaxInt32, math.MinInt32}
	col := func(wild int) *engine.Vec {
		n := 700
		v := engine.NewVec(engine.Date, n)
		for i := range v.I {
			switch {
			case i%50 == 0:
				v.SetNull(i)
			case i%7 == 0 && wild > 0:
				v.I[i] = edges[rng.Intn(len(edges))]
				if wild == 1 && (v.I[i] > 106751991 || v.I[i] < -106751991) {
					v.I[i] = -106751991
				}
			case i%3 == 0:
				v.I[i] = rng.Int63n(2_000_000) - 1_000_000
			default:
				v.I[i] = rng.Int63n(20000)
			}
		}
		return v
	}
	ctx := context.Background()
	tried := 0
	for _, wild := range []int{0, 1, 2} { // 1: edges the loop takes; 2: any
		in := &engine.Batch{N: 700, Cols: []*engine.Vec{col(wild)}}
		for _, field := range []string{"year", "month", "day", "quarter", "years", "mon", "d", "qtr"} {
			for _, rt := range []engine.Type{engine.Numeric, engine.Float64} {
				fc := &engine.Const{T: engine.Text, S: field}
				e := &engine.Call{Op: engine.OpExtract, T: rt, Args: []engine.Expr{fc, &engine.ColRef{Idx: 0, T: engine.Date}}}
				got, ok, err := evalExtractDate(ctx, e, in)
				if !ok || err != nil {
					t.Fatalf("%s: ok %v err %v", field, ok, err)
				}
				want, err := evalExtractTime(e, []*engine.Vec{Broadcast(fc, in.N), in.Cols[0]}, in.N)
				if err != nil {
					t.Fatal(err)
				}
				at := func(v *engine.Vec, i int) string {
					switch {
					case v.IsNull(i):
						return "NULL"
					case v.D != nil:
						return v.D[i].String()
					}
					return fmt.Sprint(v.F[i])
				}
				for i := 0; i < in.N; i++ {
					if at(got, i) != at(want, i) {
						t.Fatalf("%s of day %d (%v): %s, general %s", field, in.Cols[0].I[i], rt, at(got, i), at(want, i))
					}
				}
				tried++
			}
		}
	}
	// other fields and sources are not this path's
	for _, e := range []*engine.Call{
		{Op: engine.OpExtract, T: engine.Numeric, Args: []engine.Expr{&engine.Const{T: engine.Text, S: "dow"}, &engine.ColRef{Idx: 0, T: engine.Date}}},
		{Op: engine.OpExtract, T: engine.Numeric, Args: []engine.Expr{&engine.Const{T: engine.Text, S: "year"}, &engine.ColRef{Idx: 0, T: engine.Timestamp}}},
	} {
		if _, ok, _ := evalExtractDate(ctx, e, &engine.Batch{N: 1, Cols: []*engine.Vec{engine.NewVec(engine.Date, 1)}}); ok {
			t.Errorf("%s taken", e)
		}
	}
	if tried == 0 {
		t.Fatal("nothing compared")
	}
}
