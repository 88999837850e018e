// Plan trees on the GPU: hash joins over device columns, and the kernels
// that move rows between device tables (gather, pack). engine/gpu/join.go
// drives them; their twin is the CPU backend's join, which
// engine/gpu/join_test.go compares the device's with.
//
// A hash join:
//   1. the keys of each side are evaluated by q_project into registers
//      (JKey: lo, hi, nul, str per row, as q_project writes them);
//   2. j_hash: each row's 64-bit hash over its keys, 0 when a key is NULL
//      (a NULL key matches nothing);
//   3. j_build: the build side's rows go into an open-addressing table of
//      row numbers (slotRow, -1 empty) and their hashes (slotHash),
//      claimed with atomicCAS, probed linearly;
//   4. j_probe, twice: first each probe row's count of output rows
//      (matches; at least 1 for a LEFT JOIN; 0 or 1 for semi and anti
//      joins), which sa_scan turns into offsets; then the same walk
//      writes the pairs (probe row, build row; -1 for none) at them, and
//      marks the build rows matched (RIGHT and FULL joins);
//   5. j_gather copies each output column's rows by those row numbers.
// A semi or anti join whose right side is much larger than its left
// builds on the left instead: one j_probe pass of the right rows in mode
// JM_MARK flags the left rows they match, and j_flag_rows lists the left
// rows the join keeps.
// Every buffer is sized by the host before the launches: no allocation
// in kernels.
typedef long long i64;
typedef unsigned long long u64;
typedef unsigned u32;
typedef unsigned char u8;
typedef __int128 i128;

#define J_TPB 256

// register classes (CLS_* in query.cu)
#define JCLS_BOOL 1
#define JCLS_I16 2
#define JCLS_I32 3
#define JCLS_I64 4
#define JCLS_F32 5
#define JCLS_F64 6
#define JCLS_DEC 7
#define JCLS_STR 8
#define JCLS_CHAR 9
// JCLS_NATIVE: an integer column read where it is stored: width bytes a
// row at lo (1: boolean, 2, 4: integer, date, 8: bigint, timestamp),
// signed, and its validity bitmap at nul (0: no NULLs).
#define JCLS_NATIVE 20

// JKey is one key's values, as q_project wrote them (lo, hi, nul a byte
// a row, str), or a stored integer column (JCLS_NATIVE).
struct JKey {
    u64 lo, hi, nul, str;
    int cls, width;
};

__device__ __host__ inline u64 jMix(u64 x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

__device__ __host__ inline u64 jFloatBits(u64 bits) {
    double f;
    memcpy(&f, &bits, 8);
    if (f == 0) return 0;                         // -0 equals 0
    if (f != f) return 0x7ff8000000000000ULL;     // every NaN equals every NaN
    return bits;
}

__device__ __host__ inline bool jNull(const JKey &k, i64 r) {
    if (k.cls == JCLS_NATIVE) return k.nul != 0 && !((((const u64 *)k.nul)[r >> 6] >> (r & 63)) & 1);
    return ((const u8 *)k.nul)[r] != 0;
}
__device__ __host__ inline i64 jLo(const JKey &k, i64 r) {
    if (k.cls == JCLS_NATIVE) {
        switch (k.width) {
        case 1: return ((const u8 *)k.lo)[r];
        case 2: return ((const short *)k.lo)[r];
        case 4: return ((const int *)k.lo)[r];
        }
    }
    return ((const i64 *)k.lo)[r];
}
__device__ __host__ inline i64 jHi(const JKey &k, i64 r) { return ((const i64 *)k.hi)[r]; }
__device__ __host__ inline bool jIsStr(int cls) { return cls == JCLS_STR || cls == JCLS_CHAR; }
__device__ __host__ inline i64 jLen(const JKey &k, i64 r) { return k.width > 0 ? jLo(k, r) : 0; }
__device__ __host__ inline const u8 *jBytes(const JKey &k, i64 r) { return (const u8 *)k.str + r * (i64)k.width; }

// jHash is row r's hash over its nk keys: never 0, except for a row with
// a NULL key.
__device__ __host__ inline u64 jHash(const JKey *keys, int nk, i64 r) {
    u64 h = 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < nk; k++) {
        const JKey &key = keys[k];
        if (jNull(key, r)) return 0;
        if (jIsStr(key.cls)) {
            i64 n = jLen(key, r);
            const u8 *s = jBytes(key, r);
            h = jMix(h ^ (u64)n);
            for (i64 i = 0; i < n; i += 8) {
                u64 w = 0;
                for (int j = 0; j < 8 && i + j < n; j++) w |= (u64)s[i + j] << (8 * j);
                h = jMix(h ^ w);
            }
        } else if (key.cls == JCLS_F32 || key.cls == JCLS_F64) {
            h = jMix(h ^ jFloatBits((u64)jLo(key, r)));
        } else {
            h = jMix(h ^ (u64)jLo(key, r));
            if (key.cls == JCLS_DEC) h = jMix(h ^ (u64)jHi(key, r));
        }
    }
    return h | 1;
}

