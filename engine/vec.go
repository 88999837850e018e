package engine

// IntervalVal is a PostgreSQL interval: months, days and microseconds are
// kept apart, as PostgreSQL does.
type IntervalVal struct {
	Months int32
	Days   int32
	Micros int64
}

// Span returns the interval's length as PostgreSQL compares intervals
// (months of 30 days, days of 24 hours), as whole days and the remaining
// microseconds in [0, 24h). Equal spans give equal results.
func (iv IntervalVal) Span() (days, micros int64) {
	const usPerDay = 86_400_000_000
	days = int64(iv.Months)*30 + int64(iv.Days)
	q := iv.Micros / usPerDay
	r := iv.Micros % usPerDay
	if r < 0 {
		q--
		r += usPerDay
	}
	return days + q, r
}

// Vec is a batch of values of one type in host memory: the unit that CPU
// operators work on and that results come back in. One slice is used,
// chosen by T.Kind:
//
//	KindBool                          I (0 or 1)
//	integers, KindDate, KindTimestamp I (days or µs for dates and timestamps)
//	KindFloat32, KindFloat64          F
//	KindNumeric                       D
//	strings                           S (slices may alias table storage)
//	KindInterval                      V
//
// Null is nil when no value is NULL; otherwise Null[i] marks row i NULL and
// the data slot holds a zero value.
type Vec struct {
	T    Type
	N    int
	Null []bool
	I    []int64
	F    []float64
	D    []Dec
	S    [][]byte
	V    []IntervalVal
}

// IsNull reports whether row i is NULL.
func (v *Vec) IsNull(i int) bool { return v.Null != nil && v.Null[i] }

// Phys is the physical slot class of a kind.
type Phys uint8

const (
	PhysInt Phys = iota
	PhysFloat
	PhysDec
	PhysStr
	PhysInterval
)

// PhysOf returns the Vec slice class used for kind k.
func PhysOf(k Kind) Phys {
	switch k {
	case KindFloat32, KindFloat64:
		return PhysFloat
	case KindNumeric:
		return PhysDec
	case KindChar, KindVarchar, KindText, KindUnknown:
		return PhysStr
	case KindInterval:
		return PhysInterval
	}
	return PhysInt
}

// NewVec makes a vector of n zero values of type t, without NULLs.
func NewVec(t Type, n int) *Vec {
	v := &Vec{T: t, N: n}
	switch PhysOf(t.Kind) {
	case PhysInt:
		v.I = make([]int64, n)
	case PhysFloat:
		v.F = make([]float64, n)
	case PhysDec:
		v.D = make([]Dec, n)
	case PhysStr:
		v.S = make([][]byte, n)
	case PhysInterval:
		v.V = make([]IntervalVal, n)
	}
	return v
}

// SetNull marks row i NULL, allocating the null slice if needed.
func (v *Vec) SetNull(i int) {
	if v.Null == nil {
		v.Null = make([]bool, v.N)
	}
	v.Null[i] = true
}

// Gather returns a new vector of the rows of v listed in sel.
func (v *Vec) Gather(sel []int32) *Vec {
	out := &Vec{T: v.T, N: len(sel)}
	if v.Null != nil {
		out.Null = make([]bool, len(sel))
		for k, i := range sel {
			out.Null[k] = v.Null[i]
		}
	}
	switch {
	case v.I != nil:
		out.I = make([]int64, len(sel))
		for k, i := range sel {
			out.I[k] = v.I[i]
		}
	case v.F != nil:
		out.F = make([]float64, len(sel))
		for k, i := range sel {
			out.F[k] = v.F[i]
		}
	case v.D != nil:
		out.D = make([]Dec, len(sel))
		for k, i := range sel {
			out.D[k] = v.D[i]
		}
	case v.S != nil:
		out.S = make([][]byte, len(sel))
		for k, i := range sel {
			out.S[k] = v.S[i]
		}
	case v.V != nil:
		out.V = make([]IntervalVal, len(sel))
		for k, i := range sel {
			out.V[k] = v.V[i]
		}
	default:
		*out = *NewVec(v.T, len(sel))
	}
	return out
}

// AppendRow appends row i of src to v (same type). Strings are copied, so
// v does not alias src's storage.
func (v *Vec) AppendRow(src *Vec, i int) {
	null := src.IsNull(i)
	if null && v.Null == nil {
		v.Null = make([]bool, v.N)
	}
	if v.Null != nil {
		v.Null = append(v.Null, null)
	}
	switch PhysOf(v.T.Kind) {
	case PhysInt:
		v.I = append(v.I, src.I[i])
	case PhysFloat:
		v.F = append(v.F, src.F[i])
	case PhysDec:
		v.D = append(v.D, src.D[i])
	case PhysStr:
		v.S = append(v.S, append([]byte(nil), src.S[i]...))
	case PhysInterval:
		v.V = append(v.V, src.V[i])
	}
	v.N++
}

// Batch is a set of equally long vectors.
type Batch struct {
	N    int
	Cols []*Vec
}
