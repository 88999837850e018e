package hits

import "math"

// Randomness is counter-based: every row, user, counter (site), page and
// search phrase draws from its own stream, seeded by the generator's seed,
// the kind of thing and its index. So a row's values depend only on the
// seed, the table size and the row's number, never on which worker made
// it or what came before, and any slice of rows can be made alone.

// mix64 is SplitMix64's finaliser: a bijection on uint64 that scatters
// nearby inputs.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// perm63 is a bijection on [0, 2^63): distinct inputs give distinct
// outputs (xor-shifts and odd multipliers modulo 2^63), which makes
// WatchID unique and spreads ids over the positive int64 range.
func perm63(x uint64) uint64 {
	const m = 1<<63 - 1
	x &= m
	x ^= x >> 29
	x = x * 0xbf58476d1ce4e5b9 & m
	x ^= x >> 32
	x = x * 0x94d049bb133111eb & m
	return x ^ x>>29
}

// Stream kinds: the first argument of hash.
const (
	kindRow uint64 = iota + 1
	kindUser
	kindCounter
	kindPage
	kindPhrase
	kindIP
	kindWatch
	kindUserID
	kindNetwork
	kindModel
	kindEngine
)

// hash returns a 64-bit value determined by seed, kind and the indexes a
// and b.
func hash(seed, kind, a, b uint64) uint64 {
	return mix64(mix64(mix64(seed^kind<<56)+a) + b)
}

// rng is a SplitMix64 stream.
type rng struct{ s uint64 }

func newRNG(seed, kind, a, b uint64) rng { return rng{s: hash(seed, kind, a, b)} }

func (r *rng) u64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix64(r.s)
}

// float is uniform in [0, 1).
func (r *rng) float() float64 { return float64(r.u64()>>11) * (1.0 / (1 << 53)) }

// intn is uniform in [0, n), for 0 < n < 2^32.
func (r *rng) intn(n int) int { return int((r.u64() >> 32) * uint64(n) >> 32) }

// between is uniform in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// chance is true with probability p.
func (r *rng) chance(p float64) bool { return r.float() < p }

// Skew exponents of power: index = floor(n · x^k) for x uniform in
// [0, 1), so P(index < m) = (m/n)^(1/k). The larger k, the more the low
// indexes (the popular values) take; the most popular of n takes
// n^(-1/k) of the draws.
type skew int

const (
	skew15 skew = iota // k = 1.5
	skew2              // k = 2
	skew25             // k = 2.5
	skew3              // k = 3
)

// power draws an index in [0, n) with the given skew; index 0 is the most
// likely.
func (r *rng) power(n int64, k skew) int64 {
	x := r.float()
	var y float64
	switch k {
	case skew15:
		y = x * math.Sqrt(x)
	case skew2:
		y = x * x
	case skew25:
		y = x * x * math.Sqrt(x)
	default:
		y = x * x * x
	}
	i := int64(y * float64(n))
	if i >= n {
		i = n - 1
	}
	return i
}

// weighted is a discrete distribution over len(values) outcomes.
type weighted[T any] struct {
	values []T
	cum    []float64 // cumulative weights, normalised to end at 1
}

func newWeighted[T any](values []T, weights []float64) weighted[T] {
	if len(values) != len(weights) || len(values) == 0 {
		panic("hits: weighted: values and weights differ in length")
	}
	var sum float64
	for _, w := range weights {
		sum += w
	}
	cum := make([]float64, len(weights))
	var acc float64
	for i, w := range weights {
		acc += w
		cum[i] = acc / sum
	}
	cum[len(cum)-1] = 1
	return weighted[T]{values: values, cum: cum}
}

// pick draws one value; the lists are short, so a linear search is
// fastest.
func (w *weighted[T]) pick(r *rng) T {
	x := r.float()
	for i, c := range w.cum {
		if x < c {
			return w.values[i]
		}
	}
	return w.values[len(w.values)-1]
}
