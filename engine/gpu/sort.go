package gpu

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
	"unsafe"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// ORDER BY [OFFSET] [LIMIT] of a plan without aggregates runs on the
// device (cuda/sort.cu): the key expressions are evaluated over every
// selected row into device arrays, a stable LSD radix sort orders the row
// positions, and only the rows in [OFFSET, OFFSET+LIMIT) are evaluated in
// full and downloaded, in order. Ties keep row order, as the CPU backend's
// stable sort (eval.SortRows) keeps them, so both give the same rows.

// sKey and sWord mirror SKey and SWord of cuda/sort.cu.
type sKey struct {
	Lo, Hi, Nul, Str             uint64
	Cls, Width, Desc, NullsFirst int32
}

type sWord struct {
	K          sKey
	Word, Mode int32
	Min, Max   uint64
}

const sortTPB = 256 // STPB

// sortRounds is the rows per thread of a tile of s_hist and s_scatter
// (a block's STPB * rounds rows) for a sort of n rows: 64 (16,384 rows a
// tile) once n fills two tiles per SM; fewer below, so that a small sort
// still spreads over every SM instead of looping through a few tiles.
func (r *run) sortRounds(n int64) int64 {
	want := 2 * int64(r.b.dev.Props().SMs) * sortTPB
	return min(max((n+want-1)/want, 1), 64)
}

// sortKernels is the loaded sort module, once per backend.
type sortKernels struct {
	once sync.Once
	fns  map[string]*cuda.Function
	err  error
}

func (b *Backend) sortFns() (map[string]*cuda.Function, error) {
	k := &b.sorts
	k.once.Do(func() {
		m, _, err := b.dev.LoadKernels("sort")
		if err != nil {
			k.err = err
			return
		}
		k.fns = map[string]*cuda.Function{}
		for _, n := range []string{"s_stats", "s_key", "s_iota", "s_hist", "s_scan", "s_scatter", "s_select", "s_pick", "s_rows"} {
			f, err := m.Function(n)
			if err != nil {
				k.err = err
				return
			}
			k.fns[n] = f
		}
	})
	return k.fns, k.err
}

// deviceSorts reports whether Execute sorts p on the device: a table
// query without aggregates or DISTINCT that has an ORDER BY.
func deviceSorts(p *engine.Plan) bool {
	return p.Data != nil && !p.Aggregate && !p.Distinct && len(p.OrderBy) > 0
}

// sortedTail is p with the ORDER BY, OFFSET and LIMIT that sortProject
// has already applied taken off, for finish.
func sortedTail(p *engine.Plan) *engine.Plan {
	q := *p
	q.OrderBy, q.Offset, q.Limit = nil, 0, -1
	return &q
}

// hostSortRows is the most rows a filter may leave for their sort to
// run on the host: a point lookup's few rows cost a radix sort's dozen
// launches and copies on the device, and nothing on the host.
const hostSortRows = 1024

// sortProject runs a non-aggregate plan with ORDER BY: filter, key
// evaluation, sort, then the visible window's rows only. sorted is false
// when the filter left at most hostSortRows rows: they come back whole and
// unsorted, for the caller's finish to sort as the CPU backend does
// (eval.SortRows, stable: the same rows in the same order).
func (r *run) sortProject(p *engine.Plan) (res *engine.Batch, sorted bool, err error) {
	fns, err := r.b.sortFns()
	if err != nil {
		return nil, false, err
	}
	var sel uint64
	n := r.n
	if p.Filter != nil && n > 0 {
		if sel, n, err = r.selection(p.Filter, -1); err != nil {
			return nil, false, err
		}
		if n <= hostSortRows {
			res, err := r.outputs(p.Project, sel, n, nil)
			return res, false, err
		}
	}
	start := min(p.Offset, n)
	count := n - start
	if p.Limit >= 0 {
		count = min(count, p.Limit)
	}
	if count > 0 && (start+count)*8 <= n && len(p.OrderBy) > 1 {
		if res, ok, err := r.topByFirstKey(fns, p, sel, n, start, count); ok || err != nil {
			return res, true, err
		}
	}
	keys, err := r.sortKeys(p, sel, n)
	if err != nil {
		return nil, false, err
	}
	if count == 0 {
		res, err := r.outputs(p.Project, 0, 0, nil)
		return res, true, err
	}
	perm, _, err := r.radixSort(fns, keys, n, start+count)
	if err != nil {
		return nil, false, err
	}
	rows, err := r.s.alloc(count * 4)
	if err != nil {
		return nil, false, err
	}
	if err := r.b.dev.Launch(fns["s_rows"], cuda.Dim3{X: r.grid(count), Y: 1, Z: 1}, cuda.Dim3{X: tpb, Y: 1, Z: 1}, 0, nil,
		perm, start, count, sel, rows.Ptr()); err != nil {
		return nil, false, err
	}
	res, err = r.outputs(p.Project, uint64(rows.Ptr()), count, nil)
	return res, true, err
}

