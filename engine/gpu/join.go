package gpu

import (
	"context"
	"encoding/binary"
	"unsafe"

	"github.com/gpusql/gpusql/cuda"
	"github.com/gpusql/gpusql/engine"
)

// The hash join on the device (cuda/join.cu has the kernels and the
// steps). The right side builds, the left side probes; the output's
// columns are gathered from both sides by the pairs of row numbers the
// probe writes. A residual condition runs as a filter over a table of
// the candidate pairs' columns, before a semi, anti or outer join decides
// what matched.

// jKey mirrors JKey in cuda/join.cu.
type jKey struct {
	Lo, Hi, Nul, Str uint64
	Cls, Width       int32
}

// probe modes (JM_* in join.cu)
const (
	jmInner = iota
	jmLeft
	jmSemi
	jmAnti
	jmAntiNull
	jmMark
)

// jClsNative is JCLS_NATIVE: a key read from its stored integer column.
const jClsNative = 20

// nativeKey is the key of column reference e read where t stores it, for
// an integer-valued column (booleans, integers, dates, timestamps): the
// kernels need no interpreter pass for it.
func nativeKey(e engine.Expr, t *Table) (jKey, bool) {
	c, ok := e.(*engine.ColRef)
	if !ok || c.Idx >= len(t.Cols) {
		return jKey{}, false
	}
	col := t.Cols[c.Idx]
	switch col.Type.Kind {
	case engine.KindBool, engine.KindInt16, engine.KindInt32, engine.KindInt64, engine.KindDate, engine.KindTimestamp, engine.KindTimestampTZ, engine.KindTime:
	default:
		return jKey{}, false
	}
	if col.Type.Kind != c.T.Kind && !(c.T.IsInteger() && col.Type.IsInteger()) {
		return jKey{}, false
	}
	k := jKey{Cls: jClsNative, Width: int32(col.Type.StorageWidth())}
	if col.Data != nil {
		k.Lo = uint64(col.Data.Ptr())
	}
	if col.Valid != nil {
		k.Nul = uint64(col.Valid.Ptr())
	}
	return k, true
}

// joinKeys evaluates key expressions over t into device registers (or
// reads integer columns as they are stored), and returns the numeric
// keys' scales (-1 for other keys).
func (b *Backend) joinKeys(s *scratch, t *Table, keys []engine.Expr) ([]jKey, []int32, error) {
	scales := make([]int32, len(keys))
	ks := make([]jKey, len(keys))
	var exprs []engine.Expr
	var at []int
	for i, e := range keys {
		if k, ok := nativeKey(e, t); ok && t.N > 0 {
			ks[i], scales[i] = k, -1
			continue
		}
		exprs, at = append(exprs, e), append(at, i)
	}
	if len(exprs) == 0 {
		return ks, scales, nil
	}
	r, err := b.newRun(s, t, t.N)
	if err != nil {
		return nil, nil, err
	}
	vals, outs, err := r.deviceOutputs(exprs, 0, t.N, nil)
	if err != nil {
		return nil, nil, err
	}
	for j, v := range vals {
		i := at[j]
		o := outs[j]
		if o.scale != nil {
			return nil, nil, unsupported("a join key that is a numeric of varying scale")
		}
		scales[i] = -1
		if v.cls == clsDec {
			scales[i] = v.scale
		}
		k := jKey{Cls: v.cls, Width: int32(v.width)}
		if o.lo != nil {
			k.Lo = uint64(o.lo.Ptr())
		}
		if o.nul != nil {
			k.Nul = uint64(o.nul.Ptr())
		}
		if o.hi != nil {
			k.Hi = uint64(o.hi.Ptr())
		}
		if o.str != nil {
			k.Str = uint64(o.str.Ptr())
		}
		if isStr(v.cls) {
			k.Cls = clsStr
		}
		ks[i] = k
	}
	return ks, scales, nil
}

