package cpu

import "github.com/gpusql/gpusql/engine"

// arenaChunk is the size of the blocks a byteArena carves strings from.
const arenaChunk = 64 << 10

// byteArena copies strings into shared blocks, so that keeping a group's
// string key costs no allocation of its own.
type byteArena struct {
	buf []byte // the free part of the current block
}

// copy returns a copy of b in the arena.
func (a *byteArena) copy(b []byte) []byte {
	if len(b) == 0 {
		return []byte{}
	}
	if len(b) > arenaChunk/8 {
		return append([]byte(nil), b...)
	}
	if len(b) > len(a.buf) {
		a.buf = make([]byte, arenaChunk)
	}
	c := a.buf[:len(b):len(b)]
	copy(c, b)
	a.buf = a.buf[len(b):]
	return c
}

// appendKey appends row i of src to v (same type), as Vec.AppendRow
// does, with a string copied into ar, or not copied at all where ar is
// nil (src's strings already belong to the aggregation).
func appendKey(v, src *engine.Vec, i int, ar *byteArena) {
	if engine.PhysOf(v.T.Kind) != engine.PhysStr {
		v.AppendRow(src, i)
		return
	}
	null := src.IsNull(i)
	if null && v.Null == nil {
		v.Null = make([]bool, v.N, cap(v.S))
	}
	if v.Null != nil {
		v.Null = append(v.Null, null)
	}
	s := src.S[i]
	if ar != nil {
		s = ar.copy(s)
	}
	v.S = append(v.S, s)
	v.N++
}