// jEq reports whether row a of keys pa equals row b of keys pb (neither
// has a NULL key: their hashes are not 0).
__device__ __host__ inline bool jEq(const JKey *pa, i64 a, const JKey *pb, i64 b, int nk) {
    for (int k = 0; k < nk; k++) {
        const JKey &x = pa[k], &y = pb[k];
        if (jIsStr(x.cls)) {
            i64 n = jLen(x, a);
            if (n != jLen(y, b)) return false;
            const u8 *s = jBytes(x, a), *t = jBytes(y, b);
            for (i64 i = 0; i < n; i++)
                if (s[i] != t[i]) return false;
        } else if (x.cls == JCLS_F32 || x.cls == JCLS_F64) {
            if (jFloatBits((u64)jLo(x, a)) != jFloatBits((u64)jLo(y, b))) return false;
        } else {
            if (jLo(x, a) != jLo(y, b)) return false;
            if (x.cls == JCLS_DEC && jHi(x, a) != jHi(y, b)) return false;
        }
    }
    return true;
}

// j_hash: hashes[i] for rows [0, n).
extern "C" __global__ void __launch_bounds__(J_TPB) j_hash(u64 keysPtr, int nk, i64 n, u64 hashesPtr) {
    const JKey *keys = (const JKey *)keysPtr;
    u64 *hashes = (u64 *)hashesPtr;
    for (i64 i = (i64)blockIdx.x * J_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * J_TPB) hashes[i] = jHash(keys, nk, i);
}

// j_build puts the build side's rows with a hash into the table;
// nulls[0] becomes 1 when a row has a NULL key.
extern "C" __global__ void __launch_bounds__(J_TPB) j_build(u64 hashesPtr, i64 n, u64 slotRowPtr, u64 slotHashPtr, u64 mask,
                                                            u64 nullsPtr) {
    const u64 *hashes = (const u64 *)hashesPtr;
    int *slotRow = (int *)slotRowPtr;
    u64 *slotHash = (u64 *)slotHashPtr;
    for (i64 i = (i64)blockIdx.x * J_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * J_TPB) {
        u64 h = hashes[i];
        if (h == 0) {
            ((int *)nullsPtr)[0] = 1;
            continue;
        }
        u64 s = (h >> 7) & mask;
        while (atomicCAS(&slotRow[s], -1, (int)i) != -1) s = (s + 1) & mask;
        slotHash[s] = h;
    }
}

// probe modes
#define JM_INNER 0 // every matching pair
#define JM_LEFT 1  // the pairs, or (row, -1)
#define JM_SEMI 2  // the row, once, if it has a match
#define JM_ANTI 3  // the row if it has no match (a NULL key has none)
#define JM_ANTIN 4 // the row if its key is not NULL and has no match
#define JM_MARK 5  // no output: matched[b] = 1 for every build row b the
                   // probe row matches, and counts[0] (an int) = 1 where
                   // a probe row's key is NULL (a semi or anti join built
                   // on its left side: the probe rows are the right's)