// topCandidateMax is the most candidates topByFirstKey sorts by every key;
// past it (many rows tie on the first key) the whole sort runs.
const topCandidateMax = 1 << 16

// topByFirstKey runs an ORDER BY of several plain-column keys whose window
// (start+count rows) is small. Only the first key is evaluated over the n
// rows, to pick the candidates: the rows whose first key is within the
// window's (radixSort's top path, topCandidates). The other keys are
// evaluated and sorted over the candidates alone, in row order, so ties
// keep the rows' order as the whole sort would. Evaluating every key of
// every row took most of a top-10 over 60 M rows (q_colkeys 1.3 of 4.3
// ms, then statistics over each key). ok is false where the keys are not
// plain columns (whose evaluation cannot fail, so no row's error is
// skipped) or too many rows tie on the first key; the caller sorts whole.
func (r *run) topByFirstKey(fns map[string]*cuda.Function, p *engine.Plan, sel uint64, n, start, count int64) (*engine.Batch, bool, error) {
	first := *p
	first.OrderBy = p.OrderBy[:1]
	keys, ok, err := r.columnKeys(&first, sel, n)
	if !ok || err != nil {
		return nil, false, err
	}
	words, nbytes, err := r.sortWords(fns, keys, n)
	if err != nil || len(words) == 0 {
		return nil, false, err // every first key alike: no candidates to pick
	}
	// the candidates' search needs 16 bytes a row, given back when it ends
	// (its last step waits for the device), so that a fallback to the
	// whole sort does not hold them too
	tmp := &scratch{dev: r.b.dev}
	defer tmp.free()
	ident, err := tmp.alloc(4 * n)
	if err != nil {
		return nil, false, err
	}
	grid := cuda.Dim3{X: r.sortGrid(n), Y: 1, Z: 1}
	if err := r.b.dev.Launch(fns["s_iota"], grid, cuda.Dim3{X: sortTPB, Y: 1, Z: 1}, 0, nil, ident.Ptr(), n); err != nil {
		return nil, false, err
	}
	cands, err := tmp.alloc(4 * n)
	if err != nil {
		return nil, false, err
	}
	scratch, err := tmp.alloc(8 * n)
	if err != nil {
		return nil, false, err
	}
	c, err := r.topCandidates(fns, words[0], nbytes[0], ident, cands, scratch, n, start+count)
	if err != nil || c > topCandidateMax || c < start+count {
		return nil, false, err
	}
	// the candidates in row order (s_pick leaves them unordered)
	pos := make([]uint32, c)
	if err := r.b.dev.CopyDtoH(unsafe.Slice((*byte)(unsafe.Pointer(&pos[0])), 4*c), cands.Ptr(), nil); err != nil {
		return nil, false, err
	}
	slices.Sort(pos)
	sorted, err := r.s.upload(unsafe.Slice((*byte)(unsafe.Pointer(&pos[0])), 4*c))
	if err != nil {
		return nil, false, err
	}
	// their rows, and every key over them
	rows, err := r.s.alloc(4 * c)
	if err != nil {
		return nil, false, err
	}
	if err := r.b.dev.Launch(fns["s_rows"], cuda.Dim3{X: r.grid(c), Y: 1, Z: 1}, cuda.Dim3{X: tpb, Y: 1, Z: 1}, 0, nil,
		cuda.DevPtr(sorted), int64(0), c, sel, rows.Ptr()); err != nil {
		return nil, false, err
	}
	sel2 := uint64(rows.Ptr())
	all, ok, err := r.columnKeys(p, sel2, c)
	if !ok || err != nil {
		return nil, ok, err
	}
	perm, _, err := r.radixSort(fns, all, c, start+count)
	if err != nil {
		return nil, true, err
	}
	out, err := r.s.alloc(count * 4)
	if err != nil {
		return nil, true, err
	}
	if err := r.b.dev.Launch(fns["s_rows"], cuda.Dim3{X: r.grid(count), Y: 1, Z: 1}, cuda.Dim3{X: tpb, Y: 1, Z: 1}, 0, nil,
		perm, start, count, sel2, out.Ptr()); err != nil {
		return nil, true, err
	}
	res, err := r.outputs(p.Project, uint64(out.Ptr()), count, nil)
	return res, true, err
}

