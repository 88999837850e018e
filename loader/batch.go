package loader

import (
	"bytes"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// dialect is the CSV syntax of one load.
type dialect struct {
	delim, quote, esc byte
	fsm               bool   // escape differs from quote: track escapes
	null              []byte // the NULL marker; empty means unquoted empty
	text              bool   // PostgreSQL's text format (text.go); quote is '\\' then
}

// resolve returns the value of a raw field (mayQuote: it may hold a quote,
// or in the text format a backslash) and whether it is NULL. A value
// resolved into scratch is valid until the next call.
func (d *dialect) resolve(raw []byte, mayQuote bool, scratch *[]byte) (val []byte, null bool) {
	if d.text {
		if len(raw) == len(d.null) && bytes.Equal(raw, d.null) {
			return nil, true
		}
		if !mayQuote {
			return raw, false
		}
		*scratch, _ = unescape((*scratch)[:0], raw)
		return *scratch, false
	}
	val, quoted := value(raw, mayQuote, d, scratch)
	return val, isNull(val, quoted, d)
}

// colPlan is how one table column is loaded.
type colPlan struct {
	def      engine.ColumnDef
	field    int // index of the file field that feeds it
	kind     engine.Kind
	isStr    bool
	maxBytes int          // the stored byte limit of strings (MaxTextWidth)
	zone     *engine.Zone // timestamptz without an offset: the load's TimeZone
}

// batch is one batch of input and its field index.
type batch struct {
	data     []byte
	chunks   []chunk
	entries  []uint32 // the field index (stage 3)
	recStart []uint32 // records table: first entry of each record, plus one past the last
	nrec     int      // records in the index
	anomaly  []int32  // sorted positions of bad UTF-8 and bare CRs
	// unterminated is the record left open by a quote at the end of the
	// input, or -1.
	unterminated int
	text         bool // text format: see textEnd
}

// recBounds returns the byte range of record r, without its terminator.
// A CR before the terminating LF is excluded too.
func (b *batch) recBounds(r int) (start, end int) {
	if e := b.recStart[r]; e > 0 {
		start = int(b.entries[e-1]&entryPos) + 1
	}
	end = b.recTerm(r)
	if b.text {
		return start, textEnd(b.data, start, end)
	}
	if r != b.unterminated && end > start && b.data[end-1] == '\r' {
		end--
	}
	return start, end
}

// recTerm is the position of record r's terminating LF (len(data) for a
// last record without one).
func (b *batch) recTerm(r int) int { return int(b.entries[b.recStart[r+1]-1] & entryPos) }

// field returns the raw bytes of field f of record r (which must have
// more than f fields) and whether they may contain a quote.
func (b *batch) field(r, f int) ([]byte, bool) {
	e := int(b.recStart[r]) + f
	start := 0
	if e > 0 {
		start = int(b.entries[e-1]&entryPos) + 1
	}
	ent := b.entries[e]
	end := int(ent & entryPos)
	if b.text && ent&flagRec != 0 {
		return b.data[start:textEnd(b.data, start, end)], ent&flagQ != 0
	}
	if ent&flagRec != 0 && end > start && b.data[end-1] == '\r' {
		end--
	}
	return b.data[start:end], ent&flagQ != 0
}

// fieldCount is the number of fields of record r.
func (b *batch) fieldCount(r int) int { return int(b.recStart[r+1] - b.recStart[r]) }

// value resolves a raw field that may hold quotes: if it does, it is
// dequoted into scratch. quoted reports whether a quote was seen (such a
// field is never NULL).
func value(raw []byte, mayQuote bool, d *dialect, scratch *[]byte) (val []byte, quoted bool) {
	if !mayQuote {
		return raw, false
	}
	n := len(raw)
	if n >= 2 && raw[0] == d.quote && raw[n-1] == d.quote { // the usual "..." with nothing to unescape
		in := raw[1 : n-1]
		if bytes.IndexByte(in, d.quote) < 0 && (!d.fsm || bytes.IndexByte(in, d.esc) < 0) {
			return in, true
		}
	}
	if bytes.IndexByte(raw, d.quote) < 0 {
		return raw, false
	}
	out, _ := dequote((*scratch)[:0], raw, d)
	*scratch = out
	return out, true
}

// dequote appends the value of the raw field text to dst, as PostgreSQL's
// CSV field splitter reads it: a quote starts or ends a quoted section
// anywhere in the field; inside one, the escape character followed by a
// quote or an escape stands for that character. ok is false if a quoted
// section is not closed.
func dequote(dst, raw []byte, d *dialect) (out []byte, ok bool) {
	i := 0
	for i < len(raw) {
		c := raw[i]
		i++
		if c != d.quote {
			dst = append(dst, c)
			continue
		}
		closed := false
		for i < len(raw) {
			c = raw[i]
			i++
			if c == d.esc && i < len(raw) && (raw[i] == d.esc || raw[i] == d.quote) {
				dst = append(dst, raw[i])
				i++
				continue
			}
			if c == d.quote {
				closed = true
				break
			}
			dst = append(dst, c)
		}
		if !closed {
			return dst, false
		}
	}
	return dst, true
}

// isNull reports whether an unquoted field value is the NULL marker.
func isNull(val []byte, quoted bool, d *dialect) bool {
	return !quoted && len(val) == len(d.null) && (len(val) == 0 || bytes.Equal(val, d.null))
}

// String limit outcomes.
const (
	strOK = iota
	strTooLong
	strTooWide
)

// strStored returns how many bytes of a string value are stored, applying
// PostgreSQL's rules: char(n) drops trailing spaces (its padding is added
// on output); char(n) and varchar(n) count characters, and a value over
// the limit is cut silently only if the excess is all spaces. A value
// wider than maxBytes bytes is rejected.
func strStored(val []byte, cp *colPlan) (int, int) {
	n := len(val)
	lim := cp.def.Type.Len
	switch cp.kind {
	case engine.KindChar:
		for n > 0 && val[n-1] == ' ' {
			n--
		}
		if lim > 0 && n > lim && utf8.RuneCount(val[:n]) > lim {
			return 0, strTooLong
		}
	case engine.KindVarchar:
		if lim > 0 && n > lim && utf8.RuneCount(val) > lim {
			cut := 0
			for k := 0; k < lim; k++ {
				_, sz := utf8.DecodeRune(val[cut:])
				cut += sz
			}
			for _, c := range val[cut:] {
				if c != ' ' {
					return 0, strTooLong
				}
			}
			n = cut
		}
	}
	if n > cp.maxBytes {
		return 0, strTooWide
	}
	return n, strOK
}
