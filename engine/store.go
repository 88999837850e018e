package engine

import "context"

// TableStore is implemented by backends that keep a query's result as a
// table: CREATE TABLE ... AS, SELECT ... INTO and INSERT build the new
// rows with it, and publish them as a table version (Catalog.CreateIn,
// Table.Write). Both backends implement it.
type TableStore interface {
	// Materialize runs plan p and returns its visible columns as new
	// table data in the backend's own storage (device memory on the
	// GPU, where the rows stay). The result shares no storage with any
	// table p reads, so it outlives their versions; the caller owns it.
	Materialize(ctx context.Context, p *Plan, o StoreOptions) (TableData, error)
	// Store copies rows built in host memory into the backend's storage
	// (h itself may be kept by a host backend: the caller gives it up).
	Store(h *HostTable, o StoreOptions) (TableData, error)
}

// MappedStorer is a TableStore that can copy rows whose columns alias a
// read-only mapping of a file (persist's reload): mapped is the whole
// mapping, which the store may page-lock for the copy (the GPU copies
// from it by DMA). The store must copy what it keeps: the mapping goes
// away when StoreMapped returns.
type MappedStorer interface {
	StoreMapped(h *HostTable, mapped []byte, o StoreOptions) (TableData, error)
}

// StoreOptions say how a backend stores rows as a table.
type StoreOptions struct {
	// Table is the table the data is for; device memory is accounted to
	// it.
	Table string
	// MaxTextWidth bounds the stored byte width of a string column, as
	// for loads (54000 beyond it); 0: no bound.
	MaxTextWidth int
}

// CheckWidth is the 54000 error for a string column stored widthBytes
// wide (its longest value, rounded up to 4 bytes) when o allows less.
func (o StoreOptions) CheckWidth(widthBytes int) error {
	if o.MaxTextWidth > 0 && widthBytes > RoundWidth(o.MaxTextWidth) {
		return Errorf(CodeProgramLimitExceeded, "a text value is longer than the maximum text width of %d bytes", o.MaxTextWidth).
			WithHint("The server's --max-text-width option sets the limit.")
	}
	return nil
}

// StoredTyper is table data that reports the type each column is stored
// as, which may differ from the table's declared type: an unconstrained
// numeric is stored as numeric(18,s) at one scale s (StoredType), or on
// the host as Dec values of their own scales (Type numeric).
type StoredTyper interface {
	StoredType(col int) Type
}

// StoredType is the type column col is stored as.
func (h *HostTable) StoredType(col int) Type { return h.Cols[col].Type }
