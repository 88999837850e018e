// The GPU CSV reader's kernels (the Go driver is loader/gpu*.go; the CPU
// twin of every stage is loader/count.go, scan.go, index.go, validate.go and
// deserialise.go).
//
// A batch lives in a device buffer at [lo, hi). Chunks are 2048-byte
// windows of that buffer, aligned to its base, so that every lane of the
// warp that owns a chunk reads its 64 bytes with four 16-byte loads; bytes
// outside [lo, hi) are masked off. Positions written to the field index are
// relative to lo.
//
// Quote context is a function of the state a piece of input starts in.
// With escape == quote the state is the parity of the quotes seen; with a
// distinct escape it is PostgreSQL's three-state machine (outside, inside,
// inside just after an escape). A piece's "function" says, for each start
// state, where it ends and how many record and field terminators it holds
// outside quotes; functions compose, so lanes, chunks and the whole batch
// are combined by scans of functions.
//
// The fast stages never produce error messages. A row the GPU cannot prove
// good (bad field count, odd bytes, a value outside the fast parsers'
// formats, a NULL in a NOT NULL column, a string over its limit) is marked
// "unsure" and listed; the host re-reads exactly those rows with the CPU
// loader, which decides, converts or reports them.

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;

#define CHUNK 2048 // bytes per warp: 32 lanes x 64 bytes
#define POS_MASK 0x3fffffffu
#define FLAG_Q 0x40000000u   // the field may contain a quote
#define FLAG_REC 0x80000000u // the terminator ends a record

// Column kinds, as engine.Kind numbers them.
#define K_BOOL 1
#define K_INT16 2
#define K_INT32 3
#define K_INT64 4
#define K_FLOAT32 5
#define K_FLOAT64 6
#define K_NUMERIC 7
#define K_DATE 8
#define K_TIMESTAMP 9
#define K_CHAR 11
#define K_VARCHAR 12
#define K_TEXT 13

// ChunkFn is a chunk's function (see above) plus its count of every LF and
// whether it holds a byte that needs a closer look (>= 0x80, NUL or CR).
struct ChunkFn {
    u8 end[3];
    u8 special;
    u32 recs[3];
    u32 terms[3];
    u32 lf;
};

// ChunkCtx is a chunk's context after the scan.
struct ChunkCtx {
    u32 recBase, entryBase, state, pad;
};

// ColPlan is how one table column is loaded: 8 int32s, written by the Go
// driver (loader/gpu_plan.go) in this order.
struct ColPlan {
    int kind, field, notNull, lim, maxBytes, prec, scale, elem;
};

// ColOut is one column's output of a batch.
struct ColOut {
    u64 data;  // u8*: rows x width (or element size)
    u64 valid; // u64* bitmap, 0 when the column has no NULLs
    int width; // bytes per row
    int pad;
};

// Fn is the in-register form of a function.
struct Fn {
    u32 end; // 2 bits per start state
    u32 recs[3], terms[3];
};

__device__ __forceinline__ u32 fnEnd(const Fn &f, u32 s) { return (f.end >> (2 * s)) & 3; }
__device__ __forceinline__ u32 sel3(const u32 *a, u32 i) { return i == 0 ? a[0] : (i == 1 ? a[1] : a[2]); }

// compose returns "f, then g".
__device__ __forceinline__ Fn compose(const Fn &f, const Fn &g) {
    Fn h;
    h.end = 0;
#pragma unroll
    for (u32 s = 0; s < 3; s++) {
        u32 m = fnEnd(f, s);
        h.end |= fnEnd(g, m) << (2 * s);
        h.recs[s] = f.recs[s] + sel3(g.recs, m);
        h.terms[s] = f.terms[s] + sel3(g.terms, m);
    }
    return h;
}

__device__ __forceinline__ Fn fnIdentity() {
    Fn f;
    f.end = 0 | (1 << 2) | (2 << 4);
#pragma unroll
    for (int s = 0; s < 3; s++) f.recs[s] = f.terms[s] = 0;
    return f;
}

__device__ __forceinline__ Fn shflUpFn(const Fn &f, int d) {
    Fn g;
    g.end = __shfl_up_sync(0xffffffffu, f.end, d);
#pragma unroll
    for (int s = 0; s < 3; s++) {
        g.recs[s] = __shfl_up_sync(0xffffffffu, f.recs[s], d);
        g.terms[s] = __shfl_up_sync(0xffffffffu, f.terms[s], d);
    }
    return g;
}

// warpScanFn is an inclusive scan of the lanes' functions, in lane order.
__device__ __forceinline__ Fn warpScanFn(Fn f, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        Fn p = shflUpFn(f, d);
        if (lane >= d) f = compose(p, f);
    }
    return f;
}

