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
// s_hist and s_scatter take a tile of STPB * rounds rows per block: at
// most 64 rounds (16384 rows, 64 KB of keys), fewer for a sort of fewer
// rows so that every SM has blocks (engine/gpu sortRounds)

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

// s_hist counts the digits (key >> shift) & 255 of each tile of
// STPB * rounds rows: counts[d * nblocks + block], digit-major, so that
// one exclusive scan gives every tile its first output slot per digit.
extern "C" __global__ void __launch_bounds__(STPB) s_hist(u64 keysPtr, i64 n, int shift, u64 countsPtr, int nblocks, int rounds) {
    const u64 *keys = (const u64 *)keysPtr;
    u32 *counts = (u32 *)countsPtr;
    __shared__ u32 h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    i64 base = (i64)blockIdx.x * STPB * rounds;
#pragma unroll 4
    for (int r = 0; r < rounds; r++) {
        i64 i = base + r * STPB + threadIdx.x;
        if (i < n) atomicAdd(&h[(keys[i] >> shift) & 255], 1u);
    }
    __syncthreads();
    counts[(i64)threadIdx.x * nblocks + blockIdx.x] = h[threadIdx.x];
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

// s_scan: exclusive scan of counts[0..m), in place. One block of 1024
// threads, each over a contiguous segment.
extern "C" __global__ void s_scan(u64 countsPtr, i64 m) {
    u32 *c = (u32 *)countsPtr;
    i64 per = (m + blockDim.x - 1) / blockDim.x;
    i64 lo = threadIdx.x * per, hi = lo + per;
    if (hi > m) hi = m;
    u64 s = 0;
    for (i64 i = lo; i < hi; i++) s += c[i];
    unsigned long long total;
    unsigned long long pre = blockExScan(s, &total);
    u64 acc = pre;
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
                                                            int nblocks, int rounds, u64 koutPtr, u64 poutPtr) {
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
    i64 base = (i64)blockIdx.x * STPB * rounds;
    for (int r = 0; r < rounds; r++) {
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

// ---- Window functions (engine/gpu/window.go) ----
//
// A window's rows are sorted by its partition keys and then its ORDER BY
// (the radix sort above, stable); positions are places in that order and
// perm maps them to rows. w_flags marks each position that starts a
// partition and each that starts a peer group; inclusive scans of the
// marks (w_scan_*) number the partitions and groups, and w_starts lists
// their first positions, so that each position finds its partition
// [ps, pe) and peer group [gs, ge) by indexing. The ranking functions are
// arithmetic on those; lag, lead and the value functions pick a source
// row by index arithmetic within the partition (gathered afterwards); the
// aggregates read segmented prefix scans (sum, min, max, count) at the
// frame's ends. Results are written by row (out[perm[i]]), as the CPU
// backend stores them (engine/cpu/window.go, its twin).

typedef unsigned char u8;

__device__ __forceinline__ int keyWordsOf(const SKey &k) {
    if (k.cls == CLS_DEC) return 2;
    if (k.cls == CLS_STR || k.cls == CLS_CHAR) return ((k.width + 7) >> 3) + 1;
    return 1;
}

// keyEq: rows a and b hold equal keys (NULLs equal each other).
__device__ __forceinline__ bool keyEq(const SKey &k, i64 a, i64 b) {
    const u8 *nul = (const u8 *)k.nul;
    bool na = nul[a] != 0, nb = nul[b] != 0;
    if (na || nb) return na == nb;
    int nw = keyWordsOf(k);
    for (int w = 0; w < nw; w++)
        if (rawWord(k, a, w) != rawWord(k, b, w)) return false;
    return true;
}

// w_flags: pflag[i] = 1 where position i starts a partition (keys
// [0, npart) differ from position i-1's), gflag[i] where it starts a peer
// group (any of the nkeys keys differs).
extern "C" __global__ void w_flags(u64 keysPtr, int nkeys, int npart, u64 permPtr, i64 n, u64 pflagPtr, u64 gflagPtr) {
    const SKey *keys = (const SKey *)keysPtr;
    const u32 *perm = (const u32 *)permPtr;
    u8 *pflag = (u8 *)pflagPtr, *gflag = (u8 *)gflagPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
        u8 pf = 1, gf = 1;
        if (i > 0) {
            i64 a = perm[i - 1], b = perm[i];
            pf = 0;
            for (int k = 0; k < npart && !pf; k++)
                if (!keyEq(keys[k], a, b)) pf = 1;
            gf = pf;
            for (int k = npart; k < nkeys && !gf; k++)
                if (!keyEq(keys[k], a, b)) gf = 1;
        }
        pflag[i] = pf;
        gflag[i] = gf;
    }
}

// Segmented inclusive scans of i64 values: op 0 sum, 1 min, 2 max. A
// value takes part where has[i] (all, has == 0); with vals == 0 the
// values are has[i] themselves, counted (op 0). A scan restarts at each
// position whose seg flag is set (never, seg == 0). A sum that leaves 64
// bits sets *err. Three passes: w_scan_tiles reduces each tile of WTILE
// positions, w_scan_carry (one thread) finds what precedes each tile,
// w_scan_apply scans each tile from its carry.
#define WTPB 256
#define WITEMS 16
#define WTILE (WTPB * WITEMS)

struct WState {
    i64 v;
    int has, f;
};

__device__ __forceinline__ WState wCombine(int op, WState a, WState b, unsigned *err) {
    if (b.f) return b;
    WState r;
    r.f = a.f;
    r.has = a.has | b.has;
    if (a.has && b.has) {
        if (op == 0) {
            i64 s = (i64)((u64)a.v + (u64)b.v);
            if (((a.v ^ s) & (b.v ^ s)) < 0) atomicOr(err, 1u);
            r.v = s;
        } else if (op == 1) {
            r.v = b.v < a.v ? b.v : a.v;
        } else {
            r.v = b.v > a.v ? b.v : a.v;
        }
    } else {
        r.v = a.has ? a.v : b.v;
    }
    return r;
}

__device__ __forceinline__ WState wItem(const i64 *vals, const u8 *has, const u8 *seg, i64 i) {
    WState s;
    s.f = seg ? seg[i] != 0 : 0;
    if (!vals) {  // counting: has[i] is the value
        s.has = 1;
        s.v = has ? has[i] : 1;
        return s;
    }
    s.has = has ? has[i] != 0 : 1;
    s.v = s.has ? vals[i] : 0;
    return s;
}

// wThreadState reduces this thread's WITEMS positions of tile b.
__device__ WState wThreadState(int op, const i64 *vals, const u8 *has, const u8 *seg, i64 n, unsigned *err) {
    WState s = {0, 0, 0};
    i64 base = (i64)blockIdx.x * WTILE + (i64)threadIdx.x * WITEMS;
    for (int j = 0; j < WITEMS; j++) {
        i64 i = base + j;
        if (i >= n) break;
        s = wCombine(op, s, wItem(vals, has, seg, i), err);
    }
    return s;
}

extern "C" __global__ void __launch_bounds__(WTPB) w_scan_tiles(int op, u64 valsPtr, u64 hasPtr, u64 segPtr, i64 n, u64 tilesPtr, u64 errPtr) {
    __shared__ WState part[WTPB];
    unsigned *err = (unsigned *)errPtr;
    part[threadIdx.x] = wThreadState(op, (const i64 *)valsPtr, (const u8 *)hasPtr, (const u8 *)segPtr, n, err);
    __syncthreads();
    if (threadIdx.x == 0) {
        WState s = {0, 0, 0};
        for (int t = 0; t < WTPB; t++) s = wCombine(op, s, part[t], err);
        ((WState *)tilesPtr)[blockIdx.x] = s;
    }
}

// w_scan_carry: carry[b] is the scan's state before tile b (one thread).
extern "C" __global__ void w_scan_carry(int op, u64 tilesPtr, i64 ntiles, u64 carryPtr, u64 errPtr) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    const WState *tiles = (const WState *)tilesPtr;
    WState *carry = (WState *)carryPtr;
    WState s = {0, 0, 0};
    for (i64 b = 0; b < ntiles; b++) {
        carry[b] = s;
        s = wCombine(op, s, tiles[b], (unsigned *)errPtr);
    }
}

// w_scan_apply writes the inclusive scan: out[i] (and outHas[i] when
// outHas is not 0).
extern "C" __global__ void __launch_bounds__(WTPB) w_scan_apply(int op, u64 valsPtr, u64 hasPtr, u64 segPtr, i64 n, u64 carryPtr,
                                                               u64 outPtr, u64 outHasPtr, u64 errPtr) {
    __shared__ WState part[WTPB];
    const i64 *vals = (const i64 *)valsPtr;
    const u8 *has = (const u8 *)hasPtr, *seg = (const u8 *)segPtr;
    unsigned *err = (unsigned *)errPtr;
    i64 *out = (i64 *)outPtr;
    u8 *outHas = (u8 *)outHasPtr;
    part[threadIdx.x] = wThreadState(op, vals, has, seg, n, err);
    __syncthreads();
    if (threadIdx.x == 0) {
        WState s = ((const WState *)carryPtr)[blockIdx.x];
        for (int t = 0; t < WTPB; t++) {
            WState x = part[t];
            part[t] = s;
            s = wCombine(op, s, x, err);
        }
    }
    __syncthreads();
    WState s = part[threadIdx.x];
    i64 base = (i64)blockIdx.x * WTILE + (i64)threadIdx.x * WITEMS;
    for (int j = 0; j < WITEMS; j++) {
        i64 i = base + j;
        if (i >= n) break;
        s = wCombine(op, s, wItem(vals, has, seg, i), err);
        out[i] = s.v;
        if (outHas) outHas[i] = (u8)s.has;
    }
}

// w_starts: starts[id[i] - 1] = i where flag[i] (id: the inclusive count
// of flags), and starts[id[n-1]] = n.
extern "C" __global__ void w_starts(u64 flagPtr, u64 idPtr, i64 n, u64 startsPtr) {
    const u8 *flag = (const u8 *)flagPtr;
    const i64 *id = (const i64 *)idPtr;
    i64 *starts = (i64 *)startsPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
        if (flag[i]) starts[id[i] - 1] = i;
        if (i == n - 1) starts[id[i]] = n;
    }
}