// join runs a Join node.
func (b *Backend) join(ctx context.Context, j *engine.Join) (*Table, error) {
	lt, err := b.materialize(ctx, j.Left)
	if err != nil {
		return nil, err
	}
	defer lt.Release()
	rt, err := b.materialize(ctx, j.Right)
	if err != nil {
		return nil, err
	}
	defer rt.Release()
	s := &scratch{dev: b.dev}
	defer s.free()
	h := &hashJoin{b: b, s: s, j: j, l: lt, r: rt}
	return h.run(ctx)
}

// hashJoin is one join's state.
type hashJoin struct {
	b    *Backend
	s    *scratch
	j    *engine.Join
	l, r *Table
	// pairs: left rows (li) and right rows (ri, -1 none), n of them
	li, ri uint64
	n      int64
	// matched flags the right rows the probe matched (RIGHT and FULL
	// joins without a residual)
	matched *cuda.Buffer
}

func (h *hashJoin) run(ctx context.Context) (*Table, error) {
	j := h.j
	if j.Kind == engine.JoinAntiNull && h.r.N == 0 {
		return h.l.takeAll(), nil // NOT IN over no rows: every left row
	}
	keyed := len(j.LeftKeys) > 0
	var nulls bool
	if keyed {
		var err error
		if nulls, err = h.hashPairs(); err != nil {
			return nil, err
		}
		if j.Kind == engine.JoinAntiNull && nulls {
			return h.emptyOf(), nil // NOT IN a list with a NULL: never true
		}
	} else if err := h.crossPairs(); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, engine.Errorf(engine.CodeQueryCanceled, "canceling statement due to user request")
	}
	// Without a residual the probe already wrote the join's rows.
	if j.Residual == nil && keyed {
		if j.Kind == engine.JoinRight || j.Kind == engine.JoinFull {
			if err := h.addUnmatchedRight(); err != nil {
				return nil, err
			}
		}
		return h.output()
	}
	if err := h.filterPairs(ctx); err != nil {
		return nil, err
	}
	return h.output()
}