// j_probe walks each probe row's slots. Without offs it writes counts[i],
// the output rows probe row i makes; with offs (the counts' exclusive
// scan) it writes them: outL (probe rows) and outR (build rows, -1 for
// none; unused by semi and anti joins), and marks matched build rows in
// matched when given.
extern "C" __global__ void __launch_bounds__(J_TPB) j_probe(int mode, u64 pkPtr, u64 phashPtr, i64 np, u64 bkPtr, int nk,
                                                            u64 slotRowPtr, u64 slotHashPtr, u64 mask, u64 countsPtr,
                                                            u64 offsPtr, u64 outLPtr, u64 outRPtr, u64 matchedPtr) {
    const JKey *pk = (const JKey *)pkPtr, *bk = (const JKey *)bkPtr;
    const u64 *phash = (const u64 *)phashPtr;
    const int *slotRow = (const int *)slotRowPtr;
    const u64 *slotHash = (const u64 *)slotHashPtr;
    u64 *counts = (u64 *)countsPtr;
    const u64 *offs = (const u64 *)offsPtr;
    int *outL = (int *)outLPtr, *outR = (int *)outRPtr;
    u8 *matched = (u8 *)matchedPtr;
    for (i64 i = (i64)blockIdx.x * J_TPB + threadIdx.x; i < np; i += (i64)gridDim.x * J_TPB) {
        u64 h = phash[i];
        if (mode == JM_MARK) {
            if (h == 0) {
                ((int *)countsPtr)[0] = 1;
                continue;
            }
            for (u64 s = (h >> 7) & mask;; s = (s + 1) & mask) {
                int b = slotRow[s];
                if (b < 0) break;
                if (slotHash[s] == h && jEq(pk, i, bk, b, nk)) matched[b] = 1;
            }
            continue;
        }
        u64 c = 0;
        u64 at = offs ? offs[i] : 0;
        if (h != 0) {
            for (u64 s = (h >> 7) & mask;; s = (s + 1) & mask) {
                int b = slotRow[s];
                if (b < 0) break;
                if (slotHash[s] != h || !jEq(pk, i, bk, b, nk)) continue;
                c++;
                if (mode >= JM_SEMI) break;
                if (offs) {
                    outL[at] = (int)i;
                    outR[at] = b;
                    at++;
                    if (matched) matched[b] = 1;
                }
            }
        }
        u64 out;
        switch (mode) {
        case JM_LEFT: out = c > 0 ? c : 1; break;
        case JM_SEMI: out = c > 0; break;
        case JM_ANTI: out = c == 0; break;
        case JM_ANTIN: out = c == 0 && h != 0; break;
        default: out = c;
        }
        if (!offs) {
            counts[i] = out;
        } else if (mode == JM_LEFT && c == 0) {
            outL[at] = (int)i;
            outR[at] = -1;
        } else if (mode >= JM_SEMI && out) {
            outL[at] = (int)i;
        }
    }
}

// j_cross writes every pair of nl left and nr right rows, from pair
// first on, n pairs: pair p is (p / nr, p % nr).
extern "C" __global__ void __launch_bounds__(J_TPB) j_cross(i64 first, i64 n, i64 nr, u64 outLPtr, u64 outRPtr) {
    int *outL = (int *)outLPtr, *outR = (int *)outRPtr;
    for (i64 k = (i64)blockIdx.x * J_TPB + threadIdx.x; k < n; k += (i64)gridDim.x * J_TPB) {
        i64 p = first + k;
        outL[k] = (int)(p / nr);
        outR[k] = (int)(p % nr);
    }
}

