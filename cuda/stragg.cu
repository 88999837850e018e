// string_agg(value, delimiter [ORDER BY ...]) and string_agg(DISTINCT ...)
// on the device, run by the CUDA backend (engine/gpu/stragg.go).
//
// The interpreter (q_project, cuda/query.cu) has written the value, the
// delimiter and the ORDER BY keys of every selected row into per-row
// arrays: lo (a string's byte length), a NULL byte, and the bytes, zero
// padded, width apart. The host then
//
//   1. sa_gkey: writes each row's group word, 2*gid + (value is NULL), so
//      that a group's NULL values sort after its other values;
//   2. sorts the rows (cuda/sort.cu, stable) by the group word, the ORDER
//      BY keys, and with DISTINCT by value and delimiter as well, so that
//      equal (value, delimiter) pairs of a group are neighbours; ties keep
//      row (table) order, the CPU backend's input order;
//   3. sa_size: the bytes each row adds: nothing for a NULL value or a
//      DISTINCT duplicate (equal to the row before it), else its value's
//      length plus, unless it is the group's first row, its own
//      delimiter's (nothing for a NULL delimiter);
//   4. sa_scan1..3: an exclusive scan of the sizes: each row's offset;
//   5. sa_bounds: each group's first and last byte (start stays -1 for a
//      group without a non-NULL value: the result is NULL);
//   6. sa_write: every row copies its delimiter and value to its offset.
//
// Every buffer is sized by the host before the launches: no allocation
// in kernels, one write of the result bytes, and only those come back.
typedef long long i64;
typedef unsigned long long u64;
typedef unsigned u32;

#define SA_TPB 256                  // threads per block of every kernel here
#define SA_ITEMS 16                 // sa_scan1: consecutive rows per thread
#define SA_CHUNK (SA_TPB * SA_ITEMS) // sa_scan1: rows per block

// SStr is a string column as q_project wrote it (engine/gpu saStr).
struct SStr {
    u64 lo, nul, str;
    int width, pad;
};

__device__ __forceinline__ bool saNull(const SStr &s, i64 p) { return ((const unsigned char *)s.nul)[p] != 0; }
__device__ __forceinline__ i64 saLen(const SStr &s, i64 p) { return s.width > 0 ? ((const i64 *)s.lo)[p] : 0; }
__device__ __forceinline__ const unsigned char *saBytes(const SStr &s, i64 p) {
    return (const unsigned char *)s.str + p * (i64)s.width;
}

// saSame: rows p and q hold the same string (or are both NULL).
__device__ bool saSame(const SStr &s, i64 p, i64 q) {
    bool np = saNull(s, p), nq = saNull(s, q);
    if (np || nq) return np == nq;
    i64 n = saLen(s, p);
    if (n != saLen(s, q)) return false;
    const unsigned char *a = saBytes(s, p), *b = saBytes(s, q);
    for (i64 j = 0; j < n; j++)
        if (a[j] != b[j]) return false;
    return true;
}

// sa_gkey: out[i] = 2*gid + (value i is NULL). gid is gids[row] (gids
// given: GROUP BY), else 0; row is sel[i] (sel given: filtered) or i.
extern "C" __global__ void __launch_bounds__(SA_TPB) sa_gkey(u64 gidsPtr, u64 selPtr, i64 n, u64 vnulPtr, u64 outPtr) {
    const int *gids = (const int *)gidsPtr;
    const int *sel = (const int *)selPtr;
    const unsigned char *vnul = (const unsigned char *)vnulPtr;
    i64 *out = (i64 *)outPtr;
    for (i64 i = (i64)blockIdx.x * SA_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * SA_TPB) {
        i64 row = sel ? (i64)sel[i] : i;
        i64 g = gids ? (i64)gids[row] : 0;
        out[i] = 2 * g + (vnul[i] ? 1 : 0);
    }
}