// WPos is a position's partition [ps, pe), its peer group g (numbered
// across partitions) [gs, ge), and its partition's first and last groups.
struct WPos {
    i64 ps, pe, g, gs, ge, fg, lg;
};

__device__ __forceinline__ WPos wPos(const i64 *pid, const i64 *gid, const i64 *pstart, const i64 *gstart, i64 i) {
    WPos p;
    i64 q = pid[i] - 1;
    p.ps = pstart[q];
    p.pe = pstart[q + 1];
    p.g = gid[i] - 1;
    p.gs = gstart[p.g];
    p.ge = gstart[p.g + 1];
    p.fg = gid[p.ps] - 1;
    p.lg = gid[p.pe - 1] - 1;
    return p;
}

// ntileOf: engine/cpu ntileOf.
__device__ __forceinline__ i64 ntileOf(i64 k, i64 total, i64 nb) {
    i64 q = total / nb, r = total % nb;
    if (q == 0) return k + 1;
    if (k < r * (q + 1)) return k / (q + 1) + 1;
    return r + (k - r * (q + 1)) / q + 1;
}

// w_rank: fn is engine.WindowFunc: 0 row_number, 1 rank, 2 dense_rank,
// 3 percent_rank, 4 cume_dist (doubles, as their bits), 5 ntile(nb).
extern "C" __global__ void w_rank(int fn, u64 pidPtr, u64 gidPtr, u64 pstartPtr, u64 gstartPtr, u64 permPtr, i64 n, i64 nb, u64 outPtr) {
    const i64 *pid = (const i64 *)pidPtr, *gid = (const i64 *)gidPtr;
    const i64 *pstart = (const i64 *)pstartPtr, *gstart = (const i64 *)gstartPtr;
    const u32 *perm = (const u32 *)permPtr;
    i64 *out = (i64 *)outPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
        WPos p = wPos(pid, gid, pstart, gstart, i);
        i64 v = 0;
        double rows = (double)(p.pe - p.ps);
        switch (fn) {
        case 0: v = i - p.ps + 1; break;
        case 1: v = p.gs - p.ps + 1; break;
        case 2: v = p.g - p.fg + 1; break;
        case 3: {
            double d = p.pe - p.ps > 1 ? (double)(p.gs - p.ps) / (rows - 1) : 0.0;
            v = __double_as_longlong(d);
            break;
        }
        case 4: v = __double_as_longlong((double)(p.ge - p.ps) / rows); break;
        case 5: v = ntileOf(i - p.ps, p.pe - p.ps, nb); break;
        }
        out[perm[i]] = v;
    }
}

