package query

import (
	"math"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/shard"
)

// pgHashFunc is one of PostgreSQL's hash support functions (pg_amproc
// numbers 1 and 2 of the hash operator families gpusql lists): the
// 32-bit hash of a value, or with extended the 64-bit hash seeded by a
// second, bigint argument.
type pgHashFunc struct {
	arg      engine.Type
	extended bool
	// as reads a text argument as PostgreSQL's name ('n': at most 63
	// bytes, clipName) or "char" ('c': its first byte, a signed C char,
	// 0 for an empty string); gpusql stores both as text.
	as byte
}

// pgHashFuncs are the hash functions gpusql implements, by name. Each
// gives PostgreSQL 15's value bit for bit (shard/pghash.go is its
// algorithm), so a hash computed here matches one computed by
// PostgreSQL, as a partitioned table's routing needs.
var pgHashFuncs = map[string]pgHashFunc{
	"hashint2":                {engine.Int16, false, 0},
	"hashint4":                {engine.Int32, false, 0},
	"hashint8":                {engine.Int64, false, 0},
	"hashint2extended":        {engine.Int16, true, 0},
	"hashint4extended":        {engine.Int32, true, 0},
	"hashint8extended":        {engine.Int64, true, 0},
	"hashfloat4":              {engine.Float32, false, 0},
	"hashfloat8":              {engine.Float64, false, 0},
	"hashfloat4extended":      {engine.Float32, true, 0},
	"hashfloat8extended":      {engine.Float64, true, 0},
	"hashtext":                {engine.Text, false, 0},
	"hashtextextended":        {engine.Text, true, 0},
	"hashname":                {engine.Text, false, 'n'},
	"hashnameextended":        {engine.Text, true, 'n'},
	"hashchar":                {engine.Text, false, 'c'},
	"hashcharextended":        {engine.Text, true, 'c'},
	"hashbpchar":              {engine.Type{Kind: engine.KindChar}, false, 0},
	"hashbpcharextended":      {engine.Type{Kind: engine.KindChar}, true, 0},
	"timestamp_hash":          {engine.Timestamp, false, 0},
	"timestamp_hash_extended": {engine.Timestamp, true, 0},
	"time_hash":               {engine.Time, false, 0},
	"time_hash_extended":      {engine.Time, true, 0},
	"hash_numeric":            {engine.Numeric, false, 0},
	"hash_numeric_extended":   {engine.Numeric, true, 0},
	"interval_hash":           {engine.Interval, false, 0},
	"interval_hash_extended":  {engine.Interval, true, 0},
}

// pgEpochMicros is 2000-01-01 00:00:00 in gpusql's timestamps
// (microseconds since 1970), PostgreSQL's timestamp zero.
const pgEpochMicros = 946684800 * 1000000

// pgFloatHash is hashfloat8extended of x (hashfloat4 widens to float8
// first): zero, either sign, hashes to the seed and every NaN as the one
// NaN C's NAN is, so that values equal under = hash alike.
func pgFloatHash(x float64, seed uint64) uint64 {
	if x == 0 {
		return seed
	}
	bits := math.Float64bits(x)
	if math.IsNaN(x) {
		bits = 0x7ff8000000000000
	}
	var b [8]byte
	for i := range b {
		b[i] = byte(bits >> (8 * i)) // the float8's bytes on a little-endian machine
	}
	return shard.HashBytes(b[:], seed)
}