// saFirst: sorted row i is the first of its group's non-NULL values.
__device__ __forceinline__ bool saFirst(const u32 *perm, const i64 *gkey, i64 i, i64 gk) {
    return i == 0 || gkey[perm[i - 1]] != gk;
}

// sa_size writes the bytes sorted row i adds (see the top).
extern "C" __global__ void __launch_bounds__(SA_TPB) sa_size(u64 permPtr, i64 n, u64 gkeyPtr, SStr v, SStr d, int distinct,
                                                             u64 outPtr) {
    const u32 *perm = (const u32 *)permPtr;
    const i64 *gkey = (const i64 *)gkeyPtr;
    u64 *out = (u64 *)outPtr;
    for (i64 i = (i64)blockIdx.x * SA_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * SA_TPB) {
        i64 p = perm[i];
        i64 gk = gkey[p];
        u64 c = 0;
        if (!(gk & 1)) {
            bool first = saFirst(perm, gkey, i, gk);
            i64 q = first ? 0 : (i64)perm[i - 1];
            if (!(distinct && !first && saSame(v, p, q) && saSame(d, p, q))) {
                c = (u64)saLen(v, p);
                if (!first && !saNull(d, p)) c += (u64)saLen(d, p);
            }
        }
        out[i] = c;
    }
}

// sa_scan1: per block of SA_CHUNK values, the exclusive scan in place
// (each thread over SA_ITEMS consecutive values, the threads' sums scanned
// in shared memory); sums[block] = the block's total.
extern "C" __global__ void __launch_bounds__(SA_TPB) sa_scan1(u64 valsPtr, i64 n, u64 sumsPtr) {
    u64 *vals = (u64 *)valsPtr;
    u64 *sums = (u64 *)sumsPtr;
    __shared__ u64 ts[SA_TPB];
    int tid = threadIdx.x;
    i64 base = (i64)blockIdx.x * SA_CHUNK + (i64)tid * SA_ITEMS;
    u64 s = 0;
    for (int j = 0; j < SA_ITEMS; j++)
        if (base + j < n) s += vals[base + j];
    ts[tid] = s;
    __syncthreads();
    for (int off = 1; off < SA_TPB; off <<= 1) {
        u64 t = tid >= off ? ts[tid - off] : 0;
        __syncthreads();
        ts[tid] += t;
        __syncthreads();
    }
    u64 acc = ts[tid] - s;
    for (int j = 0; j < SA_ITEMS; j++) {
        if (base + j >= n) break;
        u64 x = vals[base + j];
        vals[base + j] = acc;
        acc += x;
    }
    if (tid == SA_TPB - 1) sums[blockIdx.x] = ts[tid];
}

// blockExScan returns the exclusive prefix sum of v over the block's
// threads in thread order (blockDim.x a multiple of 32, at most 1024), and
// the block's total in *total: lanes scan by shuffles, then the first
// warp scans the warps' sums. Every thread of the block must call it.
__device__ __forceinline__ unsigned long long blockExScan(unsigned long long v, unsigned long long *total) {
    __shared__ unsigned long long warpSums[32];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    unsigned long long x = v;
    for (int d = 1; d < 32; d <<= 1) {
        unsigned long long y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x += y;
    }
    if (lane == 31) warpSums[w] = x;
    __syncthreads();
    if (w == 0) {
        unsigned long long s = lane < nw ? warpSums[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            unsigned long long y = __shfl_up_sync(0xffffffffu, s, d);
            if (lane >= d) s += y;
        }
        if (lane < nw) warpSums[lane] = s;
    }
    __syncthreads();
    *total = warpSums[nw - 1];
    return (w > 0 ? warpSums[w - 1] : 0) + x - v;
}