// WFrame mirrors engine.Frame (engine/gpu wFrame): mode 0 RANGE, 1 ROWS,
// 2 GROUPS; bounds 0 UNBOUNDED PRECEDING, 1 n PRECEDING, 2 CURRENT ROW,
// 3 n FOLLOWING, 4 UNBOUNDED FOLLOWING; ex engine.FrameExclusion. RANGE
// frames here have no offsets.
struct WFrame {
    i64 so, eo;
    int mode, sk, ek, ex;
};

__device__ __forceinline__ i64 stepRows(i64 i, i64 off, bool back, i64 lo, i64 hi) {
    if (back) return off > i - lo ? lo : i - off;
    return off > hi - i ? hi : i + off;
}

// wFrame: engine/cpu winCall.frame, position i's frame [s, e) before EXCLUDE.
__device__ void wFrame(const WFrame &f, const WPos &p, i64 i, const i64 *gstart, i64 *sp, i64 *ep) {
    i64 s, e;
    switch (f.sk) {
    case 0: s = p.ps; break;
    case 2: s = f.mode == 1 ? i : p.gs; break;
    case 1:
    case 3: {
        bool back = f.sk == 1;
        if (f.mode == 1) {
            s = stepRows(i, f.so, back, p.ps, p.pe);
        } else {
            i64 t = stepRows(p.g, f.so, back, p.fg, p.lg + 1);
            s = t > p.lg ? p.pe : gstart[t];
        }
        break;
    }
    default: s = p.pe;
    }
    switch (f.ek) {
    case 4: e = p.pe; break;
    case 2: e = f.mode == 1 ? i + 1 : p.ge; break;
    case 1:
    case 3: {
        bool back = f.ek == 1;
        if (f.mode == 1) {
            e = stepRows(i, f.eo, back, p.ps - 1, p.pe - 1) + 1;
        } else {
            i64 t = stepRows(p.g, f.eo, back, p.fg - 1, p.lg);
            e = t >= p.fg ? gstart[t + 1] : p.ps;
        }
        break;
    }
    default: e = p.ps;
    }
    *sp = s;
    *ep = e;
}

