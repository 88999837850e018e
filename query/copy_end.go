package query

import (
	"io"

	"github.com/gpusql/gpusql/engine"
)

// The end-of-data marker of COPY FROM STDIN. A line holding only \. ends
// the data in text and in CSV format (in CSV, only outside a quoted
// field), as in PostgreSQL; whatever follows it up to CopyDone is
// ignored. psql sends the marker when it copies from its own standard
// input, and old clients always send it.

// endMarkerReader passes src through up to an end-of-data marker. The
// data may arrive cut anywhere (a CopyData message holds any part of a
// row, even half of the marker): a possible start of a marker at the end
// of one read is held back until the next one settles it.
type endMarkerReader struct {
	src     io.Reader
	csv     bool
	quote   byte
	escape  byte
	buf     []byte // bytes read from src, not yet returned
	scanned int    // buf[:scanned] is settled data
	// Scanner state at buf[scanned].
	lineStart bool
	inQuote   bool
	escaped   bool // the previous byte was an escape inside quotes
	done      bool // the marker was seen, or src ended
	err       error
}

func newEndMarkerReader(src io.Reader, opts engine.CSVOptions) *endMarkerReader {
	return &endMarkerReader{src: src, csv: opts.Format == engine.FormatCSV, quote: opts.Quote, escape: opts.Escape,
		lineStart: true, buf: make([]byte, 0, 64<<10)}
}

func (r *endMarkerReader) Read(p []byte) (int, error) {
	for {
		if r.scanned > 0 {
			n := copy(p, r.buf[:r.scanned])
			r.buf = r.buf[:copy(r.buf, r.buf[n:])]
			r.scanned -= n
			return n, nil
		}
		if r.done {
			if len(r.buf) > 0 {
				// What is left after src ended is data (a lone "\" say).
				r.scanned = len(r.buf)
				continue
			}
			return 0, r.err
		}
		if len(r.buf) == cap(r.buf) {
			r.buf = append(r.buf, 0)[:len(r.buf)]
		}
		n, err := r.src.Read(r.buf[len(r.buf):cap(r.buf)])
		r.buf = r.buf[:len(r.buf)+n]
		if err != nil {
			r.done, r.err = true, err
		}
		r.scan()
	}
}

// scan settles as much of buf as it can: up to the marker (dropping it
// and the rest), or up to a possible marker that needs more bytes.
func (r *endMarkerReader) scan() {
	b := r.buf
	i := r.scanned
	for i < len(b) {
		if r.lineStart && !r.inQuote {
			switch m := markerAt(b[i:], r.done); m {
			case markerYes:
				r.buf = b[:i]
				r.scanned = i
				r.done, r.err = true, io.EOF
				return
			case markerMaybe:
				r.scanned = i
				return
			}
		}
		c := b[i]
		r.lineStart = c == '\n'
		if r.csv {
			switch {
			case r.escaped:
				r.escaped = false
			case r.inQuote && c == r.escape && r.escape != r.quote:
				r.escaped = true
			case c == r.quote:
				r.inQuote = !r.inQuote
			}
		}
		i++
	}
	r.scanned = i
}

const (
	markerNo = iota
	markerYes
	markerMaybe
)

// markerAt tells whether b starts with the marker line: \. then \n, \r\n
// or the end of the data (atEOF: no more bytes come after b).
func markerAt(b []byte, atEOF bool) int {
	want := []byte{'\\', '.'}
	for k, c := range want {
		if k == len(b) {
			if atEOF {
				return markerNo
			}
			return markerMaybe
		}
		if b[k] != c {
			return markerNo
		}
	}
	rest := b[2:]
	switch {
	case len(rest) == 0:
		if atEOF {
			return markerYes
		}
		return markerMaybe
	case rest[0] == '\n':
		return markerYes
	case rest[0] == '\r':
		if len(rest) == 1 {
			if atEOF {
				return markerYes
			}
			return markerMaybe
		}
		if rest[1] == '\n' {
			return markerYes
		}
	}
	return markerNo
}
