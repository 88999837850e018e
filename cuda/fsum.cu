// Exact float sums for sum/avg over real and double precision, and the
// first row of each group (for float GROUP BY keys' sign), run by the CUDA
// backend (engine/gpu/fsum.go) after the interpreter has written the
// aggregate's argument values per row.
//
// The representation is engine.FloatSum's (engine/fsum.go): a finite
// double is m * 2^(p-1074) with an integer m < 2^53 and a bit position
// p >= 0; the sum is kept as 32-bit limbs in int64 words, limb k weighing
// 2^(32k-1074). Adding m shifted to its limb boundary touches three limbs
// with plain 64-bit atomic adds, no carries, so the order of additions
// cannot change the words' final values. Only limbs klo..klo+nl-1 are
// stored (the range of the values present, from fs_range). Each group's
// accumulator is w = nl + 4 words: the limbs, then counts of NaN, +Inf,
// -Inf and -0 values. A word takes less than 2^32 per row, so the host
// launches fs_add over at most 2^30 rows at a time and resolves carries
// (fs_norm) in between.

typedef long long i64;
typedef unsigned long long u64;

#define FS_TPB 256 // threads per block of every kernel here

// fsTake says whether the row adds to a group, and which: its value is
// not NULL, the filter flag (when given) is true, and its group id (when
// given) is not -1.
__device__ __forceinline__ bool fsTake(const unsigned char *nul, const i64 *flg, const unsigned char *flgNul,
                                       const int *gids, i64 row, int *g) {
    if (nul[row]) return false;
    if (flg && (flgNul[row] || flg[row] == 0)) return false;
    *g = 0;
    if (gids) {
        *g = gids[row];
        if (*g < 0) return false;
    }
    return true;
}

// fs_range finds the lowest and highest limb index of the finite nonzero
// values that add: out[0] (set to a large value by the caller) and out[1]
// (set to -1).
extern "C" __global__ void __launch_bounds__(FS_TPB) fs_range(u64 vals, u64 nul, u64 flg, u64 flgNul, u64 gids, i64 n, u64 out) {
    int lo = 1 << 30, hi = -1;
    for (i64 row = (i64)blockIdx.x * FS_TPB + threadIdx.x; row < n; row += (i64)gridDim.x * FS_TPB) {
        int g;
        if (!fsTake((const unsigned char *)nul, (const i64 *)flg, (const unsigned char *)flgNul, (const int *)gids, row, &g)) continue;
        u64 b = ((const u64 *)vals)[row];
        int e = (int)(b >> 52) & 0x7ff;
        if (e == 0x7ff || (b << 1) == 0) continue;
        int k = (e == 0 ? 0 : e - 1) >> 5;
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    for (int o = 16; o > 0; o >>= 1) {
        int l2 = __shfl_xor_sync(0xffffffffu, lo, o), h2 = __shfl_xor_sync(0xffffffffu, hi, o);
        lo = l2 < lo ? l2 : lo;
        hi = h2 > hi ? h2 : hi;
    }
    if ((threadIdx.x & 31) == 0 && hi >= 0) {
        atomicMin((int *)out, lo);
        atomicMax((int *)out + 1, hi);
    }
}

// fs_add adds rows [row0, row1) to the accumulators acc[g * w ...]. The
// first sg groups accumulate per block in shared memory (sg * w words,
// the launch's dynamic shared size) and are added to acc at the end.
extern "C" __global__ void __launch_bounds__(FS_TPB) fs_add(u64 vals, u64 nul, u64 flg, u64 flgNul, u64 gids, i64 row0, i64 row1,
                                                             u64 accp, int w, int klo, int nl, int sg) {
    extern __shared__ i64 sacc[];
    i64 *acc = (i64 *)accp;
    for (int i = threadIdx.x; i < sg * w; i += blockDim.x) sacc[i] = 0;
    __syncthreads();
    for (i64 row = row0 + (i64)blockIdx.x * FS_TPB + threadIdx.x; row < row1; row += (i64)gridDim.x * FS_TPB) {
        int g;
        if (!fsTake((const unsigned char *)nul, (const i64 *)flg, (const unsigned char *)flgNul, (const int *)gids, row, &g)) continue;
        i64 *a = g < sg ? sacc + g * w : acc + (i64)g * w;
        u64 b = ((const u64 *)vals)[row];
        int e = (int)(b >> 52) & 0x7ff;
        u64 m = b & ((1ULL << 52) - 1);
        bool neg = b >> 63;
        if (e == 0x7ff) { // NaN, +Inf, -Inf
            atomicAdd((u64 *)&a[nl + (m ? 0 : neg ? 2 : 1)], 1ULL);
            continue;
        }
        if (e == 0 && m == 0) { // ±0: only -0 is counted
            if (neg) atomicAdd((u64 *)&a[nl + 3], 1ULL);
            continue;
        }
        int p = e == 0 ? 0 : e - 1;
        if (e != 0) m |= 1ULL << 52;
        int k = (p >> 5) - klo, s = p & 31;
        u64 low = m << s;
        i64 c0 = (i64)(low & 0xffffffffULL), c1 = (i64)(low >> 32), c2 = s ? (i64)(m >> (64 - s)) : 0;
        if (neg) { c0 = -c0; c1 = -c1; c2 = -c2; }
        if (c0) atomicAdd((u64 *)&a[k], (u64)c0);
        if (c1) atomicAdd((u64 *)&a[k + 1], (u64)c1);
        if (c2) atomicAdd((u64 *)&a[k + 2], (u64)c2);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < sg * w; i += blockDim.x) {
        i64 v = sacc[i];
        if (v) atomicAdd((u64 *)&acc[i], (u64)v);
    }
}

// fs_norm resolves the carries of count accumulators: every limb but the
// top one into [0, 2^32), as engine.FloatSum's normalization.
extern "C" __global__ void __launch_bounds__(FS_TPB) fs_norm(u64 accp, i64 count, int w, int nl) {
    i64 i = (i64)blockIdx.x * FS_TPB + threadIdx.x;
    if (i >= count || nl == 0) return;
    i64 *a = (i64 *)accp + i * w;
    i64 carry = 0;
    for (int j = 0; j < nl - 1; j++) {
        i64 v = a[j] + carry;
        a[j] = v & 0xffffffffLL;
        carry = v >> 32;
    }
    a[nl - 1] += carry;
}

// fs_first sets out[g] (filled with 0x7f bytes by the caller) to the
// smallest row of group g: the row whose key values the CPU backend and
// PostgreSQL show, which matters for a float key's -0.
extern "C" __global__ void __launch_bounds__(FS_TPB) fs_first(u64 gids, i64 n, u64 outp) {
    const int *gid = (const int *)gids;
    int *out = (int *)outp;
    for (i64 row = (i64)blockIdx.x * FS_TPB + threadIdx.x; row < n; row += (i64)gridDim.x * FS_TPB) {
        int g = gid[row];
        if (g < 0) continue;
        if (*(volatile int *)&out[g] <= (int)row) continue; // a smaller row is there already
        atomicMin(&out[g], (int)row);
    }
}
