package loader

import (
	"bytes"
	"math/bits"
	"unicode/utf8"
)

// Stage 1: per chunk, count record delimiters, field delimiters and quotes.
// A chunk does not know whether it starts inside a quoted field, so it
// counts for each state it could start in; stage 2 picks the right one.

// Quote states at a byte boundary, as PostgreSQL's CSV line reader tracks
// them.
const (
	stOut    = 0 // outside quotes
	stIn     = 1 // inside quotes
	stInEsc  = 2 // inside quotes, just after an escape (escape != quote only)
	nStates  = 3
	entryPos = 1<<30 - 1
	flagQ    = 1 << 30 // the field may contain a quote character
	flagRec  = 1 << 31 // this terminator ends a record
)

// chunk is one chunk's counts (stage 1), context (stage 2) and anomalies
// (stages 1 and 3).
type chunk struct {
	start, end int
	endState   [nStates]uint8
	recs       [nStates]int // record delimiters outside quotes
	terms      [nStates]int // field plus record delimiters outside quotes
	lfAll      int          // every LF, quoted or not (line numbers)
	hasCR      bool
	// Set by the scan:
	state              uint8
	entryBase, recBase int
	// bad holds positions of invalid UTF-8 (stage 1) and of carriage
	// returns outside quotes not followed by LF (stage 3), each sorted.
	badUTF8, badCR []int32
}

// countChunk is stage 1 for one chunk.
func countChunk(data []byte, c *chunk, d *dialect, p *patterns) {
	b := data[c.start:c.end]
	c.hasCR = bytes.IndexByte(b, '\r') >= 0
	c.lfAll = bytes.Count(b, []byte{'\n'})
	if d.text {
		countText(data, c, p)
		return
	}
	c.badUTF8 = checkUTF8(data, c.start, c.end, c.badUTF8[:0])
	if d.fsm {
		for s := uint8(0); s < nStates; s++ {
			c.endState[s], c.recs[s], c.terms[s] = countFSM(b, s, d)
		}
		return
	}
	// Quote parity: relative to a start outside quotes, inside is
	// prefixXor(quotes) ^ run; starting inside flips it.
	var pad [64]byte
	var run uint64
	var rec0, rec1, term0, term1 int
	for i := 0; i < len(b); i += 64 {
		blk, valid := block(b, i, &pad)
		q, lf, dl := classify(blk, p)
		q &= valid
		lf &= valid
		dl &= valid
		inside := prefixXor(q) ^ run
		t := lf | dl
		rec0 += bits.OnesCount64(lf &^ inside)
		rec1 += bits.OnesCount64(lf & inside)
		term0 += bits.OnesCount64(t &^ inside)
		term1 += bits.OnesCount64(t & inside)
		run ^= parity(q)
	}
	odd := uint8(run & 1)
	c.endState[stOut], c.endState[stIn], c.endState[stInEsc] = odd, 1-odd, 1-odd
	c.recs[stOut], c.recs[stIn], c.recs[stInEsc] = rec0, rec1, rec1
	c.terms[stOut], c.terms[stIn], c.terms[stInEsc] = term0, term1, term1
}

// step is PostgreSQL's CSV quote state machine for one byte when the
// escape character differs from the quote character.
func step(s uint8, ch byte, d *dialect) uint8 {
	switch s {
	case stOut:
		if ch == d.quote {
			return stIn
		}
		return stOut
	case stIn:
		if ch == d.esc {
			return stInEsc
		}
		if ch == d.quote {
			return stOut
		}
		return stIn
	}
	return stIn // after an escape: the next byte is taken literally
}

// countFSM counts a chunk byte by byte from start state s.
func countFSM(b []byte, s uint8, d *dialect) (end uint8, recs, terms int) {
	for _, ch := range b {
		if s == stOut {
			if ch == '\n' {
				recs++
				terms++
			} else if ch == d.delim {
				terms++
			}
		}
		s = step(s, ch, d)
	}
	return s, recs, terms
}

// checkUTF8 appends to bad the positions in [start, end) where an invalid
// UTF-8 sequence (or a NUL byte, which PostgreSQL text cannot hold)
// begins. A sequence may run past end; continuation bytes at start that
// belong to a valid sequence begun before start are skipped.
func checkUTF8(data []byte, start, end int, bad []int32) []int32 {
	i := start
	for i < end && i-start < 3 && !utf8.RuneStart(data[i]) {
		i++
	}
	if i > start { // continuation bytes: find the lead they belong to
		lead := -1
		for k := start - 1; k >= 0 && k >= start-3; k-- {
			if utf8.RuneStart(data[k]) {
				lead = k
				break
			}
		}
		ok := false
		if lead >= 0 {
			r, n := utf8.DecodeRune(data[lead:])
			ok = !(r == utf8.RuneError && n <= 1) && lead+n > start
			if ok {
				i = lead + n
			}
		}
		if !ok {
			i = start
		}
	}
	for i < end {
		if i+8 <= end {
			w := uint64(data[i]) | uint64(data[i+1])<<8 | uint64(data[i+2])<<16 | uint64(data[i+3])<<24 |
				uint64(data[i+4])<<32 | uint64(data[i+5])<<40 | uint64(data[i+6])<<48 | uint64(data[i+7])<<56
			if ((w-ones)&^w|w)&hi1 == 0 { // all ASCII, no NUL
				i += 8
				continue
			}
		}
		c := data[i]
		if c < utf8.RuneSelf {
			if c == 0 {
				bad = append(bad, int32(i))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			bad = append(bad, int32(i))
			n = 1
		}
		i += n
	}
	return bad
}
