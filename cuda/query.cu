// query.cu: the query kernels of the GPU backend (engine/gpu).
//
// Expressions arrive as a small typed program (see engine/gpu/compile.go):
// a list of instructions over per-row registers. Every thread runs the
// same instruction stream over its own row, so control flow is uniform;
// CASE, AND and OR evaluate every branch but raise errors only on rows
// whose mask register is true, which gives the CPU backend's lazy
// semantics without divergence.
//
// A register holds 16 bytes and a NULL flag:
//   integers, booleans, dates, timestamps  lo (int64)
//   floats                                 lo (float64 bits; real values
//                                          are float64 holding a float32)
//   numerics                               lo, hi: a signed 128-bit
//                                          mantissa (the scale is static,
//                                          known to the compiler)
//   strings                                lo: device address of the bytes,
//                                          hi: byte length
// A string register points into a column, the constant pool, another
// string (substring, trim) or, for a computed string (upper, ||, casts
// to text...), the thread's scratch area: each such instruction owns a
// slot there as wide as its longest possible result, sized by the
// compiler, so kernels never allocate.
// Register 0 is the row's activity mask, set by the kernel.
//
// The structs below are mirrored in engine/gpu/abi.go; a test checks the
// sizes and offsets.

typedef long long i64;
typedef unsigned long long u64;
typedef __int128 i128;
typedef unsigned __int128 u128;

#define MAXR 64
#define MAXINS 512
#define MAXAGG 32
#define MAXKEYS 8

struct QIns {
    int op, dst, a, b, c, m;
    i64 imm;
};

// A stored column: data, optional validity bitmap (uint64 words), class.
struct QCol {
    u64 data;
    u64 valid;
    int cls;   // CLS_*
    int width; // bytes per row for strings
};

struct QConst {
    i64 lo, hi;
    int nul, pad;
};

struct QErr {
    int code;  // ERR_*; 0: none
    int arg;
    i64 row;
};

// One aggregate: function, argument register and accumulation class.
struct QAgg {
    int fn;   // AGG_*
    int reg;  // argument register (count(*): -1)
    int cls;  // ACC_*
    int pad;
};

// Accumulator of one aggregate of one group. Sums are 192-bit two's
// complement in s0 (low), s1, s2; float sums are the double in s0; min and
// max keep an order-preserving int64 key in s0.
struct QAcc {
    u64 cnt, s0, s1, s2;
};

// A group key: the register, its class, and where new groups' key values go.
struct QKey {
    int reg, cls, width, pad;
    u64 lo;   // int64 per group
    u64 hi;   // int64 per group
    u64 nul;  // uint8 per group
    u64 str;  // width bytes per group (strings)
};

// An output column of a projection.
struct QOut {
    int reg, cls, width, pad;
    u64 lo, hi, nul, str;
};

struct QArgs {
    u64 prog, cols, consts, err;
    u64 sel;      // int32 row ids, or 0: rows [0, n)
    u64 bitmap;   // filter: uint32 per 32 rows
    u64 counts;   // filter: uint32 per 1024-row chunk; compact: exclusive offsets
    u64 gids;     // int32 group id per row (-1: filtered out)
    u64 aggs;     // QAgg[nagg]
    u64 acc;      // QAcc[ngroups][nagg]
    u64 keys;     // QKey[nkeys]
    u64 outs;     // QOut[nouts]
    u64 ht;       // int32 hash slots
    u64 ngroups;  // int32 counter
    i64 n;        // rows (or length of sel)
    int nins, filter, nagg, nkeys, nouts, htmask, maxgroups, accgroups;
    u64 scratch;  // computed strings: scrstride bytes per thread of the grid
    i64 scrstride;
};

enum {
    OP_NOP = 0, OP_COL, OP_CONST,
    OP_ADDI, OP_SUBI, OP_MULI, OP_DIVI, OP_MODI,
    OP_ADDF, OP_SUBF, OP_MULF, OP_DIVF,
    OP_ADDD, OP_SUBD, OP_MULD,
    OP_NEGI, OP_NEGF, OP_NEGD,
    OP_ABSI, OP_ABSF, OP_ABSD,
    OP_RESCALE,
    OP_CMPI, OP_CMPF, OP_CMPD, OP_CMPS,
    OP_AND, OP_OR, OP_NOT, OP_ISNULL, OP_ISNOTNULL, OP_ISTRUE, OP_ISFALSE,
    OP_MASK, OP_MASKNOT, OP_SEL, OP_COALESCE, OP_NULLIF, OP_DISTINCT,
    OP_I2I, OP_I2F, OP_F2I, OP_I2D, OP_D2I, OP_D2F, OP_DROUND, OP_DCHECK, OP_F2F32,
    OP_DATE2TS, OP_TS2DATE, OP_LIKE, OP_ROUNDF, OP_MODD,
    OP_DATEADD, OP_DATESUB, OP_DATEDIFF, OP_EXTRACT,
    OP_LENGTH, OP_UPPER, OP_LOWER, OP_CONCAT, OP_SUBSTR, OP_PADCHAR, OP_TOTEXT, OP_LIMITCHARS,
    OP_TRIM, OP_REPLACE,
};

// numeric division with per-row scales (numdiv section below): numbered
// apart from the list above so that new opcodes there never collide
enum { OP_DIVD = 100, OP_RESCALER, OP_DFITR };

enum { CLS_BOOL = 1, CLS_I16, CLS_I32, CLS_I64, CLS_F32, CLS_F64, CLS_DEC, CLS_STR, CLS_CHAR };

enum {
    ERR_INT_RANGE = 1,  // arg: 0 smallint, 1 integer, 2 bigint
    ERR_DIV_ZERO,
    ERR_NUM_OVERFLOW,   // value overflows numeric format
    ERR_FLOAT_OVERFLOW,
    ERR_FLOAT_UNDERFLOW,
    ERR_NUM_FIELD,      // numeric field overflow
    ERR_UNSUPPORTED,    // arg says what
    ERR_DATE_RANGE,
    ERR_SUBSTRING,      // negative substring length
};

enum { AGG_COUNTSTAR = 0, AGG_COUNT, AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX };
enum { ACC_COUNT = 0, ACC_INT, ACC_FLOAT, ACC_MINMAX_I, ACC_MINMAX_F, ACC_MINMAX_D, ACC_MINMAX_S };

__device__ __forceinline__ void raise(QErr *e, int code, int arg, i64 row) {
    if (atomicCAS(&e->code, 0, code) == 0) {
        e->arg = arg;
        e->row = row;
    }
}

__device__ __forceinline__ bool rangeOK(i64 v, int cls) {
    if (cls == 0) return v >= -32768 && v <= 32767;
    if (cls == 1) return v >= -2147483648LL && v <= 2147483647LL;
    return true;
}

__device__ __forceinline__ i64 minOf(int cls) {
    if (cls == 0) return -32768;
    if (cls == 1) return -2147483648LL;
    return (i64)0x8000000000000000ULL;
}

__device__ __forceinline__ i128 mk128(i64 lo, i64 hi) {
    return (i128)(((u128)(u64)hi << 64) | (u128)(u64)lo);
}

__device__ const u64 pow10tab[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
    100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
    10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};

