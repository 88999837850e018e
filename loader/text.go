package loader

import (
	"bytes"
	"math/bits"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// PostgreSQL's text COPY format, in the same stages as CSV. There are no
// quotes: a backslash escapes the byte after it, so an escaped delimiter
// or LF is data. The context a chunk needs is therefore one bit, whether
// its first byte is escaped (the state stIn below), where CSV needs the
// quote parity. Stage 1 counts each chunk for both start states, stage 2
// (scanChunks, shared) picks the right one, stage 3 writes the field index
// with flagQ meaning "the field holds a backslash"; escapes are resolved
// only when a value is checked or converted (unescape).
//
// The end-of-data marker \. (an unescaped backslash and a period) is rare
// and found by a search before the stages: at the start of a line and
// followed by a newline it ends the input; elsewhere followed by a newline
// it is dropped (PostgreSQL treats it as the line's end); followed by
// anything else it is an error.

// escapedMask returns the bytes of a 64-byte block escaped by a backslash,
// given its backslash mask and whether its first byte is escaped (carry,
// 0 or 1), and whether the byte after the block is.
func escapedMask(bs, carry uint64) (esc, out uint64) {
	esc = carry
	bs &^= carry // an escaped backslash is data
	for bs != 0 {
		i := uint(bits.TrailingZeros64(bs))
		if i == 63 {
			return esc, 1
		}
		esc |= 1 << (i + 1)
		bs &^= 3 << i
	}
	return esc, 0
}

// escBlock is escapedMask for a block whose real bytes are valid (a
// prefix mask): the carry out of a short block is the bit past its end.
func escBlock(bs, valid, carry uint64) (esc, out uint64) {
	esc, out = escapedMask(bs&valid, carry)
	if valid != ^uint64(0) {
		n := uint(bits.OnesCount64(valid))
		out = esc >> n & 1
		esc &= valid
	}
	return esc, out
}

// countText is stage 1 for one chunk of text-format input.
func countText(data []byte, c *chunk, p *patterns) {
	b := data[c.start:c.end]
	c.hasCR = bytes.IndexByte(b, '\r') >= 0
	c.lfAll = bytes.Count(b, []byte{'\n'})
	c.badUTF8 = checkUTF8(data, c.start, c.end, c.badUTF8[:0])
	// Count from "not escaped"; the other start state differs only until
	// the first block's escape carry agrees, which is almost always at once.
	var pad [64]byte
	var carry uint64
	var recs, terms int
	var first struct{ recs, terms int }
	var firstOut uint64
	for i := 0; i < len(b); i += 64 {
		blk, valid := block(b, i, &pad)
		q, lf, dl := classify(blk, p)
		var esc uint64
		esc, carry = escBlock(q, valid, carry)
		lf &= valid &^ esc
		t := (lf | dl&valid) &^ esc
		recs += bits.OnesCount64(lf)
		terms += bits.OnesCount64(t)
		if i == 0 {
			first.recs, first.terms, firstOut = recs, terms, carry
		}
	}
	c.endState[stOut], c.recs[stOut], c.terms[stOut] = uint8(carry), recs, terms
	if len(b) == 0 {
		c.endState[stIn], c.recs[stIn], c.terms[stIn] = 1, 0, 0
	} else {
		blk, valid := block(b, 0, &pad)
		q, lf, dl := classify(blk, p)
		esc, out := escBlock(q, valid, 1)
		lf &= valid &^ esc
		t := (lf | dl&valid) &^ esc
		if out == firstOut {
			c.endState[stIn] = uint8(carry)
			c.recs[stIn] = recs - first.recs + bits.OnesCount64(lf)
			c.terms[stIn] = terms - first.terms + bits.OnesCount64(t)
		} else { // a run of 64 backslashes: count again
			c.endState[stIn], c.recs[stIn], c.terms[stIn] = countTextFrom(b, 1, p)
		}
	}
	c.endState[stInEsc], c.recs[stInEsc], c.terms[stInEsc] = c.endState[stIn], c.recs[stIn], c.terms[stIn]
}

// countTextFrom counts a chunk from the given escape carry.
func countTextFrom(b []byte, carry uint64, p *patterns) (end uint8, recs, terms int) {
	var pad [64]byte
	for i := 0; i < len(b); i += 64 {
		blk, valid := block(b, i, &pad)
		q, lf, dl := classify(blk, p)
		var esc uint64
		esc, carry = escBlock(q, valid, carry)
		lf &= valid &^ esc
		recs += bits.OnesCount64(lf)
		terms += bits.OnesCount64((lf | dl&valid) &^ esc)
	}
	return uint8(carry), recs, terms
}

// indexText is stage 3 for one chunk of text-format input.
func indexText(data []byte, c *chunk, d *dialect, p *patterns, entries, recStart []uint32) {
	c.badCR = c.badCR[:0]
	b := data[c.start:c.end]
	x := indexer{entries: entries, recStart: recStart, e: c.entryBase, r: c.recBase, lastTerm: c.start - 1, lastMark: -1}
	if c.start > 0 && !(c.state == stOut && (data[c.start-1] == '\n' || data[c.start-1] == d.delim) && !escapedAt(data, c.start-1)) {
		x.lastMark = c.start // the first field began earlier: assume it has escapes
	}
	carry := uint64(c.state & 1)
	var pad [64]byte
	for i := 0; i < len(b); i += 64 {
		blk, valid := block(b, i, &pad)
		q, lf, dl := classify(blk, p)
		q &= valid
		var esc uint64
		esc, carry = escBlock(q, valid, carry)
		term := (lf | dl) & valid &^ esc
		base := c.start + i
		x.block(term, lf, q, base)
		if c.hasCR {
			checkCR(data, c, classifyCR(blk, p)&valid&^esc, base)
		}
	}
}

// escapedAt reports whether data[i] is escaped: preceded by an odd run of
// backslashes. A batch starts at a record start, which is never escaped.
func escapedAt(data []byte, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && data[k] == '\\'; k-- {
		n++
	}
	return n&1 == 1
}

// endMarkers finds the unescaped \. sequences of data. It returns where
// the input ends (the first marker at the start of a line and followed by
// a newline, or -1) and appends to bad the markers before that end that
// are not followed by a newline (corrupt) or whose next byte is not known
// yet (eof false, at the very end: left for the next batch, whose orphan
// it is part of). A backslash at the very end is not a marker yet.
func endMarkers(data []byte, eof bool, bad []int32) (end int, _ []int32) {
	for from := 0; ; {
		k := bytes.Index(data[from:], []byte{'\\', '.'})
		if k < 0 {
			return -1, bad
		}
		m := from + k
		from = m + 1
		if escapedAt(data, m) {
			continue
		}
		from = m + 2
		if m+2 >= len(data) {
			if eof {
				bad = append(bad, int32(m))
			}
			return -1, bad
		}
		if nx := data[m+2]; nx != '\n' && nx != '\r' {
			bad = append(bad, int32(m))
			continue
		}
		if m == 0 || data[m-1] == '\n' && !escapedAt(data, m-1) {
			return m, bad
		}
	}
}

// textEnd trims the end of a text-format field or record that ends a
// record: a CR of a CRLF (unless escaped) and a \. before the newline.
func textEnd(data []byte, start, end int) int {
	if end > start && data[end-1] == '\r' && !escapedAt(data, end-1) {
		end--
	}
	if end-start >= 2 && data[end-1] == '.' && data[end-2] == '\\' && !escapedAt(data, end-2) {
		end -= 2
	}
	return end
}

// unescape appends the value of a text-format field to dst, resolving
// PostgreSQL's escapes: \b \f \n \r \t \v, \ooo (one to three octal
// digits), \xh[h] (one or two hex digits), and a backslash before any
// other byte, which stands for that byte. A backslash at the end is
// dropped. bin reports that an escape produced a NUL or a byte >= 0x80,
// so the value's encoding must be checked.
func unescape(dst, raw []byte) (out []byte, bin bool) {
	for i := 0; i < len(raw); {
		k := bytes.IndexByte(raw[i:], '\\')
		if k < 0 {
			return append(dst, raw[i:]...), bin
		}
		dst = append(dst, raw[i:i+k]...)
		i += k + 1
		if i >= len(raw) {
			break
		}
		c := raw[i]
		i++
		switch {
		case c >= '0' && c <= '7':
			v := int(c - '0')
			for n := 0; n < 2 && i < len(raw) && raw[i] >= '0' && raw[i] <= '7'; n++ {
				v = v<<3 + int(raw[i]-'0')
				i++
			}
			c = byte(v)
			bin = bin || c == 0 || c >= utf8.RuneSelf
		case c == 'x':
			if i < len(raw) && isHex(raw[i]) {
				v := hexVal(raw[i])
				i++
				if i < len(raw) && isHex(raw[i]) {
					v = v<<4 + hexVal(raw[i])
					i++
				}
				c = byte(v)
				bin = bin || c == 0 || c >= utf8.RuneSelf
			}
		case c == 'b':
			c = '\b'
		case c == 'f':
			c = '\f'
		case c == 'n':
			c = '\n'
		case c == 'r':
			c = '\r'
		case c == 't':
			c = '\t'
		case c == 'v':
			c = '\v'
		}
		dst = append(dst, c)
	}
	return dst, bin
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hexVal(c byte) int {
	switch {
	case c <= '9':
		return int(c - '0')
	case c >= 'a':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// badText returns the offset of the first invalid UTF-8 sequence or NUL in
// v, or -1.
func badText(v []byte) int {
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c == 0 {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(v[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// splitText splits a record's text into its raw fields at unescaped
// delimiters, as PostgreSQL's text splitter does.
func splitText(text []byte, delim byte) [][]byte {
	var fields [][]byte
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case delim:
			fields = append(fields, text[start:i])
			start = i + 1
		}
	}
	return append(fields, text[start:])
}

// textFields resolves the fields of a text-format record as PostgreSQL
// does while splitting it: NULL is decided on the raw text, escapes are
// resolved, and a value whose escapes made invalid UTF-8 is an error.
func textFields(text []byte, d *dialect) (vals [][]byte, nulls []bool, err *engine.Error) {
	for _, raw := range splitText(text, d.delim) {
		if bytes.Equal(raw, d.null) {
			vals, nulls = append(vals, nil), append(nulls, true)
			continue
		}
		v, bin := unescape(nil, raw)
		if bin {
			if i := badText(v); i >= 0 {
				return nil, nil, encodingError(v, i)
			}
		}
		vals, nulls = append(vals, v), append(nulls, false)
	}
	return vals, nulls, nil
}

// checkTextLine is the line-reading part of checkRow for the text format:
// invalid UTF-8, carriage returns that are neither escaped nor part of the
// line end, and corrupt end markers, in byte order.
func checkTextLine(data []byte, start, term int) *rowErr {
	for i := start; i < term; i++ {
		c := data[i]
		switch {
		case c >= utf8.RuneSelf || c == 0:
			rr, n := utf8.DecodeRune(data[i:])
			if c == 0 || (rr == utf8.RuneError && n <= 1) {
				return &rowErr{err: encodingError(data, i), ctx: ctxNone, off: i}
			}
			i += n - 1
		case c == '\r' && !(i+1 == term && term < len(data)):
			e := engine.Errorf(engine.CodeBadCopyFileFormat, "literal carriage return found in data")
			e.Hint = `Use "\r" to represent carriage return.`
			return &rowErr{err: e, ctx: ctxNone, off: i}
		case c == '\\':
			if i+1 < len(data) && data[i+1] == '.' && (i+2 >= len(data) || data[i+2] != '\n' && data[i+2] != '\r') {
				return &rowErr{err: engine.Errorf(engine.CodeBadCopyFileFormat, "end-of-copy marker corrupt"), ctx: ctxNone, off: i}
			}
			if i+1 < term && data[i+1] != 0 && data[i+1] < utf8.RuneSelf {
				i++ // the escaped byte; others are checked as characters
			}
		}
	}
	return nil
}
