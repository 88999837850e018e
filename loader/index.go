package loader

import "math/bits"

// Stage 3: each chunk, now knowing the quote state it starts in, writes the
// positions of its field terminators (delimiters and LFs outside quotes)
// into the field index, and for every LF the index of the next record's
// first terminator into the records table. Entries are positions in the
// batch with two flags: flagRec (the terminator ends a record) and flagQ
// (the field it ends may contain a quote, so it needs dequoting).

// fieldStartsAt reports whether a field starts exactly at c.start, so that
// the chunk can see all of its first field.
func fieldStartsAt(data []byte, c *chunk, d *dialect) bool {
	if c.start == 0 {
		return true
	}
	prev := data[c.start-1]
	return c.state == stOut && (prev == '\n' || prev == d.delim)
}

// indexChunk is stage 3 for one chunk.
func indexChunk(data []byte, c *chunk, d *dialect, p *patterns, entries, recStart []uint32) {
	c.badCR = c.badCR[:0]
	if d.text {
		indexText(data, c, d, p, entries, recStart)
		return
	}
	if d.fsm {
		indexFSM(data, c, d, entries, recStart)
		return
	}
	b := data[c.start:c.end]
	base0 := c.start
	e := c.entryBase
	r := c.recBase
	lastTerm := c.start - 1
	lastQuote := -1
	if !fieldStartsAt(data, c, d) {
		lastQuote = c.start // unknown: assume the first field has quotes
	}
	var run uint64
	if c.state != stOut {
		run = ^uint64(0)
	}
	var pad [64]byte
	for i := 0; i < len(b); i += 64 {
		blk, valid := block(b, i, &pad)
		q, lf, dl := classify(blk, p)
		q &= valid
		lf &= valid
		inside := prefixXor(q) ^ run
		term := (lf | dl) & valid &^ inside
		base := base0 + i
		for term != 0 {
			t := uint(bits.TrailingZeros64(term))
			term &= term - 1
			pos := base + int(t)
			lq := lastQuote
			if qb := q & (1<<t - 1); qb != 0 {
				lq = base + 63 - bits.LeadingZeros64(qb)
			}
			ent := uint32(pos)
			if lq > lastTerm {
				ent |= flagQ
			}
			if lf&(1<<t) != 0 {
				ent |= flagRec
				entries[e] = ent
				e++
				r++
				recStart[r] = uint32(e)
			} else {
				entries[e] = ent
				e++
			}
			lastTerm = pos
		}
		if q != 0 {
			lastQuote = base + 63 - bits.LeadingZeros64(q)
		}
		if c.hasCR {
			cr := classifyCR(blk, p) & valid &^ inside
			for cr != 0 {
				t := bits.TrailingZeros64(cr)
				cr &= cr - 1
				pos := base + t
				if pos+1 >= len(data) || data[pos+1] != '\n' {
					c.badCR = append(c.badCR, int32(pos))
				}
			}
		}
		run ^= parity(q)
	}
}

// indexFSM is stage 3 byte by byte, for an escape that differs from the
// quote.
func indexFSM(data []byte, c *chunk, d *dialect, entries, recStart []uint32) {
	e := c.entryBase
	r := c.recBase
	s := c.state
	sawQuote := !fieldStartsAt(data, c, d)
	for pos := c.start; pos < c.end; pos++ {
		ch := data[pos]
		if s == stOut {
			switch {
			case ch == '\n' || ch == d.delim:
				ent := uint32(pos)
				if sawQuote {
					ent |= flagQ
				}
				sawQuote = false
				if ch == '\n' {
					entries[e] = ent | flagRec
					e++
					r++
					recStart[r] = uint32(e)
				} else {
					entries[e] = ent
					e++
				}
			case ch == '\r':
				if pos+1 >= len(data) || data[pos+1] != '\n' {
					c.badCR = append(c.badCR, int32(pos))
				}
			}
		}
		if ch == d.quote {
			sawQuote = true
		}
		s = step(s, ch, d)
	}
}
