// Package sniff infers a CSV file's columns when CREATE TABLE ... FROM
// CSV or read_csv() gives none: the delimiter, whether the first line is
// a header, the NULL string, the columns' names and their types.
//
// It reads a sample (the head of the file and windows spread over the
// rest), splits it into records as the loader does, and gives each column
// the narrowest type whose input function reads every sampled value
// exactly (classify.go). The loader then reads the whole file with those
// types. What a sample cannot promise is left to the caller: Result.Risky
// says when a later value could be changed silently by an inferred type
// (more decimals than a numeric's scale, a time after a date), and Scan
// reads the whole file to settle that; a later value that a type rejects
// fails the load, and Widen says which type takes it instead.
package sniff

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

// Sample sizes: the head, and the windows spread over the rest of a file
// whose size is known. A file no larger than their sum is read whole.
const (
	headBytes   = 1 << 20
	windowBytes = 32 << 10
	windows     = 32
	// maxNameBytes is PostgreSQL's identifier limit (NAMEDATALEN - 1).
	maxNameBytes = 63
)

// Sample is the part of an input that inference reads.
type Sample struct {
	Head []byte
	// Whole: Head is all of the input.
	Whole bool
	// Windows are pieces from further on; each starts and ends anywhere,
	// inside a record or even inside quotes.
	Windows [][]byte
}