// w_value: first_value (fn 8), last_value (9), nth_value (10, the nth
// row): idx[perm[i]] is the source row (perm of the frame's position) or
// -1 for NULL; the frame without EXCLUDE's rows (engine/cpu frameSegs,
// nthRow).
extern "C" __global__ void w_value(int fn, WFrame f, i64 nth, u64 pidPtr, u64 gidPtr, u64 pstartPtr, u64 gstartPtr, u64 permPtr, i64 n,
                                   u64 idxPtr) {
    const i64 *pid = (const i64 *)pidPtr, *gid = (const i64 *)gidPtr;
    const i64 *pstart = (const i64 *)pstartPtr, *gstart = (const i64 *)gstartPtr;
    const u32 *perm = (const u32 *)permPtr;
    int *idx = (int *)idxPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
        WPos p = wPos(pid, gid, pstart, gstart, i);
        i64 s, e;
        wFrame(f, p, i, gstart, &s, &e);
        i64 a[3], b[3];
        int ns = 0;
        i64 cut[3][2];
        int nc = 0;
        switch (f.ex) {
        case 1: cut[0][0] = s; cut[0][1] = i; cut[1][0] = i + 1; cut[1][1] = e; nc = 2; break;
        case 2: cut[0][0] = s; cut[0][1] = p.gs; cut[1][0] = p.ge; cut[1][1] = e; nc = 2; break;
        case 3:
            cut[0][0] = s; cut[0][1] = p.gs; cut[1][0] = i; cut[1][1] = i + 1; cut[2][0] = p.ge; cut[2][1] = e; nc = 3;
            break;
        default: cut[0][0] = s; cut[0][1] = e; nc = 1;
        }
        for (int k = 0; k < nc; k++) {
            i64 lo = cut[k][0] > s ? cut[k][0] : s, hi = cut[k][1] < e ? cut[k][1] : e;
            if (lo < hi) {
                a[ns] = lo;
                b[ns] = hi;
                ns++;
            }
        }
        i64 r = -1;
        if (ns > 0) {
            if (fn == 9) {
                r = b[ns - 1] - 1;
            } else {
                i64 k = fn == 8 ? 1 : nth;
                for (int j = 0; j < ns; j++) {
                    i64 l = b[j] - a[j];
                    if (k <= l) {
                        r = a[j] + k - 1;
                        break;
                    }
                    k -= l;
                }
            }
        }
        idx[perm[i]] = r < 0 ? -1 : (int)perm[r];
    }
}