// j_gather copies rows idx[k] (-1: zeros) of src into rows k of dst, w
// bytes a row. Rows of 1, 2, 4 and 8 bytes (the numbers and dates), and
// of up to 64 (most strings), take a thread a row; wider rows a thread a
// 4-byte word or a byte of a row, so that a long string spreads over
// threads. (Buffers are 256-byte aligned, so a row of w bytes, w a
// multiple of 4 or 8, is aligned to it.)
extern "C" __global__ void __launch_bounds__(J_TPB) j_gather(u64 dstPtr, u64 srcPtr, int w, u64 idxPtr, i64 n) {
    const int *idx = (const int *)idxPtr;
    const i64 t0 = (i64)blockIdx.x * J_TPB + threadIdx.x, stride = (i64)gridDim.x * J_TPB;
    if (w == 8) {
        u64 *dst = (u64 *)dstPtr;
        const u64 *src = (const u64 *)srcPtr;
        for (i64 k = t0; k < n; k += stride) {
            int r = idx[k];
            dst[k] = r < 0 ? 0 : src[r];
        }
        return;
    }
    if (w == 4) {
        u32 *dst = (u32 *)dstPtr;
        const u32 *src = (const u32 *)srcPtr;
        for (i64 k = t0; k < n; k += stride) {
            int r = idx[k];
            dst[k] = r < 0 ? 0 : src[r];
        }
        return;
    }
    if (w <= 64) {
        // a thread a row: in 8-, 4- or 1-byte units, as w allows
        int unit = w % 8 == 0 ? 8 : w % 4 == 0 ? 4 : 1, m = w / unit;
        for (i64 k = t0; k < n; k += stride) {
            int r = idx[k];
            if (unit == 8) {
                u64 *d = (u64 *)dstPtr + k * m;
                const u64 *sr = (const u64 *)srcPtr + (i64)r * m;
                for (int j = 0; j < m; j++) d[j] = r < 0 ? 0 : sr[j];
            } else if (unit == 4) {
                u32 *d = (u32 *)dstPtr + k * m;
                const u32 *sr = (const u32 *)srcPtr + (i64)r * m;
                for (int j = 0; j < m; j++) d[j] = r < 0 ? 0 : sr[j];
            } else {
                u8 *d = (u8 *)dstPtr + k * m;
                const u8 *sr = (const u8 *)srcPtr + (i64)r * m;
                for (int j = 0; j < m; j++) d[j] = r < 0 ? 0 : sr[j];
            }
        }
        return;
    }
    if (w % 4 == 0) {
        int words = w / 4;
        u32 *dst = (u32 *)dstPtr;
        const u32 *src = (const u32 *)srcPtr;
        i64 total = n * words;
        for (i64 t = t0; t < total; t += stride) {
            i64 k = t / words;
            int j = (int)(t - k * words);
            int r = idx[k];
            dst[t] = r < 0 ? 0 : src[(i64)r * words + j];
        }
        return;
    }
    u8 *dst = (u8 *)dstPtr;
    const u8 *src = (const u8 *)srcPtr;
    i64 total = n * w;
    for (i64 t = t0; t < total; t += stride) {
        i64 k = t / w;
        int j = (int)(t - k * w);
        int r = idx[k];
        dst[t] = r < 0 ? 0 : src[(i64)r * w + j];
    }
}

// j_gather_valid writes the validity bitmap of a gathered column: row k
// is valid when idx[k] >= 0 and row idx[k] of src is (src 0: all are).
// One thread a 64-row word.
extern "C" __global__ void __launch_bounds__(J_TPB) j_gather_valid(u64 dstPtr, u64 srcPtr, u64 idxPtr, i64 n) {
    u64 *dst = (u64 *)dstPtr;
    const u64 *src = (const u64 *)srcPtr;
    const int *idx = (const int *)idxPtr;
    i64 words = (n + 63) / 64;
    for (i64 w = (i64)blockIdx.x * J_TPB + threadIdx.x; w < words; w += (i64)gridDim.x * J_TPB) {
        u64 word = 0;
        for (int b = 0; b < 64; b++) {
            i64 k = w * 64 + b;
            if (k >= n) break;
            int r = idx[k];
            bool v = r >= 0 && (src == 0 || (src[r >> 6] >> (r & 63)) & 1);
            if (v) word |= 1ULL << b;
        }
        dst[w] = word;
    }
}