__device__ const double pow10d[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#define MAXMAG ((u128)(((u128)1 << 127) - 1))

// mulmag multiplies two magnitudes; false when the product exceeds 2^127-1.
__device__ bool mulmag(u128 a, u128 b, u128 *r) {
    u64 ah = (u64)(a >> 64), al = (u64)a, bh = (u64)(b >> 64), bl = (u64)b;
    if (ah != 0 && bh != 0) return false;
    u128 lo = (u128)al * bl;
    u128 cross = (u128)ah * bl + (u128)al * bh; // one of the two is zero
    if ((u64)(cross >> 64) != 0) return false;
    u128 c = cross << 64;
    u128 s = lo + c;
    if (s < lo) return false;
    if (s > MAXMAG) return false;
    *r = s;
    return true;
}

__device__ __forceinline__ u128 mag(i128 x) { return x < 0 ? (u128)(-x) : (u128)x; }

// rescale multiplies x by 10^k exactly; false on overflow.
__device__ bool rescale(i128 x, int k, i128 *r) {
    bool neg = x < 0;
    u128 m = mag(x);
    while (k > 0) {
        int step = k > 19 ? 19 : k;
        if (!mulmag(m, (u128)pow10tab[step], &m)) return false;
        k -= step;
    }
    *r = neg ? -(i128)m : (i128)m;
    return true;
}

// roundDown divides x by 10^k rounding half away from zero (k >= 1).
__device__ i128 roundDown(i128 x, int k) {
    bool neg = x < 0;
    u128 m = mag(x);
    while (k > 0) {
        int step = k > 19 ? 19 : k;
        u128 d = (u128)pow10tab[step];
        u128 q = m / d, r = m - q * d;
        k -= step;
        if (k == 0 && r >= d - r) q++;
        m = q;
    }
    return neg ? -(i128)m : (i128)m;
}

__device__ __forceinline__ bool truthy(const i64 *rl, const unsigned char *rn, int r) {
    return !rn[r] && rl[r] != 0;
}

__device__ __forceinline__ int cmp3(int c, int op) {
    switch (op) {
    case 0: return c == 0;
    case 1: return c != 0;
    case 2: return c < 0;
    case 3: return c <= 0;
    case 4: return c > 0;
    }
    return c >= 0;
}

__device__ __forceinline__ int cmpf(double x, double y) {
    bool xn = x != x, yn = y != y;
    if (xn && yn) return 0;
    if (xn) return 1;
    if (yn) return -1;
    return x < y ? -1 : (x > y ? 1 : 0);
}

__device__ int cmps(const unsigned char *a, int la, const unsigned char *b, int lb) {
    int n = la < lb ? la : lb;
    for (int i = 0; i < n; i++) {
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return la < lb ? -1 : (la > lb ? 1 : 0);
}

__device__ __forceinline__ unsigned char fold(unsigned char c, bool ci) {
    return (ci && c >= 'A' && c <= 'Z') ? c + 32 : c;
}

// utf8len is the byte length of the character starting with c.
__device__ __forceinline__ int utf8len(unsigned char c) {
    return c < 0x80 ? 1 : (c < 0xE0 ? 2 : (c < 0xF0 ? 3 : 4));
}

// like matches s against pattern p (% any run, _ one character, esc the
// escape byte or -1) with greedy backtracking over the last %.
__device__ bool like(const unsigned char *s, int ls, const unsigned char *p, int lp, int esc, bool ci) {
    int si = 0, pi = 0, starP = -1, starS = 0;
    while (si < ls) {
        if (pi < lp) {
            unsigned char pc = p[pi];
            if (pc == '%') {
                starP = ++pi;
                starS = si;
                continue;
            }
            if (pc == '_') {
                si += utf8len(s[si]);
                pi++;
                continue;
            }
            int plen = 1;
            if (esc >= 0 && pc == (unsigned char)esc && pi + 1 < lp) {
                pc = p[pi + 1];
                plen = 2;
            }
            if (fold(pc, ci) == fold(s[si], ci)) {
                si++;
                pi += plen;
                continue;
            }
        }
        if (starP < 0) return false;
        starS += utf8len(s[starS]);
        si = starS;
        pi = starP;
    }
    while (pi < lp && p[pi] == '%') pi++;
    return pi == lp;
}

// Dates: days since 1970-01-01; PostgreSQL's range is 4714-11-24 BC to
// 5874897-12-31 (engine/eval's minDate, maxDate).
#define MIN_DATE (-2440588LL)
#define MAX_DATE 2145042905LL
#define US_PER_DAY 86400000000LL

__device__ __forceinline__ i64 floorDiv(i64 a, i64 b) {
    i64 q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) q--;
    return q;
}

// civil is engine.CivilFromDays.
__device__ void civil(i64 days, int *y, int *m, int *d) {
    int z = (int)days + 719468;
    int era = z;
    if (era < 0) era -= 146096;
    era /= 146097;
    int doe = z - era * 146097;
    int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int yy = yoe + era * 400;
    int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    if (*m <= 2) yy++;
    *y = yy;
}

// daysFromCivil is engine.DaysFromCivil.
__device__ i64 daysFromCivil(int y, int m, int d) {
    if (m <= 2) y--;
    int era = y;
    if (era < 0) era -= 399;
    era /= 400;
    int yoe = y - era * 400;
    int mp = (m + 9) % 12;
    int doy = (153 * mp + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (i64)era * 146097 + doe - 719468;
}

// extractField is engine/eval's evalExtract for one value: the result as
// a scaled integer (the scale is static per field, see compile.go).
__device__ i64 extractField(i64 x, bool isDate, int field) {
    i64 days = isDate ? x : floorDiv(x, US_PER_DAY);
    i64 tod = isDate ? 0 : x - days * US_PER_DAY;
    int y, m, d;
    civil(days, &y, &m, &d);
    switch (field) {
    case 0: return y <= 0 ? y - 1 : y;                        // year
    case 1: return m;                                         // month
    case 2: return d;                                         // day
    case 3: return (m - 1) / 3 + 1;                           // quarter
    case 4: return ((days + 4) % 7 + 7) % 7;                  // dow
    case 5: return ((days + 3) % 7 + 7) % 7 + 1;              // isodow
    case 6: return days - daysFromCivil(y, 1, 1) + 1;         // doy
    case 7: return y >= 0 ? y / 10 : -((9 - y) / 10);         // decade: floor(y / 10)
    case 8: return y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100); // century
    case 9: return tod / 3600000000LL;                        // hour
    case 10: return tod / 60000000LL % 60;                    // minute
    case 11: return tod % 60000000LL;                         // second, scale 6
    case 12: return isDate ? days * 86400 : x;                // epoch (timestamps: scale 6)
    case 13: return y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000); // millennium
    case 14: case 15: {                                       // week, isoyear
        i64 wd = ((days + 3) % 7 + 7) % 7 + 1;
        i64 thu = days - (wd - 1) + 3;
        int ty, tm, td;
        civil(thu, &ty, &tm, &td);
        if (field == 15) return ty;
        return (thu - daysFromCivil(ty, 1, 1)) / 7 + 1;
    }
    case 16: return tod % 60000000LL;                         // microseconds
    case 17: return tod % 60000000LL;                         // milliseconds, scale 3
    case 18: return days + 2440588;                           // julian (dates)
    }
    return 0;
}

// runeW is the byte width of the character at s (n > 0 bytes left) as
// Go's utf8.DecodeRune reads it: an invalid or cut-off sequence is one
// byte wide. The CPU backend counts and slices characters so.
__device__ int runeW(const unsigned char *s, int n) {
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int w;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) w = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        w = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        w = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 1;
    if (n < w) return 1;
    if (s[1] < lo || s[1] > hi) return 1;
    for (int k = 2; k < w; k++)
        if (s[k] < 0x80 || s[k] > 0xBF) return 1;
    return w;
}

__device__ int runeCount(const unsigned char *s, int n) {
    int c = 0;
    for (int k = 0; k < n; k += runeW(s + k, n - k)) c++;
    return c;
}

// prefixBytes is the byte length of the first max characters of s.
__device__ int prefixBytes(const unsigned char *s, int n, i64 max) {
    int k = 0;
    for (i64 c = 0; k < n && c < max; c++) k += runeW(s + k, n - k);
    return k;
}

// putU writes the decimal digits of v (at least width of them) at p and
// returns the count.
__device__ int putU(unsigned char *p, u64 v, int width) {
    unsigned char t[20];
    int n = 0;
    do {
        t[n++] = '0' + (int)(v % 10);
        v /= 10;
    } while (v != 0);
    while (n < width) t[n++] = '0';
    for (int k = 0; k < n; k++) p[k] = t[n - 1 - k];
    return n;
}

// putNumeric writes a numeric in PostgreSQL's text form (engine.Dec's
// AppendText: exactly scale digits after the point).
__device__ int putNumeric(unsigned char *p, i128 x, int sc) {
    unsigned char ds[40];
    int nd = 0;
    u128 m = mag(x);
    do {
        ds[nd++] = '0' + (int)(m % 10);
        m /= 10;
    } while (m != 0);
    int o = 0;
    if (x < 0) p[o++] = '-';
    if (sc == 0) {
        for (int k = nd - 1; k >= 0; k--) p[o++] = ds[k];
        return o;
    }
    if (nd <= sc) {
        p[o++] = '0';
        p[o++] = '.';
        for (int k = nd; k < sc; k++) p[o++] = '0';
        for (int k = nd - 1; k >= 0; k--) p[o++] = ds[k];
        return o;
    }
    for (int k = nd - 1; k >= sc; k--) p[o++] = ds[k];
    p[o++] = '.';
    for (int k = sc - 1; k >= 0; k--) p[o++] = ds[k];
    return o;
}

// putYMD writes YYYY-MM-DD of a day number (BC years as their number, the
// caller adds the era) and returns the count; *bc says whether y <= 0.
__device__ int putYMD(unsigned char *p, i64 days, bool *bc) {
    int y, m, d;
    civil(days, &y, &m, &d);
    *bc = y <= 0;
    if (y <= 0) y = 1 - y;
    int o = putU(p, (u64)y, 4);
    p[o++] = '-';
    o += putU(p + o, (u64)m, 2);
    p[o++] = '-';
    o += putU(p + o, (u64)d, 2);
    return o;
}