// sortKeys evaluates every projected expression over the n rows (so that
// a row's error is raised as the CPU backend raises it, whether or not
// the row is shown) and keeps the sort keys' values on the device.
func (r *run) sortKeys(p *engine.Plan, sel uint64, n int64) ([]sKey, error) {
	if keys, ok, err := r.columnKeys(p, sel, n); ok || err != nil {
		return keys, err
	}
	prog := newProgram()
	c := &compiler{p: prog, cols: r.t.Cols}
	vals, err := c.compileOutputs(p.Project, 0)
	if err != nil {
		return nil, err
	}
	keys := make([]sKey, 0, len(p.OrderBy))
	outs := make([]qOut, 0, len(p.OrderBy))
	scaled := map[int]sKey{} // keys[k] of a per-row-scale numeric: its scale
	for _, o := range p.OrderBy {
		v := vals[o.Col]
		if v.cls == clsIntv { // sorted by span, ties in row order (eval.SortRows)
			if v, err = c.span(v); err != nil {
				return nil, err
			}
		}
		key, out, err := r.keyArrays(v, n)
		if err != nil {
			return nil, err
		}
		if o.Desc {
			key.Desc = 1
		}
		if o.NullsFirst {
			key.NullsFirst = 1
		}
		if v.scaleReg != 0 {
			// sorted by value across scales (rowkeys.go)
			sk, so, err := r.keyArrays(val{reg: v.scaleReg, cls: clsI64}, n)
			if err != nil {
				return nil, err
			}
			scaled[len(keys)] = sk
			outs = append(outs, so)
		}
		keys, outs = append(keys, key), append(outs, out)
	}
	a := qArgs{Sel: sel, N: n}
	if err := r.prepare(prog, &a); err != nil {
		return nil, err
	}
	if a.Outs, err = r.s.upload(sliceBytes(outs)); err != nil {
		return nil, err
	}
	a.NOuts = int32(len(outs))
	if n > 0 {
		if err := r.launch("q_project", r.grid(n), 0, &a); err != nil {
			return nil, err
		}
		if err := r.check(prog); err != nil {
			return nil, err
		}
	}
	if len(scaled) == 0 {
		return keys, nil
	}
	var words []sKey
	for k, key := range keys {
		sk, ok := scaled[k]
		if !ok {
			words = append(words, key)
			continue
		}
		w, err := r.scaledKeyWords(key, sk, n)
		if err != nil {
			return nil, err
		}
		words = append(words, w...)
	}
	return words, nil
}

// colKey mirrors ColKey of cuda/query.cu.
type colKey struct {
	Col         qCol
	Lo, Hi, Nul uint64
}

// columnKeys is sortKeys for a projection of plain columns sorted by
// fixed-width ones (integers, dates, timestamps, floats, numerics,
// booleans): a column raises no error, so only the keys are written, by
// q_colkeys, which loads each value as OP_COL does, without the
// interpreter (whose 164 registers a thread keep it far from the memory's
// rate). ok is false for any other projection.
func (r *run) columnKeys(p *engine.Plan, sel uint64, n int64) ([]sKey, bool, error) {
	if n == 0 || len(p.OrderBy) == 0 {
		return nil, false, nil
	}
	for _, e := range p.Project {
		if _, ok := e.(*engine.ColRef); !ok {
			return nil, false, nil
		}
	}
	c := &compiler{p: newProgram(), cols: r.t.Cols}
	var jobs []colKey
	var keys []sKey
	for _, o := range p.OrderBy {
		ref := p.Project[o.Col].(*engine.ColRef)
		if ref.Idx < 0 || ref.Idx >= len(r.t.Cols) || r.t.Cols[ref.Idx].Data == nil {
			return nil, false, nil
		}
		col := r.t.Cols[ref.Idx]
		v, err := c.compile(ref, 0)
		if err != nil || v.scaleReg != 0 {
			return nil, false, nil
		}
		switch v.cls {
		case clsBool, clsI16, clsI32, clsI64, clsF32, clsF64, clsDec:
		default:
			return nil, false, nil
		}
		key, _, err := r.keyArrays(v, n)
		if err != nil {
			return nil, true, err
		}
		if o.Desc {
			key.Desc = 1
		}
		if o.NullsFirst {
			key.NullsFirst = 1
		}
		j := colKey{Col: qCol{Data: uint64(col.Data.Ptr()), Cls: v.cls, Width: int32(col.Width)}, Lo: key.Lo, Hi: key.Hi, Nul: key.Nul}
		if col.Valid != nil {
			j.Col.Valid = uint64(col.Valid.Ptr())
		}
		jobs, keys = append(jobs, j), append(keys, key)
	}
	jp, err := r.s.upload(sliceBytes(jobs))
	if err != nil {
		return nil, true, err
	}
	if err := r.launch("q_colkeys", r.grid(n), 0, jp, int32(len(jobs)), n, sel); err != nil {
		return nil, true, err
	}
	return keys, true, nil
}