// w_lag: lag (fn 6) and lead (7) by off rows: idx[perm[i]] is the row
// perm[i ± off] inside the partition, else the default's: -1 (NULL) for
// dmode 0, n for dmode 1 (a constant appended after the n rows), n +
// perm[i] for dmode 2 (a column appended).
extern "C" __global__ void w_lag(int fn, i64 off, int dmode, u64 pidPtr, u64 pstartPtr, u64 permPtr, i64 n, u64 idxPtr) {
    const i64 *pid = (const i64 *)pidPtr, *pstart = (const i64 *)pstartPtr;
    const u32 *perm = (const u32 *)permPtr;
    int *idx = (int *)idxPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
        i64 q = pid[i] - 1;
        i64 ps = pstart[q], pe = pstart[q + 1];
        i64 d = fn == 6 ? -off : off;
        i64 t = i + d;
        int r;
        if (t >= ps && t < pe) r = (int)perm[t];
        else if (dmode == 0) r = -1;
        else if (dmode == 1) r = (int)n;
        else r = (int)(n + perm[i]);
        idx[perm[i]] = r;
    }
}

// w_load reads a column of width 1, 2, 4 or 8 (signed) in the order perm:
// vals[i], and has[i] from the validity bitmap (0: no NULLs).
extern "C" __global__ void w_load(u64 dataPtr, int width, u64 validPtr, u64 permPtr, i64 n, u64 valsPtr, u64 hasPtr) {
    const u32 *perm = (const u32 *)permPtr;
    const u64 *valid = (const u64 *)validPtr;
    i64 *vals = (i64 *)valsPtr;
    u8 *has = (u8 *)hasPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
        i64 r = perm[i];
        bool ok = !valid || ((valid[r >> 6] >> (r & 63)) & 1);
        i64 v = 0;
        if (ok && dataPtr) {
            switch (width) {
            case 1: v = ((const signed char *)dataPtr)[r]; break;
            case 2: v = ((const short *)dataPtr)[r]; break;
            case 4: v = ((const int *)dataPtr)[r]; break;
            default: v = ((const i64 *)dataPtr)[r];
            }
        }
        vals[i] = ok ? v : 0;
        has[i] = ok;
    }
}

// Range minima and maxima over positions (the frame of min and max, any
// bounds): blocks of WRMQ positions each get their inclusive scans from
// the block's start (pre) and to its end (suf), and a sparse table over
// the blocks' results (level k, at k * nb: the result of 2^k blocks from
// block i). A range [a, b) inside one block is read directly, else as
// suf[a], pre[b-1] and two overlapping runs of whole blocks between. A
// NULL (has[i] == 0) is the identity: INT64_MAX for min (op 1), INT64_MIN
// for max (op 2); a range of only NULLs answers the identity, and the
// caller knows such ranges from the counts.
#define WRMQ 256