// putText writes a value in its text output form (engine.AppendText;
// booleans as a cast says them): kind 0 integer, 1 boolean, 2 numeric
// (scale sc), 3 date, 4 timestamp.
__device__ int putText(unsigned char *p, int kind, int sc, i64 lo, i64 hi) {
    switch (kind) {
    case 0:
        if (lo < 0) {
            p[0] = '-';
            return 1 + putU(p + 1, (u64)0 - (u64)lo, 1);
        }
        return putU(p, (u64)lo, 1);
    case 1:
        if (lo) { p[0] = 't'; p[1] = 'r'; p[2] = 'u'; p[3] = 'e'; return 4; }
        p[0] = 'f'; p[1] = 'a'; p[2] = 'l'; p[3] = 's'; p[4] = 'e';
        return 5;
    case 2:
        return putNumeric(p, mk128(lo, hi), sc);
    case 3: {
        bool bc;
        int o = putYMD(p, (i64)(int)lo, &bc);
        if (bc) { p[o++] = ' '; p[o++] = 'B'; p[o++] = 'C'; }
        return o;
    }
    case 4: {
        i64 days = floorDiv(lo, US_PER_DAY);
        i64 t = lo - days * US_PER_DAY;
        bool bc;
        int o = putYMD(p, (i64)(int)days, &bc);
        p[o++] = ' ';
        i64 sec = t / 1000000, frac = t % 1000000;
        o += putU(p + o, (u64)(sec / 3600), 2);
        p[o++] = ':';
        o += putU(p + o, (u64)(sec / 60 % 60), 2);
        p[o++] = ':';
        o += putU(p + o, (u64)(sec % 60), 2);
        if (frac != 0) {
            unsigned char f[6];
            for (int k = 5; k >= 0; k--) { f[k] = '0' + (int)(frac % 10); frac /= 10; }
            int n = 6;
            while (n > 0 && f[n - 1] == '0') n--;
            p[o++] = '.';
            for (int k = 0; k < n; k++) p[o++] = f[k];
        }
        if (bc) { p[o++] = ' '; p[o++] = 'B'; p[o++] = 'C'; }
        return o;
    }
    }
    return 0;
}

__device__ __forceinline__ bool inSet(unsigned char c, const unsigned char *set, int n) {
    for (int k = 0; k < n; k++)
        if (set[k] == c) return true;
    return false;
}

__device__ __forceinline__ bool validAt(const QCol &c, i64 row) {
    if (!c.valid) return true;
    const u64 *v = (const u64 *)c.valid;
    return (v[row >> 6] >> (row & 63)) & 1;
}

// ---- numdiv begin: numeric division and modulo with per-row scales ----
// A numeric whose scale varies by row (a quotient, a CASE over numerics
// of different scales) keeps its scale in an int register beside the
// mantissa; these helpers are engine.DivScale, DecDivScale and DecMod.

// ndDigits is the number of decimal digits of m > 0 and sets *p to
// 10^(digits-1).
__device__ int ndDigits(u128 m, u128 *p) {
    u128 q = 1;
    int n = 1;
    while (n < 39 && q * 10 <= m) { q *= 10; n++; }
    *p = q;
    return n;
}

__device__ u128 ndPow10(int k) {
    u128 r = 1;
    while (k > 0) {
        int step = k > 19 ? 19 : k;
        r *= (u128)pow10tab[step];
        k -= step;
    }
    return r;
}

// ndWeight is engine.Dec.weight: PostgreSQL's base-10000 weight of
// m / 10^scale and its first base-10000 digit (0, 0 for zero).
__device__ void ndWeight(u128 m, int scale, int *w, int *first) {
    if (m == 0) { *w = 0; *first = 0; return; }
    u128 p;
    int n = ndDigits(m, &p);
    int e = n - 1 - scale;
    int ww = e >= 0 ? e / 4 : -((3 - e) / 4);
    int k = e - 4 * ww + 1; // 1..4 leading digits form the first group
    if (n >= k) *first = (int)(m / ndPow10(n - k));
    else *first = (int)(m * ndPow10(k - n));
    *w = ww;
}

// ndDivScale is engine.DivScale (select_div_scale).
__device__ int ndDivScale(u128 a, int sa, u128 b, int sb) {
    int w1, f1, w2, f2;
    ndWeight(a, sa, &w1, &f1);
    ndWeight(b, sb, &w2, &f2);
    int qw = w1 - w2;
    if (f1 <= f2) qw--;
    int r = 16 - qw * 4;
    if (r < sa) r = sa;
    if (r < sb) r = sb;
    if (r < 0) r = 0;
    if (r > 1000) r = 1000;
    return r;
}

// ndDiv is engine.DecDivScale: round(a 10^e / b) half away from zero for
// magnitudes a, b > 0 and e >= 0; false when the quotient passes 2^127-1.
__device__ bool ndDiv(u128 a, u128 b, int e, u128 *res) {
    u128 q = a / b, r = a - q * b;
    for (; e > 0; e--) {
        if (r == 0) { // the remaining digits are zeros
            i128 t;
            if (!rescale((i128)q, e, &t)) return false;
            q = (u128)t;
            break;
        }
        if (q > MAXMAG / 10) return false;
        // the next digit: (10 r) / b, with 10 r up to 131 bits
        u128 lo = (r << 3) + (r << 1);
        u64 ov = (u64)(r >> 125) + (u64)(r >> 127) + (lo < (r << 3) ? 1 : 0);
        int dg = 0;
        while (ov > 0 || lo >= b) {
            if (lo < b) ov--;
            lo -= b;
            dg++;
        }
        q = q * 10 + dg;
        r = lo;
        if (q > MAXMAG) return false;
    }
    if (r >= b - r) q++; // 2r >= b without overflow
    if (q > MAXMAG) return false;
    *res = q;
    return true;
}
// ---- numdiv end ----

