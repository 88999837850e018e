package cpu

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// groupIndex maps GROUP BY key rows to dense group ids. It is an open-
// addressing table of group ids whose keys stay in the aggregator's typed
// key vectors (one row per group), so a lookup hashes the row's keys in
// place and compares them with a group's row: no key is encoded into
// bytes or allocated.
type groupIndex struct {
	// dslots, when set, index the groups of one integer key by its value
	// minus base (group id + 1; 0: none yet): keys in that range skip
	// hashing. NULL and keys outside it use the table.
	dslots []int32
	base   int64
	seed   eval.KeySeed
	slots  []groupSlot
	used   int // slots in use
	mask   uint64
	hbuf   []uint64
	small  smallKeys
	// intKey: the index has one integer key, kept in the slots in
	// place of the hash (intSlots); nullID is the NULL key's group + 1.
	intKey bool
	nullID int32
	// pair: the index has two keys of 32 bits (pairSlots), kept in the
	// slots as one integer; rows with a NULL key go to nulls, an index of
	// the same groups by hash
	pair  bool
	nulls *groupIndex
}

// groupSlot is one slot of the table: a group's hash beside its id, so
// that a miss costs one memory access.
type groupSlot struct {
	hash uint64
	id   int32 // group id + 1; 0 is an empty slot
}

func newGroupIndex() *groupIndex {
	x := &groupIndex{seed: eval.NewKeySeed()}
	x.resize(1024)
	return x
}

func (x *groupIndex) resize(size int) {
	old := x.slots
	x.slots = make([]groupSlot, size)
	x.mask = uint64(size - 1)
	for _, sl := range old {
		if sl.id == 0 {
			continue
		}
		h := sl.hash
		if x.intKey {
			h = intKeyHash(int64(h))
		}
		s := h & x.mask
		for x.slots[s].id != 0 {
			s = (s + 1) & x.mask
		}
		x.slots[s] = sl
	}
}

// reserve grows the table for n groups in all, so that adding them does
// not resize it.
func (x *groupIndex) reserve(n int) {
	size := len(x.slots)
	for 2*n > size {
		size *= 2
	}
	if size > len(x.slots) {
		x.resize(size)
	}
}

// assign sets ids[i] to the group of key row lo+i of keys, for n rows,
// calling add(row) to make a group for each key not seen before, which
// must append the row to groups. A row with the same keys as the row
// before it (sorted or clustered input) takes its group without a lookup.
func (x *groupIndex) assign(groups, keys []*engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
	if x.dslots != nil {
		x.assignDirect(groups, keys, lo, n, ids, add)
		return
	}
	if lo == 0 && x.assignSmall(groups, keys, n, ids, add) {
		return
	}
	x.assignHash(groups, keys, lo, n, ids, add)
}

// intSlots makes x keep one integer key in its slots: a probe then
// compares the key in the slot, not the group's row in the key vector.
// It must be called before any assign, and every assign must then have
// one integer key.
func (x *groupIndex) intSlots() { x.intKey = true }

// pairSlots makes x keep two keys of 32 bits in its slots, as one
// integer: a probe then compares that, not the group's rows in the key
// vectors. It must be called before any assign, and every assign must
// then have two such keys (fits32).
func (x *groupIndex) pairSlots() { x.intKey, x.pair = true, true }

// fits32 reports whether values of kind k fit in 32 bits.
func fits32(k engine.Kind) bool { return k == engine.KindInt16 || k == engine.KindInt32 }

// pairSlotsFor calls pairSlots where keys of types ts fit them.
func (x *groupIndex) pairSlotsFor(ts ...engine.Type) {
	if len(ts) == 2 && fits32(ts[0].Kind) && fits32(ts[1].Kind) {
		x.pairSlots()
	}
}

// intKeyHash is eval.HashKeys's hash of one non-NULL integer key.
func intKeyHash(k int64) uint64 { return eval.Mix64(0x2545f4914f6cdd1d ^ uint64(k)) }