// pgNumericHash is hash_numeric_extended of d (ext) or hash_numeric:
// PostgreSQL hashes the base-10000 digits of the value's magnitude,
// without leading or trailing zero digits, as little-endian int16s, and
// folds in the first digit's weight, so that equal values of any scale
// hash alike (the sign is left out). Zero hashes to seed-1 (-1 for
// hash_numeric). buf and dig are scratch, returned for reuse.
func pgNumericHash(d engine.Dec, seed uint64, ext bool, buf, dig []byte) (uint64, []byte, []byte) {
	buf = d.AppendText(buf[:0])
	t := buf
	if len(t) > 0 && t[0] == '-' {
		t = t[1:]
	}
	ip, fp := t, []byte(nil)
	for i, c := range t {
		if c == '.' {
			ip, fp = t[:i], t[i+1:]
			break
		}
	}
	for len(ip) > 0 && ip[0] == '0' {
		ip = ip[1:]
	}
	// Base-10000 digits: the integer part's groups end at the point,
	// the fraction's start there.
	lead := (4 - len(ip)%4) % 4
	weight := (len(ip)+lead)/4 - 1
	dig = dig[:0]
	group := 0
	n := 0
	emit := func(c byte) {
		group = group*10 + int(c-'0')
		if n++; n == 4 {
			dig = append(dig, byte(group), byte(group>>8))
			group, n = 0, 0
		}
	}
	for i := 0; i < lead; i++ {
		emit('0')
	}
	for _, c := range ip {
		emit(c)
	}
	for _, c := range fp {
		emit(c)
	}
	for n != 0 {
		emit('0')
	}
	for len(dig) >= 2 && dig[0] == 0 && dig[1] == 0 {
		dig = dig[2:]
		weight--
	}
	for len(dig) >= 2 && dig[len(dig)-2] == 0 && dig[len(dig)-1] == 0 {
		dig = dig[:len(dig)-2]
	}
	if len(dig) == 0 {
		if ext {
			return seed - 1, buf, dig
		}
		return uint64(0xffffffff), buf, dig
	}
	h := shard.HashBytes(dig, seed)
	if !ext {
		return uint64(uint32(h) ^ uint32(int32(weight))), buf, dig
	}
	return h ^ uint64(int64(weight)), buf, dig
}

// bindPgHash binds a call of one of pgHashFuncs: a host function over
// the argument vectors.
func (b *binder) bindPgHash(name string, f pgHashFunc, args []engine.Expr) (engine.Expr, error) {
	want := []engine.Type{f.arg}
	if f.extended {
		want = append(want, engine.Int64)
	}
	if len(args) != len(want) {
		return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s with %d arguments does not exist", name, len(args))
	}
	for i, a := range args {
		if !isUnknown(a) && !implicitTo(a.Type(), want[i]) {
			sig := a.Type().String()
			if len(args) == 2 {
				sig = args[0].Type().String() + ", " + args[1].Type().String()
			}
			return nil, engine.Errorf(engine.CodeUndefinedFunction, "function %s(%s) does not exist", name, sig).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		c, err := castTo(a, want[i])
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	kind := f.arg.Kind
	ret := engine.Int32
	if f.extended {
		ret = engine.Int64
	}
	fn := func(vs []*engine.Vec, n int) (*engine.Vec, error) {
		out := engine.NewVec(ret, n)
		var buf, dig []byte // hash_numeric's scratch
		for i := 0; i < n; i++ {
			if vs[0].IsNull(i) || f.extended && vs[1].IsNull(i) {
				out.SetNull(i)
				continue
			}
			var seed uint64
			if f.extended {
				seed = uint64(vs[1].I[i])
			}
			var h uint64
			switch kind {
			case engine.KindInt16, engine.KindInt32:
				h = shard.HashInt32(int32(vs[0].I[i]), seed)
			case engine.KindInt64, engine.KindTime:
				h = shard.HashInt64(vs[0].I[i], seed)
			case engine.KindTimestamp:
				h = shard.HashInt64(vs[0].I[i]-pgEpochMicros, seed)
			case engine.KindNumeric:
				h, buf, dig = pgNumericHash(vs[0].D[i], seed, f.extended, buf, dig)
			case engine.KindInterval:
				// The span that orders intervals (a month is 30 days),
				// of which PostgreSQL hashes the low 64 bits: int64
				// arithmetic wraps to the same bits.
				v := vs[0].V[i]
				span := v.Micros + (int64(v.Months)*30+int64(v.Days))*86400000000
				h = shard.HashInt64(span, seed)
			case engine.KindFloat32, engine.KindFloat64:
				h = pgFloatHash(vs[0].F[i], seed)
			case engine.KindText:
				switch v := vs[0].S[i]; f.as {
				case 'n':
					h = shard.HashText(clipName(v), seed)
				case 'c':
					var c int8
					if len(v) > 0 {
						c = int8(v[0])
					}
					h = shard.HashInt32(int32(c), seed)
				default:
					h = shard.HashText(v, seed)
				}
			case engine.KindChar:
				h = shard.HashBpchar(vs[0].S[i], seed)
			}
			if f.extended {
				out.I[i] = int64(h)
			} else {
				out.I[i] = int64(int32(uint32(h)))
			}
		}
		return out, nil
	}
	return &engine.HostFunc{Name: name, Args: args, T: ret, Fn: fn, Parallel: true}, nil
}
