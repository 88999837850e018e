package gpu

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// TestDistinctRowsMatchesOneCore: the rows numbered on every core get
// the numbers one core gives them (in the order of their first rows),
// and a Parallel function's results land on the right rows.
func TestDistinctRowsMatchesOneCore(t *testing.T) {
	for _, n := range []int{0, 1, 1000, parallelMin + 7, 300000} {
		rng := rand.New(rand.NewSource(int64(n)))
		a := engine.NewVec(engine.Int64, n)
		s := engine.NewVec(engine.Text, n)
		for i := 0; i < n; i++ {
			a.I[i] = int64(rng.Intn(50))
			s.S[i] = []byte(fmt.Sprintf("v%d", rng.Intn(2000)))
			if rng.Intn(17) == 0 {
				a.SetNull(i)
			}
			if rng.Intn(23) == 0 {
				s.SetNull(i)
			}
		}
		args := &engine.Batch{N: n, Cols: []*engine.Vec{a, s}}
		which, first := distinctRows(args)
		// one core, as runDistinct did before
		seen := map[string]int32{}
		var wantFirst []int32
		for i := 0; i < n; i++ {
			k := string(rowKey(nil, args, i))
			d, ok := seen[k]
			if !ok {
				d = int32(len(wantFirst))
				seen[k] = d
				wantFirst = append(wantFirst, int32(i))
			}
			if which[i] != d {
				t.Fatalf("%d rows: row %d numbered %d, want %d", n, i, which[i], d)
			}
		}
		if fmt.Sprint(first) != fmt.Sprint(wantFirst) {
			t.Fatalf("%d rows: first rows differ", n)
		}
		h := &engine.HostFunc{Name: "f", T: engine.Text, Parallel: true, Fn: func(vs []*engine.Vec, m int) (*engine.Vec, error) {
			out := engine.NewVec(engine.Text, m)
			for i := 0; i < m; i++ {
				if vs[1].IsNull(i) {
					out.SetNull(i)
					continue
				}
				out.S[i] = []byte(fmt.Sprintf("%s/%s", vs[1].S[i], intText(vs[0], i)))
			}
			return out, nil
		}}
		res, which2, err := runDistinct(context.Background(), h, args)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			got := "NULL"
			if d := which2[i]; !res.IsNull(int(d)) {
				got = string(res.S[d])
			}
			want := "NULL"
			if !s.IsNull(i) {
				want = fmt.Sprintf("%s/%s", s.S[i], intText(a, i))
			}
			if got != want {
				t.Fatalf("%d rows: row %d got %q, want %q", n, i, got, want)
			}
		}
	}
}

func intText(v *engine.Vec, i int) string {
	if v.IsNull(i) {
		return "NULL"
	}
	return fmt.Sprint(v.I[i])
}