// assignHash is assign through the hash table, row by row.
func (x *groupIndex) assignHash(groups, keys []*engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
	if x.pair {
		x.assignPair(groups, keys, lo, n, ids, add)
		return
	}
	if x.intKey {
		x.assignInt(keys[0], lo, n, ids, add)
		return
	}
	hs := eval.HashKeys(x.hbuf, x.seed, keys, lo, n)
	x.hbuf = hs
	oneInt := len(keys) == 1 && engine.PhysOf(keys[0].T.Kind) == engine.PhysInt && keys[0].Null == nil
	var ki []int64
	if oneInt {
		ki = keys[0].I
	}
	for i, h := range hs {
		row := lo + i
		if i > 0 && h == hs[i-1] {
			if oneInt && ki[row] == ki[row-1] || !oneInt && eval.KeysEqual(keys, row, keys, row-1) {
				ids[i] = ids[i-1]
				continue
			}
		}
		s := h & x.mask
		for {
			sl := x.slots[s]
			if sl.id == 0 {
				id := add(row)
				x.slots[s] = groupSlot{hash: h, id: id + 1}
				x.used++
				if 2*x.used > len(x.slots) {
					x.resize(2 * len(x.slots))
				}
				ids[i] = id
				break
			}
			if sl.hash == h {
				g := sl.id
				if oneInt {
					gk := groups[0]
					if !gk.IsNull(int(g-1)) && gk.I[g-1] == ki[row] {
						ids[i] = g - 1
						break
					}
				} else if eval.KeysEqual(groups, int(g-1), keys, row) {
					ids[i] = g - 1
					break
				}
			}
			s = (s + 1) & x.mask
		}
	}
}

// directGroupSpan bounds the range of key values that setDirect accepts.
const directGroupSpan = 1 << 24

// setDirect makes x index integer keys in [lo, hi] by value, where that
// range is small enough; it reports whether it did. It must be called
// before any assign.
func (x *groupIndex) setDirect(lo, hi int64, rows int) bool {
	span := uint64(hi) - uint64(lo) // hi >= lo
	if hi < lo || span >= directGroupSpan || span > 2*uint64(rows)+1024 {
		return false
	}
	x.dslots, x.base = make([]int32, span+1), lo
	return true
}

// assignDirect is assign for an index with dslots: each key of the range
// finds its group by value; other rows go through the hash table one by
// one. A key always takes the same path, so it has one group.
func (x *groupIndex) assignDirect(groups, keys []*engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
	v := keys[0]
	for i := 0; i < n; i++ {
		row := lo + i
		if !v.IsNull(row) {
			if d := uint64(v.I[row]) - uint64(x.base); d < uint64(len(x.dslots)) {
				g := x.dslots[d]
				if g == 0 {
					g = add(row) + 1
					x.dslots[d] = g
				}
				ids[i] = g - 1
				continue
			}
		}
		dslots := x.dslots
		x.dslots = nil
		x.assign(groups, keys, row, 1, ids[i:i+1], add)
		x.dslots = dslots
	}
}

// smallSpan bounds the product of the key ranges that assignSmall
// handles in one batch.
const smallSpan = 1 << 16

// smallKeys is assignSmall's scratch.
type smallKeys struct {
	// skip is the number of batches left to hand to the hash table
	// directly, after a batch that did not fit or had too many distinct
	// keys for the table to pay: penalty, doubling on each such batch
	skip, penalty int
	codes         [][]int64 // a batch's key codes, per key (keyCodes)
	buf           [][]int64 // their storage, where not a key's own
	lo            []int64
	width         []int64
	local         []int32 // code → rep + 1; all zero between batches
	rep           []int32 // row → its rep
	reps          []int32 // first row of each distinct key, in row order
	rcode         []int64
	ids           []int32
	// dense's table of a key's codes (dvals: number + 1; all zero
	// between calls) and its slots in use
	dkeys []int64
	dvals []int32
	dused []int32
}