// run executes the program for one row. It returns nothing: results are in
// the registers, errors go to e.
__device__ void run(const QIns *prog, int nins, const QCol *cols, const QConst *consts, QErr *e,
                    i64 row, i64 *rl, i64 *rh, unsigned char *rn, unsigned char *scr) {
    for (int pc = 0; pc < nins; pc++) {
        const QIns in = prog[pc];
        const int d = in.dst, a = in.a, b = in.b;
        bool on = truthy(rl, rn, in.m);
        bool nab = rn[a] || rn[b];
        switch (in.op) {
        // ---- numdiv ops begin ----
        case OP_DIVD: case OP_MODD: {
            // imm: the registers of a's and b's scales (low, high 32 bits);
            // OP_DIVD writes the quotient's scale to register c
            int ra = (int)(in.imm & 0xffffffff), rb = (int)(in.imm >> 32);
            int sa = (int)rl[ra], sb = (int)rl[rb];
            i128 x = mk128(rl[a], rh[a]), y = mk128(rl[b], rh[b]);
            int rs = sa > sb ? sa : sb;
            i128 r = 0;
            if (!nab) {
                bool ok = true;
                if (y == 0) {
                    if (on) raise(e, ERR_DIV_ZERO, 0, row);
                } else if (in.op == OP_DIVD) {
                    rs = ndDivScale(mag(x), sa, mag(y), sb);
                    u128 q;
                    ok = ndDiv(mag(x), mag(y), rs + sb - sa, &q);
                    if (ok) r = ((x < 0) != (y < 0)) ? -(i128)q : (i128)q;
                } else {
                    i128 xa, ya;
                    ok = rescale(x, rs - sa, &xa) && rescale(y, rs - sb, &ya);
                    if (ok) {
                        u128 m = mag(xa) % mag(ya);
                        r = xa < 0 ? -(i128)m : (i128)m;
                    }
                }
                if (!ok && on) raise(e, ERR_NUM_OVERFLOW, 0, row);
            }
            rn[d] = nab;
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            if (in.op == OP_DIVD) { rl[in.c] = rs; rh[in.c] = 0; rn[in.c] = 0; }
            break;
        }
        case OP_RESCALER: {
            // a times 10^(scale b - scale c), b >= c
            rn[d] = rn[a];
            i128 x = mk128(rl[a], rh[a]), r = 0;
            if (!rn[a] && !rescale(x, (int)(rl[b] - rl[in.c]), &r) && on) raise(e, ERR_NUM_OVERFLOW, 0, row);
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            break;
        }
        case OP_DFITR: {
            // a at the scale in register b, rounded or extended to scale imm
            rn[d] = rn[a];
            i128 x = mk128(rl[a], rh[a]), r = x;
            int k = (int)in.imm - (int)rl[b];
            if (!rn[a]) {
                if (k < 0) r = roundDown(x, -k);
                else if (k > 0 && !rescale(x, k, &r) && on) raise(e, ERR_NUM_OVERFLOW, 0, row);
            }
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            break;
        }
        // ---- numdiv ops end ----
        case OP_COL: {
            const QCol c = cols[a];
            bool ok = validAt(c, row);
            rn[d] = !ok;
            rh[d] = 0;
            switch (c.cls) {
            case CLS_BOOL: rl[d] = ((const unsigned char *)c.data)[row]; break;
            case CLS_I16: rl[d] = ((const short *)c.data)[row]; break;
            case CLS_I32: rl[d] = ((const int *)c.data)[row]; break;
            case CLS_I64: rl[d] = ((const i64 *)c.data)[row]; break;
            case CLS_DEC: rl[d] = ((const i64 *)c.data)[row]; rh[d] = rl[d] >> 63; break;
            case CLS_F32: rl[d] = __double_as_longlong((double)((const float *)c.data)[row]); break;
            case CLS_F64: rl[d] = ((const i64 *)c.data)[row]; break;
            case CLS_STR:
            case CLS_CHAR: {
                const unsigned char *s = (const unsigned char *)c.data + row * (i64)c.width;
                int n = 0;
                if (c.width > 0) {
                    while (n < c.width && s[n] != 0) n++;
                }
                if (c.cls == CLS_CHAR) {
                    while (n > 0 && s[n - 1] == ' ') n--;
                }
                rl[d] = (i64)(u64)s;
                rh[d] = n;
                break;
            }
            }
            break;
        }
        case OP_CONST:
            rl[d] = consts[a].lo;
            rh[d] = consts[a].hi;
            rn[d] = consts[a].nul;
            break;
        case OP_ADDI: case OP_SUBI: case OP_MULI: case OP_DIVI: case OP_MODI: {
            rn[d] = nab;
            if (nab) { rl[d] = 0; break; }
            i64 x = rl[a], y = rl[b], r = 0;
            int cls = (int)in.imm;
            bool ovf = false;
            switch (in.op) {
            case OP_ADDI: r = (i64)((u64)x + (u64)y); ovf = ((x ^ r) & (y ^ r)) < 0; break;
            case OP_SUBI: r = (i64)((u64)x - (u64)y); ovf = ((x ^ y) & (x ^ r)) < 0; break;
            case OP_MULI: r = (i64)((u64)x * (u64)y); ovf = __mul64hi(x, y) != (r >> 63); break;
            case OP_DIVI:
                if (y == 0) { if (on) raise(e, ERR_DIV_ZERO, 0, row); r = 0; break; }
                if (y == -1) { if (x == minOf(cls)) ovf = true; else r = -x; }
                else r = x / y;
                break;
            case OP_MODI:
                if (y == 0) { if (on) raise(e, ERR_DIV_ZERO, 0, row); r = 0; break; }
                r = (y == -1) ? 0 : x % y;
                break;
            }
            if ((ovf || !rangeOK(r, cls)) && on) raise(e, ERR_INT_RANGE, cls, row);
            rl[d] = r;
            rh[d] = 0;
            break;
        }
        case OP_ADDF: case OP_SUBF: case OP_MULF: case OP_DIVF: {
            rn[d] = nab;
            if (nab) { rl[d] = 0; break; }
            double x = __longlong_as_double(rl[a]), y = __longlong_as_double(rl[b]), r = 0;
            switch (in.op) {
            case OP_ADDF: r = x + y; break;
            case OP_SUBF: r = x - y; break;
            case OP_MULF: r = x * y; break;
            case OP_DIVF:
                if (y == 0) { if (on) raise(e, ERR_DIV_ZERO, 0, row); r = 0; break; }
                r = x / y;
                break;
            }
            if (in.imm) r = (double)(float)r;
            if (on) {
                if (isinf(r) && !isinf(x) && !isinf(y)) raise(e, ERR_FLOAT_OVERFLOW, 0, row);
                else if (r == 0 && x != 0 && ((in.op == OP_MULF && y != 0) || in.op == OP_DIVF) && !isinf(y) && !(in.op == OP_DIVF && y == 0))
                    raise(e, ERR_FLOAT_UNDERFLOW, 0, row);
            }
            rl[d] = __double_as_longlong(r);
            break;
        }
        case OP_ADDD: case OP_SUBD: case OP_MULD: {
            rn[d] = nab;
            if (nab) { rl[d] = rh[d] = 0; break; }
            i128 x = mk128(rl[a], rh[a]), y = mk128(rl[b], rh[b]), r = 0;
            bool ok = true;
            if (in.op == OP_ADDD) {
                r = (i128)((u128)x + (u128)y);
                ok = ((x ^ r) & (y ^ r)) >= 0;
            } else if (in.op == OP_SUBD) {
                r = (i128)((u128)x - (u128)y);
                ok = ((x ^ y) & (x ^ r)) >= 0;
            } else {
                u128 m;
                ok = mulmag(mag(x), mag(y), &m);
                r = ((x < 0) != (y < 0)) ? -(i128)m : (i128)m;
            }
            // the CPU's Dec keeps |mantissa| <= 2^127-1
            if (ok && r == (i128)((u128)1 << 127)) ok = false;
            if (!ok && on) raise(e, ERR_NUM_OVERFLOW, 0, row);
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            break;
        }
        case OP_NEGI: case OP_ABSI: {
            rn[d] = rn[a];
            i64 x = rl[a];
            bool doit = in.op == OP_NEGI || x < 0;
            if (!rn[a] && doit && x == minOf((int)in.imm) && on) raise(e, ERR_INT_RANGE, (int)in.imm, row);
            rl[d] = doit ? -x : x;
            rh[d] = 0;
            break;
        }
        case OP_NEGF: rn[d] = rn[a]; rl[d] = rl[a] ^ (i64)0x8000000000000000ULL; break;
        case OP_ABSF: rn[d] = rn[a]; rl[d] = rl[a] & 0x7fffffffffffffffLL; break;
        case OP_NEGD: case OP_ABSD: {
            rn[d] = rn[a];
            i128 x = mk128(rl[a], rh[a]);
            if (in.op == OP_NEGD || x < 0) x = -x;
            rl[d] = (i64)(u64)x;
            rh[d] = (i64)(u64)((u128)x >> 64);
            break;
        }
        case OP_RESCALE: {
            rn[d] = rn[a];
            i128 x = mk128(rl[a], rh[a]), r = 0;
            if (!rn[a] && !rescale(x, (int)in.imm, &r) && on) raise(e, ERR_NUM_OVERFLOW, 0, row);
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            break;
        }
        case OP_DROUND: {
            rn[d] = rn[a];
            i128 r = roundDown(mk128(rl[a], rh[a]), (int)in.imm);
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            break;
        }
        case OP_DCHECK: {
            // |x| < 10^imm, else numeric field overflow (c: index of the message)
            rn[d] = rn[a];
            rl[d] = rl[a];
            rh[d] = rh[a];
            if (!rn[a] && on) {
                i128 lim;
                u128 m = mag(mk128(rl[a], rh[a]));
                if (rescale(1, (int)in.imm, &lim) && m >= (u128)lim) raise(e, ERR_NUM_FIELD, in.c, row);
            }
            break;
        }
        case OP_CMPI: case OP_CMPF: case OP_CMPD: case OP_CMPS: {
            rn[d] = nab;
            rh[d] = 0;
            if (nab) { rl[d] = 0; break; }
            int c;
            if (in.op == OP_CMPI) c = rl[a] < rl[b] ? -1 : (rl[a] > rl[b] ? 1 : 0);
            else if (in.op == OP_CMPF) c = cmpf(__longlong_as_double(rl[a]), __longlong_as_double(rl[b]));
            else if (in.op == OP_CMPD) {
                i128 x = mk128(rl[a], rh[a]), y = mk128(rl[b], rh[b]);
                c = x < y ? -1 : (x > y ? 1 : 0);
            } else c = cmps((const unsigned char *)rl[a], (int)rh[a], (const unsigned char *)rl[b], (int)rh[b]);
            rl[d] = cmp3(c, (int)in.imm);
            break;
        }
        case OP_AND: case OP_OR: {
            bool an = rn[a], bn = rn[b];
            bool av = !an && rl[a], bv = !bn && rl[b];
            bool afalse = !an && !rl[a], bfalse = !bn && !rl[b];
            if (in.op == OP_AND) {
                if (afalse || bfalse) { rn[d] = 0; rl[d] = 0; }
                else if (an || bn) { rn[d] = 1; rl[d] = 0; }
                else { rn[d] = 0; rl[d] = 1; }
            } else {
                if (av || bv) { rn[d] = 0; rl[d] = 1; }
                else if (an || bn) { rn[d] = 1; rl[d] = 0; }
                else { rn[d] = 0; rl[d] = 0; }
            }
            rh[d] = 0;
            break;
        }
        case OP_NOT: rn[d] = rn[a]; rl[d] = rn[a] ? 0 : !rl[a]; rh[d] = 0; break;
        case OP_ISNULL: rl[d] = rn[a]; rn[d] = 0; rh[d] = 0; break;
        case OP_ISNOTNULL: rl[d] = !rn[a]; rn[d] = 0; rh[d] = 0; break;
        case OP_ISTRUE: rl[d] = !rn[a] && rl[a]; rn[d] = 0; rh[d] = 0; break;
        case OP_ISFALSE: rl[d] = !rn[a] && !rl[a]; rn[d] = 0; rh[d] = 0; break;
        case OP_MASK: rl[d] = truthy(rl, rn, a) && truthy(rl, rn, b); rn[d] = 0; rh[d] = 0; break;
        case OP_MASKNOT: rl[d] = truthy(rl, rn, a) && !truthy(rl, rn, b); rn[d] = 0; rh[d] = 0; break;
        case OP_SEL: {
            int s = truthy(rl, rn, in.c) ? a : b;
            rl[d] = rl[s]; rh[d] = rh[s]; rn[d] = rn[s];
            break;
        }
        case OP_COALESCE: {
            int s = rn[a] ? b : a;
            rl[d] = rl[s]; rh[d] = rh[s]; rn[d] = rn[s];
            break;
        }
        case OP_NULLIF:
            rl[d] = rl[a]; rh[d] = rh[a];
            rn[d] = rn[a] || truthy(rl, rn, b);
            if (rn[d]) { rl[d] = 0; rh[d] = 0; }
            break;
        case OP_DISTINCT: {
            bool an = rn[a], bn = rn[b];
            rl[d] = (an && bn) ? 0 : ((an != bn) ? 1 : !rl[in.c]);
            rn[d] = 0; rh[d] = 0;
            break;
        }
        case OP_I2I:
            rn[d] = rn[a]; rl[d] = rl[a]; rh[d] = 0;
            if (!rn[a] && !rangeOK(rl[a], (int)in.imm) && on) raise(e, ERR_INT_RANGE, (int)in.imm, row);
            break;
        case OP_I2F:
            rn[d] = rn[a];
            rl[d] = __double_as_longlong(in.imm ? (double)__ll2float_rn(rl[a]) : __ll2double_rn(rl[a]));
            break;
        case OP_F2I: {
            rn[d] = rn[a];
            double f = rint(__longlong_as_double(rl[a]));
            double lo = (double)minOf((int)in.imm);
            i64 r = 0;
            if (!rn[a]) {
                if (f != f || f < lo || f >= -lo) { if (on) raise(e, ERR_INT_RANGE, (int)in.imm, row); }
                else r = (i64)f;
            }
            rl[d] = r; rh[d] = 0;
            break;
        }
        case OP_I2D: rn[d] = rn[a]; rl[d] = rl[a]; rh[d] = rl[a] >> 63; break;
        case OP_D2I: {
            rn[d] = rn[a];
            i128 x = mk128(rl[a], rh[a]);
            if (in.imm > 0) x = roundDown(x, (int)in.imm);
            bool fits = x >= (i128)(i64)0x8000000000000000LL && x <= (i128)0x7fffffffffffffffLL;
            if (!rn[a] && (!fits || !rangeOK((i64)x, in.c)) && on) raise(e, ERR_INT_RANGE, in.c, row);
            rl[d] = (i64)x; rh[d] = 0;
            break;
        }
        case OP_D2F: {
            rn[d] = rn[a];
            i128 x = mk128(rl[a], rh[a]);
            int s = in.b ? (int)rl[b] : (int)in.imm; // b: a per-row scale register
            double r = 0;
            if (!rn[a]) {
                if (in.c) { // float32: exact operands, one rounding
                    if (x > -(1 << 24) && x < (1 << 24) && s <= 10) r = (double)((float)(i64)x / (float)pow10d[s]);
                    else if (on) raise(e, ERR_UNSUPPORTED, 1, row);
                } else {
                    if (x > -((i128)1 << 53) && x < ((i128)1 << 53) && s <= 22) r = (double)(i64)x / pow10d[s];
                    else if (on) raise(e, ERR_UNSUPPORTED, 1, row);
                }
            }
            rl[d] = __double_as_longlong(r);
            break;
        }
        case OP_F2F32: {
            rn[d] = rn[a];
            double f = __longlong_as_double(rl[a]);
            double g = (double)(float)f;
            if (!rn[a] && on) {
                if (isinf(g) && !isinf(f)) raise(e, ERR_FLOAT_OVERFLOW, 0, row);
                else if (g == 0 && f != 0) raise(e, ERR_FLOAT_UNDERFLOW, 0, row);
            }
            rl[d] = __double_as_longlong(g);
            break;
        }
        case OP_ROUNDF:
            rn[d] = rn[a];
            rl[d] = __double_as_longlong(rint(__longlong_as_double(rl[a])));
            break;
        case OP_DATE2TS: rn[d] = rn[a]; rl[d] = rl[a] * 86400000000LL; rh[d] = 0; break;
        case OP_TS2DATE: {
            rn[d] = rn[a];
            i64 x = rl[a], q = x / 86400000000LL;
            if (x % 86400000000LL != 0 && x < 0) q--;
            rl[d] = q; rh[d] = 0;
            break;
        }
        case OP_LIKE: {
            rn[d] = nab;
            rh[d] = 0;
            rl[d] = nab ? 0 : like((const unsigned char *)rl[a], (int)rh[a], (const unsigned char *)rl[b],
                                   (int)rh[b], in.c, in.imm != 0);
            break;
        }
        case OP_DATEADD: case OP_DATESUB: {
            rn[d] = nab;
            rh[d] = 0;
            i64 r = in.op == OP_DATEADD ? rl[a] + rl[b] : rl[a] - rl[b];
            if (!nab && (r < MIN_DATE || r > MAX_DATE) && on) raise(e, ERR_DATE_RANGE, 0, row);
            rl[d] = nab ? 0 : r;
            break;
        }
        case OP_DATEDIFF:
            rn[d] = nab;
            rh[d] = 0;
            rl[d] = nab ? 0 : rl[a] - rl[b];
            break;
        case OP_EXTRACT: {
            rn[d] = rn[a];
            i64 r = rn[a] ? 0 : extractField(rl[a], in.c != 0, (int)in.imm);
            rl[d] = r;
            rh[d] = r >> 63;
            break;
        }
        case OP_LENGTH:
            rn[d] = rn[a];
            rl[d] = rn[a] ? 0 : runeCount((const unsigned char *)rl[a], (int)rh[a]);
            rh[d] = 0;
            break;
        case OP_UPPER: case OP_LOWER: {
            // ASCII case mapping, as PostgreSQL in the C locale
            rn[d] = rn[a];
            unsigned char *o = scr + in.c;
            const unsigned char *s = (const unsigned char *)rl[a];
            int n = rn[a] ? 0 : (int)rh[a];
            for (int k = 0; k < n; k++) {
                unsigned char ch = s[k];
                if (in.op == OP_UPPER && ch >= 'a' && ch <= 'z') ch -= 32;
                else if (in.op == OP_LOWER && ch >= 'A' && ch <= 'Z') ch += 32;
                o[k] = ch;
            }
            rl[d] = (i64)(u64)o;
            rh[d] = n;
            break;
        }
        case OP_CONCAT: {
            rn[d] = nab;
            unsigned char *o = scr + in.c;
            int n = 0;
            if (!nab) {
                const unsigned char *x = (const unsigned char *)rl[a], *y = (const unsigned char *)rl[b];
                for (int k = 0; k < (int)rh[a]; k++) o[n++] = x[k];
                for (int k = 0; k < (int)rh[b]; k++) o[n++] = y[k];
            }
            rl[d] = (i64)(u64)o;
            rh[d] = n;
            break;
        }
        case OP_SUBSTR: {
            // characters [from, to) of a, 1-based (engine/eval's substr)
            bool nul = nab || (in.imm && rn[in.c]);
            rn[d] = nul;
            const unsigned char *s = (const unsigned char *)rl[a];
            int n = nul ? 0 : (int)rh[a];
            i64 from = rl[b], to = 1LL << 62;
            if (in.imm && !nul) {
                i64 cnt = rl[in.c];
                if (cnt < 0) {
                    if (on) raise(e, ERR_SUBSTRING, 0, row);
                    n = 0;
                }
                to = (i64)((u64)from + (u64)cnt);
            }
            if (from < 1) from = 1;
            int sb = n, eb = n;
            if (to > from) {
                i64 pos = 1;
                for (int k = 0; k < n; k += runeW(s + k, n - k)) {
                    if (pos == from) sb = k;
                    if (pos == to) { eb = k; break; }
                    pos++;
                }
            } else sb = eb = 0;
            if (sb > eb) sb = eb;
            rl[d] = (i64)(u64)(s + sb);
            rh[d] = eb - sb;
            break;
        }
        case OP_PADCHAR: {
            // a char(imm) value with its blank padding
            rn[d] = rn[a];
            unsigned char *o = scr + in.c;
            const unsigned char *s = (const unsigned char *)rl[a];
            int n = rn[a] ? 0 : (int)rh[a];
            for (int k = 0; k < n; k++) o[k] = s[k];
            if (!rn[a]) {
                for (i64 c = runeCount(s, n); c < in.imm; c++) o[n++] = ' ';
            }
            rl[d] = (i64)(u64)o;
            rh[d] = n;
            break;
        }
        case OP_TOTEXT: {
            rn[d] = rn[a];
            unsigned char *o = scr + in.c;
            rl[d] = (i64)(u64)o;
            rh[d] = rn[a] ? 0 : putText(o, (int)(in.imm & 0xff), (int)(in.imm >> 8), rl[a], rh[a]);
            break;
        }
        case OP_LIMITCHARS: {
            // explicit cast to varchar(n)/char(n): the first n characters
            // (n = imm & 0xffffffff, 0: all), char(n) without trailing blanks
            rn[d] = rn[a];
            const unsigned char *s = (const unsigned char *)rl[a];
            int n = rn[a] ? 0 : (int)rh[a];
            i64 lim = in.imm & 0xffffffffLL;
            if (lim > 0 && n > lim) n = prefixBytes(s, n, lim);
            if (in.imm >> 32) {
                while (n > 0 && s[n - 1] == ' ') n--;
            }
            rl[d] = (i64)(u64)s;
            rh[d] = n;
            break;
        }
        case OP_TRIM: {
            // btrim/ltrim/rtrim by an ASCII set b (imm bit 0 left, bit 1 right)
            rn[d] = nab;
            const unsigned char *s = (const unsigned char *)rl[a], *set = (const unsigned char *)rl[b];
            int n = nab ? 0 : (int)rh[a], m = nab ? 0 : (int)rh[b], st = 0;
            if (in.imm & 1) {
                while (st < n && inSet(s[st], set, m)) st++;
            }
            if (in.imm & 2) {
                while (n > st && inSet(s[n - 1], set, m)) n--;
            }
            rl[d] = (i64)(u64)(s + st);
            rh[d] = n - st;
            break;
        }
        case OP_REPLACE: {
            // every non-overlapping b in a, left to right, replaced by c
            bool nul = nab || rn[in.c];
            rn[d] = nul;
            unsigned char *o = scr + in.imm;
            int n = 0;
            if (!nul) {
                const unsigned char *s = (const unsigned char *)rl[a], *f = (const unsigned char *)rl[b],
                                    *t = (const unsigned char *)rl[in.c];
                int ls = (int)rh[a], lf = (int)rh[b], lt = (int)rh[in.c];
                for (int k = 0; k < ls;) {
                    bool hit = lf > 0 && k + lf <= ls;
                    for (int j = 0; hit && j < lf; j++) hit = s[k + j] == f[j];
                    if (hit) {
                        for (int j = 0; j < lt; j++) o[n++] = t[j];
                        k += lf;
                    } else o[n++] = s[k++];
                }
            }
            rl[d] = (i64)(u64)o;
            rh[d] = n;
            break;
        }
        default:
            if (on) raise(e, ERR_UNSUPPORTED, 1000 + in.op, row);
            break;
        }
    }
}

