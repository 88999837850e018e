package sniff

// splitter cuts CSV records into fields the way the loader reads them:
// quotes may open and close anywhere in a field, escape + quote (and,
// when the escape differs from the quote, escape + escape) inside quotes
// is the escaped byte, a record ends at an LF outside quotes and a CR
// just before that LF belongs to the line end. It keeps one record at a
// time in buffers it reuses, so splitting allocates nothing per record.
type splitter struct {
	delim, quote, esc byte
	buf               []byte // the record's fields, dequoted, one after another
	ends              []int  // end of each field in buf
	quoted            []bool // the field held a quote (so it is never NULL)
}

func newSplitter(delim, quote, esc byte) *splitter {
	return &splitter{delim: delim, quote: quote, esc: esc}
}

// fields is the number of fields of the last record.
func (s *splitter) fields() int { return len(s.ends) }

// field is field i of the last record.
func (s *splitter) field(i int) []byte {
	start := 0
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.buf[start:s.ends[i]]
}

// next reads one record from the start of data and returns the bytes it
// took, LF included. It returns 0 when data holds no complete record:
// more data is needed, unless eof, where the rest of data (if any) is
// the last record.
func (s *splitter) next(data []byte, eof bool) int {
	s.buf, s.ends, s.quoted = s.buf[:0], s.ends[:0], s.quoted[:0]
	if len(data) == 0 {
		return 0
	}
	inQ, q := false, false
	endField := func() {
		s.ends = append(s.ends, len(s.buf))
		s.quoted = append(s.quoted, q)
		q = false
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inQ {
			if c == s.esc {
				if i+1 == len(data) {
					if !eof {
						return 0
					}
					if s.esc == s.quote {
						inQ = false
						continue
					}
					s.buf = append(s.buf, c)
					continue
				}
				if n := data[i+1]; n == s.quote || (s.esc != s.quote && n == s.esc) {
					s.buf = append(s.buf, n)
					i++
					continue
				}
			}
			if c == s.quote {
				inQ = false
				continue
			}
			s.buf = append(s.buf, c)
			continue
		}
		switch c {
		case s.quote:
			inQ, q = true, true
		case s.delim:
			endField()
		case '\r':
			if i+1 == len(data) && !eof {
				return 0
			}
			if i+1 < len(data) && data[i+1] == '\n' {
				endField()
				return i + 2
			}
			s.buf = append(s.buf, c)
		case '\n':
			endField()
			return i + 1
		default:
			s.buf = append(s.buf, c)
		}
	}
	if !eof {
		return 0
	}
	endField()
	return len(data)
}