// storage kinds for j_pack
#define JP_INT 0   // integers, dates, timestamps, booleans: the low store bytes of lo
#define JP_F32 1   // lo holds a double: stored as float
#define JP_F64 2   // lo holds a double
#define JP_DEC 3   // (hi, lo) a 128-bit scaled numeric: stored as int64 below 10^18
#define JP_STR 4   // lo bytes of str (width win a row), into rows of wout bytes

// j_pack stores n register values in a column's layout: store bytes a
// row (JP_STR: wout). A numeric past 18 digits sets err[0].
extern "C" __global__ void __launch_bounds__(J_TPB) j_pack(u64 dstPtr, int kind, int store, u64 loPtr, u64 hiPtr, u64 nulPtr,
                                                           u64 strPtr, int win, int wout, i64 n, u64 errPtr) {
    const i64 *lo = (const i64 *)loPtr;
    const i64 *hi = (const i64 *)hiPtr;
    const u8 *nul = (const u8 *)nulPtr;
    for (i64 i = (i64)blockIdx.x * J_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * J_TPB) {
        bool isNull = nul[i] != 0;
        switch (kind) {
        case JP_INT: {
            i64 v = isNull ? 0 : lo[i];
            switch (store) {
            case 1: ((u8 *)dstPtr)[i] = (u8)v; break;
            case 2: ((short *)dstPtr)[i] = (short)v; break;
            case 4: ((int *)dstPtr)[i] = (int)v; break;
            default: ((i64 *)dstPtr)[i] = v;
            }
            break;
        }
        case JP_F32: {
            double d = 0;
            if (!isNull) memcpy(&d, &lo[i], 8);
            ((float *)dstPtr)[i] = (float)d;
            break;
        }
        case JP_F64: ((i64 *)dstPtr)[i] = isNull ? 0 : lo[i]; break;
        case JP_DEC: {
            i64 v = 0;
            if (!isNull) {
                i128 x = ((i128)hi[i] << 64) | (i128)(u64)lo[i];
                const i64 lim = 1000000000000000000LL;
                if (x >= (i128)lim || x <= -(i128)lim) {
                    ((int *)errPtr)[0] = 1;
                } else {
                    v = (i64)x;
                }
            }
            ((i64 *)dstPtr)[i] = v;
            break;
        }
        default: {
            u8 *d = (u8 *)dstPtr + i * (i64)wout;
            const u8 *s = (const u8 *)strPtr + i * (i64)win;
            i64 len = isNull || win == 0 ? 0 : lo[i];
            for (int j = 0; j < wout; j++) d[j] = j < len ? s[j] : 0;
        }
        }
    }
}

// j_pack_valid writes a validity bitmap from NULL flags (one byte a row).
extern "C" __global__ void __launch_bounds__(J_TPB) j_pack_valid(u64 dstPtr, u64 nulPtr, i64 n) {
    u64 *dst = (u64 *)dstPtr;
    const u8 *nul = (const u8 *)nulPtr;
    i64 words = (n + 63) / 64;
    for (i64 w = (i64)blockIdx.x * J_TPB + threadIdx.x; w < words; w += (i64)gridDim.x * J_TPB) {
        u64 word = 0;
        for (int b = 0; b < 64; b++) {
            i64 k = w * 64 + b;
            if (k >= n) break;
            if (!nul[k]) word |= 1ULL << b;
        }
        dst[w] = word;
    }
}