// hashPairs builds the right side's table and probes it. For inner and
// outer joins it leaves the matching pairs (with (row, -1) for unmatched
// left rows of LEFT and FULL joins when there is no residual); for semi
// and anti joins without a residual the output rows; with a residual,
// the candidate pairs. nulls reports a NULL right key.
func (h *hashJoin) hashPairs() (bool, error) {
	b, s, j := h.b, h.s, h.j
	lk := append([]engine.Expr(nil), j.LeftKeys...)
	rk := append([]engine.Expr(nil), j.RightKeys...)
	lkeys, ls, err := b.joinKeys(s, h.l, lk)
	if err != nil {
		return false, err
	}
	rkeys, rs, err := b.joinKeys(s, h.r, rk)
	if err != nil {
		return false, err
	}
	// Numeric keys compare as integers: a key of smaller scale than its
	// partner is computed again, cast up to the partner's scale.
	redoL, redoR := false, false
	for i := range lk {
		if ls[i] < 0 || rs[i] < 0 || ls[i] == rs[i] {
			continue
		}
		t := engine.Type{Kind: engine.KindNumeric, Prec: 38, Scale: int(max(ls[i], rs[i]))}
		if ls[i] < rs[i] {
			lk[i], redoL = &engine.Call{Op: engine.OpCast, Args: []engine.Expr{lk[i]}, T: t}, true
		} else {
			rk[i], redoR = &engine.Call{Op: engine.OpCast, Args: []engine.Expr{rk[i]}, T: t}, true
		}
	}
	if redoL {
		if lkeys, _, err = b.joinKeys(s, h.l, lk); err != nil {
			return false, err
		}
	}
	if redoR {
		if rkeys, _, err = b.joinKeys(s, h.r, rk); err != nil {
			return false, err
		}
	}
	for i := range lkeys {
		if (lkeys[i].Cls == clsStr) != (rkeys[i].Cls == clsStr) {
			return false, engine.Errorf(engine.CodeInternalError, "join key %d: classes %d and %d", i, lkeys[i].Cls, rkeys[i].Cls)
		}
	}
	nk := int32(len(lkeys))
	lkd, err := s.upload(jKeyBytes(lkeys))
	if err != nil {
		return false, err
	}
	rkd, err := s.upload(jKeyBytes(rkeys))
	if err != nil {
		return false, err
	}
	nl, nr := h.l.N, h.r.N
	lh, err := s.alloc(8 * max(nl, 1))
	if err != nil {
		return false, err
	}
	rh, err := s.alloc(8 * max(nr, 1))
	if err != nil {
		return false, err
	}
	if nl > 0 {
		if err := b.joinLaunch("j_hash", nl, cuda.DevPtr(lkd), nk, nl, lh.Ptr()); err != nil {
			return false, err
		}
	}
	if nr > 0 {
		if err := b.joinLaunch("j_hash", nr, cuda.DevPtr(rkd), nk, nr, rh.Ptr()); err != nil {
			return false, err
		}
	}
	// the build side's rows go into the hash table, the probe side's
	// look them up: the right and the left, but for a semi or anti join
	// with a residual that builds on its left (buildsLeft), whose pairs
	// are made from the right rows and turned round
	bN, bKeys, bHash, pN, pKeys, pHash := nr, rkd, rh, nl, lkd, lh
	swapped := false
	if h.buildsLeft() {
		if j.Residual == nil {
			return h.markLeft(cuda.DevPtr(lkd), cuda.DevPtr(rkd), nk, lh, rh)
		}
		bN, bKeys, bHash, pN, pKeys, pHash = nl, lkd, lh, nr, rkd, rh
		swapped = true
	}
	size := slotsFor(bN)
	slotRow, err := s.zeros(4*size, 0xff) // -1: empty
	if err != nil {
		return false, err
	}
	slotHash, err := s.alloc(8 * size)
	if err != nil {
		return false, err
	}
	nullFlag, err := s.zeros(8, 0)
	if err != nil {
		return false, err
	}
	if bN > 0 {
		if err := b.joinLaunch("j_build", bN, bHash.Ptr(), bN, slotRow.Ptr(), slotHash.Ptr(), uint64(size-1), nullFlag.Ptr()); err != nil {
			return false, err
		}
	}
	// a NULL right key: only NOT IN asks (and it never builds on the left
	// with a residual), so only NOT IN waits for the build to read it
	nulls := false
	if j.Kind == engine.JoinAntiNull && !swapped {
		var nf [4]byte
		if err := b.dev.CopyDtoH(nf[:], nullFlag.Ptr(), nil); err != nil {
			return false, err
		}
		nulls = binary.LittleEndian.Uint32(nf[:]) != 0
	}
	mode := int32(jmInner)
	if j.Residual == nil {
		switch j.Kind {
		case engine.JoinLeft, engine.JoinFull:
			mode = jmLeft
		case engine.JoinSemi:
			mode = jmSemi
		case engine.JoinAnti:
			mode = jmAnti
		case engine.JoinAntiNull:
			mode = jmAntiNull
		}
	}
	var matched cuda.DevPtr
	if j.Residual == nil && (j.Kind == engine.JoinRight || j.Kind == engine.JoinFull) {
		m, err := s.zeros(max(nr, 1), 0)
		if err != nil {
			return false, err
		}
		matched = m.Ptr()
		h.matched = m
	}
	counts, err := s.alloc(8 * max(pN, 1))
	if err != nil {
		return false, err
	}
	if pN > 0 {
		if err := b.joinLaunch("j_probe", pN, mode, cuda.DevPtr(pKeys), pHash.Ptr(), pN, cuda.DevPtr(bKeys), nk, slotRow.Ptr(), slotHash.Ptr(),
			uint64(size-1), counts.Ptr(), cuda.DevPtr(0), cuda.DevPtr(0), cuda.DevPtr(0), cuda.DevPtr(0)); err != nil {
			return false, err
		}
	}
	total, err := h.scan(counts, pN)
	if err != nil {
		return false, err
	}
	if total > 1<<31-1 {
		return false, engine.Errorf(engine.CodeProgramLimitExceeded, "a join of more than 2^31 rows is not supported on the GPU")
	}
	pi, err := s.alloc(4 * max(total, 1))
	if err != nil {
		return false, err
	}
	bi, err := s.alloc(4 * max(total, 1))
	if err != nil {
		return false, err
	}
	if pN > 0 && total > 0 {
		if err := b.joinLaunch("j_probe", pN, mode, cuda.DevPtr(pKeys), pHash.Ptr(), pN, cuda.DevPtr(bKeys), nk, slotRow.Ptr(), slotHash.Ptr(),
			uint64(size-1), counts.Ptr(), counts.Ptr(), pi.Ptr(), bi.Ptr(), matched); err != nil {
			return false, err
		}
	}
	h.li, h.ri, h.n = uint64(pi.Ptr()), uint64(bi.Ptr()), total
	if swapped {
		h.li, h.ri = h.ri, h.li
	}
	if mode >= jmSemi {
		h.ri = 0 // semi and anti joins output left rows only
	}
	return nulls, nil
}

