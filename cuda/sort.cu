// ORDER BY on the device: a stable LSD radix sort of (key, position) pairs.
//
// The sort keys are the projection's key registers, written by q_project
// (cuda/query.cu) into per-row arrays: lo (and hi for 128-bit numerics),
// a NULL byte, and for strings the zero-padded bytes with lo = length.
// Each key is cut into 64-bit words whose unsigned order is the SQL order
// of the CPU backend (engine/eval SortRows):
//
//   integers, dates, timestamps, booleans  value with the sign bit flipped
//   floats       -0 as 0, every NaN as one NaN (greatest); negative values
//                with all bits flipped, others with the sign bit set
//   numerics     word 0: high 64 bits, sign flipped; word 1: low 64 bits
//   strings      8 bytes each, big-endian, zero past the value; a last
//                word holds the byte length (bytewise, shorter first)
//
// s_stats finds each word's minimum and maximum over the non-NULL rows;
// the host keeps only words whose values differ and sorts each by as many
// bytes as (max - min) needs. s_key writes a word's reduced value for
// every position in the current order (DESC: max - u, ASC: u - min; the
// NULL flag word: 0 for the rows that go first). The radix passes run
// from the least significant byte of the last word to the first, each
// stable, so rows with equal keys keep their input (row) order, as the
// CPU backend's stable sort keeps them.
typedef long long i64;
typedef unsigned long long u64;
typedef unsigned u32;

enum { CLS_BOOL = 1, CLS_I16, CLS_I32, CLS_I64, CLS_F32, CLS_F64, CLS_DEC, CLS_STR, CLS_CHAR };

// SKey is one key column as q_project wrote it (engine/gpu sKey).
struct SKey {
    u64 lo, hi, nul, str;
    int cls, width, desc, nullsFirst;
};

// SWord is one word of a key to sort by (engine/gpu sWord). mode 1: the
// NULL flag; mode 0: value word `word`, reduced by min/max; mode 2: the
// position itself (the last word when the rows come unordered).
struct SWord {
    SKey k;
    int word, mode;
    u64 min, max;
};

#define SIGN 0x8000000000000000ULL
#define STPB 256              // threads of the radix kernels (8 warps)
#define ROUNDS 64             // rows per thread per tile
#define TILE (STPB * ROUNDS)  // 16384 rows per block: 64 KB of keys

__device__ __forceinline__ u64 rawWord(const SKey &k, i64 p, int w) {
    switch (k.cls) {
    case CLS_F32:
    case CLS_F64: {
        u64 b = (u64)((const i64 *)k.lo)[p];
        if ((b << 1) == 0) b = 0;                                             // -0 = 0
        if ((b & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL && (b << 12)) // NaN
            b = 0x7ff8000000000000ULL;
        return (b & SIGN) ? ~b : (b | SIGN);
    }
    case CLS_DEC:
        return w == 0 ? ((u64)((const i64 *)k.hi)[p] ^ SIGN) : (u64)((const i64 *)k.lo)[p];
    case CLS_STR:
    case CLS_CHAR: {
        int nw = (k.width + 7) >> 3;
        if (w >= nw) return (u64)((const i64 *)k.lo)[p];
        const unsigned char *s = (const unsigned char *)k.str + p * (i64)k.width;
        u64 v = 0;
        for (int j = 0; j < 8; j++) {
            int o = w * 8 + j;
            v = (v << 8) | (o < k.width ? s[o] : 0);
        }
        return v;
    }
    }
    return (u64)((const i64 *)k.lo)[p] ^ SIGN;
}

// s_stats: out[2w] = min, out[2w+1] = max of word w over the non-NULL
// rows (the host fills them with ~0 and 0 first); out[2*nwords] counts the
// NULLs.
extern "C" __global__ void __launch_bounds__(STPB) s_stats(SKey k, int nwords, i64 n, u64 outPtr) {
    u64 *out = (u64 *)outPtr;
    const unsigned char *nul = (const unsigned char *)k.nul;
    for (int w = 0; w < nwords; w++) {
        u64 mn = ~0ULL, mx = 0, nn = 0;
        for (i64 i = (i64)blockIdx.x * STPB + threadIdx.x; i < n; i += (i64)gridDim.x * STPB) {
            if (nul[i]) {
                nn++;
                continue;
            }
            u64 u = rawWord(k, i, w);
            mn = u < mn ? u : mn;
            mx = u > mx ? u : mx;
        }
        for (int o = 16; o > 0; o >>= 1) {
            u64 a = __shfl_down_sync(0xffffffffu, mn, o);
            u64 b = __shfl_down_sync(0xffffffffu, mx, o);
            u64 c = __shfl_down_sync(0xffffffffu, nn, o);
            mn = a < mn ? a : mn;
            mx = b > mx ? b : mx;
            nn += c;
        }
        if ((threadIdx.x & 31) == 0) {
            atomicMin(&out[2 * w], mn);
            atomicMax(&out[2 * w + 1], mx);
            if (w == 0 && nn) atomicAdd(&out[2 * nwords], nn);
        }
    }
}

// s_key writes word W's sort value for each position of the order perm.
extern "C" __global__ void __launch_bounds__(STPB) s_key(SWord W, u64 permPtr, i64 n, u64 outPtr) {
    const u32 *perm = (const u32 *)permPtr;
    u64 *out = (u64 *)outPtr;
    const unsigned char *nul = (const unsigned char *)W.k.nul;
    for (i64 i = (i64)blockIdx.x * STPB + threadIdx.x; i < n; i += (i64)gridDim.x * STPB) {
        i64 p = perm[i];
        bool isNull = nul[p] != 0;
        u64 v;
        if (W.mode == 2) {
            v = (u64)p;
        } else if (W.mode == 1) {
            v = (isNull == (W.k.nullsFirst != 0)) ? 0 : 1;
        } else if (isNull) {
            v = 0;
        } else {
            u64 u = rawWord(W.k, p, W.word);
            v = W.k.desc ? W.max - u : u - W.min;
        }
        out[i] = v;
    }
}

extern "C" __global__ void s_iota(u64 outPtr, i64 n) {
    u32 *out = (u32 *)outPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x)
        out[i] = (u32)i;
}