// j_mark sets flags[rows[sel[k]]] = 1 for k in [0, n) (sel 0: k).
extern "C" __global__ void __launch_bounds__(J_TPB) j_mark(u64 flagsPtr, u64 rowsPtr, u64 selPtr, i64 n) {
    u8 *flags = (u8 *)flagsPtr;
    const int *rows = (const int *)rowsPtr;
    const int *sel = (const int *)selPtr;
    for (i64 k = (i64)blockIdx.x * J_TPB + threadIdx.x; k < n; k += (i64)gridDim.x * J_TPB) {
        int r = rows[sel ? sel[k] : k];
        if (r >= 0) flags[r] = 1;
    }
}

// j_null_flags sets flags[i] = v where hashes[i] is 0 (a NULL key).
extern "C" __global__ void __launch_bounds__(J_TPB) j_null_flags(u64 hashesPtr, i64 n, u64 flagsPtr, int v) {
    const u64 *hashes = (const u64 *)hashesPtr;
    u8 *flags = (u8 *)flagsPtr;
    for (i64 i = (i64)blockIdx.x * J_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * J_TPB)
        if (hashes[i] == 0) flags[i] = (u8)v;
}

// j_flag_counts writes counts[i] = 1 where flags[i] == want, else 0.
extern "C" __global__ void __launch_bounds__(J_TPB) j_flag_counts(u64 flagsPtr, i64 n, int want, u64 countsPtr) {
    const u8 *flags = (const u8 *)flagsPtr;
    u64 *counts = (u64 *)countsPtr;
    for (i64 i = (i64)blockIdx.x * J_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * J_TPB) counts[i] = flags[i] == want;
}

// j_flag_rows writes row i at offs[i] where flags[i] == want (offs: the
// exclusive scan of j_flag_counts).
extern "C" __global__ void __launch_bounds__(J_TPB) j_flag_rows(u64 flagsPtr, i64 n, int want, u64 offsPtr, u64 outPtr) {
    const u8 *flags = (const u8 *)flagsPtr;
    const u64 *offs = (const u64 *)offsPtr;
    int *out = (int *)outPtr;
    for (i64 i = (i64)blockIdx.x * J_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * J_TPB)
        if (flags[i] == want) out[offs[i]] = (int)i;
}

// j_take writes out[k] = src[sel[k]] for k in [0, n) (int32 row ids).
extern "C" __global__ void __launch_bounds__(J_TPB) j_take(u64 outPtr, u64 srcPtr, u64 selPtr, i64 n) {
    int *out = (int *)outPtr;
    const int *src = (const int *)srcPtr;
    const int *sel = (const int *)selPtr;
    for (i64 k = (i64)blockIdx.x * J_TPB + threadIdx.x; k < n; k += (i64)gridDim.x * J_TPB) out[k] = src[sel[k]];
}

// ---- GROUP BY results on the device ---------------------------------
// q_group and q_agg (query.cu) leave each group's key values and
// accumulators on the device; these kernels turn the accumulators into
// register-form values (lo, hi, nul; strings also their bytes) that
// j_pack stores as columns, so that HAVING, the projection, ORDER BY and
// LIMIT can run over the groups on the device.

struct JAcc {
    u64 cnt, s0, s1, s2;
};

struct JAgg {
    int fn, reg, cls, pad;
};

// accumulator classes and functions (ACC_*, AGG_* in query.cu)
#define JACC_COUNT 0
#define JACC_INT 1
#define JACC_FLOAT 2
#define JACC_MMI 3
#define JACC_MMF 4
#define JACC_MMD 5
#define JACC_MMS 6
#define JAGG_COUNTSTAR 0
#define JAGG_COUNT 1
#define JAGG_MIN 4