#define TPB 128

// scratchOf is the calling thread's scratch area (grids are at most the
// size the host allocated for).
__device__ __forceinline__ unsigned char *scratchOf(const QArgs &q) {
    if (!q.scratch) return 0;
    return (unsigned char *)q.scratch + ((i64)blockIdx.x * blockDim.x + threadIdx.x) * q.scrstride;
}

__device__ __forceinline__ void loadProg(const QArgs &q, QIns *sp) {
    const QIns *p = (const QIns *)q.prog;
    for (int i = threadIdx.x; i < q.nins; i += blockDim.x) sp[i] = p[i];
    __syncthreads();
}

// q_filter evaluates the filter register over rows [0, n): bit i%32 of
// word i/32 of bitmap is set when row i passes; counts[c] is the number of
// passing rows in 1024-row chunk c (zeroed by the caller).
extern "C" __global__ void __launch_bounds__(TPB) q_filter(QArgs q) {
    __shared__ QIns sp[MAXINS];
    loadProg(q, sp);
    i64 rl[MAXR], rh[MAXR];
    unsigned char rn[MAXR];
    const QCol *cols = (const QCol *)q.cols;
    const QConst *consts = (const QConst *)q.consts;
    QErr *e = (QErr *)q.err;
    unsigned char *scr = scratchOf(q);
    unsigned *bm = (unsigned *)q.bitmap;
    unsigned *counts = (unsigned *)q.counts;
    for (i64 base = (i64)blockIdx.x * TPB; base < q.n; base += (i64)gridDim.x * TPB) {
        i64 row = base + threadIdx.x;
        bool pass = false;
        if (row < q.n) {
            rl[0] = 1; rh[0] = 0; rn[0] = 0;
            run(sp, q.nins, cols, consts, e, row, rl, rh, rn, scr);
            pass = truthy(rl, rn, q.filter);
        }
        unsigned bal = __ballot_sync(0xffffffffu, pass);
        if ((threadIdx.x & 31) == 0 && base + threadIdx.x < q.n) {
            bm[(base + threadIdx.x) >> 5] = bal;
            if (bal) atomicAdd(&counts[(base + threadIdx.x) >> 10], __popc(bal));
        }
    }
}

