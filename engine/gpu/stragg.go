package gpu

import (
	"encoding/binary"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// string_agg on the device (cuda/stragg.cu): the interpreter writes every
// selected row's value, delimiter and ORDER BY keys; the rows are sorted
// stably by (group, value NULL last, ORDER BY keys[, value, delimiter for
// DISTINCT]) with the ORDER BY sort (sort.go); each row's byte count, an
// exclusive scan and one write build all groups' results in one buffer
// sized before the write, and only that buffer and each group's bounds
// come back. The CPU backend (engine/cpu stringAgg) is the reference:
// NULL values skipped, each value but the first preceded by its own row's
// delimiter (nothing for a NULL one), NULL over no values, without ORDER
// BY the table's order, DISTINCT without ORDER BY sorted by value and
// delimiter.

// saStr mirrors SStr of cuda/stragg.cu.
type saStr struct {
	Lo, Nul, Str uint64
	Width, Pad   int32
}

const saTPB = 256          // SA_TPB
const saChunk = saTPB * 16 // SA_CHUNK

func (r *run) saLaunch(name string, grid uint32, block uint32, args ...any) error {
	f, err := r.b.embeddedKernel("stragg", name)
	if err != nil {
		return err
	}
	return r.b.dev.Launch(f, cuda.Dim3{X: grid, Y: 1, Z: 1}, cuda.Dim3{X: block, Y: 1, Z: 1}, 0, nil, args...)
}

// stringAggs returns the results of p's string_agg aggregates (by
// aggregate index) over ng groups; gids are the rows' group ids from
// group (0 without GROUP BY: one group).
func (r *run) stringAggs(p *engine.Plan, gids uint64, ng int64) (map[int]*engine.Vec, error) {
	var out map[int]*engine.Vec
	var sel uint64
	n := int64(-1)
	for k, ag := range p.Aggs {
		if ag.Func != engine.AggStringAgg {
			continue
		}
		if out == nil {
			out = map[int]*engine.Vec{}
		}
		if n < 0 {
			var err error
			if sel, n, err = r.aggRows(p); err != nil {
				return nil, err
			}
		}
		v, err := r.stringAgg(ag, gids, ng, sel, n)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// stringAgg runs one string_agg over the n rows sel (all rows when 0).
func (r *run) stringAgg(ag engine.AggCall, gids uint64, ng int64, sel uint64, n int64) (*engine.Vec, error) {
	res := engine.NewVec(ag.T, int(ng))
	if n == 0 || ng == 0 {
		for g := 0; g < int(ng); g++ {
			res.SetNull(g)
		}
		return res, nil
	}
	fns, err := r.b.sortFns()
	if err != nil {
		return nil, err
	}
	exprs := append([]engine.Expr{ag.Arg, ag.Sep}, make([]engine.Expr, len(ag.Order))...)
	for k, o := range ag.Order {
		exprs[2+k] = o.Expr
	}
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols}
	vals, err := c.compileOutputs(exprs, 0)
	if err != nil {
		return nil, err
	}
	keys := make([]sKey, len(vals))
	outs := make([]qOut, 0, len(vals))
	scaled := map[int]sKey{} // keys[k] of a per-row-scale numeric: its scale
	for k, v := range vals {
		if k < 2 && !isStr(v.cls) {
			return nil, unsupported("string_agg over %s", v.t)
		}
		if v.cls == clsIntv { // an ORDER BY interval sorts by its span, as sortKeys
			if v, err = c.span(v); err != nil {
				return nil, err
			}
		}
		key, out, err := r.keyArrays(v, n)
		if err != nil {
			return nil, err
		}
		if k >= 2 {
			o := ag.Order[k-2]
			if o.Desc {
				key.Desc = 1
			}
			if o.NullsFirst {
				key.NullsFirst = 1
			}
		}
		if v.scaleReg != 0 {
			// sorted by value across scales (rowkeys.go), as sortKeys
			sk, so, err := r.keyArrays(val{reg: v.scaleReg, cls: clsI64}, n)
			if err != nil {
				return nil, err
			}
			scaled[k] = sk
			outs = append(outs, so)
		}
		keys[k] = key
		outs = append(outs, out)
	}
	if err := r.projectOuts(prog, outs, sel, n); err != nil {
		return nil, err
	}
	orderKeys := make([]sKey, 0, len(keys)-2)
	for k := 2; k < len(keys); k++ {
		sk, ok := scaled[k]
		if !ok {
			orderKeys = append(orderKeys, keys[k])
			continue
		}
		w, err := r.scaledKeyWords(keys[k], sk, n)
		if err != nil {
			return nil, err
		}
		orderKeys = append(orderKeys, w...)
	}
	val := saStr{Lo: keys[0].Lo, Nul: keys[0].Nul, Str: keys[0].Str, Width: keys[0].Width}
	sep := saStr{Lo: keys[1].Lo, Nul: keys[1].Nul, Str: keys[1].Str, Width: keys[1].Width}

	// the group word: 2*gid + (value is NULL)
	gk, err := r.s.alloc(8 * n)
	if err != nil {
		return nil, err
	}
	gnul, err := r.s.zeros(n, 0)
	if err != nil {
		return nil, err
	}
	grid := r.sortGrid(n)
	if err := r.saLaunch("sa_gkey", grid, saTPB, cuda.DevPtr(gids), cuda.DevPtr(sel), n, cuda.DevPtr(val.Nul), gk.Ptr()); err != nil {
		return nil, err
	}
	sortBy := []sKey{{Lo: uint64(gk.Ptr()), Nul: uint64(gnul.Ptr()), Cls: clsI64}}
	sortBy = append(sortBy, orderKeys...)
	if ag.Distinct {
		sortBy = append(sortBy, keys[0], keys[1])
	}
	perm, _, err := r.radixSort(fns, sortBy, n, 0)
	if err != nil {
		return nil, err
	}
	distinct := int32(0)
	if ag.Distinct {
		distinct = 1
	}
	sizes, err := r.s.alloc(8 * n)
	if err != nil {
		return nil, err
	}
	if err := r.saLaunch("sa_size", grid, saTPB, cuda.DevPtr(perm), n, gk.Ptr(), &val, &sep, distinct, sizes.Ptr()); err != nil {
		return nil, err
	}
	offs, err := r.s.alloc(8 * n)
	if err != nil {
		return nil, err
	}
	if err := r.b.dev.CopyDtoD(offs.Ptr(), sizes.Ptr(), 8*n, nil); err != nil {
		return nil, err
	}
	total, err := r.saScan(offs, n)
	if err != nil {
		return nil, err
	}
	start, err := r.s.zeros(8*ng, 0xff)
	if err != nil {
		return nil, err
	}
	end, err := r.s.zeros(8*ng, 0)
	if err != nil {
		return nil, err
	}
	if err := r.saLaunch("sa_bounds", grid, saTPB, cuda.DevPtr(perm), n, gk.Ptr(), offs.Ptr(), sizes.Ptr(), start.Ptr(), end.Ptr()); err != nil {
		return nil, err
	}
	buf, err := r.s.alloc(total)
	if err != nil {
		return nil, err
	}
	if err := r.saLaunch("sa_write", grid, saTPB, cuda.DevPtr(perm), n, gk.Ptr(), &val, &sep, offs.Ptr(), sizes.Ptr(), buf.Ptr()); err != nil {
		return nil, err
	}
	starts := make([]int64, ng)
	ends := make([]int64, ng)
	if err := r.b.dev.CopyDtoH(sliceBytes(starts), start.Ptr(), nil); err != nil {
		return nil, err
	}
	if err := r.b.dev.CopyDtoH(sliceBytes(ends), end.Ptr(), nil); err != nil {
		return nil, err
	}
	bytes := make([]byte, total)
	if total > 0 {
		if err := r.b.dev.CopyDtoH(bytes, buf.Ptr(), nil); err != nil {
			return nil, err
		}
	}
	for g := range starts {
		if starts[g] < 0 {
			res.SetNull(g)
			continue
		}
		res.S[g] = bytes[starts[g]:ends[g]:ends[g]]
	}
	return res, nil
}

// keyArrays allocates the per-row arrays q_project writes v's n values
// to, as a sort key (sort.go) and the matching output.
func (r *run) keyArrays(v val, n int64) (sKey, qOut, error) {
	key := sKey{Cls: v.cls}
	lo, err := r.s.alloc(8 * n)
	if err != nil {
		return key, qOut{}, err
	}
	nul, err := r.s.alloc(n)
	if err != nil {
		return key, qOut{}, err
	}
	key.Lo, key.Nul = uint64(lo.Ptr()), uint64(nul.Ptr())
	out := qOut{Reg: v.reg, Cls: v.cls, Lo: key.Lo, Nul: key.Nul}
	if v.cls == clsDec {
		hi, err := r.s.alloc(8 * n)
		if err != nil {
			return key, qOut{}, err
		}
		key.Hi, out.Hi = uint64(hi.Ptr()), uint64(hi.Ptr())
	}
	if isStr(v.cls) {
		st, err := r.s.alloc(int64(v.width) * n)
		if err != nil {
			return key, qOut{}, err
		}
		key.Cls, key.Width, key.Str = clsStr, int32(v.width), uint64(st.Ptr())
		out.Cls, out.Width, out.Str = clsStr, int32(v.width), key.Str
	}
	return key, out, nil
}

// saScan turns the n values of b into their exclusive prefix sums, in
// place, and returns the total.
func (r *run) saScan(b *cuda.Buffer, n int64) (int64, error) {
	nb := (n + saChunk - 1) / saChunk
	sums, err := r.s.alloc(8 * (nb + 1))
	if err != nil {
		return 0, err
	}
	if err := r.saLaunch("sa_scan1", uint32(nb), saTPB, b.Ptr(), n, sums.Ptr()); err != nil {
		return 0, err
	}
	if err := r.saLaunch("sa_scan2", 1, 1024, sums.Ptr(), nb); err != nil {
		return 0, err
	}
	if err := r.saLaunch("sa_scan3", r.sortGrid(n), saTPB, b.Ptr(), n, sums.Ptr()); err != nil {
		return 0, err
	}
	var tot [8]byte
	if err := r.b.dev.CopyDtoH(tot[:], sums.Ptr()+cuda.DevPtr(8*nb), nil); err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(tot[:])), nil
}