// slotsFor is the size of the hash table of n build rows: a power of two
// at least twice n.
func slotsFor(n int64) int64 {
	size := int64(16)
	for size < 2*n {
		size *= 2
	}
	return size
}

// buildsLeft reports whether a semi or anti join builds its hash table
// on the left side: where the right side has more than twice the left's
// rows, building on the right (the hash table of every right row) costs
// more than probing it. Without a residual the left rows the right
// matches are flagged (markLeft); with one, the candidate pairs are made
// from the right rows and filtered as any join's (NOT IN, whose NULL
// rules need the right side's NULLs, only builds on the left without a
// residual).
func (h *hashJoin) buildsLeft() bool {
	switch h.j.Kind {
	case engine.JoinSemi, engine.JoinAnti:
	case engine.JoinAntiNull:
		if h.j.Residual != nil {
			return false
		}
	default:
		return false
	}
	return h.l.N > 0 && h.r.N > 2*h.l.N
}

// markLeft runs a semi or anti join built on its left side: the left
// rows go into the hash table, one probe pass of the right rows flags the
// left rows they match (jmMark), and the join's rows are the left rows
// whose flag it keeps. nulls reports a NULL right key of a NOT IN, as
// hashPairs does.
func (h *hashJoin) markLeft(lkd, rkd cuda.DevPtr, nk int32, lh, rh *cuda.Buffer) (bool, error) {
	b, s, j := h.b, h.s, h.j
	nl, nr := h.l.N, h.r.N
	size := slotsFor(nl)
	slotRow, err := s.zeros(4*size, 0xff) // -1: empty
	if err != nil {
		return false, err
	}
	slotHash, err := s.alloc(8 * size)
	if err != nil {
		return false, err
	}
	// one word for j_build's NULL flag (the left's, unused) and one for
	// the probe's (the right's)
	nullFlags, err := s.zeros(16, 0)
	if err != nil {
		return false, err
	}
	if err := b.joinLaunch("j_build", nl, lh.Ptr(), nl, slotRow.Ptr(), slotHash.Ptr(), uint64(size-1), nullFlags.Ptr()); err != nil {
		return false, err
	}
	// a byte per left row: 1 matched, 0 not, 2 (NOT IN only) a NULL key,
	// which NOT IN over a list of rows never keeps
	flags, err := s.zeros(nl, 0)
	if err != nil {
		return false, err
	}
	if j.Kind == engine.JoinAntiNull {
		if err := b.joinLaunch("j_null_flags", nl, lh.Ptr(), nl, flags.Ptr(), int32(2)); err != nil {
			return false, err
		}
	}
	rightNull := nullFlags.Ptr() + 8
	if err := b.joinLaunch("j_probe", nr, int32(jmMark), rkd, rh.Ptr(), nr, lkd, nk, slotRow.Ptr(), slotHash.Ptr(),
		uint64(size-1), rightNull, cuda.DevPtr(0), cuda.DevPtr(0), cuda.DevPtr(0), flags.Ptr()); err != nil {
		return false, err
	}
	nulls := false
	if j.Kind == engine.JoinAntiNull {
		var nf [4]byte
		if err := b.dev.CopyDtoH(nf[:], rightNull, nil); err != nil {
			return false, err
		}
		nulls = binary.LittleEndian.Uint32(nf[:]) != 0
	}
	want := int32(0)
	if j.Kind == engine.JoinSemi {
		want = 1
	}
	rows, n, err := h.flagRows(uint64(flags.Ptr()), nl, want)
	if err != nil {
		return false, err
	}
	h.li, h.ri, h.n = rows, 0, n
	return nulls, nil
}