// prefixXor sets bit i to the parity of bits 0..i: applied to a quote
// mask, the set bits are the bytes inside quotes.
__device__ __forceinline__ u64 prefixXor(u64 x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// bits4 packs the four byte-wise results of a __vcmp*4 (0x00 or 0xff per
// byte) into four bits, byte j to bit j.
__device__ __forceinline__ u32 bits4(u32 m) { return ((m & 0x01010101u) * 0x10204080u) >> 28; }

// Lane is one lane's 64 bytes, classified.
struct Lane {
    u64 q, lf, dl, valid;
    bool special;
    u32 w[16];
};

// loadLane reads the 64 bytes at base+a with four 16-byte loads and
// classifies them; bytes outside [lo, hi) are not valid.
__device__ __forceinline__ void loadLane(const u8 *base, i64 a, i64 lo, i64 hi, u32 quote, u32 delim, Lane &L) {
    const uint4 *p = (const uint4 *)(base + a);
    uint4 v0 = p[0], v1 = p[1], v2 = p[2], v3 = p[3];
    L.w[0] = v0.x; L.w[1] = v0.y; L.w[2] = v0.z; L.w[3] = v0.w;
    L.w[4] = v1.x; L.w[5] = v1.y; L.w[6] = v1.z; L.w[7] = v1.w;
    L.w[8] = v2.x; L.w[9] = v2.y; L.w[10] = v2.z; L.w[11] = v2.w;
    L.w[12] = v3.x; L.w[13] = v3.y; L.w[14] = v3.z; L.w[15] = v3.w;
    if (a >= hi || a + 64 <= lo) {
        L.valid = 0;
    } else {
        i64 s = lo > a ? lo - a : 0, e = hi < a + 64 ? hi - a : 64;
        u64 upto = e >= 64 ? ~0ull : ((1ull << e) - 1);
        L.valid = upto & ~((1ull << s) - 1);
    }
    u32 qp = quote * 0x01010101u, lp = 0x0a0a0a0au, dp = delim * 0x01010101u, cp = 0x0d0d0d0du;
    u64 q = 0, lf = 0, dl = 0, sp = 0;
#pragma unroll
    for (int k = 0; k < 16; k++) {
        u32 x = L.w[k];
        q |= (u64)bits4(__vcmpeq4(x, qp)) << (4 * k);
        lf |= (u64)bits4(__vcmpeq4(x, lp)) << (4 * k);
        dl |= (u64)bits4(__vcmpeq4(x, dp)) << (4 * k);
        u32 odd = __vcmpeq4(x, cp) | __vcmpeq4(x, 0) | __vcmpgeu4(x, 0x80808080u);
        sp |= (u64)bits4(odd) << (4 * k);
    }
    L.q = q & L.valid;
    L.lf = lf & L.valid;
    L.dl = dl & L.valid;
    L.special = (sp & L.valid) != 0;
}

__device__ __forceinline__ u32 laneByte(const Lane &L, int i) { return (L.w[i >> 2] >> (8 * (i & 3))) & 0xff; }

// stepFSM is PostgreSQL's quote state machine for one byte with a
// distinct escape (count.go: step).
__device__ __forceinline__ u32 stepFSM(u32 s, u32 c, u32 quote, u32 esc) {
    if (s == 0) return c == quote ? 1 : 0;
    if (s == 1) return c == esc ? 2 : (c == quote ? 0 : 1);
    return 1;
}

// laneFn is the function of a lane's bytes.
__device__ __forceinline__ Fn laneFn(const Lane &L, int fsm, u32 quote, u32 delim, u32 esc) {
    Fn f;
    if (!fsm) {
        u64 in0 = prefixXor(L.q);
        u64 t = L.lf | L.dl;
        u32 p = __popcll(L.q) & 1;
        u32 r0 = __popcll(L.lf & ~in0), t0 = __popcll(t & ~in0);
        u32 ra = __popcll(L.lf), ta = __popcll(t);
        f.end = p | ((p ^ 1) << 2) | ((p ^ 1) << 4);
        f.recs[0] = r0;
        f.recs[1] = f.recs[2] = ra - r0;
        f.terms[0] = t0;
        f.terms[1] = f.terms[2] = ta - t0;
        return f;
    }
    u32 st[3] = {0, 1, 2};
    u32 r[3] = {0, 0, 0}, t[3] = {0, 0, 0};
#pragma unroll
    for (int i = 0; i < 64; i++) {
        if (!((L.valid >> i) & 1)) continue;
        u32 c = laneByte(L, i);
#pragma unroll
        for (int s = 0; s < 3; s++) {
            if (st[s] == 0) {
                if (c == '\n') {
                    r[s]++;
                    t[s]++;
                } else if (c == delim) {
                    t[s]++;
                }
            }
            st[s] = stepFSM(st[s], c, quote, esc);
        }
    }
    f.end = st[0] | (st[1] << 2) | (st[2] << 4);
#pragma unroll
    for (int s = 0; s < 3; s++) {
        f.recs[s] = r[s];
        f.terms[s] = t[s];
    }
    return f;
}

// toChunkFn stores a function (and an LF count) as a ChunkFn.
__device__ __forceinline__ ChunkFn toChunkFn(const Fn &f, u32 lf, bool special) {
    ChunkFn o;
#pragma unroll
    for (int s = 0; s < 3; s++) {
        o.end[s] = fnEnd(f, s);
        o.recs[s] = f.recs[s];
        o.terms[s] = f.terms[s];
    }
    o.special = special;
    o.lf = lf;
    return o;
}

__device__ __forceinline__ Fn fromChunkFn(const ChunkFn &c) {
    Fn g;
    g.end = c.end[0] | (c.end[1] << 2) | (c.end[2] << 4);
#pragma unroll
    for (int s = 0; s < 3; s++) {
        g.recs[s] = c.recs[s];
        g.terms[s] = c.terms[s];
    }
    return g;
}

// Stage 1: count. One warp per chunk, COUNT_WARPS chunks per block; each
// chunk's function goes to out, and each block's (its chunks composed) to
// bout, so that the scan runs over blocks rather than chunks.
#define COUNT_WARPS 8 // 256 threads: csv_count and csv_index share this grid
extern "C" __global__ void csv_count(const u8 *base, i64 lo, i64 hi, int nch, int fsm, u32 quote, u32 delim, u32 esc,
                                     ChunkFn *out, ChunkFn *bout) {
    __shared__ Fn sFn[COUNT_WARPS];
    __shared__ u32 sLf[COUNT_WARPS];
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int wib = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    if (warp < nch) {
        i64 c0 = (lo / CHUNK) * CHUNK + (i64)warp * CHUNK;
        Lane L;
        loadLane(base, c0 + lane * 64, lo, hi, quote, delim, L);
        Fn f = warpScanFn(laneFn(L, fsm, quote, delim, esc), lane);
        u32 lf = __reduce_add_sync(0xffffffffu, (u32)__popcll(L.lf));
        bool sp = __any_sync(0xffffffffu, L.special);
        if (lane == 31) {
            out[warp] = toChunkFn(f, lf, sp);
            sFn[wib] = f;
            sLf[wib] = lf;
        }
    } else if (lane == 31) {
        sFn[wib] = fnIdentity();
        sLf[wib] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        Fn f = sFn[0];
        u32 lf = sLf[0];
        for (int w = 1; w < COUNT_WARPS; w++) {
            f = compose(f, sFn[w]);
            lf += sLf[w];
        }
        bout[blockIdx.x] = toChunkFn(f, lf, false);
    }
}

// Stage 2: exclusive scans over the blocks of csv_count (their composed
// functions), in one block of 1024 threads: ctx[b] is the state, first
// record and first field-index slot of block b. csv_index finishes the
// scan inside each block. totals: [records, terminators, end state, LFs].
#define SCAN_THREADS 1024
extern "C" __global__ void csv_scan(const ChunkFn *fns, int nch, ChunkCtx *ctx, u32 *totals) {
    __shared__ u32 sEnd[SCAN_THREADS], sRec[3][SCAN_THREADS], sTerm[3][SCAN_THREADS], sLf[SCAN_THREADS];
    int t = threadIdx.x;
    int per = (nch + SCAN_THREADS - 1) / SCAN_THREADS;
    int a = t * per, b = min(nch, a + per);
    Fn f = fnIdentity();
    u32 lf = 0;
    for (int i = a; i < b; i++) {
        f = compose(f, fromChunkFn(fns[i]));
        lf += fns[i].lf;
    }
    // Inclusive Hillis-Steele scan of the threads' functions.
    for (int d = 1; d < SCAN_THREADS; d <<= 1) {
        sEnd[t] = f.end;
        for (int s = 0; s < 3; s++) {
            sRec[s][t] = f.recs[s];
            sTerm[s][t] = f.terms[s];
        }
        sLf[t] = lf;
        __syncthreads();
        if (t >= d) {
            Fn p;
            p.end = sEnd[t - d];
            for (int s = 0; s < 3; s++) {
                p.recs[s] = sRec[s][t - d];
                p.terms[s] = sTerm[s][t - d];
            }
            f = compose(p, f);
            lf += sLf[t - d];
        }
        __syncthreads();
    }
    sEnd[t] = f.end;
    for (int s = 0; s < 3; s++) {
        sRec[s][t] = f.recs[s];
        sTerm[s][t] = f.terms[s];
    }
    sLf[t] = lf;
    __syncthreads();
    // The batch starts outside quotes: apply the exclusive prefix to state 0.
    u32 st = 0, recs = 0, terms = 0;
    if (t > 0) {
        st = (sEnd[t - 1]) & 3;
        recs = sRec[0][t - 1];
        terms = sTerm[0][t - 1];
    }
    for (int i = a; i < b; i++) {
        ChunkCtx c;
        c.recBase = recs;
        c.entryBase = terms;
        c.state = st;
        c.pad = 0;
        ctx[i] = c;
        recs += fns[i].recs[st];
        terms += fns[i].terms[st];
        st = fns[i].end[st];
    }
    if (t == SCAN_THREADS - 1) {
        totals[0] = sRec[0][t];
        totals[1] = sTerm[0][t];
        totals[2] = sEnd[t] & 3;
        totals[3] = sLf[t];
    }
}

#define IDX_CAP 512 // field-index entries a warp assembles in shared memory (2 KB)

// Stage 3: the field index and the records table. One warp per chunk; each
// lane finds its own start state from the chunk's and the functions of the
// lanes before it, then writes its terminators in order.
extern "C" __global__ void csv_index(const u8 *base, i64 lo, i64 hi, int nch, int fsm, u32 quote, u32 delim, u32 esc,
                                     const ChunkFn *fns, const ChunkCtx *bctx, u32 *entries, u32 *recStart) {
    __shared__ u32 sIdx[COUNT_WARPS][IDX_CAP];
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >= nch) return;
    i64 c0 = (lo / CHUNK) * CHUNK + (i64)warp * CHUNK;
    i64 a = c0 + lane * 64;
    Lane L;
    loadLane(base, a, lo, hi, quote, delim, L);
    // The chunk's context: its block's, then the block's earlier chunks.
    ChunkCtx cc = bctx[blockIdx.x];
    for (int w = blockIdx.x * COUNT_WARPS; w < warp; w++) {
        ChunkFn g = fns[w];
        cc.recBase += g.recs[cc.state];
        cc.entryBase += g.terms[cc.state];
        cc.state = g.end[cc.state];
    }
    Fn f = laneFn(L, fsm, quote, delim, esc);
    Fn inc = warpScanFn(f, lane);
    Fn exc = shflUpFn(inc, 1);
    u32 s = lane == 0 ? cc.state : fnEnd(exc, cc.state);
    // This lane's terminators outside quotes.
    u64 term;
    if (!fsm) {
        u64 inside = prefixXor(L.q) ^ (s ? ~0ull : 0ull);
        term = (L.lf | L.dl) & ~inside;
    } else {
        term = 0;
        u32 st = s;
#pragma unroll
        for (int i = 0; i < 64; i++) {
            if (!((L.valid >> i) & 1)) continue;
            u32 c = laneByte(L, i);
            if (st == 0 && (c == '\n' || c == delim)) term |= 1ull << i;
            st = stepFSM(st, c, quote, esc);
        }
    }
    term &= L.valid;
    u64 rec = term & L.lf;
    // Exclusive sums of terminators and records over the lanes.
    u32 nt = __popcll(term), nr = __popcll(rec);
    u32 et = nt, er = nr;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        u32 x = __shfl_up_sync(0xffffffffu, et, d), y = __shfl_up_sync(0xffffffffu, er, d);
        if (lane >= d) {
            et += x;
            er += y;
        }
    }
    et -= nt;
    er -= nr;
    // The last quote and the last terminator before this lane (positions
    // relative to lo), for the "may contain a quote" flag.
    i64 rel = a - lo;
    long long myQ = L.q ? rel + 63 - __clzll(L.q) : -2;
    long long myT = term ? rel + 63 - __clzll(term) : -2;
    long long lastQ = myQ, lastT = myT;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        long long x = __shfl_up_sync(0xffffffffu, lastQ, d), y = __shfl_up_sync(0xffffffffu, lastT, d);
        if (lane >= d) {
            lastQ = max(lastQ, x);
            lastT = max(lastT, y);
        }
    }
    lastQ = __shfl_up_sync(0xffffffffu, lastQ, 1);
    lastT = __shfl_up_sync(0xffffffffu, lastT, 1);
    // At the chunk's start: if no field starts exactly there, assume its
    // first field has quotes (index.go: fieldStartsAt).
    i64 cs = c0 > lo ? c0 - lo : 0;
    bool fieldStart = cs == 0 || (cc.state == 0 && (base[lo + cs - 1] == '\n' || base[lo + cs - 1] == delim));
    long long q0 = fieldStart ? -2 : cs, t0 = cs - 1;
    if (lane == 0) {
        lastQ = q0;
        lastT = t0;
    } else {
        lastQ = max(lastQ, q0);
        lastT = max(lastT, t0);
    }
    // The chunk's entries are assembled in shared memory and written out
    // by the whole warp, in order (one lane's entries are scattered
    // sectors); a chunk with more than IDX_CAP writes them in place.
    u32 tot = __shfl_sync(0xffffffffu, et + nt, 31);
    u32 *out = tot <= IDX_CAP ? sIdx[threadIdx.x >> 5] : entries + cc.entryBase;
    u32 k = et, r = cc.recBase + er;
    while (term) {
        int b = __ffsll(term) - 1;
        term &= term - 1;
        long long pos = rel + b;
        u64 below = (1ull << b) - 1;
        long long lq = lastQ;
        if (L.q & below) lq = rel + 63 - __clzll(L.q & below);
        u32 ent = (u32)pos;
        if (lq > lastT) ent |= FLAG_Q;
        if ((L.lf >> b) & 1) {
            out[k++] = ent | FLAG_REC;
            r++;
            recStart[r] = cc.entryBase + k;
        } else {
            out[k++] = ent;
        }
        lastT = pos;
    }
    if (tot <= IDX_CAP) {
        __syncwarp();
        for (u32 i = lane; i < tot; i += 32) entries[cc.entryBase + i] = out[i];
    }
}