// keyCodes returns, for rows 0..n-1 of v, integers that are equal
// exactly when the rows' keys are equal within a batch: integers
// themselves, numerics of one scale that fit in int64 by their mantissa,
// strings of up to 7 bytes packed with their length; with the least and
// greatest code of the non-NULL rows and whether there are NULLs (whose
// codes are left unset). ok is false when v has other values. The codes
// are v's own integers when it has no NULLs, else in buf.
func keyCodes(v *engine.Vec, n int, buf []int64) (codes []int64, lo, hi int64, nulls, ok bool) {
	lo, hi = math.MaxInt64, math.MinInt64
	if engine.PhysOf(v.T.Kind) == engine.PhysInt && v.Null == nil {
		codes = v.I[:n]
		for _, c := range codes {
			lo, hi = min(lo, c), max(hi, c)
		}
		return codes, lo, hi, false, true
	}
	if cap(buf) < n {
		buf = make([]int64, n)
	}
	codes = buf[:n]
	null := func(i int) bool { return v.Null != nil && v.Null[i] }
	switch engine.PhysOf(v.T.Kind) {
	case engine.PhysInt:
		for i, c := range v.I[:n] {
			if null(i) {
				nulls = true
				continue
			}
			codes[i] = c
			lo, hi = min(lo, c), max(hi, c)
		}
	case engine.PhysDec:
		scale := int32(-1)
		for i, d := range v.D[:n] {
			if null(i) {
				nulls = true
				continue
			}
			if scale < 0 {
				scale = d.Scale
			}
			if d.Hi != int64(d.Lo)>>63 || d.Scale != scale {
				return nil, 0, 0, false, false
			}
			c := int64(d.Lo)
			codes[i] = c
			lo, hi = min(lo, c), max(hi, c)
		}
	case engine.PhysStr:
		for i, s := range v.S[:n] {
			if null(i) {
				nulls = true
				continue
			}
			if len(s) > 7 {
				return nil, 0, 0, false, false
			}
			var c int64
			for _, b := range s {
				c = c<<8 | int64(b)
			}
			c = c<<3 | int64(len(s))
			codes[i] = c
			lo, hi = min(lo, c), max(hi, c)
		}
	default:
		return nil, 0, 0, false, false
	}
	return codes, lo, hi, nulls, true
}

// assignSmall is assign for a batch (rows 0..n-1 of keys) whose keys all
// have codes spanning a small range together: rows are grouped within
// the batch by their combined code through a direct table, and only the
// first row of each distinct key is looked up in the index. Groups are
// made in the order of their first rows, as assign makes them. It
// reports false, having done nothing, when the batch does not fit.
func (x *groupIndex) assignSmall(groups, keys []*engine.Vec, n int, ids []int32, add func(row int) int32) bool {
	return x.assignSmallFrom(groups, keys, nil, n, ids, nil, add)
}

// assignStored is assignSmall for a batch some of whose keys are stored
// string columns not scanned into vectors: src[k], where not nil, gives
// key k's rows (keys[k] then has the rows' NULL flags and no strings).
// Their codes are read from the stored bytes, and only the first row of
// each distinct key is made a string, into the key vectors addRep is
// given with that row. It reports false, having done nothing, when the
// batch does not fit (the caller then scans the strings and calls
// assign).
func (x *groupIndex) assignStored(groups, keys []*engine.Vec, src []*storedStr, n int, ids []int32, addRep func(rep []*engine.Vec, r int) int32) bool {
	if x.dslots != nil || x.intKey {
		return false
	}
	return x.assignSmallFrom(groups, keys, src, n, ids, addRep, nil)
}

// storedStr is a batch's rows of a stored string column: row k is stored
// row lo+k, or lo+sel[k] where sel is not nil.
type storedStr struct {
	col *engine.Column
	lo  int
	sel []int32
}

// row is the stored row of the batch's row k.
func (s *storedStr) row(k int) int {
	if s.sel != nil {
		return s.lo + int(s.sel[k])
	}
	return s.lo + k
}

// str is the batch's row k as scanRows gives it: the stored bytes up to
// their padding, a char value without its trailing blanks.
func (s *storedStr) str(k int) []byte {
	c := s.col
	r := s.row(k)
	b := c.Str[r*c.Width : (r+1)*c.Width]
	m := 0
	for m < len(b) && b[m] != 0 {
		m++
	}
	if c.Type.Kind == engine.KindChar {
		for m > 0 && b[m-1] == ' ' {
			m--
		}
	}
	return b[:m:m]
}