// keyWords is the number of 64-bit sort words of a key (sort.cu).
func keyWords(k sKey) int {
	switch k.Cls {
	case clsDec:
		return 2
	case clsStr, clsChar:
		return int(k.Width+7)/8 + 1
	}
	return 1
}

// sortWords lists the words to sort by, most significant first, with the
// bytes each needs, from the keys' value ranges; words whose values are
// all equal are left out.
func (r *run) sortWords(fns map[string]*cuda.Function, keys []sKey, n int64) ([]sWord, []int, error) {
	offs := make([]int, len(keys))
	total := 0
	for k, key := range keys {
		offs[k] = total
		total += 2*keyWords(key) + 1
	}
	init := make([]byte, 8*total)
	for k, key := range keys {
		for w := 0; w < keyWords(key); w++ {
			binary.LittleEndian.PutUint64(init[8*(offs[k]+2*w):], ^uint64(0))
		}
	}
	st, err := r.s.upload(init)
	if err != nil {
		return nil, nil, err
	}
	for k, key := range keys {
		if err := r.b.dev.Launch(fns["s_stats"], cuda.Dim3{X: r.sortGrid(n), Y: 1, Z: 1}, cuda.Dim3{X: sortTPB, Y: 1, Z: 1}, 0, nil,
			&key, int32(keyWords(key)), n, cuda.DevPtr(st+uint64(8*offs[k]))); err != nil {
			return nil, nil, err
		}
	}
	if err := r.b.dev.CopyDtoH(init, cuda.DevPtr(st), nil); err != nil {
		return nil, nil, err
	}
	stat := func(i int) uint64 { return binary.LittleEndian.Uint64(init[8*i:]) }
	var words []sWord
	var nbytes []int
	for k, key := range keys {
		nw := keyWords(key)
		nulls := int64(stat(offs[k] + 2*nw))
		if nulls > 0 && nulls < n {
			words = append(words, sWord{K: key, Mode: 1})
			nbytes = append(nbytes, 1)
		}
		if nulls == n {
			continue
		}
		for w := 0; w < nw; w++ {
			lo, hi := stat(offs[k]+2*w), stat(offs[k]+2*w+1)
			if hi <= lo {
				continue
			}
			words = append(words, sWord{K: key, Word: int32(w), Min: lo, Max: hi})
			nbytes = append(nbytes, (bits.Len64(hi-lo)+7)/8)
		}
	}
	return words, nbytes, nil
}

func (r *run) sortGrid(n int64) uint32 {
	g := (n + sortTPB - 1) / sortTPB
	g = min(g, int64(r.b.dev.Props().SMs)*8)
	return uint32(max(g, 1))
}