__device__ __forceinline__ i64 rmqIdent(int op) { return op == 1 ? (i64)0x7fffffffffffffffLL : (i64)(-0x7fffffffffffffffLL - 1); }

__device__ __forceinline__ i64 rmqOp(int op, i64 a, i64 b) { return op == 1 ? (b < a ? b : a) : (b > a ? b : a); }

// w_rmq_blocks: one thread per block of WRMQ positions.
extern "C" __global__ void w_rmq_blocks(int op, u64 valsPtr, u64 hasPtr, i64 n, u64 prePtr, u64 sufPtr, u64 tablePtr) {
    const i64 *vals = (const i64 *)valsPtr;
    const u8 *has = (const u8 *)hasPtr;
    i64 *pre = (i64 *)prePtr, *suf = (i64 *)sufPtr, *table = (i64 *)tablePtr;
    i64 nb = (n + WRMQ - 1) / WRMQ;
    i64 id = rmqIdent(op);
    for (i64 b = (i64)blockIdx.x * blockDim.x + threadIdx.x; b < nb; b += (i64)gridDim.x * blockDim.x) {
        i64 lo = b * WRMQ, hi = lo + WRMQ < n ? lo + WRMQ : n;
        i64 x = id;
        for (i64 j = lo; j < hi; j++) {
            if (has[j]) x = rmqOp(op, x, vals[j]);
            pre[j] = x;
        }
        table[b] = x;
        x = id;
        for (i64 j = hi - 1; j >= lo; j--) {
            if (has[j]) x = rmqOp(op, x, vals[j]);
            suf[j] = x;
        }
    }
}

// w_rmq_level: level k >= 1 of the sparse table over nb blocks.
extern "C" __global__ void w_rmq_level(int op, u64 tablePtr, i64 nb, int k) {
    i64 *table = (i64 *)tablePtr;
    const i64 *src = table + (i64)(k - 1) * nb;
    i64 *dst = table + (i64)k * nb;
    i64 half = (i64)1 << (k - 1), m = nb - 2 * half + 1;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (i64)gridDim.x * blockDim.x)
        dst[i] = rmqOp(op, src[i], src[i + half]);
}

// rmqRange: the minimum (op 1) or maximum (2) of positions [a, b), a < b.
__device__ i64 rmqRange(int op, const i64 *vals, const u8 *has, const i64 *pre, const i64 *suf, const i64 *table, i64 nb, i64 a, i64 b) {
    i64 x = rmqIdent(op);
    i64 ba = a / WRMQ, bb = (b - 1) / WRMQ;
    if (ba == bb) {
        for (i64 j = a; j < b; j++)
            if (has[j]) x = rmqOp(op, x, vals[j]);
        return x;
    }
    x = rmqOp(op, suf[a], pre[b - 1]);
    i64 len = bb - ba - 1;  // whole blocks ba+1 .. bb-1
    if (len > 0) {
        int k = 63 - __clzll(len);
        x = rmqOp(op, x, table[(i64)k * nb + ba + 1]);
        x = rmqOp(op, x, table[(i64)k * nb + bb - ((i64)1 << k)]);
    }
    return x;
}