// codes is keyCodes of the batch's n rows read from the stored bytes
// (the strings that str gives, without making them).
func (s *storedStr) codes(n int, buf []int64) (codes []int64, lo, hi int64, nulls, ok bool) {
	lo, hi = math.MaxInt64, math.MinInt64
	if cap(buf) < n {
		buf = make([]int64, n)
	}
	codes = buf[:n]
	c := s.col
	w := c.Width
	trim := c.Type.Kind == engine.KindChar
	str := c.Str
	for k := 0; k < n; k++ {
		r := s.lo + k
		if s.sel != nil {
			r = s.lo + int(s.sel[k])
		}
		if c.Valid != nil && c.IsNull(r) {
			nulls = true
			continue
		}
		var code int64
		ok := false
		switch w { // the common widths word by word, inline
		case 4:
			code, ok = wordCode(uint64(binary.LittleEndian.Uint32(str[r*4:])), trim)
		case 8:
			code, ok = wordCode(binary.LittleEndian.Uint64(str[r*8:]), trim)
		case 12:
			if binary.LittleEndian.Uint32(str[r*12+8:]) == 0 {
				code, ok = wordCode(binary.LittleEndian.Uint64(str[r*12:]), trim)
			}
		}
		if !ok {
			if code, ok = storedCode(str[r*w:r*w+w], trim); !ok {
				return nil, 0, 0, false, false
			}
		}
		codes[k] = code
		lo, hi = min(lo, code), max(hi, code)
	}
	return codes, lo, hi, nulls, true
}

// wordCode is storedCode of a slot whose bytes past the first 8 are zero,
// given its first 8 (fewer, zero-extended) as a little-endian word, for
// the usual slot: a string of up to 7 bytes, followed only by zeros and,
// for char (trim), not ending in a blank. ok is false for any other,
// which storedCode handles.
func wordCode(x uint64, trim bool) (int64, bool) {
	m := (71 - bits.LeadingZeros64(x)) >> 3 // bytes up to the last non-zero one
	v := x | ^uint64(0)<<(8*m)
	if m > 7 || (v-0x0101010101010101)&^v&0x8080808080808080 != 0 ||
		trim && m > 0 && byte(x>>(8*(m-1))) == ' ' {
		return 0, false
	}
	return int64(x<<3 | uint64(m)), true
}

// storedCode is an integer that is equal for two stored string slots
// (b, a column's Width bytes) exactly when their strings (storedStr.str)
// are: the string's bytes as a little-endian word beside its length. ok
// is false for a string of over 7 bytes.
func storedCode(b []byte, trim bool) (code int64, ok bool) {
	var w uint64
	switch {
	case len(b) >= 8:
		w = binary.LittleEndian.Uint64(b)
		tail := b[8:]
		for len(tail) >= 4 {
			if binary.LittleEndian.Uint32(tail) != 0 {
				return storedCodeBytes(b, trim)
			}
			tail = tail[4:]
		}
		if len(tail) > 0 {
			return storedCodeBytes(b, trim)
		}
	case len(b) == 4:
		w = uint64(binary.LittleEndian.Uint32(b))
	default:
		return storedCodeBytes(b, trim)
	}
	// m: the bytes up to the last non-zero one, which must all be
	// non-zero (a string ends at its first zero byte)
	m := (71 - bits.LeadingZeros64(w)) / 8
	v := w
	if m < 8 {
		v |= ^uint64(0) << (8 * m)
	}
	if (v-0x0101010101010101)&^v&0x8080808080808080 != 0 {
		return storedCodeBytes(b, trim)
	}
	if trim {
		for m > 0 && byte(w>>(8*(m-1))) == ' ' {
			m--
		}
	}
	if m > 7 {
		return 0, false
	}
	w &= 1<<(8*m) - 1
	return int64(w<<3 | uint64(m)), true
}

// storedCodeBytes is storedCode byte by byte.
func storedCodeBytes(b []byte, trim bool) (int64, bool) {
	m := 0
	for m < len(b) && b[m] != 0 {
		m++
	}
	if trim {
		for m > 0 && b[m-1] == ' ' {
			m--
		}
	}
	if m > 7 {
		return 0, false
	}
	var w uint64
	for j := m - 1; j >= 0; j-- {
		w = w<<8 | uint64(b[j])
	}
	return int64(w<<3 | uint64(m)), true
}