// q_scan turns counts[0..nchunks) into exclusive offsets, in place, and
// stores the total at counts[nchunks]. One block.
extern "C" __global__ void q_scan(u64 countsPtr, i64 nchunks) {
    unsigned *c = (unsigned *)countsPtr;
    __shared__ unsigned long long part[1024];
    i64 per = (nchunks + blockDim.x - 1) / blockDim.x;
    i64 lo = threadIdx.x * per, hi = lo + per;
    if (hi > nchunks) hi = nchunks;
    unsigned long long s = 0;
    for (i64 i = lo; i < hi; i++) s += c[i];
    part[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long acc = 0;
        for (int i = 0; i < blockDim.x; i++) {
            unsigned long long t = part[i];
            part[i] = acc;
            acc += t;
        }
        c[nchunks] = (unsigned)acc;
    }
    __syncthreads();
    unsigned long long acc = part[threadIdx.x];
    for (i64 i = lo; i < hi; i++) {
        unsigned t = c[i];
        c[i] = (unsigned)acc;
        acc += t;
    }
}

// q_compact writes the ids of passing rows, in row order, to sel, keeping
// only those below limit. One warp per 1024-row chunk.
extern "C" __global__ void q_compact(u64 bitmapPtr, u64 countsPtr, u64 selPtr, i64 n, i64 limit) {
    const unsigned *bm = (const unsigned *)bitmapPtr;
    const unsigned *off = (const unsigned *)countsPtr;
    int *sel = (int *)selPtr;
    int lane = threadIdx.x & 31;
    i64 nchunks = (n + 1023) >> 10;
    for (i64 chunk = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; chunk < nchunks;
         chunk += ((i64)gridDim.x * blockDim.x) >> 5) {
        i64 w = chunk * 32 + lane;
        unsigned word = (w * 32 < n) ? bm[w] : 0;
        unsigned cnt = __popc(word);
        unsigned pre = cnt;
        for (int o = 1; o < 32; o <<= 1) {
            unsigned t = __shfl_up_sync(0xffffffffu, pre, o);
            if (lane >= o) pre += t;
        }
        i64 pos = (i64)off[chunk] + pre - cnt;
        while (word) {
            int b = __ffs(word) - 1;
            word &= word - 1;
            if (pos < limit) sel[pos] = (int)(w * 32 + b);
            pos++;
        }
    }
}

__device__ __forceinline__ i64 rowOf(const QArgs &q, i64 i) {
    return q.sel ? (i64)((const int *)q.sel)[i] : i;
}

// q_project evaluates the program over the selected rows and writes the
// output registers.
extern "C" __global__ void __launch_bounds__(TPB) q_project(QArgs q) {
    __shared__ QIns sp[MAXINS];
    loadProg(q, sp);
    i64 rl[MAXR], rh[MAXR];
    unsigned char rn[MAXR];
    const QCol *cols = (const QCol *)q.cols;
    const QConst *consts = (const QConst *)q.consts;
    QErr *e = (QErr *)q.err;
    unsigned char *scr = scratchOf(q);
    const QOut *outs = (const QOut *)q.outs;
    for (i64 i = (i64)blockIdx.x * TPB + threadIdx.x; i < q.n; i += (i64)gridDim.x * TPB) {
        i64 row = rowOf(q, i);
        rl[0] = 1; rh[0] = 0; rn[0] = 0;
        run(sp, q.nins, cols, consts, e, row, rl, rh, rn, scr);
        for (int k = 0; k < q.nouts; k++) {
            const QOut o = outs[k];
            int r = o.reg;
            ((unsigned char *)o.nul)[i] = rn[r];
            if (o.cls == CLS_STR) {
                unsigned char *dst = (unsigned char *)o.str + i * (i64)o.width;
                const unsigned char *src = (const unsigned char *)rl[r];
                int n = rn[r] ? 0 : (int)rh[r];
                if (n > o.width) n = o.width;
                for (int j = 0; j < n; j++) dst[j] = src[j];
                for (int j = n; j < o.width; j++) dst[j] = 0;
                ((i64 *)o.lo)[i] = n;
            } else {
                ((i64 *)o.lo)[i] = rl[r];
                if (o.hi) ((i64 *)o.hi)[i] = rh[r];
            }
        }
    }
}

__device__ __forceinline__ u64 mix(u64 h, u64 x) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

__device__ __forceinline__ u64 fmix(u64 k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb3f99e3779b9ULL;
    k ^= k >> 33;
    return k;
}