// crossPairs writes every pair of rows (a join without keys).
func (h *hashJoin) crossPairs() error {
	n := h.l.N * h.r.N
	if n > 1<<31-1 {
		return engine.Errorf(engine.CodeProgramLimitExceeded, "a cross join of %d x %d rows is too large for the GPU", h.l.N, h.r.N)
	}
	li, err := h.s.alloc(4 * max(n, 1))
	if err != nil {
		return err
	}
	ri, err := h.s.alloc(4 * max(n, 1))
	if err != nil {
		return err
	}
	if n > 0 {
		if err := h.b.joinLaunch("j_cross", n, int64(0), n, h.r.N, li.Ptr(), ri.Ptr()); err != nil {
			return err
		}
	}
	h.li, h.ri, h.n = uint64(li.Ptr()), uint64(ri.Ptr()), n
	return nil
}

// scan turns counts (u64, n of them) into exclusive offsets and returns
// the total.
func (h *hashJoin) scan(counts *cuda.Buffer, n int64) (int64, error) {
	if n == 0 {
		return 0, nil
	}
	r := &run{b: h.b, s: h.s}
	return r.saScan(counts, n)
}

// filterPairs applies the residual to the candidate pairs and makes the
// join's output rows from those that pass.
func (h *hashJoin) filterPairs(ctx context.Context) error {
	b, s, j := h.b, h.s, h.j
	var sel uint64
	pass := h.n
	if j.Residual != nil && h.n > 0 {
		pt, err := h.pairTable()
		if err != nil {
			return err
		}
		defer pt.Release()
		r, err := b.newRun(s, pt, h.n)
		if err != nil {
			return err
		}
		q, err := r.hostSteps(ctx, &engine.Plan{Filter: j.Residual, Table: "(pairs)"})
		if err != nil {
			return err
		}
		if sel, pass, err = r.selection(q.Filter, -1); err != nil {
			return err
		}
	}
	// the passing pairs
	take := func(src uint64) (uint64, error) {
		out, err := s.alloc(4 * max(pass, 1))
		if err != nil {
			return 0, err
		}
		if pass > 0 {
			if sel == 0 {
				err = b.dev.CopyDtoD(out.Ptr(), cuda.DevPtr(src), 4*pass, nil)
			} else {
				err = b.joinLaunch("j_take", pass, out.Ptr(), cuda.DevPtr(src), cuda.DevPtr(sel), pass)
			}
		}
		return uint64(out.Ptr()), err
	}
	pl, err := take(h.li)
	if err != nil {
		return err
	}
	pr, err := take(h.ri)
	if err != nil {
		return err
	}
	switch j.Kind {
	case engine.JoinInner:
		h.li, h.ri, h.n = pl, pr, pass
		return nil
	case engine.JoinSemi, engine.JoinAnti:
		flags, err := h.flags(pl, pass, h.l.N)
		if err != nil {
			return err
		}
		want := int32(1)
		if j.Kind == engine.JoinAnti {
			want = 0
		}
		rows, n, err := h.flagRows(flags, h.l.N, want)
		if err != nil {
			return err
		}
		h.li, h.ri, h.n = rows, 0, n
		return nil
	}
	// outer joins: the passing pairs, then the unmatched rows
	li, ri, n := pl, pr, pass
	add := func(rows uint64, m int64, left bool) error {
		nli, err := s.alloc(4 * max(n+m, 1))
		if err != nil {
			return err
		}
		nri, err := s.alloc(4 * max(n+m, 1))
		if err != nil {
			return err
		}
		if n > 0 {
			if err := b.dev.CopyDtoD(nli.Ptr(), cuda.DevPtr(li), 4*n, nil); err != nil {
				return err
			}
			if err := b.dev.CopyDtoD(nri.Ptr(), cuda.DevPtr(ri), 4*n, nil); err != nil {
				return err
			}
		}
		if m > 0 {
			fill, with := nri, nli
			if !left {
				fill, with = nli, nri
			}
			if err := b.dev.Memset8(fill.Ptr()+cuda.DevPtr(4*n), 0xff, 4*m, nil); err != nil {
				return err
			}
			if err := b.dev.CopyDtoD(with.Ptr()+cuda.DevPtr(4*n), cuda.DevPtr(rows), 4*m, nil); err != nil {
				return err
			}
		}
		li, ri, n = uint64(nli.Ptr()), uint64(nri.Ptr()), n+m
		return nil
	}
	if j.Kind == engine.JoinLeft || j.Kind == engine.JoinFull {
		flags, err := h.flags(pl, pass, h.l.N)
		if err != nil {
			return err
		}
		rows, m, err := h.flagRows(flags, h.l.N, 0)
		if err != nil {
			return err
		}
		if err := add(rows, m, true); err != nil {
			return err
		}
	}
	if j.Kind == engine.JoinRight || j.Kind == engine.JoinFull {
		flags, err := h.flags(pr, pass, h.r.N)
		if err != nil {
			return err
		}
		rows, m, err := h.flagRows(flags, h.r.N, 0)
		if err != nil {
			return err
		}
		if err := add(rows, m, false); err != nil {
			return err
		}
	}
	h.li, h.ri, h.n = li, ri, n
	return nil
}