// vec makes the batch's rows reps of s a string vector of type t.
func (s *storedStr) vec(t engine.Type, reps []int32) *engine.Vec {
	v := &engine.Vec{T: t, N: len(reps), S: make([][]byte, len(reps))}
	c := s.col
	for j, r := range reps {
		if c.Valid != nil && c.IsNull(s.row(int(r))) {
			if v.Null == nil {
				v.Null = make([]bool, len(reps))
			}
			v.Null[j] = true
			continue
		}
		v.S[j] = s.str(int(r))
	}
	return v
}

// dictMax bounds the distinct codes of one key in a batch that dense
// maps to small numbers.
const dictMax = 1024

// dense maps the codes of the non-NULL rows (null(i) false) to dense
// numbers 0..d-1 in place, in order of first appearance, and returns d;
// ok is false (codes then partly mapped) past dictMax distinct codes.
func (sk *smallKeys) dense(codes []int64, null func(i int) bool) (d int, ok bool) {
	const size = 4 * dictMax
	if len(sk.dkeys) < size {
		sk.dkeys = make([]int64, size)
		sk.dvals = make([]int32, size)
	}
	used := sk.dused[:0]
	defer func() {
		for _, s := range used {
			sk.dvals[s] = 0
		}
		sk.dused = used[:0]
	}()
	for i, c := range codes {
		if null != nil && null(i) {
			continue
		}
		s := eval.Mix64(uint64(c)) & (size - 1)
		for {
			v := sk.dvals[s]
			if v == 0 {
				if d == dictMax {
					return 0, false
				}
				d++
				sk.dkeys[s], sk.dvals[s] = c, int32(d)
				used = append(used, int32(s))
				codes[i] = int64(d - 1)
				break
			}
			if sk.dkeys[s] == c {
				codes[i] = int64(v - 1)
				break
			}
			s = (s + 1) & (size - 1)
		}
	}
	return d, true
}