// sa_scan2: exclusive scan of the m block sums in place, and sums[m] =
// the total. One block of 1024 threads, each over a contiguous segment.
extern "C" __global__ void sa_scan2(u64 sumsPtr, i64 m) {
    u64 *c = (u64 *)sumsPtr;
    i64 per = (m + blockDim.x - 1) / blockDim.x;
    i64 lo = threadIdx.x * per, hi = lo + per;
    if (hi > m) hi = m;
    u64 s = 0;
    for (i64 i = lo; i < hi; i++) s += c[i];
    unsigned long long total;
    unsigned long long pre = blockExScan(s, &total);
    if (threadIdx.x == 0) c[m] = total;
    u64 acc = pre;
    for (i64 i = lo; i < hi; i++) {
        u64 t = c[i];
        c[i] = acc;
        acc += t;
    }
}

// sa_scan3 adds each block's offset to its values.
extern "C" __global__ void __launch_bounds__(SA_TPB) sa_scan3(u64 valsPtr, i64 n, u64 sumsPtr) {
    u64 *vals = (u64 *)valsPtr;
    const u64 *sums = (const u64 *)sumsPtr;
    for (i64 i = (i64)blockIdx.x * SA_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * SA_TPB) vals[i] += sums[i / SA_CHUNK];
}

// sa_bounds: start[g] = the offset of group g's first row when its value
// is not NULL (the caller fills start with -1), end[g] = the offset past
// its last row's bytes.
extern "C" __global__ void __launch_bounds__(SA_TPB) sa_bounds(u64 permPtr, i64 n, u64 gkeyPtr, u64 offsPtr, u64 sizesPtr,
                                                               u64 startPtr, u64 endPtr) {
    const u32 *perm = (const u32 *)permPtr;
    const i64 *gkey = (const i64 *)gkeyPtr;
    const u64 *offs = (const u64 *)offsPtr;
    const u64 *sizes = (const u64 *)sizesPtr;
    i64 *start = (i64 *)startPtr;
    i64 *end = (i64 *)endPtr;
    for (i64 i = (i64)blockIdx.x * SA_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * SA_TPB) {
        i64 gk = gkey[perm[i]];
        i64 g = gk >> 1;
        if ((i == 0 || (gkey[perm[i - 1]] >> 1) != g) && !(gk & 1)) start[g] = (i64)offs[i];
        if (i == n - 1 || (gkey[perm[i + 1]] >> 1) != g) end[g] = (i64)(offs[i] + sizes[i]);
    }
}

// sa_write copies each adding row's delimiter (not for a group's first
// row) and value to its offset.
extern "C" __global__ void __launch_bounds__(SA_TPB) sa_write(u64 permPtr, i64 n, u64 gkeyPtr, SStr v, SStr d, u64 offsPtr,
                                                              u64 sizesPtr, u64 outPtr) {
    const u32 *perm = (const u32 *)permPtr;
    const i64 *gkey = (const i64 *)gkeyPtr;
    const u64 *offs = (const u64 *)offsPtr;
    const u64 *sizes = (const u64 *)sizesPtr;
    unsigned char *out = (unsigned char *)outPtr;
    for (i64 i = (i64)blockIdx.x * SA_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * SA_TPB) {
        if (sizes[i] == 0) continue;
        i64 p = perm[i];
        unsigned char *o = out + offs[i];
        if (!saFirst(perm, gkey, i, gkey[p]) && !saNull(d, p)) {
            const unsigned char *s = saBytes(d, p);
            for (i64 j = 0, m = saLen(d, p); j < m; j++) *o++ = s[j];
        }
        const unsigned char *s = saBytes(v, p);
        for (i64 j = 0, m = saLen(v, p); j < m; j++) *o++ = s[j];
    }
}

