package engine

import "sync"

// Zone maps: for each block of ZoneRows rows of a stored column, the
// smallest and largest non-NULL value and whether the block holds a NULL
// or only NULLs. A scan asks them whether a block can hold a row that a
// filter passes (or that beats a top-N's current bound), and skips the
// blocks that cannot. Only columns stored as integers have them: bool,
// the integer types, dates, times, timestamps, and numerics kept as
// scaled int64 (Min and Max are then in units of 10^-scale). Floats
// (NaN orders above everything, and -0 equals 0), strings and numerics
// kept as Dec have none.
//
// Table data never changes once built (an append, COPY or TRUNCATE
// publishes a new HostTable), so a table computes a column's zone map
// once and keeps it; a table built without NewHostTable has none.

// ZoneRows is the number of rows a zone covers.
const ZoneRows = 4096

// ZoneMap is one column's zones.
type ZoneMap struct {
	Min, Max []int64 // per zone, over its non-NULL rows
	// HasNull marks zones with at least one NULL row; AllNull zones with
	// no other (their Min and Max mean nothing).
	HasNull, AllNull []bool
}

// Zones is the number of zones.
func (z *ZoneMap) Zones() int { return len(z.Min) }

// HasZoneMap reports whether column c gets a zone map.
func HasZoneMap(c *Column) bool {
	switch c.Type.Kind {
	case KindBool, KindInt16, KindInt32, KindInt64, KindDate, KindTime, KindTimestamp, KindTimestampTZ:
		return true
	case KindNumeric:
		return c.D == nil && c.I64 != nil
	}
	return false
}

// BuildZoneMap computes c's zone map, or nil where c's type has none.
func BuildZoneMap(c *Column) *ZoneMap {
	if !HasZoneMap(c) {
		return nil
	}
	n := c.Len
	zones := (n + ZoneRows - 1) / ZoneRows
	z := &ZoneMap{Min: make([]int64, zones), Max: make([]int64, zones), HasNull: make([]bool, zones), AllNull: make([]bool, zones)}
	for k := 0; k < zones; k++ {
		lo, hi := k*ZoneRows, min((k+1)*ZoneRows, n)
		if c.Valid != nil && !allValid(c.Valid, lo, hi) {
			z.Min[k], z.Max[k], z.HasNull[k], z.AllNull[k] = zoneNullable(c, lo, hi)
			continue
		}
		switch {
		case c.B != nil:
			z.Min[k], z.Max[k] = minMax(c.B[lo:hi])
		case c.I16 != nil:
			z.Min[k], z.Max[k] = minMax(c.I16[lo:hi])
		case c.I32 != nil:
			z.Min[k], z.Max[k] = minMax(c.I32[lo:hi])
		default:
			z.Min[k], z.Max[k] = minMax(c.I64[lo:hi])
		}
	}
	return z
}

// allValid reports whether rows [lo, hi) of a validity bitmap are all set.
func allValid(valid []uint64, lo, hi int) bool {
	for i := lo; i < hi; {
		if i&63 == 0 && hi-i >= 64 {
			if valid[i>>6] != ^uint64(0) {
				return false
			}
			i += 64
			continue
		}
		if valid[i>>6]&(1<<(uint(i)&63)) == 0 {
			return false
		}
		i++
	}
	return true
}

func minMax[T int64 | int32 | int16 | uint8](s []T) (int64, int64) {
	lo, hi := s[0], s[0]
	for _, x := range s[1:] {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	return int64(lo), int64(hi)
}

// zoneNullable is one zone of rows [lo, hi) that holds a NULL.
func zoneNullable(c *Column, lo, hi int) (mn, mx int64, hasNull, allNull bool) {
	allNull = true
	for i := lo; i < hi; i++ {
		if c.IsNull(i) {
			hasNull = true
			continue
		}
		var x int64
		switch {
		case c.B != nil:
			x = int64(c.B[i])
		case c.I16 != nil:
			x = int64(c.I16[i])
		case c.I32 != nil:
			x = int64(c.I32[i])
		default:
			x = c.I64[i]
		}
		if allNull {
			mn, mx, allNull = x, x, false
			continue
		}
		mn, mx = min(mn, x), max(mx, x)
	}
	return mn, mx, hasNull, allNull
}

// zoneMapCache keeps a table's zone maps once computed, with the column each
// was computed from.
type zoneMapCache struct {
	mu   sync.Mutex
	cols map[int]zoneEntry
}

type zoneEntry struct {
	col *Column
	z   *ZoneMap
}

// ZoneMap returns column col's zone map, computing it on first use, or nil
// where the column has none (or the table keeps no cache).
func (h *HostTable) ZoneMap(col int) *ZoneMap {
	if h.zones == nil || col < 0 || col >= len(h.Cols) {
		return nil
	}
	c := h.Cols[col]
	if c == nil || int64(c.Len) != h.N || !HasZoneMap(c) {
		return nil
	}
	h.zones.mu.Lock()
	e, ok := h.zones.cols[col]
	h.zones.mu.Unlock()
	if ok && e.col == c {
		return e.z
	}
	z := BuildZoneMap(c) // unlocked: columns are built side by side
	h.zones.mu.Lock()
	defer h.zones.mu.Unlock()
	if e, ok := h.zones.cols[col]; ok && e.col == c {
		return e.z // another caller was first
	}
	if h.zones.cols == nil {
		h.zones.cols = map[int]zoneEntry{}
	}
	h.zones.cols[col] = zoneEntry{c, z}
	return z
}

// BuildZoneMaps computes the zone maps of all h's columns that have them,
// a column a goroutine (what a load does, so that the first query finds
// them ready).
func (h *HostTable) BuildZoneMaps() {
	var wg sync.WaitGroup
	for k, c := range h.Cols {
		if c == nil || !HasZoneMap(c) {
			continue
		}
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			h.ZoneMap(k)
		}(k)
	}
	wg.Wait()
}
