package shard

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// csvReader hands out whole CSV records (a quoted field may hold line
// breaks) as the bytes of the file, with the key field found in each.
// A record's bytes are valid until the next call.
type csvReader struct {
	r        *bufio.Reader
	delim    byte
	quote    byte
	rec      []byte // the current record, its line break included
	field    []byte // scratch for an unquoted key
	line     int64  // number of the record's first line
	nextLine int64
}

func newCSVReader(r io.Reader, delim, quote byte) *csvReader {
	return &csvReader{r: bufio.NewReaderSize(r, 1<<20), delim: delim, quote: quote, nextLine: 1}
}

// next reads one record; io.EOF at the end. A record that ends the file
// without a line break gets one.
func (c *csvReader) next() ([]byte, error) {
	c.rec = c.rec[:0]
	c.line = c.nextLine
	inQuote := false
	for {
		chunk, err := c.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// a long line: keep reading it
			err = nil
		}
		for _, b := range chunk {
			if b == c.quote {
				inQuote = !inQuote
			}
		}
		c.rec = append(c.rec, chunk...)
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			c.nextLine++
			if !inQuote {
				return c.rec, nil
			}
		}
		if err == io.EOF {
			if len(c.rec) == 0 {
				return nil, io.EOF
			}
			if inQuote {
				return nil, fmt.Errorf("line %d: unterminated quoted field at the end of the file", c.line)
			}
			c.rec = append(c.rec, '\n')
			return c.rec, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// fieldOf returns field i of rec (unquoted, "" undoubled) and whether it
// is NULL: an unquoted empty field, as COPY's CSV format reads it.
func (c *csvReader) fieldOf(rec []byte, i int) ([]byte, bool, error) {
	rec = bytes.TrimRight(rec, "\r\n")
	n := 0
	pos := 0
	for {
		// field n starts at pos
		if pos < len(rec) && rec[pos] == c.quote {
			c.field = c.field[:0]
			p := pos + 1
			for {
				if p >= len(rec) {
					return nil, false, fmt.Errorf("line %d: unterminated quoted field", c.line)
				}
				if rec[p] == c.quote {
					if p+1 < len(rec) && rec[p+1] == c.quote {
						c.field = append(c.field, c.quote)
						p += 2
						continue
					}
					p++
					break
				}
				c.field = append(c.field, rec[p])
				p++
			}
			if p < len(rec) && rec[p] != c.delim {
				return nil, false, fmt.Errorf("line %d: text after a closing quote", c.line)
			}
			if n == i {
				return c.field, false, nil
			}
			pos = p
		} else {
			end := bytes.IndexByte(rec[pos:], c.delim)
			if end < 0 {
				end = len(rec)
			} else {
				end += pos
			}
			if n == i {
				f := rec[pos:end]
				return f, len(f) == 0, nil
			}
			pos = end
		}
		if pos >= len(rec) {
			return nil, false, fmt.Errorf("line %d: %d fields, the key is field %d", c.line, n+1, i+1)
		}
		pos++ // the delimiter
		n++
	}
}

var errNullRange = errors.New("a NULL key fits no range partition")
