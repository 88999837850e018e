package shard

import "math/bits"

// PostgreSQL routes a row of a hash-partitioned table to the partition
// whose REMAINDER is the row's hash modulo the MODULUS. The row's hash
// combines, key by key, the 64-bit "extended" hash of each non-NULL key
// value seeded with a fixed constant; NULLs add nothing. A split done
// here must agree with that routing bit for bit, or the coordinator's
// partition pruning (WHERE key = v reads one partition) would look on
// the wrong node. The functions below compute the same values as
// PostgreSQL 15's hashint4extended, hashint8extended, hashtextextended
// (deterministic collations) and hashbpcharextended; the test in
// cmd/gpusql checks them against a real server.

// partitionSeed is the seed PostgreSQL gives each key's hash function.
const partitionSeed uint64 = 0x7A5B22367996DCFD

// combine64 folds one key's hash into a row hash as PostgreSQL does.
func combine64(a, b uint64) uint64 {
	a ^= b + 0x49a0f4dd15e5a8e3 + (a << 54) + (a >> 7)
	return a
}

func rot(x uint32, k int) uint32 { return bits.RotateLeft32(x, k) }

func mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= c
	a ^= rot(c, 4)
	c += b
	b -= a
	b ^= rot(a, 6)
	a += c
	c -= b
	c ^= rot(b, 8)
	b += a
	a -= c
	a ^= rot(c, 16)
	c += b
	b -= a
	b ^= rot(a, 19)
	a += c
	c -= b
	c ^= rot(b, 4)
	b += a
	return a, b, c
}

func final(a, b, c uint32) (uint32, uint32, uint32) {
	c ^= b
	c -= rot(b, 14)
	a ^= c
	a -= rot(c, 11)
	b ^= a
	b -= rot(a, 25)
	c ^= b
	c -= rot(b, 16)
	a ^= c
	a -= rot(c, 4)
	b ^= a
	b -= rot(a, 14)
	c ^= b
	c -= rot(b, 24)
	return a, b, c
}

// hashUint32 is Bob Jenkins' one-word hash with a 64-bit seed, as
// PostgreSQL's hash_uint32_extended.
func hashUint32(k uint32, seed uint64) uint64 {
	a := uint32(0x9e3779b9 + 4 + 3923095)
	b, c := a, a
	if seed != 0 {
		a += uint32(seed >> 32)
		b += uint32(seed)
		a, b, c = mix(a, b, c)
	}
	a += k
	_, b, c = final(a, b, c)
	return uint64(b)<<32 | uint64(c)
}

// hashBytes is Bob Jenkins' byte hash with a 64-bit seed, as
// PostgreSQL's hash_bytes_extended on a little-endian machine.
func hashBytes(k []byte, seed uint64) uint64 {
	a := uint32(0x9e3779b9) + uint32(len(k)) + 3923095
	b, c := a, a
	if seed != 0 {
		a += uint32(seed >> 32)
		b += uint32(seed)
		a, b, c = mix(a, b, c)
	}
	le := func(p []byte) uint32 {
		return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
	}
	for len(k) >= 12 {
		a += le(k)
		b += le(k[4:])
		c += le(k[8:])
		a, b, c = mix(a, b, c)
		k = k[12:]
	}
	// The last 0 to 11 bytes; c's lowest byte is left to the length.
	n := len(k)
	if n >= 9 {
		for i := 8; i < n; i++ {
			c += uint32(k[i]) << (8 * (i - 7))
		}
	}
	if n >= 5 {
		for i := 4; i < n && i < 8; i++ {
			b += uint32(k[i]) << (8 * (i - 4))
		}
	}
	for i := 0; i < n && i < 4; i++ {
		a += uint32(k[i]) << (8 * i)
	}
	_, b, c = final(a, b, c)
	return uint64(b)<<32 | uint64(c)
}

// hashInt64 is hashint8extended: a bigint that fits in 32 bits hashes as
// the integer of that value, so smallint, integer and bigint keys of
// equal value land in the same partition.
func hashInt64(v int64, seed uint64) uint64 {
	lo, hi := uint32(v), uint32(v>>32)
	if v >= 0 {
		lo ^= hi
	} else {
		lo ^= ^hi
	}
	return hashUint32(lo, seed)
}

// hashInt32 is hashint4extended (also date's: days since 2000-01-01).
func hashInt32(v int32, seed uint64) uint64 { return hashUint32(uint32(v), seed) }

// hashText is hashtextextended under a deterministic collation (C): the
// string's bytes.
func hashText(s []byte, seed uint64) uint64 { return hashBytes(s, seed) }

// hashBpchar is hashbpcharextended: char(n) without its trailing blanks.
func hashBpchar(s []byte, seed uint64) uint64 {
	n := len(s)
	for n > 0 && s[n-1] == ' ' {
		n--
	}
	return hashBytes(s[:n], seed)
}

// HashInt32, HashInt64, HashText and HashBpchar are PostgreSQL 15's
// hashint4extended, hashint8extended, hashtextextended (deterministic
// collation) and hashbpcharextended with the given seed. With seed 0
// their low 32 bits are hashint4, hashint8, hashtext and hashbpchar, as
// in PostgreSQL (query's SQL functions of those names use them).
func HashInt32(v int32, seed uint64) uint64   { return hashInt32(v, seed) }
func HashInt64(v int64, seed uint64) uint64   { return hashInt64(v, seed) }
func HashText(s []byte, seed uint64) uint64   { return hashText(s, seed) }
func HashBpchar(s []byte, seed uint64) uint64 { return hashBpchar(s, seed) }

// HashBytes is PostgreSQL's hash_bytes_extended of the bytes k.
func HashBytes(k []byte, seed uint64) uint64 { return hashBytes(k, seed) }