// keyEq compares the row's key registers with group g's stored keys.
__device__ bool keyEq(const QKey *keys, int nkeys, int g, const i64 *rl, const i64 *rh, const unsigned char *rn) {
    for (int k = 0; k < nkeys; k++) {
        const QKey K = keys[k];
        int r = K.reg;
        unsigned char gn = ((volatile unsigned char *)K.nul)[g];
        if (gn != rn[r]) return false;
        if (gn) continue;
        if (((volatile i64 *)K.lo)[g] != rl[r]) {
            if (K.cls != CLS_STR) return false;
        }
        if (K.cls == CLS_STR) {
            int n = (int)rh[r];
            if (((volatile i64 *)K.lo)[g] != n) return false;
            const volatile unsigned char *s = (const volatile unsigned char *)K.str + (i64)g * K.width;
            const unsigned char *t = (const unsigned char *)rl[r];
            for (int j = 0; j < n; j++)
                if (s[j] != t[j]) return false;
        } else if (K.cls == CLS_DEC) {
            if (((volatile i64 *)K.hi)[g] != rh[r]) return false;
        }
    }
    return true;
}

// q_group evaluates the filter and the key registers, finds or inserts the
// row's group in the hash table and writes its id to gids (-1: filtered
// out). Slots hold -1 (empty), -2 (being filled) or a group id. Group ids
// past maxgroups set ngroups[1] (overflow) and the caller retries larger.
extern "C" __global__ void __launch_bounds__(TPB) q_group(QArgs q) {
    __shared__ QIns sp[MAXINS];
    loadProg(q, sp);
    i64 rl[MAXR], rh[MAXR];
    unsigned char rn[MAXR];
    const QCol *cols = (const QCol *)q.cols;
    const QConst *consts = (const QConst *)q.consts;
    QErr *e = (QErr *)q.err;
    unsigned char *scr = scratchOf(q);
    const QKey *keys = (const QKey *)q.keys;
    int *ht = (int *)q.ht;
    int *ng = (int *)q.ngroups;
    int *gids = (int *)q.gids;
    for (i64 row = (i64)blockIdx.x * TPB + threadIdx.x; row < q.n; row += (i64)gridDim.x * TPB) {
        rl[0] = 1; rh[0] = 0; rn[0] = 0;
        run(sp, q.nins, cols, consts, e, row, rl, rh, rn, scr);
        if (q.filter > 0 && !truthy(rl, rn, q.filter)) {
            gids[row] = -1;
            continue;
        }
        // float keys group as the CPU's eval.AppendKey: -0 with 0, every NaN together
        for (int k = 0; k < q.nkeys; k++) {
            int r = keys[k].reg;
            if (keys[k].cls != CLS_F32 && keys[k].cls != CLS_F64) continue;
            double f = __longlong_as_double(rl[r]);
            if (f == 0) rl[r] = 0;
            else if (f != f) rl[r] = 0x7FF8000000000001LL;
        }
        u64 h = 0x12345;
        for (int k = 0; k < q.nkeys; k++) {
            int r = keys[k].reg;
            if (rn[r]) { h = mix(h, 0xabcdef); continue; }
            if (keys[k].cls == CLS_STR) {
                const unsigned char *s = (const unsigned char *)rl[r];
                int n = (int)rh[r];
                u64 x = n;
                for (int j = 0; j < n; j++) x = x * 0x100000001b3ULL ^ s[j];
                h = mix(h, x);
            } else {
                h = mix(h, (u64)rl[r]);
                if (keys[k].cls == CLS_DEC) h = mix(h, (u64)rh[r]);
            }
        }
        u64 slot = fmix(h) & (u64)q.htmask;
        int gid = -1;
        for (int probes = 0; probes <= q.htmask; probes++) {
            int s = ((volatile int *)ht)[slot];
            if (s == -1) {
                if (atomicCAS(&ht[slot], -1, -2) == -1) {
                    int g = atomicAdd(&ng[0], 1);
                    if (g >= q.maxgroups) {
                        atomicExch(&ng[1], 1);
                        atomicExch(&ht[slot], -3);
                        break;
                    }
                    for (int k = 0; k < q.nkeys; k++) {
                        const QKey K = keys[k];
                        int r = K.reg;
                        ((unsigned char *)K.nul)[g] = rn[r];
                        if (K.cls == CLS_STR) {
                            int n = rn[r] ? 0 : (int)rh[r];
                            ((i64 *)K.lo)[g] = n;
                            unsigned char *dst = (unsigned char *)K.str + (i64)g * K.width;
                            const unsigned char *src = (const unsigned char *)rl[r];
                            for (int j = 0; j < K.width; j++) dst[j] = j < n ? src[j] : 0;
                        } else {
                            ((i64 *)K.lo)[g] = rn[r] ? 0 : rl[r];
                            ((i64 *)K.hi)[g] = rn[r] ? 0 : rh[r];
                        }
                    }
                    __threadfence();
                    atomicExch(&ht[slot], g);
                    gid = g;
                    break;
                }
                continue; // lost the race: look at the slot again
            }
            if (s == -2) { probes--; continue; } // being filled: wait
            if (s == -3) break;                  // overflowed
            if (keyEq(keys, q.nkeys, s, rl, rh, rn)) { gid = s; break; }
            slot = (slot + 1) & (u64)q.htmask;
        }
        gids[row] = gid;
    }
}

// Accumulation. A sum is 192-bit two's complement in three words. Values
// that fit in int64 are split into a signed high half and an unsigned low
// half so that per-block shared sums cannot overflow 64 bits.

__device__ __forceinline__ void add192(u64 *w, i128 x) {
    u64 x0 = (u64)x, x1 = (u64)((u128)x >> 64), x2 = x < 0 ? ~0ULL : 0ULL;
    u64 old = atomicAdd((unsigned long long *)&w[0], (unsigned long long)x0);
    u64 c = (old + x0) < old;
    u64 m = x1 + c;
    u64 cm = m < x1;
    u64 old1 = atomicAdd((unsigned long long *)&w[1], (unsigned long long)m);
    u64 c1 = ((old1 + m) < old1) | cm;
    atomicAdd((unsigned long long *)&w[2], (unsigned long long)(x2 + c1));
}

// flushSplit adds hi*2^32 + lo (hi signed, lo unsigned) to w.
__device__ __forceinline__ void flushSplit(u64 *w, i64 hi, u64 lo) {
    i128 v = ((i128)hi << 32) + (i128)(u128)lo;
    add192(w, v);
}

__device__ __forceinline__ i64 fkey(double f) {
    if (f != f) return 0x7fffffffffffffffLL; // NaN sorts above everything
    if (f == 0) f = 0;
    i64 b = __double_as_longlong(f);
    return b < 0 ? (i64)(b ^ 0x7fffffffffffffffLL) : b;
}

// strLenAt is the length of a stored string value: up to the first NUL
// within the column width (pad & 0xffff), less trailing blanks for
// char(n) (pad bit 16), as OP_COL reads it.
__device__ int strLenAt(const unsigned char *s, int pad) {
    int w = pad & 0xffff, n = 0;
    while (n < w && s[n] != 0) n++;
    if (pad & 0x10000) {
        while (n > 0 && s[n - 1] == ' ') n--;
    }
    return n;
}

// strBest makes *best (the address of the best string value so far, or
// all ones) point to s when s sorts before it (min) or after it (max),
// bytewise as the CPU compares strings. Lock-free: column data never
// moves during a query, so an address stands for its value.
__device__ void strBest(u64 *best, const unsigned char *s, int n, int pad, bool mn) {
    u64 cur = *(volatile u64 *)best;
    for (;;) {
        if (cur != ~0ULL) {
            const unsigned char *b = (const unsigned char *)cur;
            int c = cmps(s, n, b, strLenAt(b, pad));
            if (mn ? c >= 0 : c <= 0) return;
        }
        u64 old = atomicCAS((unsigned long long *)best, (unsigned long long)cur, (unsigned long long)(u64)s);
        if (old == cur) return;
        cur = old;
    }
}

// Shared per-block accumulator of one aggregate of one group.
struct SAcc {
    u64 cnt;
    u64 lo; // sum of low 32-bit halves; float: double sum; minmax: has flag
    i64 hi; // sum of high halves; minmax: best key
};