// s_hist counts the digits (key >> shift) & 255 of each TILE-row tile:
// counts[d * nblocks + block], digit-major, so that one exclusive scan
// gives every tile its first output slot per digit.
extern "C" __global__ void __launch_bounds__(STPB) s_hist(u64 keysPtr, i64 n, int shift, u64 countsPtr, int nblocks) {
    const u64 *keys = (const u64 *)keysPtr;
    u32 *counts = (u32 *)countsPtr;
    __shared__ u32 h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    i64 base = (i64)blockIdx.x * TILE;
#pragma unroll 4
    for (int r = 0; r < ROUNDS; r++) {
        i64 i = base + r * STPB + threadIdx.x;
        if (i < n) atomicAdd(&h[(keys[i] >> shift) & 255], 1u);
    }
    __syncthreads();
    counts[(i64)threadIdx.x * nblocks + blockIdx.x] = h[threadIdx.x];
}

// s_scan: exclusive scan of counts[0..m), in place. One block of 1024
// threads, each over a contiguous segment.
extern "C" __global__ void s_scan(u64 countsPtr, i64 m) {
    u32 *c = (u32 *)countsPtr;
    __shared__ u64 part[1024];
    i64 per = (m + blockDim.x - 1) / blockDim.x;
    i64 lo = threadIdx.x * per, hi = lo + per;
    if (hi > m) hi = m;
    u64 s = 0;
    for (i64 i = lo; i < hi; i++) s += c[i];
    part[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        u64 acc = 0;
        for (int i = 0; i < blockDim.x; i++) {
            u64 t = part[i];
            part[i] = acc;
            acc += t;
        }
    }
    __syncthreads();
    u64 acc = part[threadIdx.x];
    for (i64 i = lo; i < hi; i++) {
        u32 t = c[i];
        c[i] = (u32)acc;
        acc += t;
    }
}