// addUnmatchedRight appends (-1, row) for the right rows the probe did
// not match (RIGHT and FULL joins without a residual).
func (h *hashJoin) addUnmatchedRight() error {
	rows, m, err := h.flagRows(uint64(h.matched.Ptr()), h.r.N, 0)
	if err != nil || m == 0 {
		return err
	}
	b, s := h.b, h.s
	n := h.n
	nli, err := s.alloc(4 * (n + m))
	if err != nil {
		return err
	}
	nri, err := s.alloc(4 * (n + m))
	if err != nil {
		return err
	}
	if n > 0 {
		if err := b.dev.CopyDtoD(nli.Ptr(), cuda.DevPtr(h.li), 4*n, nil); err != nil {
			return err
		}
		if err := b.dev.CopyDtoD(nri.Ptr(), cuda.DevPtr(h.ri), 4*n, nil); err != nil {
			return err
		}
	}
	if err := b.dev.Memset8(nli.Ptr()+cuda.DevPtr(4*n), 0xff, 4*m, nil); err != nil {
		return err
	}
	if err := b.dev.CopyDtoD(nri.Ptr()+cuda.DevPtr(4*n), cuda.DevPtr(rows), 4*m, nil); err != nil {
		return err
	}
	h.li, h.ri, h.n = uint64(nli.Ptr()), uint64(nri.Ptr()), n+m
	return nil
}

// flags marks, in a byte per row of a side of rows rows, the rows that
// the n row numbers at list name.
func (h *hashJoin) flags(list uint64, n, rows int64) (uint64, error) {
	f, err := h.s.zeros(max(rows, 1), 0)
	if err != nil {
		return 0, err
	}
	if n > 0 {
		if err := h.b.joinLaunch("j_mark", n, f.Ptr(), cuda.DevPtr(list), cuda.DevPtr(0), n); err != nil {
			return 0, err
		}
	}
	return uint64(f.Ptr()), nil
}