// assignSmallFrom is assignSmall and assignStored: src and addRep are
// assignStored's, nil for assignSmall, which calls add instead.
func (x *groupIndex) assignSmallFrom(groups, keys []*engine.Vec, src []*storedStr, n int, ids []int32,
	addRep func(rep []*engine.Vec, r int) int32, add func(row int) int32) bool {
	sk := &x.small
	if n < 256 || len(keys) == 0 {
		return false
	}
	if sk.skip > 0 {
		sk.skip--
		return false
	}
	fits := false
	defer func() {
		if fits {
			sk.penalty = 0
			return
		}
		sk.penalty = min(2*sk.penalty+1, 256)
		sk.skip = sk.penalty
	}()
	if len(sk.codes) < len(keys) {
		sk.codes = make([][]int64, len(keys))
		sk.buf = make([][]int64, len(keys))
		sk.lo = make([]int64, len(keys))
		sk.width = make([]int64, len(keys))
	}
	span := int64(1)
	for k, v := range keys {
		var codes []int64
		var lo, hi int64
		var nulls, ok bool
		if src != nil && src[k] != nil {
			codes, lo, hi, nulls, ok = src[k].codes(n, sk.buf[k])
		} else {
			codes, lo, hi, nulls, ok = keyCodes(v, n, sk.buf[k])
		}
		if !ok {
			return false
		}
		own := src != nil && src[k] != nil || !(engine.PhysOf(v.T.Kind) == engine.PhysInt && v.Null == nil)
		if lo <= hi && uint64(hi)-uint64(lo) >= smallSpan {
			// a wide range of few values (strings' packed bytes): the
			// values' dense numbers in order of appearance instead
			if !own {
				codes = append(sk.buf[k][:0], codes...)
				own = true
			}
			var null func(i int) bool
			if nulls {
				null = v.IsNull
			}
			d, fits := sk.dense(codes, null)
			if !fits {
				return false
			}
			lo, hi = 0, int64(d-1)
		}
		if own {
			sk.buf[k] = codes
		}
		sk.codes[k] = codes
		w := int64(1) // NULL's slot, past the values'
		if lo <= hi {
			w = hi - lo + 1
			if nulls {
				w++
			}
		} else {
			lo = 0
		}
		if nulls {
			for i := 0; i < n; i++ {
				if v.IsNull(i) {
					codes[i] = lo + w - 1
				}
			}
		}
		sk.lo[k], sk.width[k] = lo, w
		if span *= w; span > smallSpan {
			return false
		}
	}
	if len(sk.local) < smallSpan {
		sk.local = make([]int32, smallSpan)
	}
	if cap(sk.rep) < n {
		sk.rep = make([]int32, n)
	}
	rep := sk.rep[:n]
	sk.reps, sk.rcode = sk.reps[:0], sk.rcode[:0]
	for i := 0; i < n; i++ {
		code := int64(0)
		for k := range keys {
			code = code*sk.width[k] + sk.codes[k][i] - sk.lo[k]
		}
		r := sk.local[code]
		if r == 0 {
			sk.reps = append(sk.reps, int32(i))
			sk.rcode = append(sk.rcode, code)
			r = int32(len(sk.reps))
			sk.local[code] = r
		}
		rep[i] = r - 1
	}
	for _, c := range sk.rcode {
		sk.local[c] = 0
	}
	reps := sk.reps
	fits = 2*len(reps) <= n // else mostly distinct keys: the table does not pay
	repKeys := make([]*engine.Vec, len(keys))
	for k, v := range keys {
		if src != nil && src[k] != nil {
			repKeys[k] = src[k].vec(v.T, reps)
		} else {
			repKeys[k] = v.Gather(reps)
		}
	}
	if cap(sk.ids) < len(reps) {
		sk.ids = make([]int32, len(reps))
	}
	rids := sk.ids[:len(reps)]
	if addRep != nil {
		x.assignHash(groups, repKeys, 0, len(reps), rids, func(r int) int32 { return addRep(repKeys, r) })
	} else {
		x.assignHash(groups, repKeys, 0, len(reps), rids, func(r int) int32 { return add(int(reps[r])) })
	}
	for i, r := range rep {
		ids[i] = rids[r]
	}
	return true
}

// intID returns the group of integer key k, kept in the slots, making it
// with add(row) if it is new.
func (x *groupIndex) intID(k int64, row int, add func(row int) int32) int32 {
	s := intKeyHash(k) & x.mask
	for {
		sl := x.slots[s]
		if sl.id == 0 {
			id := add(row)
			x.slots[s] = groupSlot{hash: uint64(k), id: id + 1}
			x.used++
			if 2*x.used > len(x.slots) {
				x.resize(2 * len(x.slots))
			}
			return id
		}
		if int64(sl.hash) == k {
			return sl.id - 1
		}
		s = (s + 1) & x.mask
	}
}

// assignPair is assignHash for an index with pairSlots.
func (x *groupIndex) assignPair(groups, keys []*engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
	a, b := keys[0], keys[1]
	for i := 0; i < n; i++ {
		row := lo + i
		if a.IsNull(row) || b.IsNull(row) {
			if x.nulls == nil {
				x.nulls = newGroupIndex()
			}
			x.nulls.assignHash(groups, keys, row, 1, ids[i:i+1], add)
			continue
		}
		k := int64(uint64(a.I[row])<<32 | uint64(uint32(b.I[row])))
		ids[i] = x.intID(k, row, add)
	}
}

// assignInt is assignHash for an index with intSlots.
func (x *groupIndex) assignInt(v *engine.Vec, lo, n int, ids []int32, add func(row int) int32) {
	for i := 0; i < n; i++ {
		row := lo + i
		if v.Null != nil && v.Null[row] {
			if x.nullID == 0 {
				x.nullID = add(row) + 1
			}
			ids[i] = x.nullID - 1
			continue
		}
		k := v.I[row]
		if i > 0 && k == v.I[row-1] && (v.Null == nil || !v.Null[row-1]) {
			ids[i] = ids[i-1] // a run of one key
			continue
		}
		ids[i] = x.intID(k, row, add)
	}
}
