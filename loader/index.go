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
	x := indexer{entries: entries, recStart: recStart, e: c.entryBase, r: c.recBase, lastTerm: c.start - 1, lastMark: -1}
	if !fieldStartsAt(data, c, d) {
		x.lastMark = c.start // unknown: assume the first field has quotes
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
		x.block(term, lf, q, base)
		if c.hasCR {
			checkCR(data, c, classifyCR(blk, p)&valid&^inside, base)
		}
		run ^= parity(q)
	}
}

// indexer writes stage 3's output for the CSV and text formats: every
// terminator of a 64-byte block becomes an entry of the field index,
// flagged flagRec when it ends a record (and then the records table gets
// the next record's first entry) and flagQ when a marker (a quote; in
// text format a backslash) lies in the field it ends.
type indexer struct {
	entries, recStart []uint32
	e, r              int // next entry, current record
	lastTerm          int // position of the last terminator
	lastMark          int // position of the last marker
}

// block emits the terminators term of the block at base; lf holds those
// that end records, mark the markers.
func (x *indexer) block(term, lf, mark uint64, base int) {
	e, r, lastTerm := x.e, x.r, x.lastTerm
	for term != 0 {
		t := uint(bits.TrailingZeros64(term))
		term &= term - 1
		pos := base + int(t)
		lm := x.lastMark
		if mb := mark & (1<<t - 1); mb != 0 {
			lm = base + 63 - bits.LeadingZeros64(mb)
		}
		ent := uint32(pos)
		if lm > lastTerm {
			ent |= flagQ
		}
		if lf&(1<<t) != 0 {
			x.entries[e] = ent | flagRec
			e++
			r++
			x.recStart[r] = uint32(e)
		} else {
			x.entries[e] = ent
			e++
		}
		lastTerm = pos
	}
	if mark != 0 {
		x.lastMark = base + 63 - bits.LeadingZeros64(mark)
	}
	x.e, x.r, x.lastTerm = e, r, lastTerm
}

// checkCR records the bare CRs among cr (the block at base's CRs that are
// data, not quoted or escaped): a CR not followed by LF is an error in
// both formats.
func checkCR(data []byte, c *chunk, cr uint64, base int) {
	for cr != 0 {
		t := bits.TrailingZeros64(cr)
		cr &= cr - 1
		pos := base + t
		if pos+1 >= len(data) || data[pos+1] != '\n' {
			c.badCR = append(c.badCR, int32(pos))
		}
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
