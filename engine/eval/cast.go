package eval

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
)

const usPerDay = 86_400_000_000

// Cast converts v to type to, with PostgreSQL's explicit-cast semantics:
// strings are parsed as their input functions parse them, numbers are
// range-checked and rounded, and char(n)/varchar(n) truncate silently.
//
// Casts between timestamp with time zone and the other date and time
// types or text read and write wall-clock time in a time zone: Cast uses
// UTC, CastZone the one given (the binder passes the session's TimeZone
// as the cast's second argument).
func Cast(v *engine.Vec, to engine.Type) (*engine.Vec, error) {
	return CastZone(v, to, engine.UTCZone)
}

// CastZone is Cast with zone for the wall-clock time of timestamptz
// values.
func CastZone(v *engine.Vec, to engine.Type, zone *engine.Zone) (*engine.Vec, error) {
	from := v.T
	if from == to {
		return v, nil
	}
	n := v.N
	if to.IsString() {
		return castToString(v, to, zone)
	}
	if from.Kind == engine.KindNumeric && to.Kind == engine.KindNumeric && to.Prec == 0 {
		// unconstrained numeric keeps every value as it is (fitNumeric)
		return &engine.Vec{T: to, N: n, Null: v.Null, D: v.D}, nil
	}
	out := engine.NewVec(to, n)
	out.Null = copyNulls(v.Null)
	if from.IsString() {
		for i := 0; i < n; i++ {
			if v.IsNull(i) {
				continue
			}
			if err := parseInto(out, i, v.S[i], zone); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if from.Kind == engine.KindDate && to.Kind == engine.KindTimestamp {
		// convertTime's conversion, in one loop (TPC-H's date filters
		// compare dates with timestamps); a NULL's slot stays zero
		for i, x := range v.I[:n] {
			if !v.IsNull(i) {
				out.I[i] = x * usPerDay
			}
		}
		return out, nil
	}
	for i := 0; i < n; i++ {
		if v.IsNull(i) {
			continue
		}
		if err := convertSlot(out, i, v, i, zone); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func castToString(v *engine.Vec, to engine.Type, zone *engine.Zone) (*engine.Vec, error) {
	n := v.N
	out := &engine.Vec{T: to, N: n, S: make([][]byte, n), Null: copyNulls(v.Null)}
	if v.T.IsString() {
		for i := 0; i < n; i++ {
			if !v.IsNull(i) {
				out.S[i] = limitChars(v.S[i], to)
			}
		}
		return out, nil
	}
	var buf []byte
	offs := make([]int, n+1)
	for i := 0; i < n; i++ {
		if !v.IsNull(i) {
			if v.T.Kind == engine.KindBool {
				if v.I[i] != 0 {
					buf = append(buf, "true"...)
				} else {
					buf = append(buf, "false"...)
				}
			} else {
				buf = engine.AppendTextZone(buf, v, i, zone)
			}
		}
		offs[i+1] = len(buf)
	}
	for i := 0; i < n; i++ {
		if !v.IsNull(i) {
			out.S[i] = limitChars(buf[offs[i]:offs[i+1]:offs[i+1]], to)
		}
	}
	return out, nil
}

// limitChars truncates s to to.Len characters (explicit cast semantics)
// and drops trailing blanks for char(n), whose padding is implicit.
func limitChars(s []byte, to engine.Type) []byte {
	if to.Len > 0 && (to.Kind == engine.KindChar || to.Kind == engine.KindVarchar) {
		if len(s) > to.Len { // only then can it have more than Len characters
			c := 0
			for k := range string(s) {
				if c == to.Len {
					s = s[:k]
					break
				}
				c++
			}
		}
	}
	if to.Kind == engine.KindChar {
		for len(s) > 0 && s[len(s)-1] == ' ' {
			s = s[:len(s)-1]
		}
	}
	return s
}

// parseInto parses text b as out's type into slot i.
func parseInto(out *engine.Vec, i int, b []byte, zone *engine.Zone) error {
	t := out.T
	switch t.Kind {
	case engine.KindBool:
		x, st := engine.ParseBool(b)
		if st != engine.ParseOK {
			return engine.InputError(t, st, b)
		}
		if x {
			out.I[i] = 1
		}
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		x, st := engine.ParseInt(b, t.Kind)
		if st != engine.ParseOK {
			return engine.InputError(t, st, b)
		}
		out.I[i] = x
	case engine.KindFloat32, engine.KindFloat64:
		x, st := engine.ParseFloat(b, t.Kind)
		if st != engine.ParseOK {
			return engine.InputError(t, st, b)
		}
		out.F[i] = x
	case engine.KindNumeric:
		if t.Prec > 0 {
			// rounded to the scale as it is read, so that digits past
			// it do not count against the 38
			d, st := engine.ParseNumericWide(b, t.Prec, t.Scale)
			if st != engine.ParseOK {
				return engine.InputError(t, st, b)
			}
			out.D[i] = d
			break
		}
		d, ok := engine.ParseDecLiteral(string(b))
		if !ok {
			return engine.InputError(t, engine.ParseInvalid, b)
		}
		r, err := fitNumeric(d, t)
		if err != nil {
			return err
		}
		out.D[i] = r
	case engine.KindDate:
		x, st := engine.ParseDate(b)
		if st != engine.ParseOK {
			return engine.InputError(t, st, b)
		}
		out.I[i] = int64(x)
	case engine.KindTimestamp:
		x, st := engine.ParseTimestamp(b)
		if st != engine.ParseOK {
			return engine.InputError(t, st, b)
		}
		out.I[i] = roundTime(t, x)
	case engine.KindTimestampTZ:
		x, st := engine.ParseTimestampTZ(b, zone)
		if st != engine.ParseOK {
			return engine.InputError(t, st, b)
		}
		out.I[i] = roundTime(t, x)
	case engine.KindTime:
		x, st := engine.ParseTime(b)
		if st != engine.ParseOK {
			return engine.InputError(t, st, b)
		}
		out.I[i] = roundTime(t, x)
	case engine.KindInterval:
		iv, err := ParseIntervalTyped(string(b), t)
		if err != nil {
			return err
		}
		out.V[i] = iv
	default:
		return engine.Errorf(engine.CodeFeatureNotSupported, "cannot cast text to %s", t)
	}
	return nil
}

// fitNumeric rounds d to t's scale and checks t's precision.
func fitNumeric(d engine.Dec, t engine.Type) (engine.Dec, error) {
	if t.Prec == 0 {
		return d, nil
	}
	s := int32(t.Scale)
	var ok bool
	if d.Scale > s {
		d = d.Round(s)
	} else if d, ok = d.Rescale(s); !ok {
		return engine.Dec{}, numericFieldOverflow(t)
	}
	// |d| < 10^(p-s) ⇔ |mantissa| < 10^p
	limit := engine.DecFromInt(1)
	limit, _ = limit.Rescale(int32(t.Prec))
	limit.Scale = s
	a := d
	if a.Sign() < 0 {
		a, _ = a.Neg()
	}
	if engine.DecCmp(a, limit) >= 0 {
		return engine.Dec{}, numericFieldOverflow(t)
	}
	return d, nil
}

func numericFieldOverflow(t engine.Type) error {
	e := engine.Errorf(engine.CodeNumericValueOutOfRange, "numeric field overflow")
	if t.Scale == t.Prec {
		e.Detail = "A field with precision " + itoa(t.Prec) + ", scale " + itoa(t.Scale) + " must round to an absolute value less than 1."
	} else {
		e.Detail = "A field with precision " + itoa(t.Prec) + ", scale " + itoa(t.Scale) + " must round to an absolute value less than 10^" + itoa(t.Prec-t.Scale) + "."
	}
	return e
}

func itoa(x int) string {
	return string(engine.AppendText(nil, &engine.Vec{T: engine.Int64, N: 1, I: []int64{int64(x)}}, 0))
}

// convertSlot converts a non-string, non-NULL value between types.
func convertSlot(out *engine.Vec, i int, v *engine.Vec, j int, zone *engine.Zone) error {
	from, to := v.T, out.T
	if to.IsTimeKind() || from.IsTimeKind() {
		if ok, err := convertTime(out, i, v, j, zone); ok || err != nil {
			return err
		}
	}
	switch to.Kind {
	case engine.KindBool:
		switch {
		case from.IsInteger():
			if v.I[j] != 0 {
				out.I[i] = 1
			}
			return nil
		case from.Kind == engine.KindBool:
			out.I[i] = v.I[j]
			return nil
		}
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		lo, hi, name := intRange(to.Kind)
		var x int64
		switch {
		case from.IsInteger() || from.Kind == engine.KindBool:
			x = v.I[j]
		case from.IsFloat():
			f := math.RoundToEven(v.F[j])
			if f != f || f < float64(lo) || f >= -float64(lo) {
				return outOfRange(name)
			}
			x = int64(f)
		case from.Kind == engine.KindNumeric:
			r, ok := v.D[j].RoundInt()
			if !ok {
				return outOfRange(name)
			}
			x = r
		default:
			return cannotCast(from, to)
		}
		if x < lo || x > hi {
			return outOfRange(name)
		}
		out.I[i] = x
		return nil
	case engine.KindFloat32, engine.KindFloat64:
		var f float64
		single := to.Kind == engine.KindFloat32
		switch {
		case from.IsInteger() && single:
			f = float64(float32(v.I[j])) // one rounding, straight to float4
		case from.IsInteger():
			f = float64(v.I[j])
		case from.IsFloat():
			f = v.F[j]
			if single {
				g := float64(float32(f))
				switch {
				case math.IsInf(g, 0) && !math.IsInf(f, 0):
					return engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: overflow")
				case g == 0 && f != 0:
					return engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: underflow")
				}
				f = g
			}
		case from.Kind == engine.KindNumeric:
			bits := 64
			if single {
				bits = 32
			}
			g, err := strconv.ParseFloat(v.D[j].String(), bits)
			if err != nil && !math.IsInf(g, 0) {
				return engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: overflow")
			}
			if math.IsInf(g, 0) {
				return engine.Errorf(engine.CodeNumericValueOutOfRange, "value out of range: overflow")
			}
			f = g
		default:
			return cannotCast(from, to)
		}
		out.F[i] = f
		return nil
	case engine.KindNumeric:
		var d engine.Dec
		switch {
		case from.IsInteger():
			d = engine.DecFromInt(v.I[j])
		case from.IsFloat():
			digits := 15
			if from.Kind == engine.KindFloat32 {
				digits = 6
			}
			var ok bool
			if v.F[j] != v.F[j] || math.IsInf(v.F[j], 0) {
				return engine.Errorf(engine.CodeFeatureNotSupported, "cannot convert %s to numeric: gpusql numerics have no NaN or infinity", string(engine.AppendFloat(nil, v.F[j], 64)))
			}
			if d, ok = engine.DecFromFloat(v.F[j], digits); !ok {
				return numericOverflow()
			}
		case from.Kind == engine.KindNumeric:
			d = v.D[j]
		default:
			return cannotCast(from, to)
		}
		r, err := fitNumeric(d, to)
		if err != nil {
			return err
		}
		out.D[i] = r
		return nil
	case engine.KindDate:
		if from.Kind == engine.KindTimestamp {
			out.I[i] = floorDiv(v.I[j], usPerDay)
			return nil
		}
	case engine.KindTimestamp:
		if from.Kind == engine.KindDate {
			out.I[i] = v.I[j] * usPerDay
			return nil
		}
	}
	return cannotCast(from, to)
}

func cannotCast(from, to engine.Type) error {
	return engine.Errorf(engine.CodeCannotCoerce, "cannot cast type %s to %s", from, to)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// CharLen counts UTF-8 characters.
func CharLen(s []byte) int { return utf8.RuneCount(s) }
