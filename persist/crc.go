package persist

import (
	"hash/crc32"
	"runtime"
	"sync"
)

// Parallel CRC-32C. A table file has one checksum over all of it (the
// format is unchanged): it is computed as independent chunks at once,
// and the chunks' CRCs are combined, crc(A‖B) from crc(A), crc(B) and
// len(B), by the method of zlib's crc32_combine (a linear map over
// GF(2), applied by repeated squaring of the one-zero-bit operator).

// crcChunk is the size each worker checksums at a time.
const crcChunk = 8 << 20

// gf2Times is mat × vec over GF(2).
func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

func gf2Square(sq, mat *[32]uint32) {
	for n := range 32 {
		sq[n] = gf2Times(mat, mat[n])
	}
}

// crcCombine is the CRC-32C of A‖B, given crc1 = CRC(A), crc2 = CRC(B)
// and len2 = len(B).
func crcCombine(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	var even, odd [32]uint32
	odd[0] = crc32.Castagnoli // the operator for one zero bit
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four
	for {
		gf2Square(&even, &odd) // one zero byte, then 4, 16, ... bytes
		if len2&1 != 0 {
			crc1 = gf2Times(&even, crc1)
		}
		len2 >>= 1
		if len2 == 0 {
			break
		}
		gf2Square(&odd, &even)
		if len2&1 != 0 {
			crc1 = gf2Times(&odd, crc1)
		}
		len2 >>= 1
		if len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

// chunkCRCs combines the CRCs of consecutive chunks of the given sizes.
func chunkCRCs(crcs []uint32, sizes []int64) uint32 {
	var total uint32
	for i, c := range crcs {
		if i == 0 {
			total = c
			continue
		}
		total = crcCombine(total, c, sizes[i])
	}
	return total
}

// parallelChunks runs f on [lo, hi) ranges of n bytes, crcChunk each,
// on up to GOMAXPROCS goroutines; the first error wins.
func parallelChunks(n int64, f func(i int, lo, hi int64) error) error {
	chunks := int((n + crcChunk - 1) / crcChunk)
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		for i := range chunks {
			if err := f(i, int64(i)*crcChunk, min(int64(i+1)*crcChunk, n)); err != nil {
				return err
			}
		}
		return nil
	}
	var mu sync.Mutex
	var first error
	next := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if i >= chunks || stop {
					return
				}
				if err := f(i, int64(i)*crcChunk, min(int64(i+1)*crcChunk, n)); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// checksum is the CRC-32C of b, computed in parallel chunks.
func checksum(b []byte) uint32 {
	n := int64(len(b))
	if n <= crcChunk {
		return crc32.Checksum(b, castagnoli)
	}
	chunks := int((n + crcChunk - 1) / crcChunk)
	crcs, sizes := make([]uint32, chunks), make([]int64, chunks)
	_ = parallelChunks(n, func(i int, lo, hi int64) error {
		crcs[i], sizes[i] = crc32.Checksum(b[lo:hi], castagnoli), hi-lo
		return nil
	})
	return chunkCRCs(crcs, sizes)
}
