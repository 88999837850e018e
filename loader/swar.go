package loader

import (
	"encoding/binary"
	"math/bits"
)

// Branch-free byte classification, eight bytes at a time (SWAR). A 64-byte
// block becomes one 64-bit mask per byte class, bit i for byte i, which is
// how a GPU warp sees a chunk through ballot().

const (
	lo7  = 0x7f7f7f7f7f7f7f7f
	hi1  = 0x8080808080808080
	ones = 0x0101010101010101
)

// eqMask returns 0x80 in every byte of w equal to the byte repeated in pat.
// It is exact (no false positives from borrows).
func eqMask(w, pat uint64) uint64 {
	x := w ^ pat
	return ^(((x & lo7) + lo7) | x) & hi1
}

// movemask packs the high bits of the eight bytes of m into eight bits.
func movemask(m uint64) uint64 { return ((m >> 7) * 0x0102040810204080) >> 56 }

// prefixXor sets bit i to the parity of bits 0..i of x: after a quote
// mask, the set bits are the bytes inside quotes.
func prefixXor(x uint64) uint64 {
	x ^= x << 1
	x ^= x << 2
	x ^= x << 4
	x ^= x << 8
	x ^= x << 16
	x ^= x << 32
	return x
}

// patterns are the special bytes, each repeated in all eight lanes.
type patterns struct {
	quote, lf, delim, cr uint64
}

func newPatterns(d *dialect) patterns {
	return patterns{quote: ones * uint64(d.quote), lf: ones * '\n', delim: ones * uint64(d.delim), cr: ones * '\r'}
}

// classify builds the quote, LF and delimiter masks of a 64-byte block.
func classify(b []byte, p *patterns) (q, lf, d uint64) {
	_ = b[63]
	for k := uint(0); k < 8; k++ {
		w := binary.LittleEndian.Uint64(b[8*k:])
		q |= movemask(eqMask(w, p.quote)) << (8 * k)
		lf |= movemask(eqMask(w, p.lf)) << (8 * k)
		d |= movemask(eqMask(w, p.delim)) << (8 * k)
	}
	return q, lf, d
}

// classifyCR builds the carriage-return mask of a 64-byte block.
func classifyCR(b []byte, p *patterns) (cr uint64) {
	_ = b[63]
	for k := uint(0); k < 8; k++ {
		w := binary.LittleEndian.Uint64(b[8*k:])
		cr |= movemask(eqMask(w, p.cr)) << (8 * k)
	}
	return cr
}

// block returns the 64 bytes at b[i:], or a zero-padded copy in pad and
// the mask of real bytes when fewer remain.
func block(b []byte, i int, pad *[64]byte) ([]byte, uint64) {
	if i+64 <= len(b) {
		return b[i : i+64], ^uint64(0)
	}
	n := copy(pad[:], b[i:])
	for k := n; k < 64; k++ {
		pad[k] = 0
	}
	return pad[:], uint64(1)<<uint(n) - 1
}

// parity is all ones if x has an odd number of set bits, else zero.
func parity(x uint64) uint64 { return -uint64(bits.OnesCount64(x) & 1) }