// ReadSample reads the sample of an input of size bytes (-1: unknown). An
// io.ReaderAt of known size is sampled over its whole length; any other
// reader only at its head.
func ReadSample(r io.Reader, size int64) (*Sample, error) {
	ra, ok := r.(io.ReaderAt)
	if !ok || size < 0 {
		buf := make([]byte, headBytes+windows*windowBytes)
		n, err := io.ReadFull(r, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return &Sample{Head: buf[:n], Whole: n < len(buf)}, nil
	}
	if size <= headBytes+windows*windowBytes {
		buf := make([]byte, size)
		n, err := ra.ReadAt(buf, 0)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return &Sample{Head: buf[:n], Whole: true}, nil
	}
	s := &Sample{Head: make([]byte, headBytes)}
	if _, err := ra.ReadAt(s.Head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	// Windows from just after the head to the very end.
	span := size - headBytes - windowBytes
	for k := int64(0); k < windows; k++ {
		off := headBytes + span*k/(windows-1)
		w := make([]byte, windowBytes)
		n, err := ra.ReadAt(w, off)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		s.Windows = append(s.Windows, w[:n])
	}
	return s, nil
}

// Result is an inferred schema and the options to read the file with.
type Result struct {
	Columns []engine.ColumnDef
	// Options are the given options, with the delimiter, header and NULL
	// string filled in where they were not given.
	Options engine.CSVOptions
	// Records is the number of records the types were inferred from.
	Records int
	// Whole: every record of the input was read, so the types hold for
	// all of them.
	Whole bool
}

// Risky reports whether a value beyond the sample could be read by an
// inferred type without an error and yet not as written: a numeric
// rounds extra decimals, a date drops a time of day, a timestamp drops a
// zone. Scan then settles the types over the whole input.
func (r *Result) Risky() bool {
	if r.Whole {
		return false
	}
	for _, c := range r.Columns {
		switch c.Type.Kind {
		case engine.KindNumeric, engine.KindDate, engine.KindTimestamp:
			return true
		}
	}
	return false
}

// Infer infers the schema of the sampled input. given holds the options
// the user wrote (by lower-case name: "delimiter", "header", "null"); the
// others in opts are guessed. Only the CSV format is inferred.
func Infer(smp *Sample, opts engine.CSVOptions, given map[string]bool) (*Result, error) {
	if opts.Format != engine.FormatCSV {
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "a column list is needed to load FORMAT text or binary: gpusql infers the columns of CSV files only")
	}
	if !given["delimiter"] {
		opts.Delimiter = sniffDelimiter(smp, opts)
	}
	sp := newSplitter(opts.Delimiter, opts.Quote, opts.Escape)
	head := smp.Head
	n := sp.next(head, smp.Whole)
	if n == 0 {
		return nil, engine.Errorf(engine.CodeBadCopyFileFormat, "cannot infer the columns of an empty file").
			WithHint("Give the column list: CREATE TABLE t (a integer, ...) FROM CSV ...")
	}
	first := make([][]byte, sp.fields())
	firstQuoted := append([]bool(nil), sp.quoted...)
	for i := range first {
		first[i] = append([]byte(nil), sp.field(i)...)
	}
	head = head[n:]
	a := newAcc(len(first), opts, given)
	a.records(sp, head, smp.Whole)
	for _, w := range smp.Windows {
		a.window(sp, w)
	}

	// The header: given, or guessed from whether the first record's
	// values fit the types of the rest.
	header := opts.Header != engine.HeaderNone
	if !given["header"] {
		header = a.looksLikeHeader(first, firstQuoted)
	}
	if header {
		if opts.Header == engine.HeaderNone || opts.Header == engine.HeaderMatch {
			// The columns are the header's, in its order: nothing to
			// match (and names made unique would not match).
			opts.Header = engine.HeaderSkip
		}
	} else {
		a.addRecord(first, firstQuoted)
		opts.Header = engine.HeaderNone
	}
	opts.Null = a.chooseNull()
	res := &Result{Options: opts, Records: a.n, Whole: smp.Whole}
	names := columnNames(first, header)
	for i, c := range a.cols {
		res.Columns = append(res.Columns, engine.ColumnDef{Name: names[i], Type: c.typ()})
	}
	return res, nil
}

// Scan reads the whole input (from its start) and returns res with each
// column's type settled over every record.
func Scan(r io.Reader, res *Result) (*Result, error) {
	opts := res.Options
	a := newAcc(len(res.Columns), opts, map[string]bool{"null": true})
	sp := newSplitter(opts.Delimiter, opts.Quote, opts.Escape)
	buf := make([]byte, 0, 4<<20)
	skip := opts.Header != engine.HeaderNone
	eof := false
	for !eof {
		if len(buf) == cap(buf) {
			buf = append(buf, make([]byte, cap(buf))...)[:len(buf)] // a record longer than the buffer
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			eof = true
		} else if err != nil {
			return nil, err
		}
		at := 0
		for {
			k := sp.next(buf[at:], eof)
			if k == 0 {
				break
			}
			at += k
			if skip {
				skip = false
				continue
			}
			a.add(sp)
		}
		buf = buf[:copy(buf, buf[at:])]
	}
	out := *res
	out.Columns = append([]engine.ColumnDef(nil), res.Columns...)
	for i, c := range a.cols {
		out.Columns[i].Type = c.typ()
	}
	out.Records, out.Whole = a.n, true
	return &out, nil
}

// acc accumulates the sampled records' values per column.
type acc struct {
	cols []*colState
	null string
	// tokens: the NULL string was not given, so NULL-like words (NA,
	// NULL, ...) are counted apart until chooseNull decides.
	tokens bool
	n      int // records added
}

func newAcc(ncols int, opts engine.CSVOptions, given map[string]bool) *acc {
	a := &acc{cols: make([]*colState, ncols), null: opts.Null, tokens: !given["null"] && opts.Null == ""}
	for i := range a.cols {
		a.cols[i] = newColState()
	}
	return a
}

// nullWords are the spellings of a missing value that files use besides
// an empty field. One of them may become the file's NULL string.
// NaN is not one: it is a double precision value.
var nullWords = []string{"NULL", "null", "Null", "NA", "N/A", "n/a", "None", "none", "nil", "-", `\N`}

func isNullWord(b []byte) (string, bool) {
	for _, w := range nullWords {
		if string(b) == w {
			return w, true
		}
	}
	return "", false
}

// add adds the splitter's current record, if it has the columns' number
// of fields (a record that has not fails the load anyway).
func (a *acc) add(sp *splitter) {
	if sp.fields() != len(a.cols) {
		return
	}
	a.n++
	for i, c := range a.cols {
		a.value(c, sp.field(i), sp.quoted[i])
	}
}

func (a *acc) addRecord(fields [][]byte, quoted []bool) {
	if len(fields) != len(a.cols) {
		return
	}
	a.n++
	for i, c := range a.cols {
		a.value(c, fields[i], quoted[i])
	}
}

func (a *acc) value(c *colState, f []byte, quoted bool) {
	if !quoted && string(f) == a.null {
		c.nulls++
		if len(f) == 0 {
			c.emptyNull++
		}
		return
	}
	if a.tokens && !quoted {
		if w, ok := isNullWord(f); ok {
			if c.tokens == nil {
				c.tokens = map[string]int{}
			}
			c.tokens[w]++
			return
		}
	}
	c.add(classify(f))
}

// records adds every complete record of data (the last one too at eof).
func (a *acc) records(sp *splitter, data []byte, eof bool) {
	for {
		k := sp.next(data, eof)
		if k == 0 {
			return
		}
		data = data[k:]
		a.add(sp)
	}
}

// window adds the records of a window that starts anywhere: from its
// first line end on, if they split into the columns' number of fields.
// A window that starts inside a quoted field splits wrongly from there;
// one whose records mostly do not fit is left out.
func (a *acc) window(sp *splitter, w []byte) {
	k := 0
	for k < len(w) && w[k] != '\n' {
		k++
	}
	if k == len(w) {
		return
	}
	w = w[k+1:]
	good, bad := 0, 0
	for data := w; ; {
		k := sp.next(data, false)
		if k == 0 {
			break
		}
		data = data[k:]
		if sp.fields() == len(a.cols) {
			good++
		} else {
			bad++
		}
	}
	if good == 0 || bad*4 > good {
		return
	}
	a.records(sp, w, false)
}

// looksLikeHeader decides whether the first record is a header: it is
// when a value of it does not fit the type of its column's other values
// (a name above numbers, dates or booleans). When every column is text,
// it is a header when its fields are all present and distinct.
func (a *acc) looksLikeHeader(first [][]byte, quoted []bool) bool {
	if len(first) != len(a.cols) {
		return false
	}
	allText := true
	for i, c := range a.cols {
		t := c.typ()
		if t.Kind == engine.KindText {
			continue
		}
		allText = false
		f := first[i]
		if !quoted[i] && (string(f) == a.null || a.tokens && c.tokens != nil && c.tokens[string(f)] > 0) {
			continue
		}
		if classify(f).fits&typeFits(t) == 0 {
			return true
		}
	}
	if !allText {
		return false
	}
	seen := map[string]bool{}
	for i, f := range first {
		if len(trim(f)) == 0 || seen[string(f)] || !quoted[i] && string(f) == a.null {
			return false
		}
		seen[string(f)] = true
	}
	return true
}

// chooseNull picks the file's NULL string. Without a NULL option, an
// unquoted empty field is NULL. When the sample also uses exactly one
// NULL-like word, in columns that are otherwise not text, and no such
// column has empty fields (which would then be empty strings, which
// only text reads), that word becomes the NULL string. Otherwise the
// words are values like any other.
func (a *acc) chooseNull() string {
	if !a.tokens {
		return a.null
	}
	word := ""
	for _, c := range a.cols {
		for w := range c.tokens {
			if word != "" && w != word {
				word = "\x00" // more than one word
			} else if word == "" {
				word = w
			}
		}
	}
	useful := word != "" && word != "\x00"
	if useful {
		typed := false
		for _, c := range a.cols {
			t := c.typ()
			if c.emptyNull > 0 && t.Kind != engine.KindText {
				useful = false
			}
			if c.tokens != nil && t.Kind != engine.KindText {
				typed = true
			}
		}
		useful = useful && typed
	}
	for _, c := range a.cols {
		for _, k := range c.tokens {
			if useful {
				c.nulls += k
			} else {
				c.values += k
				c.fits = 0
			}
		}
		if useful && c.emptyNull > 0 {
			c.add(value{}) // empty fields are now empty strings
		}
		c.tokens = nil
	}
	if useful {
		return word
	}
	return a.null
}

// columnNames are the header's names (empty ones become columnN, long
// ones are cut to PostgreSQL's 63 bytes, repeated ones get _1, _2, ...),
// or column1..columnN.
func columnNames(first [][]byte, header bool) []string {
	names := make([]string, len(first))
	used := map[string]bool{}
	for i := range first {
		name := ""
		if header {
			name = cut(string(first[i]))
		}
		if name == "" {
			name = "column" + strconv.Itoa(i+1)
		}
		base := name
		for k := 1; used[name]; k++ {
			suffix := fmt.Sprintf("_%d", k)
			name = cut(base[:min(len(base), maxNameBytes-len(suffix))]) + suffix
		}
		used[name] = true
		names[i] = name
	}
	return names
}

// cut cuts a name to maxNameBytes on a character boundary.
func cut(s string) string {
	if len(s) <= maxNameBytes {
		return s
	}
	n := maxNameBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// delimiters are the candidates tried when DELIMITER is not given.
var delimiters = []byte{',', '\t', ';', '|'}

// sniffDelimiter picks the candidate that splits the head's first records
// into the same number (above one) of fields most consistently, the
// larger number on a tie; ',' when none splits anything.
func sniffDelimiter(smp *Sample, opts engine.CSVOptions) byte {
	best, bestShare, bestFields := opts.Delimiter, 0.0, 1
	for _, d := range delimiters {
		if d == opts.Quote || d == opts.Escape {
			continue
		}
		sp := newSplitter(d, opts.Quote, opts.Escape)
		counts := map[int]int{}
		total := 0
		data := smp.Head
		for total < 200 {
			k := sp.next(data, smp.Whole)
			if k == 0 {
				break
			}
			data = data[k:]
			counts[sp.fields()]++
			total++
		}
		mode, freq := 0, 0
		for f, c := range counts {
			if c > freq || c == freq && f > mode {
				mode, freq = f, c
			}
		}
		if mode <= 1 || total == 0 {
			continue
		}
		share := float64(freq) / float64(total)
		if share > bestShare || share == bestShare && mode > bestFields {
			best, bestShare, bestFields = d, share, mode
		}
	}
	return best
}