// min/max over numerics whose scale varies by row (engine/gpu
// aggscale.go) reuse sa_gkey and the sort. mm_norm writes each value
// m * 10^-s (m the 128-bit two's complement mantissa, |m| < 10^38) as
// three words whose unsigned order is the order of the values, whatever
// their scales, and equal for equal values (1.5 and 1.50):
//
//   w0  class << 32 | exponent: class 0 negative, 1 zero, 2 positive; the
//       exponent e = digits(|m|) - s, biased by 2048 (e > -2048 since
//       s <= 1000 + 38), for negatives 4095 minus it
//   w1, w2  |m| * 10^(38 - digits): 38 digits exactly, high and low 64
//       bits (for negatives inverted: a larger magnitude goes first)
//
// The words go out XORed with the sign bit, as int64 sort keys (sort.cu's
// rawWord flips it back). The rows sorted by group word and these words
// (descending for max), ties in row order, have each group's winner, the
// first row holding the best value as the CPU backend keeps it, first:
// mm_pick copies its mantissa and own scale to the group's slot and sets
// has[g].
__device__ __forceinline__ void mul10(u64 &hi, u64 &lo) {
    u64 l = lo * 10, c = __umul64hi(lo, 10);
    hi = hi * 10 + c;
    lo = l;
}

extern "C" __global__ void __launch_bounds__(SA_TPB) mm_norm(i64 n, u64 loPtr, u64 hiPtr, u64 scPtr, u64 w0Ptr, u64 w1Ptr,
                                                             u64 w2Ptr) {
    const u64 *mlo = (const u64 *)loPtr;
    const i64 *mhi = (const i64 *)hiPtr;
    const i64 *msc = (const i64 *)scPtr;
    u64 *w0 = (u64 *)w0Ptr, *w1 = (u64 *)w1Ptr, *w2 = (u64 *)w2Ptr;
    const u64 SGN = 0x8000000000000000ULL;
    for (i64 i = (i64)blockIdx.x * SA_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * SA_TPB) {
        u64 lo = mlo[i], hi = (u64)mhi[i];
        bool neg = (i64)hi < 0;
        if (neg) {  // magnitude
            lo = ~lo + 1;
            hi = ~hi + (lo == 0 ? 1 : 0);
        }
        u64 a, b = 0, c = 0;
        if (lo == 0 && hi == 0) {
            a = 1ULL << 32;
        } else {
            // digits: the count of powers of ten (1, 10, ...) at most |m|
            int digits = 0;
            u64 ph = 0, pl = 1;
            while (digits < 39 && (ph < hi || (ph == hi && pl <= lo))) {
                digits++;
                mul10(ph, pl);
            }
            u64 nh = hi, nl = lo;
            for (int k = digits; k < 38; k++) mul10(nh, nl);
            i64 e = (i64)digits - msc[i] + 2048;
            if (neg) {
                a = (u64)(4095 - e);
                b = ~nh;
                c = ~nl;
            } else {
                a = (2ULL << 32) | (u64)e;
                b = nh;
                c = nl;
            }
        }
        w0[i] = a ^ SGN;
        w1[i] = b ^ SGN;
        w2[i] = c ^ SGN;
    }
}

extern "C" __global__ void __launch_bounds__(SA_TPB) mm_pick(u64 permPtr, i64 n, u64 gkeyPtr, u64 loPtr, u64 hiPtr, u64 scPtr,
                                                             u64 outPtr, u64 hasPtr) {
    const u32 *perm = (const u32 *)permPtr;
    const i64 *gkey = (const i64 *)gkeyPtr;
    i64 *out = (i64 *)outPtr;
    unsigned char *has = (unsigned char *)hasPtr;
    for (i64 i = (i64)blockIdx.x * SA_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * SA_TPB) {
        i64 p = perm[i];
        i64 gk = gkey[p];
        i64 g = gk >> 1;
        if ((gk & 1) || (i > 0 && (gkey[perm[i - 1]] >> 1) == g)) continue;
        out[3 * g] = ((const i64 *)loPtr)[p];
        out[3 * g + 1] = ((const i64 *)hiPtr)[p];
        out[3 * g + 2] = ((const i64 *)scPtr)[p];
        has[g] = 1;
    }
}
