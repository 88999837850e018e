package engine

import (
	"context"
	"io"
	"os"
	"unsafe"
)

// OnError is the policy for rows that fail to load.
type OnError uint8

const (
	OnErrorStop   OnError = iota // the first bad row fails the load
	OnErrorIgnore                // bad rows are skipped and recorded
)

// HeaderMode says what the first line of a file is.
type HeaderMode uint8

const (
	HeaderNone  HeaderMode = iota // no header line
	HeaderSkip                    // HEADER true: skip the first line
	HeaderMatch                   // HEADER MATCH: map table columns by header name
)

// CopyFormat is the syntax of COPY data.
type CopyFormat uint8

const (
	FormatCSV  CopyFormat = iota // RFC 4180-like CSV with quotes
	FormatText                   // PostgreSQL's text format: backslash escapes, no quotes
	// FormatBinary is PostgreSQL's binary COPY format. The query layer
	// turns it into FormatText (engine/copybin) before a loader sees it.
	FormatBinary
	// FormatParquet is an Apache Parquet file (a server-side file only).
	// The query layer decodes it into columns itself; no loader sees it.
	FormatParquet
)

// CSVOptions are the validated options of one CSV load. The query layer
// builds them from COPY/CREATE TABLE ... WITH (...) and checks them once.
// With Format FormatText, Quote and Escape are unused, Delimiter defaults
// to a tab and Null to \N (the query layer sets them).
type CSVOptions struct {
	Format    CopyFormat
	Delimiter byte // default ','
	Quote     byte // default '"'
	Escape    byte // default: same as Quote
	Null      string
	Header    HeaderMode
	OnError   OnError
	// MaxTextWidth bounds the stored byte width of a text column (text has
	// no character limit of its own). A longer value is an error, 54000.
	MaxTextWidth int
	// Zone is the TimeZone in which timestamptz values without an offset
	// are read; nil means UTC.
	Zone *Zone
}

// DefaultCSVOptions returns PostgreSQL's CSV defaults.
func DefaultCSVOptions() CSVOptions {
	return CSVOptions{Delimiter: ',', Quote: '"', Escape: '"', MaxTextWidth: 1 << 16}
}

// LoadRequest asks a backend to parse CSV input into a new table body.
type LoadRequest struct {
	Table   string      // table name, for messages and the errors table
	Columns []ColumnDef // the table's columns, in table order
	Options CSVOptions
	// Source is the CSV bytes. Size is its length if known (-1 if not),
	// used for progress and to size buffers.
	Source io.Reader
	Size   int64
	// Progress, if set, is called from time to time with bytes consumed.
	Progress func(done int64)
}

// FileSection is a LoadRequest.Source that reads N bytes of File from
// Off: one part's range of a file split across devices (engine/multi).
// Read through it, it is an io.Reader of the range; loaders that read
// files in parallel read File at Off instead.
type FileSection struct {
	*io.SectionReader
	File *os.File
	Off  int64
	N    int64
}

// NewFileSection is the section of f of n bytes from off.
func NewFileSection(f *os.File, off, n int64) *FileSection {
	return &FileSection{SectionReader: io.NewSectionReader(f, off, n), File: f, Off: off, N: n}
}

// LoadError is one rejected row, as recorded in gpusql_load_errors.
type LoadError struct {
	Line   int64  // 1-based line PostgreSQL would report: where the record ends
	Column string // column name, "" if the error is about the whole row
	Code   string // SQLSTATE
	Reason string
	Raw    string // a prefix of the row's text
	File   string // the server-side file, as named in the statement; "" for STDIN
}

// LoadResult is a successful load.
type LoadResult struct {
	Data    TableData
	Rows    int64
	Bytes   int64 // input bytes read
	Skipped []LoadError
	// SkippedCount may exceed len(Skipped) if recording was capped.
	SkippedCount int64
	// Notes are said to the client as NOTICEs: how the load ran, where
	// that differs from what the backend normally does (never silently).
	Notes []string
}

// TableData is a backend's storage for one table's rows.
type TableData interface {
	Rows() int64
	// DeviceBytes is the memory the data occupies where it lives.
	DeviceBytes() int64
	// Release frees the storage; the data must not be used afterwards.
	Release()
}

// HostTable is table data held in host memory, one Column per table column.
type HostTable struct {
	Cols []*Column
	N    int64
	// stats caches column statistics (stats.go); a table built without
	// NewHostTable computes them on each call.
	stats *statsCache
	// zones caches column zone maps (zonemap.go); a table built without
	// NewHostTable has none.
	zones *zoneMapCache
}

// NewHostTable makes a host table of n rows over cols that caches its
// column statistics and zone maps.
func NewHostTable(cols []*Column, n int64) *HostTable {
	return &HostTable{Cols: cols, N: n, stats: &statsCache{}, zones: &zoneMapCache{}}
}

func (h *HostTable) Rows() int64 { return h.N }
func (h *HostTable) DeviceBytes() int64 {
	var n int64
	for _, c := range h.Cols {
		n += c.Bytes()
	}
	return n
}
func (h *HostTable) Release() { h.Cols = nil; h.N = 0 }

// Loader parses CSV into table data. Each backend provides one.
type Loader interface {
	Load(ctx context.Context, req *LoadRequest) (*LoadResult, error)
	// Concat builds new data holding a's rows and then b's (what a COPY
	// into a loaded table publishes), with a's and b's columns in the
	// same order and types; a and b do not change. Device memory is
	// accounted to table.
	Concat(table string, a, b TableData) (TableData, error)
}

// ConcatHostData is Concat for host tables.
func ConcatHostData(a, b TableData) (TableData, error) {
	ha, ok1 := a.(*HostTable)
	hb, ok2 := b.(*HostTable)
	if !ok1 || !ok2 || len(ha.Cols) != len(hb.Cols) {
		return nil, Errorf(CodeInternalError, "cannot append %T to %T", b, a)
	}
	return ConcatHost(ha, hb), nil
}

// PartBytes is one device's share of a table spread over several
// (engine/multi).
type PartBytes struct {
	Device string
	Rows   int64
	Bytes  int64
	// Gathered: Bytes include a copy of every row, kept for the plans
	// that need all of them on one device.
	Gathered bool
	// Redistributed: Bytes include the part's share of a copy of the
	// table redistributed by a join key (engine/multi's co-partitioned
	// joins).
	Redistributed bool
}

// Placed is table data spread over several devices.
type Placed interface {
	Placement() []PartBytes
}

// Gatherer is table data spread over several devices (engine/multi) that
// can give all of its rows on the first of them, for the plans that need
// them in one place.
type Gatherer interface {
	Gathered() (TableData, error)
}

// LocalData is d, or, for data spread over several devices, all of its
// rows on the first device (made once per table version). A backend reads
// its leaves' data through it.
func LocalData(d TableData) (TableData, error) {
	if g, ok := d.(Gatherer); ok {
		return g.Gathered()
	}
	return d, nil
}

// ColumnStorage describes column k: host columns are plain arrays.
func (h *HostTable) ColumnStorage(k int) ColumnStorage {
	c := h.Cols[k]
	w := c.Width
	if !c.Type.IsString() {
		w = c.Type.StorageWidth()
	}
	if c.D != nil {
		w = int(unsafe.Sizeof(Dec{})) // mantissa and scale
	}
	return ColumnStorage{Bytes: c.Bytes(), RowBytes: w, Encoding: "plain"}
}