// q_agg accumulates aggregates. Rows: with gids, those with gid >= 0 (the
// program computes only the arguments); without, those passing the filter
// (group 0). accgroups groups get per-block shared accumulators; larger
// group counts (accgroups 0) go straight to global atomics.
extern "C" __global__ void __launch_bounds__(TPB) q_agg(QArgs q) {
    __shared__ QIns sp[MAXINS];
    extern __shared__ SAcc sacc[];
    loadProg(q, sp);
    i64 rl[MAXR], rh[MAXR];
    unsigned char rn[MAXR];
    const QCol *cols = (const QCol *)q.cols;
    const QConst *consts = (const QConst *)q.consts;
    QErr *e = (QErr *)q.err;
    unsigned char *scr = scratchOf(q);
    const QAgg *aggs = (const QAgg *)q.aggs;
    QAcc *acc = (QAcc *)q.acc;
    const int *gids = (const int *)q.gids;
    int na = q.nagg;
    int nsh = q.accgroups * na;
    for (int i = threadIdx.x; i < nsh; i += blockDim.x) {
        sacc[i].cnt = 0;
        sacc[i].lo = 0;
        int cls = aggs[i % na].cls;
        sacc[i].hi = cls == ACC_MINMAX_I || cls == ACC_MINMAX_F || cls == ACC_MINMAX_D ? (aggs[i % na].fn == AGG_MIN ? 0x7fffffffffffffffLL : (i64)0x8000000000000000ULL) : 0;
    }
    __syncthreads();
    // A global aggregate accumulates per thread first: no contention.
    const bool local = !gids && q.accgroups == 1;
    u64 lc[MAXAGG], llo[MAXAGG];
    i64 lhi[MAXAGG];
    if (local) {
        for (int a = 0; a < na; a++) {
            lc[a] = 0; llo[a] = 0;
            lhi[a] = aggs[a].fn == AGG_MIN ? 0x7fffffffffffffffLL : (i64)0x8000000000000000ULL;
            if (aggs[a].cls == ACC_INT) lhi[a] = 0;
        }
    }
    for (i64 row = (i64)blockIdx.x * TPB + threadIdx.x; row < q.n; row += (i64)gridDim.x * TPB) {
        int g = 0;
        if (gids) {
            g = gids[row];
            if (g < 0) continue;
        }
        rl[0] = 1; rh[0] = 0; rn[0] = 0;
        run(sp, q.nins, cols, consts, e, row, rl, rh, rn, scr);
        if (!gids && q.filter > 0 && !truthy(rl, rn, q.filter)) continue;
        for (int a = 0; a < na; a++) {
            const QAgg A = aggs[a];
            if (A.reg >= 0 && rn[A.reg]) continue;
            QAcc *G = &acc[(i64)g * na + a];
            if (A.cls == ACC_MINMAX_S) {
                if (local) lc[a]++;
                else atomicAdd((unsigned long long *)&G->cnt, 1ULL);
                strBest(&G->s0, (const unsigned char *)rl[A.reg], (int)rh[A.reg], A.pad, A.fn == AGG_MIN);
                continue;
            }
            i64 v = A.reg >= 0 ? rl[A.reg] : 0;
            bool fits = A.reg >= 0 && rh[A.reg] == (v >> 63);
            if (A.cls == ACC_MINMAX_D && !fits) {
                raise(e, ERR_UNSUPPORTED, 2, row);
                continue;
            }
            if (local) {
                lc[a]++;
                switch (A.cls) {
                case ACC_INT:
                    if (fits) { llo[a] += (u64)v & 0xffffffffULL; lhi[a] += v >> 32; }
                    else add192(&G->s0, mk128(v, rh[A.reg]));
                    break;
                case ACC_FLOAT: llo[a] = __double_as_longlong(__longlong_as_double(llo[a]) + __longlong_as_double(v)); break;
                case ACC_MINMAX_I: case ACC_MINMAX_F: case ACC_MINMAX_D: {
                    i64 k = A.cls == ACC_MINMAX_F ? fkey(__longlong_as_double(v)) : v;
                    if (A.fn == AGG_MIN ? k < lhi[a] : k > lhi[a]) lhi[a] = k;
                    break;
                }
                }
                continue;
            }
            bool shared = g < q.accgroups;
            SAcc *s = &sacc[g * na + a];
            if (shared) atomicAdd((unsigned long long *)&s->cnt, 1ULL);
            else atomicAdd((unsigned long long *)&G->cnt, 1ULL);
            if (A.fn == AGG_COUNT || A.fn == AGG_COUNTSTAR) continue;
            switch (A.cls) {
            case ACC_INT:
                if (shared && fits) {
                    atomicAdd((unsigned long long *)&s->lo, (unsigned long long)((u64)v & 0xffffffffULL));
                    atomicAdd((unsigned long long *)&s->hi, (unsigned long long)(v >> 32));
                } else {
                    add192(&G->s0, mk128(v, rh[A.reg]));
                }
                break;
            case ACC_FLOAT:
                if (shared) atomicAdd((double *)&s->lo, __longlong_as_double(v));
                else atomicAdd((double *)&G->s0, __longlong_as_double(v));
                break;
            case ACC_MINMAX_I: case ACC_MINMAX_F: case ACC_MINMAX_D: {
                i64 k = A.cls == ACC_MINMAX_F ? fkey(__longlong_as_double(v)) : v;
                i64 *t = shared ? &s->hi : (i64 *)&G->s0;
                if (A.fn == AGG_MIN) atomicMin((long long *)t, (long long)k);
                else atomicMax((long long *)t, (long long)k);
                break;
            }
            }
        }
    }
    if (local) {
        // warp reduce, then one shared atomic per warp and aggregate
        for (int a = 0; a < na; a++) {
            u64 c = lc[a], lo = llo[a];
            i64 hi = lhi[a];
            int cls = aggs[a].cls;
            bool mn = aggs[a].fn == AGG_MIN;
            for (int o = 16; o > 0; o >>= 1) {
                c += __shfl_xor_sync(0xffffffffu, c, o);
                u64 lo2 = __shfl_xor_sync(0xffffffffu, lo, o);
                i64 hi2 = __shfl_xor_sync(0xffffffffu, hi, o);
                if (cls == ACC_INT) { lo += lo2; hi += hi2; }
                else if (cls == ACC_FLOAT) lo = __double_as_longlong(__longlong_as_double(lo) + __longlong_as_double(lo2));
                else hi = mn ? (hi2 < hi ? hi2 : hi) : (hi2 > hi ? hi2 : hi);
            }
            if ((threadIdx.x & 31) == 0 && c > 0) {
                SAcc *s = &sacc[a];
                atomicAdd((unsigned long long *)&s->cnt, (unsigned long long)c);
                if (cls == ACC_INT) {
                    // halves of a warp's sums: lo < 2^32 * rows, safe for < 2^32 rows per warp
                    atomicAdd((unsigned long long *)&s->lo, (unsigned long long)(lo & 0xffffffffULL));
                    atomicAdd((unsigned long long *)&s->hi, (unsigned long long)(hi + (i64)(lo >> 32)));
                } else if (cls == ACC_FLOAT) atomicAdd((double *)&s->lo, __longlong_as_double(lo));
                else if (mn) atomicMin((long long *)&s->hi, (long long)hi);
                else atomicMax((long long *)&s->hi, (long long)hi);
            }
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < nsh; i += blockDim.x) {
        const QAgg A = aggs[i % na];
        SAcc s = sacc[i];
        if (s.cnt == 0) continue;
        QAcc *G = &acc[i];
        atomicAdd((unsigned long long *)&G->cnt, (unsigned long long)s.cnt);
        switch (A.cls) {
        case ACC_INT: flushSplit(&G->s0, s.hi, s.lo); break;
        case ACC_FLOAT: atomicAdd((double *)&G->s0, __longlong_as_double((i64)s.lo)); break;
        case ACC_MINMAX_I:
        case ACC_MINMAX_F:
        case ACC_MINMAX_D:
            if (A.fn == AGG_MIN) atomicMin((long long *)&G->s0, (long long)s.hi);
            else atomicMax((long long *)&G->s0, (long long)s.hi);
            break;
        }
    }
}

// q_minmax finds the smallest and largest non-NULL value of an integer-
// like column (bool, smallint, integer/date, bigint/timestamp, numeric as
// its scaled int64) and counts the non-NULL values: out[0] min, out[1]
// max (the caller sets them to INT64_MAX and INT64_MIN), out[2] count
// (zeroed by the caller). The GPU backend proves value ranges with these
// (engine/gpu/stats.go).
extern "C" __global__ void __launch_bounds__(256) q_minmax(u64 data, u64 valid, i64 n, int cls, u64 outPtr) {
    i64 lo = 0x7fffffffffffffffLL, hi = (i64)0x8000000000000000ULL;
    unsigned long long cnt = 0;
    QCol c;
    c.data = data;
    c.valid = valid;
    for (i64 row = (i64)blockIdx.x * blockDim.x + threadIdx.x; row < n; row += (i64)gridDim.x * blockDim.x) {
        if (!validAt(c, row)) continue;
        i64 v;
        switch (cls) {
        case CLS_BOOL: v = ((const unsigned char *)data)[row]; break;
        case CLS_I16: v = ((const short *)data)[row]; break;
        case CLS_I32: v = ((const int *)data)[row]; break;
        default: v = ((const i64 *)data)[row]; break;
        }
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        cnt++;
    }
    for (int o = 16; o > 0; o >>= 1) {
        i64 l2 = __shfl_xor_sync(0xffffffffu, lo, o), h2 = __shfl_xor_sync(0xffffffffu, hi, o);
        cnt += __shfl_xor_sync(0xffffffffu, cnt, o);
        lo = l2 < lo ? l2 : lo;
        hi = h2 > hi ? h2 : hi;
    }
    if ((threadIdx.x & 31) == 0 && cnt > 0) {
        i64 *out = (i64 *)outPtr;
        atomicMin((long long *)&out[0], (long long)lo);
        atomicMax((long long *)&out[1], (long long)hi);
        atomicAdd((unsigned long long *)&out[2], cnt);
    }
}