// j_acc_init sets n accumulators to their starting values (accInit in
// engine/gpu/fused.go): min/max keys at their identity, the rest zero.
extern "C" __global__ void __launch_bounds__(J_TPB) j_acc_init(u64 accPtr, u64 aggsPtr, int na, i64 n) {
    JAcc *acc = (JAcc *)accPtr;
    const JAgg *aggs = (const JAgg *)aggsPtr;
    for (i64 i = (i64)blockIdx.x * J_TPB + threadIdx.x; i < n; i += (i64)gridDim.x * J_TPB) {
        const JAgg A = aggs[i % na];
        JAcc a = {0, 0, 0, 0};
        if (A.cls == JACC_MMS) a.s0 = ~0ULL;
        else if (A.cls >= JACC_MMI) a.s0 = A.fn == JAGG_MIN ? 0x7fffffffffffffffULL : 0x8000000000000000ULL;
        acc[i] = a;
    }
}

// result kinds of j_agg_out
#define JO_COUNT 0  // the count
#define JO_INT64 1  // a sum as int64 (err 2: bigint out of range)
#define JO_DEC 2    // a sum as 128 bits (err 3: past 127 bits)
#define JO_MINMAX 3 // the key in s0 (integers, scaled numerics)
#define JO_FLOAT 4  // the key in s0 back to a double's bits
#define JO_STR 5    // the bytes at address s0, width a value

// j_agg_out writes aggregate k of ng groups (na aggregates a group) as
// register values. A group with no value (count 0) is NULL, but for
// count. Strings: lo is the length; trim drops trailing blanks (char).
extern "C" __global__ void __launch_bounds__(J_TPB) j_agg_out(u64 accPtr, int na, int k, i64 ng, int kind, u64 loPtr, u64 hiPtr,
                                                              u64 nulPtr, u64 strPtr, int width, int trim, u64 errPtr) {
    const JAcc *acc = (const JAcc *)accPtr;
    i64 *lo = (i64 *)loPtr, *hi = (i64 *)hiPtr;
    u8 *nul = (u8 *)nulPtr;
    for (i64 g = (i64)blockIdx.x * J_TPB + threadIdx.x; g < ng; g += (i64)gridDim.x * J_TPB) {
        const JAcc a = acc[g * na + k];
        i64 l = 0, h = 0;
        bool null = a.cnt == 0 && kind != JO_COUNT;
        if (!null) {
            switch (kind) {
            case JO_COUNT: l = (i64)a.cnt; break;
            case JO_INT64:
                if (a.s2 != (u64)((i64)a.s1 >> 63) || a.s1 != (u64)((i64)a.s0 >> 63)) ((int *)errPtr)[0] = 2;
                l = (i64)a.s0;
                break;
            case JO_DEC:
                if (a.s2 != (u64)((i64)a.s1 >> 63) || (a.s1 == 0x8000000000000000ULL && a.s0 == 0)) ((int *)errPtr)[0] = 3;
                l = (i64)a.s0;
                h = (i64)a.s1;
                break;
            case JO_MINMAX:
                l = (i64)a.s0;
                h = l >> 63;
                break;
            case JO_FLOAT: {
                i64 key = (i64)a.s0;
                if (key == 0x7fffffffffffffffLL) {
                    l = 0x7ff8000000000000LL; // NaN
                } else {
                    if (key < 0) key ^= 0x7fffffffffffffffLL;
                    l = key;
                }
                break;
            }
            default: {
                const u8 *src = (const u8 *)a.s0;
                u8 *dst = (u8 *)strPtr + g * (i64)width;
                int n = 0;
                while (n < width && src[n] != 0) n++;
                if (trim)
                    while (n > 0 && src[n - 1] == ' ') n--;
                for (int j = 0; j < width; j++) dst[j] = j < n ? src[j] : 0;
                l = n;
            }
            }
        } else if (kind == JO_STR) {
            u8 *dst = (u8 *)strPtr + g * (i64)width;
            for (int j = 0; j < width; j++) dst[j] = 0;
        }
        lo[g] = l;
        if (hiPtr) hi[g] = h;
        nul[g] = null;
    }
}