// ---- Stage 4: row validation -------------------------------------------

struct Field {
    const u8 *p;
    int n;
    bool mq;
};

__device__ __forceinline__ bool hasByte(const u8 *p, int n, u32 c) {
    for (int i = 0; i < n; i++)
        if (p[i] == c) return true;
    return false;
}

// validUTF8Row checks [p, p+n) as Go's utf8.DecodeRune would (no NUL, no
// overlongs, surrogates or code points past U+10FFFF) and that any CR is
// the one right before the terminating LF.
__device__ bool validRowBytes(const u8 *p, int n, bool crlfOK) {
    int i = 0;
    while (i < n) {
        u32 c = p[i];
        if (c < 0x80) {
            if (c == 0) return false;
            if (c == '\r' && !(crlfOK && i == n - 1)) return false;
            i++;
            continue;
        }
        int len;
        u32 lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) len = 2;
        else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            if (c == 0xe0) lo = 0xa0;
            if (c == 0xed) hi = 0x9f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            if (c == 0xf0) lo = 0x90;
            if (c == 0xf4) hi = 0x8f;
        } else return false;
        if (i + len > n) return false;
        u32 c1 = p[i + 1];
        if (c1 < lo || c1 > hi) return false;
        for (int k = 2; k < len; k++)
            if ((p[i + k] & 0xc0) != 0x80) return false;
        i += len;
    }
    return true;
}