// w_agg: an aggregate over each position's frame, without EXCLUDE's rows
// (at most three runs of positions, as w_value cuts them): agg 0
// count(*), 1 count(x) (cnt: the prefix count of non-NULL values within
// the partition), 2 sum (pre: prefix sums within the partition, NULLs as
// 0), 3 min and 4 max (vals and has in sorted order, rpre, rsuf and
// table: the range structure above over nb blocks). out[perm[i]] and
// nul[perm[i]]; a sum past 64 bits, or a result whose magnitude reaches
// lim (lim > 0: 10^18 for numerics, which the device holds to 18
// digits), sets *err.
extern "C" __global__ void w_agg(int agg, WFrame f, u64 pidPtr, u64 gidPtr, u64 pstartPtr, u64 gstartPtr, u64 permPtr, i64 n, u64 prePtr,
                                 u64 cntPtr, u64 valsPtr, u64 hasPtr, u64 rprePtr, u64 rsufPtr, u64 tablePtr, i64 nb, i64 lim,
                                 u64 outPtr, u64 nulPtr, u64 errPtr) {
    const i64 *pid = (const i64 *)pidPtr, *gid = (const i64 *)gidPtr;
    const i64 *pstart = (const i64 *)pstartPtr, *gstart = (const i64 *)gstartPtr;
    const u32 *perm = (const u32 *)permPtr;
    const i64 *pre = (const i64 *)prePtr, *cnt = (const i64 *)cntPtr;
    const i64 *vals = (const i64 *)valsPtr, *rpre = (const i64 *)rprePtr, *rsuf = (const i64 *)rsufPtr, *table = (const i64 *)tablePtr;
    const u8 *has = (const u8 *)hasPtr;
    i64 *out = (i64 *)outPtr;
    u8 *nul = (u8 *)nulPtr;
    unsigned *err = (unsigned *)errPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
        WPos p = wPos(pid, gid, pstart, gstart, i);
        i64 s, e;
        wFrame(f, p, i, gstart, &s, &e);
        i64 cut[3][2];
        int nc = 0;
        switch (f.ex) {
        case 1: cut[0][0] = s; cut[0][1] = i; cut[1][0] = i + 1; cut[1][1] = e; nc = 2; break;
        case 2: cut[0][0] = s; cut[0][1] = p.gs; cut[1][0] = p.ge; cut[1][1] = e; nc = 2; break;
        case 3:
            cut[0][0] = s; cut[0][1] = p.gs; cut[1][0] = i; cut[1][1] = i + 1; cut[2][0] = p.ge; cut[2][1] = e; nc = 3;
            break;
        default: cut[0][0] = s; cut[0][1] = e; nc = 1;
        }
        i64 rows = 0, c = 0, v = 0;
        i64 x = agg >= 3 ? rmqIdent(agg - 2) : 0;
        for (int k = 0; k < nc; k++) {
            i64 a = cut[k][0] > s ? cut[k][0] : s, b = cut[k][1] < e ? cut[k][1] : e;
            if (a >= b) continue;
            rows += b - a;
            if (agg == 0) continue;
            i64 rc = cnt[b - 1] - (a > p.ps ? cnt[a - 1] : 0);
            c += rc;
            if (rc == 0) continue;
            if (agg == 2) {
                i64 hi = pre[b - 1], lo = a > p.ps ? pre[a - 1] : 0;
                i64 d = (i64)((u64)hi - (u64)lo);
                if (((hi ^ lo) & (hi ^ d)) < 0) atomicOr(err, 1u);
                i64 t = (i64)((u64)v + (u64)d);
                if (((v ^ t) & (d ^ t)) < 0) atomicOr(err, 1u);
                v = t;
            } else if (agg >= 3) {
                x = rmqOp(agg - 2, x, rmqRange(agg - 2, vals, has, rpre, rsuf, table, nb, a, b));
            }
        }
        u8 isNull = 0;
        if (agg == 0) v = rows;
        else if (agg == 1) v = c;
        else if (c == 0) isNull = 1;
        else if (agg >= 3) v = x;
        if (lim > 0 && !isNull && (v >= lim || v <= -lim)) atomicOr(err, 1u);
        out[perm[i]] = isNull ? 0 : v;
        nul[perm[i]] = isNull;
    }
}

// w_store narrows n i64 values to width bytes (2, 4 or 8).
extern "C" __global__ void w_store(u64 valsPtr, i64 n, int width, u64 outPtr) {
    const i64 *vals = (const i64 *)valsPtr;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
        switch (width) {
        case 2: ((short *)outPtr)[i] = (short)vals[i]; break;
        case 4: ((int *)outPtr)[i] = (int)vals[i]; break;
        default: ((i64 *)outPtr)[i] = vals[i];
        }
    }
}
