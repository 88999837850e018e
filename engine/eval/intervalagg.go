package eval

import (
	"math"
	"math/bits"

	"github.com/gpusql/gpusql/engine"
)

// IntervalSum is the state of sum(interval) and avg(interval): the sums
// of the months, days and microseconds fields, each exact (months and
// days in 64 bits, which 2^32 rows of int32 values cannot pass;
// microseconds in 128). PostgreSQL adds field by field with interval_pl,
// which raises "interval out of range" when a running sum passes a
// field's range; gpusql checks the total, which is the same for values
// of one sign and does not depend on the order in which rows (or
// workers, or GPU blocks) are added.
type IntervalSum struct {
	Months, Days int64
	Lo           uint64 // microseconds: Hi*2^64 + Lo, two's complement
	Hi           int64
}

// Add adds v.
func (s *IntervalSum) Add(v engine.IntervalVal) {
	s.Months += int64(v.Months)
	s.Days += int64(v.Days)
	s.addMicros(uint64(v.Micros), v.Micros>>63)
}

// Merge adds o's sums.
func (s *IntervalSum) Merge(o *IntervalSum) {
	s.Months += o.Months
	s.Days += o.Days
	s.addMicros(o.Lo, o.Hi)
}

func (s *IntervalSum) addMicros(lo uint64, hi int64) {
	var c uint64
	s.Lo, c = bits.Add64(s.Lo, lo, 0)
	s.Hi += hi + int64(c)
}

// Interval is sum(interval)'s result: the field sums, or 22008 "interval
// out of range" when one passes its field's range.
func (s *IntervalSum) Interval() (engine.IntervalVal, error) {
	if s.Months != int64(int32(s.Months)) || s.Days != int64(int32(s.Days)) || s.Hi != int64(s.Lo)>>63 {
		return engine.IntervalVal{}, errIntervalRange
	}
	return engine.IntervalVal{Months: int32(s.Months), Days: int32(s.Days), Micros: int64(s.Lo)}, nil
}

// Avg is avg(interval)'s result over n values: the sum divided by n as
// PostgreSQL 15's interval_div divides by a float8.
func (s *IntervalSum) Avg(n int64) (engine.IntervalVal, error) {
	sum, err := s.Interval()
	if err != nil {
		return sum, err
	}
	return IntervalDiv(sum, float64(n))
}

// tsRound is PostgreSQL's TSROUND: x rounded to six fraction digits.
func tsRound(x float64) float64 { return math.RoundToEven(x*1e6) / 1e6 }

// IntervalDiv is PostgreSQL 15's interval_div for a factor of at least 1
// (avg's count): each field divided, fractional months cascading into
// days at 30 days a month and fractional days into microseconds at 24
// hours a day, both rounded by TSROUND, the microseconds by rint. Every
// operation is one float64 operation, as C evaluates it (no fused
// multiply-add). A quotient past a field's range is 22008 "interval out
// of range" (for avg: only microseconds within 511 of the largest, over
// one row, whose float64 rounds up to 2^63).
func IntervalDiv(span engine.IntervalVal, factor float64) (engine.IntervalVal, error) {
	mq := float64(span.Months) / factor
	dq := float64(span.Days) / factor
	if !fitsInt32(mq) || !fitsInt32(dq) {
		return engine.IntervalVal{}, errIntervalRange
	}
	month := int32(mq)
	day := int32(dq)
	monthRemDays := tsRound((mq - float64(month)) * 30)
	secRem := tsRound((dq - float64(day) + monthRemDays - float64(int32(monthRemDays))) * 86400)
	if math.Abs(secRem) >= 86400 {
		whole := int32(secRem / 86400)
		day += whole
		secRem -= float64(whole * 86400)
	}
	day += int32(monthRemDays)
	micros := math.RoundToEven(float64(span.Micros)/factor + float64(secRem*1e6)) // the conversion forbids a fused multiply-add
	if !(micros >= -0x1p63 && micros < 0x1p63) {
		return engine.IntervalVal{}, errIntervalRange
	}
	return engine.IntervalVal{Months: month, Days: day, Micros: int64(micros)}, nil
}

// fitsInt32 is PostgreSQL's FLOAT8_FITS_IN_INT32.
func fitsInt32(x float64) bool { return x >= -0x1p31 && x < 0x1p31 }