// Value is a field's value when it can be read without copying: unquoted,
// or the plain "..." form.
struct Value {
    const u8 *p;
    int n;
    bool quoted;
    bool ok; // false: the field needs the general dequoting
};

__device__ __forceinline__ Value simpleValue(const Field &f, u32 quote, u32 esc, int fsm) {
    Value v;
    v.p = f.p;
    v.n = f.n;
    v.quoted = false;
    v.ok = true;
    if (!f.mq) return v;
    if (f.n >= 2 && f.p[0] == quote && f.p[f.n - 1] == quote && !hasByte(f.p + 1, f.n - 2, quote) &&
        (!fsm || !hasByte(f.p + 1, f.n - 2, esc))) {
        v.p = f.p + 1;
        v.n = f.n - 2;
        v.quoted = true;
        return v;
    }
    if (hasByte(f.p, f.n, quote)) v.ok = false;
    return v;
}

__device__ __forceinline__ bool isNullValue(const Value &v, const u8 *nul, int nulLen) {
    if (v.quoted || v.n != nulLen) return false;
    for (int i = 0; i < nulLen; i++)
        if (v.p[i] != nul[i]) return false;
    return true;
}

// Dequoter yields the bytes of a raw field as PostgreSQL's CSV splitter
// reads it (loader/batch.go: dequote).
struct Dequoter {
    const u8 *p;
    int n, i;
    bool in;
    u32 quote, esc;
    bool bad; // an unclosed quote
    __device__ __forceinline__ int next() {
        while (i < n) {
            u32 c = p[i++];
            if (!in) {
                if (c == quote) {
                    in = true;
                    continue;
                }
                return c;
            }
            if (c == esc && i < n && (p[i] == esc || p[i] == quote)) return p[i++];
            if (c == quote) {
                in = false;
                continue;
            }
            return c;
        }
        if (in) bad = true;
        return -1;
    }
};

// strStored is loader/batch.go's strStored over a byte stream: the stored
// byte length, or -1 when the value is over its limit (an error the host
// reports). The bytes are valid UTF-8.
// With dst set, the dequoted bytes are also written there, at most W of
// them (csv_convert: W is at least the stored length of a good row).
__device__ int strStored(const Field &f, bool plain, const ColPlan &cp, u32 quote, u32 esc, u8 *dst, int W) {
    Dequoter d;
    d.p = f.p;
    d.n = f.n;
    d.i = 0;
    d.in = false;
    d.quote = plain ? 0x100 : quote; // 0x100 never matches a byte
    d.esc = plain ? 0x100 : esc;
    d.bad = false;
    int n = 0, chars = 0, lastNS = 0, charsNS = 0, cut = -1;
    bool nonSpaceAfterCut = false;
    int lim = cp.lim;
    for (;;) {
        int c = d.next();
        if (c < 0) break;
        bool lead = (c & 0xc0) != 0x80;
        if (lead) {
            if (lim > 0 && chars == lim && cut < 0) cut = n;
            chars++;
        }
        if (cut >= 0 && c != ' ') nonSpaceAfterCut = true;
        if (n < W) dst[n] = (u8)c;
        n++;
        if (c != ' ') {
            lastNS = n;
            charsNS = chars;
        }
    }
    if (d.bad) return -1;
    if (cp.kind == K_CHAR) {
        n = lastNS;
        if (lim > 0 && n > lim && charsNS > lim) return -1;
    } else if (cp.kind == K_VARCHAR) {
        if (lim > 0 && n > lim && chars > lim) {
            if (nonSpaceAfterCut) return -1;
            n = cut;
        }
    }
    if (n > cp.maxBytes) return -1;
    return n;
}

// ---- Fast value parsers: ok only when the CPU's engine.Parse* would give
// the same value; anything else goes to the host. ----

__device__ __forceinline__ bool isDigit(u32 c) { return c - '0' < 10; }

__device__ bool parseInt(const u8 *s, int n, int kind, i64 &out) {
    u64 limit = kind == K_INT16 ? 32767ull : (kind == K_INT32 ? 2147483647ull : 9223372036854775807ull);
    int i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    if (neg) limit++;
    int start = i;
    u64 v = 0;
    for (; i < n && isDigit(s[i]); i++) {
        u64 d = s[i] - '0';
        if (v > (limit - d) / 10) return false;
        v = v * 10 + d;
    }
    if (i == start || i != n) return false;
    out = neg ? (i64)(0 - v) : (i64)v;
    return true;
}

__device__ __forceinline__ u64 pow10u(int n) {
    u64 p = 1;
    for (; n > 0; n--) p *= 10;
    return p;
}

// parseNumeric: [sign] digits [. digits], no exponent (engine.ParseNumeric).
__device__ bool parseNumeric(const u8 *s, int n, int prec, int scale, i64 &out) {
    u64 bound = (prec > 0 && prec <= 18) ? pow10u(prec) - 1 : 9223372036854775807ull;
    int i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    int mStart = i, digits = 0, frac = 0;
    bool point = false;
    for (; i < n; i++) {
        u32 c = s[i];
        if (isDigit(c)) {
            digits++;
            if (point) frac++;
            continue;
        }
        if (c == '.' && !point) {
            point = true;
            continue;
        }
        break;
    }
    if (digits == 0 || i != n) return false;
    int mEnd = i;
    int shift = scale - frac;
    int keep = digits + shift;
    u64 v = 0;
    int k = 0;
    bool up = false;
    for (int j = mStart; j < mEnd; j++) {
        u32 c = s[j];
        if (c == '.') continue;
        u64 d = c - '0';
        if (k < keep) {
            if (v > (bound - d) / 10) return false;
            v = v * 10 + d;
        } else if (k == keep) {
            up = d >= 5;
            break;
        }
        k++;
    }
    if (shift > 0 && v != 0) {
        for (; shift > 0; shift--) {
            if (v > bound / 10) return false;
            v *= 10;
        }
    }
    if (up) {
        if (v >= bound) return false;
        v++;
    }
    out = neg ? -(i64)v : (i64)v;
    return true;
}