// flagRows lists, in order, the rows whose flag is want.
func (h *hashJoin) flagRows(flags uint64, rows int64, want int32) (uint64, int64, error) {
	if rows == 0 {
		return 0, 0, nil
	}
	counts, err := h.s.alloc(8 * rows)
	if err != nil {
		return 0, 0, err
	}
	if err := h.b.joinLaunch("j_flag_counts", rows, cuda.DevPtr(flags), rows, want, counts.Ptr()); err != nil {
		return 0, 0, err
	}
	total, err := h.scan(counts, rows)
	if err != nil {
		return 0, 0, err
	}
	out, err := h.s.alloc(4 * max(total, 1))
	if err != nil {
		return 0, 0, err
	}
	if err := h.b.joinLaunch("j_flag_rows", rows, cuda.DevPtr(flags), rows, want, counts.Ptr(), out.Ptr()); err != nil {
		return 0, 0, err
	}
	return uint64(out.Ptr()), total, nil
}

// pairTable gathers the columns the residual reads, of both sides, for
// the candidate pairs (the others stay empty).
func (h *hashJoin) pairTable() (*Table, error) {
	nlc := len(h.l.Cols)
	used := map[int]bool{}
	colsRead(h.j.Residual, used)
	t := &Table{N: h.n, Dev: h.b.dev, Cols: make([]*Column, nlc+len(h.r.Cols))}
	for c := range t.Cols {
		src, idx := h.l.Cols, h.li
		k := c
		if c >= nlc {
			src, idx, k = h.r.Cols, h.ri, c-nlc
		}
		if !used[c] {
			t.Cols[c] = &Column{Type: src[k].Type, Width: src[k].Width}
			continue
		}
		col, err := h.b.gatherRows(src[k], idx, h.n, false)
		if err != nil {
			t.Release()
			return nil, err
		}
		t.Cols[c] = col
	}
	return t, nil
}

// output gathers the join's columns by the pairs.
func (h *hashJoin) output() (*Table, error) {
	j := h.j
	cols := append([]*Column(nil), h.l.Cols...)
	nl := len(cols)
	if h.ri != 0 {
		cols = append(cols, h.r.Cols...)
	}
	out := &Table{N: h.n, Dev: h.b.dev, Cols: make([]*Column, len(cols))}
	for k, src := range cols {
		idx := h.li
		nullable := j.Kind == engine.JoinRight || j.Kind == engine.JoinFull
		if k >= nl {
			idx = h.ri
			nullable = j.Kind == engine.JoinLeft || j.Kind == engine.JoinFull
		}
		c, err := h.b.gatherRows(src, idx, h.n, nullable)
		if err != nil {
			out.Release()
			return nil, err
		}
		c.origin = src.origin
		out.Cols[k] = c
	}
	return out, nil
}

// emptyOf is the join's output with no rows.
func (h *hashJoin) emptyOf() *Table {
	t := &Table{Dev: h.b.dev, Cols: make([]*Column, len(h.l.Cols))}
	for i, c := range h.l.Cols {
		t.Cols[i] = &Column{Type: c.Type, Width: c.Width}
	}
	return t
}

// colsRead adds the column indexes e reads to set.
func colsRead(e engine.Expr, set map[int]bool) {
	switch e := e.(type) {
	case *engine.ColRef:
		set[e.Idx] = true
	case *engine.Call:
		for _, a := range e.Args {
			colsRead(a, set)
		}
	case *engine.HostFunc:
		for _, a := range e.Args {
			colsRead(a, set)
		}
	case *engine.Case:
		for i := range e.Conds {
			colsRead(e.Conds[i], set)
			colsRead(e.Results[i], set)
		}
		colsRead(e.Else, set)
	}
}

func jKeyBytes(ks []jKey) []byte {
	if len(ks) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&ks[0])), len(ks)*int(unsafe.Sizeof(jKey{})))
}