// radixSort returns the device array of the positions in key order and
// its length: all n, or, for a top m (m > 0, m*8 <= n), at least the
// first m.
func (r *run) radixSort(fns map[string]*cuda.Function, keys []sKey, n, m int64) (uint64, int64, error) {
	words, nbytes, err := r.sortWords(fns, keys, n)
	if err != nil {
		return 0, 0, err
	}
	pa, err := r.s.alloc(4 * n)
	if err != nil {
		return 0, 0, err
	}
	grid := cuda.Dim3{X: r.sortGrid(n), Y: 1, Z: 1}
	block := cuda.Dim3{X: sortTPB, Y: 1, Z: 1}
	if err := r.b.dev.Launch(fns["s_iota"], grid, block, 0, nil, pa.Ptr(), n); err != nil {
		return 0, 0, err
	}
	if len(words) == 0 {
		return uint64(pa.Ptr()), n, nil
	}
	pb, err := r.s.alloc(4 * n)
	if err != nil {
		return 0, 0, err
	}
	ka, err := r.s.alloc(8 * n)
	if err != nil {
		return 0, 0, err
	}
	kb, err := r.s.alloc(8 * n)
	if err != nil {
		return 0, 0, err
	}
	if m > 0 && m*8 <= n {
		c, err := r.topCandidates(fns, words[0], nbytes[0], pa, pb, ka, n, m)
		if err != nil {
			return 0, 0, err
		}
		if c < n/2 {
			// sort only the candidates (in pb, unordered): by every word,
			// then by position
			words = append(words[:len(words):len(words)], sWord{K: keys[0], Mode: 2})
			nbytes = append(nbytes[:len(nbytes):len(nbytes)], (bits.Len64(uint64(n-1))+7)/8)
			n = c
			pa, pb = pb, pa
		}
	}
	rounds := r.sortRounds(n)
	tile := sortTPB * rounds
	nblocks := (n + tile - 1) / tile
	counts, err := r.s.alloc(256 * nblocks * 4)
	if err != nil {
		return 0, 0, err
	}
	grid = cuda.Dim3{X: r.sortGrid(n), Y: 1, Z: 1}
	tiles := cuda.Dim3{X: uint32(nblocks), Y: 1, Z: 1}
	one := cuda.Dim3{X: 1, Y: 1, Z: 1}
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		if err := r.b.dev.Launch(fns["s_key"], grid, block, 0, nil, &w, pa.Ptr(), n, ka.Ptr()); err != nil {
			return 0, 0, err
		}
		for b := 0; b < nbytes[i]; b++ {
			shift := int32(8 * b)
			if err := r.b.dev.Launch(fns["s_hist"], tiles, block, 0, nil, ka.Ptr(), n, shift, counts.Ptr(), int32(nblocks), int32(rounds)); err != nil {
				return 0, 0, err
			}
			if err := r.b.dev.Launch(fns["s_scan"], one, cuda.Dim3{X: 1024, Y: 1, Z: 1}, 0, nil, counts.Ptr(), 256*nblocks); err != nil {
				return 0, 0, err
			}
			if err := r.b.dev.Launch(fns["s_scatter"], tiles, block, 0, nil,
				ka.Ptr(), pa.Ptr(), n, shift, counts.Ptr(), int32(nblocks), int32(rounds), kb.Ptr(), pb.Ptr()); err != nil {
				return 0, 0, err
			}
			ka, kb = kb, ka
			pa, pb = pb, pa
		}
	}
	return uint64(pa.Ptr()), n, nil
}

// topCandidates writes to out the positions whose first sort word is at
// most the m-th smallest (sort.cu, "Top k") and returns their count.
// ident holds the positions in order; keys is scratch of n words.
func (r *run) topCandidates(fns map[string]*cuda.Function, w sWord, nbytes int, ident, out, keys *cuda.Buffer, n, m int64) (int64, error) {
	grid := cuda.Dim3{X: r.sortGrid(n), Y: 1, Z: 1}
	block := cuda.Dim3{X: sortTPB, Y: 1, Z: 1}
	if err := r.b.dev.Launch(fns["s_key"], grid, block, 0, nil, &w, ident.Ptr(), n, keys.Ptr()); err != nil {
		return 0, err
	}
	hist, err := r.s.alloc(256 * 4)
	if err != nil {
		return 0, err
	}
	var h [256 * 4]byte
	need := uint64(m)
	prefix := uint64(0)
	for b := nbytes - 1; b >= 0; b-- {
		if err := r.b.dev.Memset8(hist.Ptr(), 0, hist.Size(), nil); err != nil {
			return 0, err
		}
		if err := r.b.dev.Launch(fns["s_select"], grid, block, 0, nil, keys.Ptr(), n, int32(8*b), prefix, hist.Ptr()); err != nil {
			return 0, err
		}
		if err := r.b.dev.CopyDtoH(h[:], hist.Ptr(), nil); err != nil {
			return 0, err
		}
		d := 0
		for ; d < 255; d++ {
			c := uint64(binary.LittleEndian.Uint32(h[4*d:]))
			if need <= c {
				break
			}
			need -= c
		}
		prefix = prefix<<8 | uint64(d)
	}
	cnt, err := r.s.zeros(8, 0)
	if err != nil {
		return 0, err
	}
	if err := r.b.dev.Launch(fns["s_pick"], grid, block, 0, nil, keys.Ptr(), n, prefix, out.Ptr(), cnt.Ptr()); err != nil {
		return 0, err
	}
	var c [8]byte
	if err := r.b.dev.CopyDtoH(c[:], cnt.Ptr(), nil); err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(c[:])), nil
}