// parseDecimal reads [sign] digits [. digits] [e [sign] digits] into a
// mantissa (at most maxM) and a power of ten. ok is false for anything
// else or a mantissa too large.
__device__ bool parseDecimal(const u8 *s, int n, u64 maxM, bool &neg, u64 &m, int &e10) {
    int i = 0;
    neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    m = 0;
    int digits = 0, frac = 0;
    bool point = false;
    for (; i < n; i++) {
        u32 c = s[i];
        if (isDigit(c)) {
            digits++;
            if (point) frac++;
            m = m * 10 + (c - '0');
            if (m > maxM) return false;
            continue;
        }
        if (c == '.' && !point) {
            point = true;
            continue;
        }
        break;
    }
    if (digits == 0) return false;
    int ex = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool en = false;
        if (i < n && (s[i] == '-' || s[i] == '+')) {
            en = s[i] == '-';
            i++;
        }
        if (i == n || !isDigit(s[i])) return false;
        for (; i < n && isDigit(s[i]); i++) {
            ex = ex * 10 + (s[i] - '0');
            if (ex > 1000) return false;
        }
        if (en) ex = -ex;
    }
    if (i != n) return false;
    e10 = ex - frac;
    return true;
}

// Clinger's fast path: an exact mantissa times or divided by an exact
// power of ten is one correctly rounded operation. F is double (mantissas
// up to 2^53, powers up to 1e22) or float (2^24, 1e10).
template <typename F> struct FloatLimits;
template <> struct FloatLimits<double> {
    static const u64 maxM = 1ull << 53;
    static const int maxE = 22;
    __device__ static double mul(double a, double b) { return __dmul_rn(a, b); }
    __device__ static double div(double a, double b) { return __ddiv_rn(a, b); }
};
template <> struct FloatLimits<float> {
    static const u64 maxM = 1ull << 24;
    static const int maxE = 10;
    __device__ static float mul(float a, float b) { return __fmul_rn(a, b); }
    __device__ static float div(float a, float b) { return __fdiv_rn(a, b); }
};

template <typename F> __device__ bool parseFloat(const u8 *s, int n, F &out) {
    typedef FloatLimits<F> L;
    bool neg;
    u64 m;
    int e;
    if (!parseDecimal(s, n, L::maxM, neg, m, e)) return false;
    if (m == 0) {
        out = neg ? -(F)0 : (F)0;
        return true;
    }
    if (e < -L::maxE || e > L::maxE) return false;
    F p = 1;
    for (int k = 0; k < (e < 0 ? -e : e); k++) p *= 10; // exact up to 10^maxE
    F v = e < 0 ? L::div((F)m, p) : L::mul((F)m, p);
    out = neg ? -v : v;
    return true;
}

__device__ __forceinline__ bool lowerIs(u32 c, u32 l) { return (c - 'A' < 26 ? c + 32 : c) == l; }

__device__ bool prefixOf(const u8 *s, int n, const char *w, int wn) {
    if (n > wn) return false;
    for (int i = 0; i < n; i++)
        if (!lowerIs(s[i], (u8)w[i])) return false;
    return true;
}

__device__ bool parseBool(const u8 *s, int n, u8 &out) {
    if (n == 0) return false;
    u32 c = s[0];
    if (c - 'A' < 26) c += 32;
    switch (c) {
    case 't': if (prefixOf(s, n, "true", 4)) { out = 1; return true; } break;
    case 'f': if (prefixOf(s, n, "false", 5)) { out = 0; return true; } break;
    case 'y': if (prefixOf(s, n, "yes", 3)) { out = 1; return true; } break;
    case 'n': if (prefixOf(s, n, "no", 2)) { out = 0; return true; } break;
    case 'o':
        if (n >= 2 && prefixOf(s, n, "on", 2)) { out = 1; return true; }
        if (n >= 2 && prefixOf(s, n, "off", 3)) { out = 0; return true; }
        break;
    case '1': if (n == 1) { out = 1; return true; } break;
    case '0': if (n == 1) { out = 0; return true; } break;
    }
    return false;
}