// s_scatter moves each (key, position) pair of a tile to its digit's next
// slot, stably: a tile goes in rounds of STPB rows, one per thread in row
// order; within a warp, equal digits rank by lane (__match_any_sync);
// across warps, by the per-warp digit counts of the round in shared
// memory; across rounds, by a running per-digit slot.
extern "C" __global__ void __launch_bounds__(STPB) s_scatter(u64 kinPtr, u64 pinPtr, i64 n, int shift, u64 offsPtr,
                                                            int nblocks, u64 koutPtr, u64 poutPtr) {
    const u64 *kin = (const u64 *)kinPtr;
    const u32 *pin = (const u32 *)pinPtr;
    const u32 *offs = (const u32 *)offsPtr;
    u64 *kout = (u64 *)koutPtr;
    u32 *pout = (u32 *)poutPtr;
    __shared__ u32 next[256];
    __shared__ u32 wc[STPB / 32][256];
    int tid = threadIdx.x, w = tid >> 5, lane = tid & 31;
    next[tid] = offs[(i64)tid * nblocks + blockIdx.x];
    for (int j = 0; j < STPB / 32; j++) wc[j][tid] = 0;
    __syncthreads();
    u32 lt = (1u << lane) - 1;
    i64 base = (i64)blockIdx.x * TILE;
    for (int r = 0; r < ROUNDS; r++) {
        i64 r0 = base + (i64)r * STPB;
        if (r0 >= n) break;  // uniform over the block
        i64 i = r0 + tid;
        bool valid = i < n;
        u64 k = valid ? kin[i] : 0;
        u32 p = valid ? pin[i] : 0;
        int d = valid ? (int)((k >> shift) & 255) : 256;
        u32 peers = __match_any_sync(0xffffffffu, d);
        int rank = __popc(peers & lt);
        if (valid && rank == 0) wc[w][d] = __popc(peers);
        __syncthreads();
        if (valid) {
            u32 dst = next[d] + rank;
            for (int j = 0; j < w; j++) dst += wc[j][d];
            kout[dst] = k;
            pout[dst] = p;
        }
        __syncthreads();
        u32 s = 0;
        for (int j = 0; j < STPB / 32; j++) {
            s += wc[j][tid];
            wc[j][tid] = 0;
        }
        next[tid] += s;
        __syncthreads();
    }
}

// Top k (ORDER BY ... LIMIT k, k small): the host finds the k-th smallest
// value T of the first sort word byte by byte with s_select (a histogram
// of one digit over the rows whose higher digits equal the prefix chosen
// so far), s_pick gathers the positions whose first word is at most T (at
// least k rows, unordered: their sort ends with the position as a last
// word), and only those are sorted.
extern "C" __global__ void __launch_bounds__(STPB) s_select(u64 keysPtr, i64 n, int shift, u64 prefix, u64 histPtr) {
    const u64 *keys = (const u64 *)keysPtr;
    u32 *hist = (u32 *)histPtr;
    __shared__ u32 h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (i64 i = (i64)blockIdx.x * STPB + threadIdx.x; i < n; i += (i64)gridDim.x * STPB) {
        u64 k = keys[i];
        if (shift + 8 >= 64 || (k >> (shift + 8)) == prefix) atomicAdd(&h[(k >> shift) & 255], 1u);
    }
    __syncthreads();
    if (h[threadIdx.x]) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

extern "C" __global__ void __launch_bounds__(STPB) s_pick(u64 keysPtr, i64 n, u64 t, u64 outPtr, u64 cntPtr) {
    const u64 *keys = (const u64 *)keysPtr;
    u32 *out = (u32 *)outPtr;
    unsigned long long *cnt = (unsigned long long *)cntPtr;
    int lane = threadIdx.x & 31;
    for (i64 b = (i64)blockIdx.x * STPB; b < n; b += (i64)gridDim.x * STPB) {  // uniform per block
        i64 i = b + threadIdx.x;
        bool take = i < n && keys[i] <= t;
        u32 m = __ballot_sync(0xffffffffu, take);
        u64 base = 0;
        if (lane == 0 && m) base = atomicAdd(cnt, (unsigned long long)__popc(m));
        base = __shfl_sync(0xffffffffu, base, 0);
        if (take) out[base + __popc(m & ((1u << lane) - 1))] = (u32)i;
    }
}

// s_rows turns positions perm[start..start+count) into table row ids:
// sel[position] when the rows were filtered, else the position.
extern "C" __global__ void s_rows(u64 permPtr, i64 start, i64 count, u64 selPtr, u64 outPtr) {
    const u32 *perm = (const u32 *)permPtr;
    const int *sel = (const int *)selPtr;
    int *out = (int *)outPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x) {
        u32 p = perm[start + i];
        out[i] = sel ? sel[p] : (int)p;
    }
}