__device__ __forceinline__ int digitsN(const u8 *s, int k) {
    int v = 0;
    for (int i = 0; i < k; i++) {
        if (!isDigit(s[i])) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

__device__ __forceinline__ bool isLeap(int y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

__device__ int daysFromCivil(int y, int m, int d) {
    if (m <= 2) y--;
    int era = (y >= 0 ? y : y - 399) / 400;
    int yoe = y - era * 400;
    int mp = (m + 9) % 12;
    int doy = (153 * mp + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// parseYMD reads exactly YYYY-MM-DD (a valid calendar date).
__device__ bool parseYMD(const u8 *s, int &days) {
    if (s[4] != '-' || s[7] != '-') return false;
    int y = digitsN(s, 4), m = digitsN(s + 5, 2), d = digitsN(s + 8, 2);
    if (y < 1 || m < 1 || m > 12 || d < 1) return false;
    int dim = m == 2 ? (isLeap(y) ? 29 : 28) : ((m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31);
    if (d > dim) return false;
    days = daysFromCivil(y, m, d);
    return true;
}

__device__ bool parseDate(const u8 *s, int n, int &out) { return n == 10 && parseYMD(s, out); }

// parseTimestamp reads YYYY-MM-DD[( |T)HH:MM:SS[.f{1,6}]].
__device__ bool parseTimestamp(const u8 *s, int n, i64 &out) {
    int days;
    if (n < 10 || !parseYMD(s, days)) return false;
    i64 tod = 0;
    if (n > 10) {
        if (n < 19 || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':') return false;
        int h = digitsN(s + 11, 2), mi = digitsN(s + 14, 2), se = digitsN(s + 17, 2);
        if (h < 0 || mi < 0 || se < 0 || h > 23 || mi > 59 || se > 59) return false;
        i64 frac = 0;
        if (n > 19) {
            if (s[19] != '.' || n < 21 || n > 26) return false;
            int k = n - 20;
            int f = digitsN(s + 20, k);
            if (f < 0) return false;
            frac = (i64)f * (i64)pow10u(6 - k);
        }
        tod = ((i64)h * 3600 + mi * 60 + se) * 1000000 + frac;
    }
    out = (i64)days * 86400000000ll + tod;
    return true;
}

// parseValue converts a non-string value; ok only on the fast path.
__device__ bool parseValue(const Value &v, const ColPlan &cp, u64 &bits) {
    switch (cp.kind) {
    case K_BOOL: {
        u8 b;
        if (!parseBool(v.p, v.n, b)) return false;
        bits = b;
        return true;
    }
    case K_INT16:
    case K_INT32:
    case K_INT64: {
        i64 x;
        if (!parseInt(v.p, v.n, cp.kind, x)) return false;
        bits = (u64)x;
        return true;
    }
    case K_FLOAT32: {
        float f;
        if (!parseFloat<float>(v.p, v.n, f)) return false;
        bits = __float_as_uint(f);
        return true;
    }
    case K_FLOAT64: {
        double f;
        if (!parseFloat<double>(v.p, v.n, f)) return false;
        bits = (u64)__double_as_longlong(f);
        return true;
    }
    case K_NUMERIC: {
        i64 x;
        if (!parseNumeric(v.p, v.n, cp.prec, cp.scale, x)) return false;
        bits = (u64)x;
        return true;
    }
    case K_DATE: {
        int d;
        if (!parseDate(v.p, v.n, d)) return false;
        bits = (u32)d;
        return true;
    }
    case K_TIMESTAMP: {
        i64 x;
        if (!parseTimestamp(v.p, v.n, x)) return false;
        bits = (u64)x;
        return true;
    }
    }
    return false;
}

__device__ __forceinline__ bool isStr(int k) { return k == K_CHAR || k == K_VARCHAR || k == K_TEXT; }

// Params of stages 4 and 6, passed by value (layout: loader/gpu_plan.go).
struct RowParams {
    u64 data;     // const u8*: the batch (at lo)
    u64 base;     // const u8*: the buffer base (chunk flags are per aligned chunk)
    u64 entries;  // const u32*
    u64 recStart; // const u32*
    u64 fns;      // const ChunkFn*: special flags
    u64 cols;     // const ColPlan*
    u64 nul;      // const u8*: the NULL string
    i64 lo;
    int first, nrec; // rows [first, nrec)
    int lastOpen;    // a last record without LF (always unsure), or -1
    int ncols, nFields, nulLen;
    int fsm;
    u32 quote, esc, pad;
};

// ---- Stages 4 and 6 over blocks of rows ----------------------------------
//
// A block of ROWS_PER_BLOCK threads takes as many consecutive records, one
// thread each. It first copies their records-table slice, their field-index
// slice and their bytes into shared memory with coalesced (16-byte) loads,
// so that each thread's byte-by-byte walk over its own record reads shared
// memory rather than scattered global sectors. A block whose records do not
// fit (long records, many fields) reads them in place instead.
// The sizes keep csv_validate's shared memory under 37 KB, so that six
// blocks (24 warps) fit on an SM of 228 KB.
#define ROWS_PER_BLOCK 128
#define STAGE_BYTES 20480  // 160 bytes a record
#define STAGE_ENTRIES 2176 // 17 fields a record
#define STAGE_STR 7168     // one string column of up to 56 bytes a row

// Rows is a block's view of its records, staged or in place.
struct Rows {
    const u8 *data;     // the batch, global
    const u32 *entries; // global
    const u8 *sb;       // staged bytes: position pos is sb[pos - bBase]
    const u32 *se;      // staged entries: entry e is se[e - eBase]
    i64 bBase, eBase;
    bool sB, sE;
};

__device__ __forceinline__ u32 rowEnt(const Rows &R, u32 e) { return R.sE ? R.se[(i64)e - R.eBase] : R.entries[e]; }
__device__ __forceinline__ const u8 *rowBytes(const Rows &R, u32 pos) { return R.sB ? R.sb + ((i64)pos - R.bBase) : R.data + pos; }

// rowField is getField over a Rows view.
__device__ __forceinline__ Field rowField(const Rows &R, u32 e) {
    Field f;
    u32 start = e > 0 ? (rowEnt(R, e - 1) & POS_MASK) + 1 : 0;
    u32 ent = rowEnt(R, e);
    u32 end = ent & POS_MASK;
    f.p = rowBytes(R, start);
    if ((ent & FLAG_REC) && end > start && f.p[end - start - 1] == '\r') end--;
    f.n = (int)(end - start);
    f.mq = (ent & FLAG_Q) != 0;
    return f;
}

// stageRows fills the block's Rows view for records [r0, r1) (r1 > r0);
// sRec[i] is then recStart[r0 + i]. Every thread of the block calls it.
__device__ void stageRows(const RowParams &P, int r0, int r1, u32 *sRec, u32 *sEnt, u8 *sBytes, Rows &R) {
    const u32 *recStart = (const u32 *)P.recStart, *entries = (const u32 *)P.entries;
    const u8 *data = (const u8 *)P.data;
    int nr = r1 - r0;
    for (int i = threadIdx.x; i <= nr; i += blockDim.x) sRec[i] = recStart[r0 + i];
    __syncthreads();
    u32 E0 = sRec[0], E1 = sRec[nr]; // every record has a terminator: E1 > E0
    u32 B0 = E0 > 0 ? (entries[E0 - 1] & POS_MASK) + 1 : 0;
    u32 B1 = (entries[E1 - 1] & POS_MASK) + 1;
    R.data = data;
    R.entries = entries;
    R.se = sEnt;
    R.sb = sBytes;
    R.eBase = (i64)E0 - 1; // entry E0-1 ends the field before the block's first
    i64 ne = (i64)E1 - R.eBase;
    R.sE = ne <= STAGE_ENTRIES;
    if (R.sE)
        for (int i = threadIdx.x; i < ne; i += blockDim.x) {
            i64 e = R.eBase + i;
            sEnt[i] = e >= 0 ? entries[e] : 0;
        }
    // Bytes [B0, B1), widened to 16-byte alignment (the batch buffer has a
    // chunk of slack after hi, so the widening stays inside it).
    u64 a0 = ((u64)(data + B0)) & ~15ull, a1 = ((u64)(data + B1) + 15) & ~15ull;
    R.sB = a1 - a0 <= STAGE_BYTES;
    R.bBase = (i64)B0 - (i64)((u64)(data + B0) - a0);
    if (R.sB) {
        int nw = (int)((a1 - a0) / 16);
        const uint4 *src = (const uint4 *)a0;
        uint4 *dst = (uint4 *)sBytes;
        for (int i = threadIdx.x; i < nw; i += blockDim.x) dst[i] = src[i];
    }
    __syncthreads();
}

// putFixed stores a fixed-width value of W bytes.
__device__ __forceinline__ void putFixed(u8 *dst, int W, u64 bits) {
    switch (W) {
    case 1: *dst = (u8)bits; break;
    case 2: *(unsigned short *)dst = (unsigned short)bits; break;
    case 4: *(u32 *)dst = (u32)bits; break;
    case 8: *(u64 *)dst = bits; break;
    }
}

// strDst is where a thread writes its row (output row my of the block's
// [o0, o1)) of a string column W bytes wide: in the block's staging area
// when the block's rows fit there, else in place.
__device__ __forceinline__ u8 *strDst(const ColOut &o, int W, i64 rowBase, i64 o0, i64 o1, i64 my, u8 *sStr) {
    return (o1 - o0) * W <= STAGE_STR ? sStr + (my - o0) * W : (u8 *)o.data + (rowBase + my) * W;
}

// flushStr writes a staged string column out as whole words (W is a
// multiple of 4, and so is every offset). Every thread of the block calls
// it.
__device__ __forceinline__ void flushStr(const ColOut &o, int W, i64 rowBase, i64 o0, i64 o1, const u8 *sStr) {
    if ((o1 - o0) * W > STAGE_STR) return;
    __syncthreads();
    u32 *g = (u32 *)((u8 *)o.data + (rowBase + o0) * W);
    const u32 *s4 = (const u32 *)sStr;
    int nw = (int)((o1 - o0) * W / 4);
    for (int i = threadIdx.x; i < nw; i += blockDim.x) g[i] = s4[i];
    __syncthreads();
}

// putStr writes a string value (dequoted, at most W bytes) and zeros to W;
// it returns the stored length (strStored), or -1.
__device__ __forceinline__ int putStr(u8 *dst, int W, const Field &f, const ColPlan &cp, u32 quote, u32 esc) {
    int n = strStored(f, !f.mq, cp, quote, esc, dst, W);
    for (int k = max(n, 0); k < W; k++) dst[k] = 0;
    return n;
}

__device__ __forceinline__ void zeroBytes(u8 *dst, int W) {
    for (int k = 0; k < W; k++) dst[k] = 0;
}

__device__ __forceinline__ void clearBit(u64 valid, i64 row) {
    atomicAnd((u64 *)valid + (row >> 6), ~(1ull << (row & 63)));
}

// putValue checks and converts one field into dst (W bytes: a fixed-width
// value, or a string zero-padded; zeros for a NULL, with isnul set). It
// returns false where the fast path cannot vouch for the value (a NULL in
// a NOT NULL column, a string over its limit, a value outside the fast
// parsers' formats): the row is then unsure, and dst may hold anything. w
// is a string's stored length.
__device__ __forceinline__ bool putValue(const Field &f, const ColPlan &cp, const RowParams &P, u8 *dst, int W, bool &isnul,
                                         u32 &w) {
    Value v = simpleValue(f, P.quote, P.esc, P.fsm);
    isnul = false;
    w = 0;
    if (v.ok && isNullValue(v, (const u8 *)P.nul, P.nulLen)) {
        if (cp.notNull) return false;
        isnul = true;
        zeroBytes(dst, W);
        return true;
    }
    if (isStr(cp.kind)) {
        int n = putStr(dst, W, f, cp, P.quote, P.esc);
        if (n < 0) return false;
        w = n;
        return true;
    }
    u64 bits;
    if (!v.ok || !parseValue(v, cp, bits)) return false;
    if (W) putFixed(dst, W, bits);
    return true;
}

#define RED_COLS 64 // columns whose widths and NULL flags a block reduces in shared memory

// Stage 4, with stage 6 on speculation: validate every row and convert it
// at the same time, into output row rowBase + r - first (bad rows not yet
// taken out), at the widths the columns have from earlier batches. One
// thread per row. status: 0 good, 1 unsure; unsure rows are appended to
// list (count in *nUnsure), and their bytes of string columns are zeroed
// (the host patches or drops them). Each string column's widest stored
// value and whether a column had a NULL are reduced into widths and nulls,
// over the columns a row passed before it was found unsure: the CPU loader
// counts those too (and the host adds the CPU's counts for every unsure
// row), so the result is the CPU's exactly. The host then re-runs
// csv_convert for the columns this guessed wrong: a string column that
// must get wider, a column whose first NULL is in this batch (outs[c].valid
// was 0), or all of them when the batch has bad rows.
extern "C" __global__ void __launch_bounds__(ROWS_PER_BLOCK)
    csv_validate(RowParams P, u8 *status, u32 *list, u32 *nUnsure, u32 *widths, u32 *nulls, const ColOut *outs, i64 rowBase) {
    __shared__ __align__(16) u8 sBytes[STAGE_BYTES];
    __shared__ u32 sEnt[STAGE_ENTRIES];
    __shared__ u32 sRec[ROWS_PER_BLOCK + 1];
    __shared__ __align__(16) u8 sStr[STAGE_STR];
    __shared__ u32 sW[RED_COLS], sN[RED_COLS];
    for (int c = threadIdx.x; c < RED_COLS; c += blockDim.x) sW[c] = sN[c] = 0;
    const ChunkFn *fns = (const ChunkFn *)P.fns;
    const ColPlan *cols = (const ColPlan *)P.cols;
    int r0 = P.first + blockIdx.x * ROWS_PER_BLOCK, r1 = min(r0 + ROWS_PER_BLOCK, P.nrec);
    Rows R;
    stageRows(P, r0, r1, sRec, sEnt, sBytes, R);
    int r = r0 + threadIdx.x;
    bool live = r < r1;
    bool good = live;
    i64 o0 = r0 - P.first, o1 = r1 - P.first, my = r - P.first;
    u32 e0 = 0;
    if (live) {
        e0 = sRec[threadIdx.x];
        u32 e1 = sRec[threadIdx.x + 1];
        if (r == P.lastOpen || (int)(e1 - e0) != P.nFields) good = false;
        if (good) {
            u32 s = e0 > 0 ? (rowEnt(R, e0 - 1) & POS_MASK) + 1 : 0;
            u32 term = rowEnt(R, e1 - 1) & POS_MASK;
            i64 a0 = (P.lo + s) / CHUNK - P.lo / CHUNK, a1 = (P.lo + term) / CHUNK - P.lo / CHUNK;
            bool sp = false;
            for (i64 k = a0; k <= a1; k++) sp |= fns[k].special != 0;
            if (sp && !validRowBytes(rowBytes(R, s), (int)(term - s), true)) good = false;
        }
    }
    for (int c = 0; c < P.ncols; c++) { // uniform: reductions and string flushes need every thread
        ColPlan cp = cols[c];
        ColOut o = outs[c];
        int W = o.width;
        bool str = isStr(cp.kind);
        u8 *dst = str ? strDst(o, W, rowBase, o0, o1, my, sStr) : (u8 *)o.data + (rowBase + my) * W;
        u32 w = 0;
        bool isnul = false;
        if (good) {
            bool ok = putValue(rowField(R, e0 + cp.field), cp, P, dst, W, isnul, w);
            if (isnul && o.valid) clearBit(o.valid, rowBase + my);
            if (!ok) {
                good = false;
                if (str) zeroBytes(dst, W);
            }
        } else if (live && str) {
            zeroBytes(dst, W);
        }
        if (str || !cp.notNull) {
            w = __reduce_max_sync(0xffffffffu, w);
            bool anyNul = __any_sync(0xffffffffu, isnul);
            if ((threadIdx.x & 31) == 0) {
                if (w) atomicMax(c < RED_COLS ? &sW[c] : &widths[c], w);
                if (anyNul) {
                    if (c < RED_COLS) sN[c] = 1;
                    else nulls[c] = 1;
                }
            }
        }
        if (str && W) flushStr(o, W, rowBase, o0, o1, sStr);
    }
    if (live) {
        status[r] = good ? 0 : 1;
        if (!good) list[atomicAdd(nUnsure, 1u)] = r;
    }
    __syncthreads();
    for (int c = threadIdx.x; c < min(P.ncols, RED_COLS); c += blockDim.x) {
        if (sW[c]) atomicMax(&widths[c], sW[c]);
        if (sN[c]) nulls[c] = 1;
    }
}

// badBefore is the number of listed (sorted) bad rows before row r.
__device__ __forceinline__ int badBefore(const u32 *bad, int nbad, int r) {
    int lo = 0, hi = nbad;
    while (lo < hi) {
        int m = (lo + hi) >> 1;
        if ((int)bad[m] < r) lo = m + 1;
        else hi = m;
    }
    return lo;
}

// Stage 6: deserialise the listed columns (redo) of a block of rows, for
// the columns csv_validate could not write right. Row r goes to output row
// rowBase + r - first - (bad rows before r); rows the host re-checked and
// found good (status 1, not bad) get zeros in string columns here and are
// patched by the host afterwards.
extern "C" __global__ void __launch_bounds__(ROWS_PER_BLOCK)
    csv_convert(RowParams P, const u8 *status, const u32 *bad, int nbad, const ColOut *outs, i64 rowBase, const int *redo, int nredo) {
    __shared__ __align__(16) u8 sBytes[STAGE_BYTES];
    __shared__ u32 sEnt[STAGE_ENTRIES];
    __shared__ u32 sRec[ROWS_PER_BLOCK + 1];
    __shared__ __align__(16) u8 sStr[STAGE_STR];
    const ColPlan *cols = (const ColPlan *)P.cols;
    int r0 = P.first + blockIdx.x * ROWS_PER_BLOCK, r1 = min(r0 + ROWS_PER_BLOCK, P.nrec);
    Rows R;
    stageRows(P, r0, r1, sRec, sEnt, sBytes, R);
    int r = r0 + threadIdx.x;
    bool live = r < r1;
    int br = live && nbad > 0 ? badBefore(bad, nbad, r) : 0;
    bool isBad = live && nbad > 0 && br < nbad && (int)bad[br] == r;
    bool write = live && !isBad;         // the row has an output position
    bool conv = write && status[r] == 0; // and the GPU converts it
    i64 o0 = (i64)(r0 - P.first) - (nbad > 0 ? badBefore(bad, nbad, r0) : 0);
    i64 o1 = (i64)(r1 - P.first) - (nbad > 0 ? badBefore(bad, nbad, r1) : 0);
    i64 my = (i64)(r - P.first) - br; // output row within the batch (write only)
    u32 e0 = conv ? sRec[threadIdx.x] : 0;
    for (int k = 0; k < nredo; k++) { // uniform: string columns synchronise the block
        int c = redo[k];
        ColPlan cp = cols[c];
        ColOut o = outs[c];
        int W = o.width;
        bool str = isStr(cp.kind);
        u8 *dst = str ? strDst(o, W, rowBase, o0, o1, my, sStr) : (u8 *)o.data + (rowBase + my) * W;
        if (conv) { // validated: putValue succeeds
            u32 w;
            bool isnul;
            putValue(rowField(R, e0 + cp.field), cp, P, dst, W, isnul, w);
            if (isnul && o.valid) clearBit(o.valid, rowBase + my);
        } else if (write && str) {
            zeroBytes(dst, W);
        }
        if (str && W) flushStr(o, W, rowBase, o0, o1, sStr);
    }
}

// csv_patch writes host-converted values: row rowBase + rows[i] of a
// column with elem bytes per row gets vals[i*elem .. (i+1)*elem).
extern "C" __global__ void csv_patch(u8 *dst, int elem, const u32 *rows, i64 rowBase, const u8 *vals, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u8 *d = dst + (rowBase + rows[i]) * elem;
    const u8 *s = vals + (i64)i * elem;
    for (int k = 0; k < elem; k++) d[k] = s[k];
}

// csv_clear_bits marks rows rowBase + rows[i] NULL in a validity bitmap.
extern "C" __global__ void csv_clear_bits(u64 *valid, const u32 *rows, i64 rowBase, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    i64 r = rowBase + rows[i];
    atomicAnd(valid + (r >> 6), ~(1ull << (r & 63)));
}

// csv_repad copies rows of srcW bytes into rows of dstW >= srcW bytes,
// zero-filling the rest (string columns widened when segments join).
extern "C" __global__ void csv_repad(u8 *dst, int dstW, const u8 *src, int srcW, i64 rows) {
    i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    i64 total = rows * dstW;
    for (; i < total; i += (i64)gridDim.x * blockDim.x) {
        i64 r = i / dstW;
        int k = (int)(i - r * dstW);
        dst[i] = k < srcW ? src[r * srcW + k] : 0;
    }
}

// csv_bits_copy copies n validity bits from src (0: all valid) to dst at
// bit offset off. One thread per destination word, so no two threads share
// a word; bits of dst outside [off, off+n) are kept.
extern "C" __global__ void csv_bits_copy(u64 *dst, i64 off, const u64 *src, i64 n) {
    i64 w = off / 64 + (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (w * 64 >= off + n) return;
    u64 word = dst[w];
    for (int b = 0; b < 64; b++) {
        i64 i = w * 64 + b - off;
        if (i < 0 || i >= n) continue;
        bool v = src == 0 || ((src[i >> 6] >> (i & 63)) & 1);
        if (v) word |= 1ull << b;
        else word &= ~(1ull << b);
    }
    dst[w] = word;
}

// csv_terms writes the terminator position of each listed record (-1 for a
// negative record number): the host asks for the ends of the last records
// of a batch and the bounds of the rows it re-checks.
extern "C" __global__ void csv_terms(const u32 *entries, const u32 *recStart, const int *recs, int n, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r = recs[i];
    out[i] = r < 0 ? -1 : (int)(entries[recStart[r + 1] - 1] & POS_MASK);
}
