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

#define MAXR 64     // registers in the thread's own file; longer programs use q.regs
#define MAXINS 512  // instructions kept in shared memory; longer programs run from q.prog
#define MAXPC 4095  // the most instructions a program has (the error key's pc field)
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
    u64 word;  // ~(the first error's key, see raiseAt); 0: none
    i64 pad;
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
    u64 regs;      // programs of more than MAXR registers: nregs*17 bytes (rounded
                   // up to 8) per thread of the grid, or 0: the thread's own file
    int nregs;     // registers of the program (with regs)
    int regblocks; // the most blocks the host launches (regs, a wide scratch), 0: any
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
// interval values (interval section below), numbered apart too
enum { OP_TSADDINTV = 200, OP_TSDIFF, OP_INTVADD, OP_INTVNEG };
// justify_*, date_trunc of an interval, age, time - time and random()
// (intv2 section below), numbered apart too
enum { OP_JUSTIFY = 1700, OP_INTVTRUNC, OP_AGE, OP_TIMEDIFF, OP_RANDOM };
// float to numeric and interval spans (f2d ops below), numbered apart too
enum { OP_F2D = 300, OP_SPANV };
// GROUP BY keys whose scale varies by row (rowkeys ops below), numbered apart too
enum { OP_DNORM = 600 };
// a numeric column whose rows keep scales of their own (rowkeys ops
// below), numbered apart too
enum { OP_COLR = 1600 };
// quote_ident/quote_literal/quote_nullable (tail section below), numbered apart too
enum { OP_QUOTE = 700 };
// an interval's field as a scale-0 numeric, for sum/avg over intervals
// (tail4 section below), numbered apart too
enum { OP_INTVFIELD = 1100 };
// math functions and date_trunc (math section below), numbered apart too
enum { OP_MATHF = 1200, OP_DINTEGRAL, OP_DATETRUNC, OP_TZLOCAL, OP_TZUTC, OP_FMATH };
// sqrt of a negative number (arg 1), an instant past a zone table's end
// (arg 2), the log of zero (3) or of a negative number (4), zero to a
// negative power (5), a negative number to a non-integer power (6),
// numbered apart from the errors above
enum { ERR_MATH = 29 };

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

// float NaN or infinity to numeric (arg: 1 NaN, 2 Infinity, 3 -Infinity),
// numbered apart from the list above
enum { ERR_NAN_NUMERIC = 20 };

enum { AGG_COUNTSTAR = 0, AGG_COUNT, AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX };
enum { ACC_COUNT = 0, ACC_INT, ACC_FLOAT, ACC_MINMAX_I, ACC_MINMAX_F, ACC_MINMAX_D, ACC_MINMAX_S };

// raiseAt records an error so that, of all the rows and instructions
// that fail, the one the CPU backend raises wins whatever the threads'
// order: the CPU evaluates batches of 4096 rows in table order (workers
// take contiguous ranges, and the lowest failing one's error is
// returned), each batch operator by operator (the program's instruction
// order), each operator row by row. So the key is (row / 4096, pc,
// row % 4096), followed by the code and its argument, and the smallest
// key wins: its complement goes to e->word by atomicMax (the word starts
// at 0, no error). Bits: 63..40 batch (24 bits, 2^36 rows), 39..28 pc,
// 27..16 row in batch, 15..11 code, 10..0 arg (ERR_UNSUPPORTED's opcode
// arguments 1000 + op become 1024 + op, op < 512; see backend.go's check).
#define ERR_BATCH_BITS 12 // engine/cpu's batchRows = 4096
__device__ __forceinline__ void raiseAt(QErr *e, int code, int arg, i64 row, int pc) {
    u64 batch = (u64)row >> ERR_BATCH_BITS;
    if (batch >= ((u64)1 << 24)) batch = ((u64)1 << 24) - 1;
    if (code == ERR_UNSUPPORTED && arg >= 1000) arg = 1024 + (arg - 1000);
    u64 key = batch << 40 | (u64)(pc & MAXPC) << 28 | ((u64)row & ((1 << ERR_BATCH_BITS) - 1)) << 16 |
              (u64)(code & 31) << 11 | (u64)(arg & 2047);
    atomicMax((unsigned long long *)&e->word, (unsigned long long)~key);
}

// raise is an error outside the program (after every instruction of the row).
__device__ __forceinline__ void raise(QErr *e, int code, int arg, i64 row) { raiseAt(e, code, arg, row, MAXPC); }

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

// tzLoad reads the little-endian int64 at byte o of a zone table (the
// string pool does not align it).
__device__ __forceinline__ i64 tzLoad(const unsigned char *p, int o) {
    u64 v = 0;
    for (int k = 7; k >= 0; k--) v = v << 8 | p[o + k];
    return (i64)v;
}

// TZ_PERIOD is 400 Gregorian years in seconds (engine.TzPeriod): a zone's
// offsets past its table repeat with it.
#define TZ_PERIOD (146097LL * 86400LL)

// tzFind is the last transition of a zone table (n, limit, then n pairs
// of start and offset seconds, the first start the smallest int64) that
// starts at or before the Unix second t.
__device__ int tzFind(const unsigned char *tab, i64 t) {
    int lo = 0, hi = (int)tzLoad(tab, 0) - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (tzLoad(tab, 16 + 16 * mid) <= t) lo = mid;
        else hi = mid - 1;
    }
    return lo;
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

// ---- dates begin ----
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

// Interval registers: lo microseconds, hi months << 32 | (unsigned)days.
#define INT_MIN32 (-2147483647 - 1)
// the last timestamp int64 microseconds reach (engine/eval's maxTimestamp)
#define MAX_TS 9223371244799999999LL
#define MIN_TS (MIN_DATE * US_PER_DAY)

__device__ __forceinline__ int ivMonths(i64 hi) { return (int)(hi >> 32); }
__device__ __forceinline__ int ivDays(i64 hi) { return (int)(unsigned)(u64)hi; }
__device__ __forceinline__ i64 ivHi(int months, int days) {
    return (i64)(((u64)(unsigned)months << 32) | (u64)(unsigned)days);
}

__device__ __forceinline__ int monthLen(i64 y, int m) {
    if (m == 4 || m == 6 || m == 9 || m == 11) return 30;
    if (m == 2) return (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28;
    return 31;
}

// ---- dates end ----

// tsAddInterval is engine/eval's addInterval: months first (the day
// clamped to the month's end), then days, then microseconds; false when
// the result leaves the timestamp range.
__device__ bool tsAddInterval(i64 ts, int months, int days, i64 us, i64 *r) {
    if (months != 0) {
        i64 dd = floorDiv(ts, US_PER_DAY);
        i64 tod = ts - dd * US_PER_DAY;
        int y, m, d;
        civil(dd, &y, &m, &d);
        i64 mm = (i64)y * 12 + (m - 1) + months;
        i64 ny = floorDiv(mm, 12);
        int nm = (int)(mm - ny * 12) + 1;
        int ml = monthLen(ny, nm);
        if (d > ml) d = ml;
        if (ny < -4713 || ny > 294246) return false;
        ts = daysFromCivil((int)ny, nm, d) * US_PER_DAY + tod;
    }
    const i64 maxDays = 9223372036854775807LL / US_PER_DAY;
    if (days > maxDays || days < -maxDays) return false;
    i64 x = (i64)days * US_PER_DAY;
    i64 s1 = (i64)((u64)ts + (u64)x);
    bool ok1 = (ts >= 0) != (x >= 0) || (s1 >= 0) == (ts >= 0);
    i64 s2 = (i64)((u64)s1 + (u64)us);
    bool ok2 = (s1 >= 0) != (us >= 0) || (s2 >= 0) == (s1 >= 0);
    *r = s2;
    return ok1 && ok2 && s2 >= MIN_TS && s2 <= MAX_TS;
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

// ---- regex begin: regular expressions and trim by any characters ----
// (engine/gpu/regex.go compiles a pattern to the automaton OP_REGEX walks;
// numbered apart from the other opcode lists)
enum { OP_REGEX = 400, OP_TRIMU, OP_REGEXREP };

// reRune is the character at s (n > 0 bytes left) and its width as Go's
// utf8.DecodeRune reads it: an invalid or cut-off sequence is U+FFFD one
// byte wide.
__device__ __forceinline__ unsigned reRune(const unsigned char *s, int n, int *w) {
    unsigned c = s[0];
    *w = runeW(s, n);
    switch (*w) {
    case 1: return c < 0x80 ? c : 0xFFFD;
    case 2: return (c & 0x1F) << 6 | (s[1] & 0x3F);
    case 3: return (c & 0x0F) << 12 | (s[1] & 0x3F) << 6 | (s[2] & 0x3F);
    }
    return (c & 0x07) << 18 | (s[1] & 0x3F) << 12 | (s[2] & 0x3F) << 6 | (s[3] & 0x3F);
}

// reLastRune is utf8.DecodeLastRune of s[:n] (n > 0).
__device__ unsigned reLastRune(const unsigned char *s, int n, int *w) {
    if (s[n - 1] < 0x80) { *w = 1; return s[n - 1]; }
    int lim = n - 4 < 0 ? 0 : n - 4, st = n - 2;
    for (; st >= lim; st--)
        if ((s[st] & 0xC0) != 0x80) break;
    if (st < 0) st = 0;
    unsigned r = reRune(s + st, n - st, w);
    if (st + *w != n) { *w = 1; return 0xFFFD; }
    return r;
}

// reMatch runs the automaton at blob (regexDFA.blob's layout: header
// states, columns, start, nr; uint16 ascii[128]; uint32 lo[nr]; uint16
// cls[nr] padded to even; uint16 next[states][columns]) over s. State 0:
// no match can follow; 1: matched; the last column is the end of the text.
__device__ bool reMatch(const unsigned char *blob, const unsigned char *s, int n) {
    const unsigned *h = (const unsigned *)blob;
    const int ncol = (int)h[1], nr = (int)h[3];
    unsigned st = h[2];
    const unsigned short *ascii = (const unsigned short *)(h + 4);
    const unsigned *lo = h + 4 + 64;
    const unsigned short *cls = (const unsigned short *)(lo + nr);
    const unsigned short *next = cls + nr + (nr & 1);
    for (int k = 0; k < n && st > 1;) {
        unsigned c = s[k], x;
        if (c < 0x80) {
            x = ascii[c];
            k++;
        } else {
            int w;
            unsigned r = reRune(s + k, n - k, &w);
            k += w;
            int a = 0, b = nr - 1; // the last interval starting at or before r
            while (a < b) {
                int m = (a + b + 1) >> 1;
                if (lo[m] <= r) a = m;
                else b = m - 1;
            }
            x = cls[a];
        }
        st = next[st * ncol + x];
    }
    if (st > 1) st = next[st * ncol + ncol - 1];
    return st == 1;
}

// reInSet is strings.ContainsRune(set, r): r among the characters of set
// as Go decodes them (U+FFFD stands for every invalid byte).
__device__ bool reInSet(unsigned r, const unsigned char *set, int m) {
    for (int k = 0; k < m;) {
        int w;
        if (reRune(set + k, m - k, &w) == r) return true;
        k += w;
    }
    return false;
}
// ---- regexvm begin: regexp_replace (engine/gpu/regexvm.go is its Go twin,
// vmTwin, line for line). Go's NFA (regexp's exec.go) over the
// program in a blob: header words (VH_...), uint16 ascii[128], uint32
// lo[nr], uint16 cls[nr] padded to even, two words per instruction
// (kind | out << 16, arg), a class bitmap of wpr words per rune
// instruction, the replacement's bytes. The VM's state is words in the
// row's scratch: two queues of 1 + 2n + n*c words (length, sparse,
// dense entries: pc | 1 << 31 with a thread, the threads' captures),
// the match's c captures and the closure's stack.
enum { VH_INST, VH_CAP, VH_START, VH_ANCHOR, VH_LONGEST, VH_CTX, VH_NTH, VH_FROM, VH_NR, VH_WPR, VH_REP,
       VH_OUTW, VH_GROUPS, VH_NEVER, VH_WORDS };
enum { VM_FAIL, VM_ALT, VM_CAP, VM_EMPTY, VM_MATCH, VM_NOP, VM_RUNE };
// syntax.EmptyOp's bits
enum { EMPTY_BEGIN_LINE = 1, EMPTY_END_LINE = 2, EMPTY_BEGIN_TEXT = 4, EMPTY_END_TEXT = 8, EMPTY_WORD_B = 16,
       EMPTY_NO_WORD_B = 32 };

typedef struct {
    const unsigned *h;
    const unsigned short *ascii;
    const unsigned *lo;
    const unsigned short *cls;
    const unsigned *ins;
    const unsigned *rows;
    const unsigned char *rep;
    int n, c, nr, wpr;
    bool longest;
    unsigned *st;     // the state words
    unsigned *q[2];   // the queues
    int *mcap;        // the match's captures
    unsigned *stk;    // the closure's stack
} ReVM;

__device__ void vmInit(ReVM *m, const unsigned char *blob, unsigned *st) {
    m->h = (const unsigned *)blob;
    m->n = (int)m->h[VH_INST];
    m->c = (int)m->h[VH_CAP];
    m->nr = (int)m->h[VH_NR];
    m->wpr = (int)m->h[VH_WPR];
    m->longest = m->h[VH_LONGEST] != 0;
    m->ascii = (const unsigned short *)(m->h + VH_WORDS);
    m->lo = m->h + VH_WORDS + 64;
    m->cls = (const unsigned short *)(m->lo + m->nr);
    m->ins = (const unsigned *)(m->cls + m->nr + (m->nr & 1));
    m->rows = m->ins + 2 * m->n;
    int nrows = 0;
    for (int pc = 0; pc < m->n; pc++)
        if ((m->ins[2 * pc] & 0xff) == VM_RUNE) nrows++;
    m->rep = (const unsigned char *)(m->rows + m->wpr * nrows);
    int qw = 1 + 2 * m->n + m->n * m->c;
    m->st = st;
    m->q[0] = st;
    m->q[1] = st + qw;
    m->mcap = (int *)(st + 2 * qw);
    m->stk = st + 2 * qw + m->c;
}

__device__ unsigned vmClass(const ReVM *m, int r) {
    if (r < 0x80) return m->ascii[r];
    int a = 0, b = m->nr - 1;
    while (a < b) {
        int mid = (a + b + 1) >> 1;
        if ((int)m->lo[mid] <= r) a = mid;
        else b = mid - 1;
    }
    return m->cls[a];
}

__device__ __forceinline__ bool vmWordChar(int r) {
    return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r == '_';
}

// vmContext is syntax.EmptyOpContext(r1, r2) (-1: the edge of the text).
__device__ unsigned vmContext(int r1, int r2) {
    unsigned op = EMPTY_NO_WORD_B, boundary = 0;
    if (vmWordChar(r1)) boundary = 1;
    else if (r1 == '\n') op |= EMPTY_BEGIN_LINE;
    else if (r1 < 0) op |= EMPTY_BEGIN_TEXT | EMPTY_BEGIN_LINE;
    if (vmWordChar(r2)) boundary ^= 1;
    else if (r2 == '\n') op |= EMPTY_END_LINE;
    else if (r2 < 0) op |= EMPTY_END_TEXT | EMPTY_END_LINE;
    if (boundary) op ^= EMPTY_WORD_B | EMPTY_NO_WORD_B;
    return op;
}

// vmAdd is exec.go's machine.add with an explicit stack: pc and what it
// leads to join queue q, threads at rune and match instructions taking a
// copy of the captures cp.
__device__ void vmAdd(ReVM *m, unsigned *q, unsigned pc0, int pos, int *cp, unsigned cond) {
    const int n = m->n;
    unsigned *sparse = q + 1, *dense = q + 1 + n;
    int *caps = (int *)(q + 1 + 2 * n);
    unsigned *stk = m->stk;
    int sp = 0;
    stk[sp] = pc0;
    stk[sp + 1] = 0;
    sp += 2;
    while (sp > 0) {
        sp -= 2;
        unsigned e = stk[sp], v = stk[sp + 1];
        if (e & 0x80000000u) { // a capture to restore
            cp[e & 0xffff] = (int)v;
            continue;
        }
        unsigned pc = e;
        while (pc != 0) {
            unsigned j = sparse[pc];
            if (j < q[0] && (dense[j] & 0xffff) == pc) break;
            j = q[0]++;
            dense[j] = pc;
            sparse[pc] = j;
            unsigned w0 = m->ins[2 * pc], arg = m->ins[2 * pc + 1], op = w0 & 0xff, out = w0 >> 16;
            if (op == VM_ALT) {
                stk[sp] = arg;
                stk[sp + 1] = 0;
                sp += 2;
                pc = out;
                continue;
            }
            if (op == VM_CAP) {
                if ((int)arg < m->c) {
                    stk[sp] = 0x80000000u | arg;
                    stk[sp + 1] = (unsigned)cp[arg];
                    sp += 2;
                    cp[arg] = pos;
                }
                pc = out;
                continue;
            }
            if (op == VM_EMPTY) {
                if ((arg & ~cond) == 0) {
                    pc = out;
                    continue;
                }
            } else if (op == VM_NOP) {
                pc = out;
                continue;
            } else if (op == VM_MATCH || op == VM_RUNE) {
                dense[j] |= 0x80000000u;
                int *t = caps + j * m->c;
                for (int k = 0; k < m->c; k++) t[k] = cp[k];
            }
            break;
        }
    }
}

// vmStep is exec.go's machine.step: the threads of rq in priority order
// read character c at pos and move to nq at npos.
__device__ void vmStep(ReVM *m, unsigned *rq, unsigned *nq, int pos, int npos, int c, unsigned ncond, bool *matched) {
    const int n = m->n;
    unsigned *dense = rq + 1 + n;
    int *caps = (int *)(rq + 1 + 2 * n);
    unsigned len = rq[0];
    for (unsigned j = 0; j < len; j++) {
        unsigned d = dense[j];
        if (!(d & 0x80000000u)) continue;
        int *tc = caps + j * m->c;
        if (m->longest && *matched && m->mcap[0] < tc[0]) continue;
        unsigned pc = d & 0xffff, w0 = m->ins[2 * pc];
        if ((w0 & 0xff) == VM_MATCH) {
            if (!m->longest || !*matched || m->mcap[1] < pos) {
                tc[1] = pos;
                for (int k = 0; k < m->c; k++) m->mcap[k] = tc[k];
            }
            *matched = true;
            if (!m->longest) break;
            continue;
        }
        if (c >= 0) {
            unsigned cl = vmClass(m, c), row = m->ins[2 * pc + 1];
            if (m->rows[row * m->wpr + (cl >> 5)] >> (cl & 31) & 1) vmAdd(m, nq, w0 >> 16, npos, tc, ncond);
        }
    }
    rq[0] = 0;
}

// vmRuneAt is exec.go's inputBytes.step: the character at pos and its
// width, -1 and 0 at the end.
__device__ __forceinline__ int vmRuneAt(const unsigned char *s, int n, int pos, int *w) {
    if (pos < n) return (int)reRune(s + pos, n - pos, w);
    *w = 0;
    return -1;
}

// vmSearch is exec.go's machine.match from pos: whether s has a match
// starting at pos or later, its captures in m->mcap.
__device__ bool vmSearch(ReVM *m, const unsigned char *s, int n, int pos) {
    bool matched = false;
    for (int k = 0; k < m->c; k++) m->mcap[k] = -1;
    unsigned *rq = m->q[0], *nq = m->q[1];
    rq[0] = 0;
    nq[0] = 0;
    const bool anchored = m->h[VH_ANCHOR] != 0;
    int w, w1 = 0, r1 = -1;
    int r = vmRuneAt(s, n, pos, &w);
    if (r >= 0) r1 = vmRuneAt(s, n, pos + w, &w1);
    int prev = -1, pw;
    if (pos > 0) prev = (int)reLastRune(s, pos, &pw);
    unsigned flag = vmContext(prev, r);
    for (;;) {
        if (rq[0] == 0 && ((anchored && pos != 0) || matched)) break;
        if (!matched && (pos == 0 || !anchored)) {
            m->mcap[0] = pos;
            vmAdd(m, rq, m->h[VH_START], pos, m->mcap, flag);
        }
        flag = vmContext(r, r1);
        vmStep(m, rq, nq, pos, pos + w, r, flag, &matched);
        if (w == 0) break;
        pos += w;
        r = r1;
        w = w1;
        if (r >= 0) r1 = vmRuneAt(s, n, pos + w, &w1);
        unsigned *t = rq;
        rq = nq;
        nq = t;
    }
    return matched;
}

// vmExpand is eval.AppendReplacement over the match in m->mcap, its
// positions shifted by base, into o[k..] (at most lim bytes in all).
__device__ int vmExpand(const ReVM *m, unsigned char *o, int k, int lim, const unsigned char *src, int base) {
    const int nrep = (int)m->h[VH_REP], groups = (int)m->h[VH_GROUPS];
    for (int i = 0; i < nrep; i++) {
        unsigned char c = m->rep[i];
        if (c != '\\' || i + 1 == nrep) {
            if (k < lim) o[k++] = c;
            continue;
        }
        unsigned char x = m->rep[i + 1];
        if (x >= '1' && x <= '9') {
            int g = x - '0';
            if (g <= groups && 2 * g < m->c && m->mcap[2 * g] >= 0)
                for (int p = base + m->mcap[2 * g]; p < base + m->mcap[2 * g + 1] && k < lim; p++) o[k++] = src[p];
            i++;
        } else if (x == '&') {
            for (int p = base + m->mcap[0]; p < base + m->mcap[1] && k < lim; p++) o[k++] = src[p];
            i++;
        } else if (x == '\\') {
            if (k < lim) o[k++] = '\\';
            i++;
        } else if (k < lim) o[k++] = '\\';
    }
    return k;
}

// vmReplace is regexp_replace of s (n bytes) into o by the blob's
// program and replacement (query's regexpReplace, eval.PGRegex.Replace),
// with the VM's state at st; it returns the result's length.
__device__ int vmReplace(const unsigned char *blob, const unsigned char *s, int n, unsigned char *o, unsigned *st) {
    ReVM vm, *m = &vm;
    vmInit(m, blob, st);
    const int lim = (int)m->h[VH_OUTW];
    int k = 0, prev = 0, count = 0;
    const int nth = (int)m->h[VH_NTH];
    if (!m->h[VH_NEVER]) {
        int from = 0;
        for (int c = (int)m->h[VH_FROM]; c > 0 && from < n; c--) from += runeW(s + from, n - from);
        if (!m->h[VH_CTX]) {
            // PostgreSQL's rule: each search starts afresh at the end of
            // the last match, one character further after an empty one
            for (int pos = from; pos <= n;) {
                if (!vmSearch(m, s + pos, n - pos, 0)) break;
                int m0 = pos + m->mcap[0], m1 = pos + m->mcap[1];
                count++;
                if (nth == 0 || count == nth) {
                    for (int p = prev; p < m0 && k < lim; p++) o[k++] = s[p];
                    k = vmExpand(m, o, k, lim, s, pos);
                    prev = m1;
                    if (nth > 0) break;
                }
                if (m1 > m0) {
                    pos = m1;
                    continue;
                }
                if (m1 >= n) break;
                pos = m1 + runeW(s + m1, n - m1);
            }
        } else {
            // Go's FindAll over the whole text, for assertions that look back
            int prevEnd = -1;
            for (int pos = 0; pos <= n;) {
                if (!vmSearch(m, s, n, pos)) break;
                int m0 = m->mcap[0], m1 = m->mcap[1];
                bool accept = true;
                if (m1 == pos) {
                    if (m0 == prevEnd) accept = false;
                    pos += pos < n ? runeW(s + pos, n - pos) : 1;
                } else pos = m1;
                prevEnd = m1;
                if (accept && m0 >= from) {
                    count++;
                    if (nth == 0 || count == nth) {
                        for (int p = prev; p < m0 && k < lim; p++) o[k++] = s[p];
                        k = vmExpand(m, o, k, lim, s, 0);
                        prev = m1;
                        if (nth > 0) break;
                    }
                }
            }
        }
    }
    for (int p = prev; p < n && k < lim; p++) o[k++] = s[p];
    return k;
}
// ---- regexvm end ----
// ---- regex end ----

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

// ---- ftoa begin: float output (engine.AppendFloat on the device) ----
// The shortest decimal that rounds back to the float, the closest of them
// to it (ties to an even last digit), as PostgreSQL 12+ prints floats
// with extra_float_digits >= 1 (and Go's strconv with precision -1). It
// is found with Giulietti's Schubfach method: the value c 2^q and the
// ends of its rounding interval are multiplied by a 126-bit upper
// approximation of 10^-k (k = floor(q log10 2)) and rounded to odd, which
// gives 16 or 17 digits exact enough to decide, for the numbers s and
// s + 1 and for the multiples of ten around s, which of them lie inside
// the interval. engine/gpu's ftoa_test.go compiles this section with the
// host's C compiler and compares it with engine.AppendFloat, and checks
// the table against math/big.

#define FT_KMIN (-324)
#define FT_KMAX 292

// ftG: for k = FT_KMIN..FT_KMAX, g = floor(10^-k 2^r) + 1 for the r that
// puts 10^-k 2^r in [2^125, 2^126), as its high and low 63 bits.
__device__ const u64 ftG[(FT_KMAX - FT_KMIN + 1) * 2] = {
0x4f0cedc95a718dd4, 0x5b01e8b09aa0d1b5, 0x7e7b160ef71c1621, 0x119ca780f767b5ee,
0x652f44d8c5b011b4, 0x0e16ec672c52f7f2, 0x50f29d7a37c00e29, 0x581256b8f0425ff5,
0x40c21794f96671ba, 0x79a84560c0351991, 0x679cf287f570b5f7, 0x75da089acd21c281,
0x52e3f5399126f7f9, 0x44ae6d48a41b0201, 0x424ff76140ebf994, 0x36f1f106e9af34cd,
0x6a198bcece465c20, 0x57e981a4a918547b, 0x54e13ca571d1e34d, 0x2cbace1d541376c9,
0x43e763b78e4182a4, 0x23c8a4e44342c56e, 0x6ca56c58e39c043a, 0x060dd4a06b9e08b0,
0x56eabd13e9499cfb, 0x1e7176e6bc7e6d59, 0x458897432107b0c8, 0x7ec12bebc9febde1,
0x6f40f20501a5e7a7, 0x7e01dfdfa9979635, 0x5900c19d9aeb1fb9, 0x4b34b319547944f7,
0x4733ce17af227fc7, 0x55c3c27aa9fa9d93, 0x71ec7cf2b1d0cc72, 0x560603f7765dc8ea,
0x5b2397288e40a38e, 0x7804cff92b7e3a55, 0x48e945ba0b66e93f, 0x13370cc755fe9511,
0x74a86f90123e41fe, 0x51f1ae0bbcca881b, 0x5d538c7341cb67fe, 0x74c1580963d539af,
0x4aa93d29016f8665, 0x43cde0078310faf3, 0x77752ea8024c0a3c, 0x0616333f381b2b1e,
0x5f90f22001d66e96, 0x3811c298f9af55b1, 0x4c73f4e667debede, 0x600e35472e25de28,
0x7a532170a6313164, 0x3349eed849d6303f, 0x61dc1ac084f42783, 0x42a18be03b11c033,
0x4e49af006a5cec69, 0x1bb46fe695a7ccf5, 0x7d42b19a43c7e0a8, 0x2c53e63dbc3fae55,
0x64355ae1cfd31a20, 0x237651cafcffbeaa, 0x502aaf1b0ca8e1b3, 0x35f8416f30cc9888,
0x402225af3d53e7c2, 0x5e603458f3d6e06d, 0x669d0918621fd937, 0x4a3386f4b957cd7b,
0x52173a79e8197a92, 0x6e8f9f2a2ddfd796, 0x41ac2ec7ece12edb, 0x720c7f54f17fdfab,
0x69137e0cae3517c6, 0x1ce0cbbb1bffcc45, 0x540f980a24f74638, 0x171a3c95afffd69e,
0x433facd4ea5f6b60, 0x127b63aaf3331218, 0x6b991487dd657899, 0x6a5f05de51eb5026,
0x5614106cb11dfa14, 0x5518d17ea7ef7352, 0x44dcd9f08db194dd, 0x2a7a41321ff2c2a8,
0x6e2e2980e2b5bafb, 0x5d906850331e043f, 0x5824ee00b55e2f2f, 0x647386a68f4b3699,
0x4683f19a2ab1bf59, 0x36c2d21ed908f87b, 0x70d31c29dde93228, 0x579e1cfe280e5a5d,
0x5a427cee4b20f4ed, 0x2c7e7d98200b7b7e, 0x483530bea280c3f1, 0x09fecae019a2c932,
0x73884dfdd0ce064e, 0x43314499c29e0eb6, 0x5c6d0b3173d8050b, 0x4f5a9d47cee4d891,
0x49f0d5c129799da2, 0x72aee4397250ad41, 0x764e22cea8c295d1, 0x377e39f583b44868,
0x5ea4e8a553cede41, 0x12cb61913629d387, 0x4bb72084430be500, 0x756f8140f8217605,
0x792500d39e796e67, 0x6f18cece59cf233c, 0x60ea670fb1fabeb9, 0x3f470bd847d8e8fd,
0x4d885272f4c89894, 0x329f3cad064720ca, 0x7c0d50b7ee0dc0ed, 0x37652de1a3a50143,
0x633dda2cbe716724, 0x2c50f1814fb73436, 0x4f64ae8a31f45283, 0x3d0d8e010c92902b,
0x7f077da9e986ea6b, 0x7b48e334e0ea8045, 0x659f97bb2138bb89, 0x49071c2a4d88669d,
0x514c796280fa2fa1, 0x20d27ceea46d1ee4, 0x4109fab533fb594d, 0x670eca58838a7f1d,
0x680ff788532bc216, 0x0b4add5a6c10cb62, 0x533ff939dc2301ab, 0x22a24aaebcda3c4e,
0x4299942e49b59aef, 0x354ea22563e1c9d8, 0x6a8f537d42bc2b18, 0x554a9d089fcfa95a,
0x553f75fdcefcef46, 0x776ee406e63fbaae, 0x4432c4cb0bfd8c38, 0x5f8be99f1e996225,
0x6d1e07ab466279f4, 0x327975cb64289d08, 0x574b3955d1e86190, 0x28612b091ced4a6d,
0x45d5c777db204e0d, 0x06b4226db0bdd524, 0x6fbc72595e9a167b, 0x24536a491ac95506,
0x59638eade54811fc, 0x1d0f883a7bd44405, 0x4782d88b1dd34196, 0x4a72d361fca9d004,
0x726af411c952028a, 0x43eaebcffaa94cd3, 0x5b88c3416ddb353b, 0x4fef230cc88770a9,
0x493a35cdf17c2a96, 0x0cbf4f3d6d3926ee, 0x7529efafe8c6aa89, 0x61321862485b717c,
0x5dbb262653d22207, 0x675b46b506af8dfd, 0x4afc1e850fdb4e6c, 0x52af6bc405593e64,
0x77f9ca6e7fc54a47, 0x377f12d33bc1fd6d, 0x5ffb085866376e9f, 0x45ff42429634cabd,
0x4cc8d379eb5f8bb2, 0x6b329b68782a3bcb, 0x7adaebf64565ac51, 0x2b842bda59dd2c77,
0x6248bcc5045156a7, 0x3c69bcaeae4a89f9, 0x4ea0970403744552, 0x6387ca25583ba194,
0x7dcdbe6cd253a21e, 0x05a6103bc05f68ed, 0x64a498570ea94e7e, 0x37b80cfc99e5ed8a,
0x5083ad1272210b98, 0x2c933d96e184be08, 0x40695741f4e73c79, 0x7075cadf1ad09807,
0x670ef2032171fa5c, 0x4d8944982ae759a4, 0x52725b35b45b2eb0, 0x3e076a135585e150,
0x41f515c49048f226, 0x64d2bb42aad1810d, 0x698822d41a0e503e, 0x07b7920444826815,
0x546ce8a9ae71d9cb, 0x1fc60e69d0685344, 0x438a53baf1f4ae3c, 0x196b3ebb0d20429d,
0x6c1085f7e9877d2d, 0x0f11fdf815006a94, 0x56739e5fee05fdbd, 0x58db319344005543,
0x45294b7ff19e6497, 0x60af5adc3666aa9c, 0x6ea878ccb5ca3a8c, 0x344bc4938a3dddc7,
0x5886c70a2b082ed6, 0x5d096a0fa1cb17d2, 0x46d238d4ef39bf12, 0x173abb3fb4a27975,
0x71505aee4b8f981d, 0x0b912b992103f588, 0x5aa6af25093face4, 0x0940efadb4032ad3,
0x488558ea6dcc8a50, 0x07672624900288a9, 0x74088e43e2e0dd4c, 0x723ea36db337410e,
0x5cd3a5031be71770, 0x5b654f8af5c5cda5, 0x4a42ea68e31f45f3, 0x62b772d5916b0aeb,
0x76d1770e38320986, 0x0458b7bc1bde77dd, 0x5f0df8d82cf4d46b, 0x1d13c630164b9318,
0x4c0b2d79bd90a9ef, 0x30dc9e8cdea2dc13, 0x79ab7bf5fc1aa97f, 0x0160fdae31049351,
0x6155fcc4c9aeedff, 0x1ab3fe24f403a90e, 0x4dde63d0a158be65, 0x6229981d9002eda5,
0x7c97061a9bc130a2, 0x69dc2695b337e2a1, 0x63ac04e2163426e8, 0x54b01ede28f9821b,
0x4fbcd0b4de901f20, 0x43c018b1ba6134e2, 0x7f9481216419cb67, 0x1f99c11c5d68549d,
0x6610674de9ae3c52, 0x4c7b00e37ded107e, 0x51a6b90b21583042, 0x09fc00b5fe574065,
0x41522da2811359ce, 0x3b3000919845cd1d, 0x68837c3734ebc2e3, 0x784ccdb5c06fae95,
0x539c635f5d8968b6, 0x2d0a3e2b00595877, 0x42e382b2b13aba2b, 0x3da1cb5599e11393,
0x6b059deab52ac378, 0x629c7888f634ec1e, 0x559e17eef755692d, 0x3549fa072b5d89b1,
0x447e798bf91120f1, 0x1107fb38ef7e07c1, 0x6d9728dff4e834b5, 0x01a65ec17f300c68,
0x57ac20b32a535d5d, 0x4e1eb23465c009ed, 0x46234d5c21dc4ab1, 0x24e55b5d1e333b24,
0x70387bc69c93aab5, 0x216ef894fd1ec506, 0x59c6c96bb076222a, 0x4df2607730e56a6c,
0x47d23abc8d2b4e88, 0x3e5b805f5a5121f0, 0x72e9f79415121740, 0x63c59a322a1b697f,
0x5bee5fa9aa74df67, 0x03047b5b54e2bacc, 0x498b7fbaeec3e5ec, 0x0269fc4910b5623d,
0x75abff917e063cac, 0x6a432d41b45569fb, 0x5e2332dacb38308a, 0x21cf5767c37787fc,
0x4b4f5be23c2cf3a1, 0x67d912b9692c6cca, 0x787ef969f9e185cf, 0x595b5128a8471476,
0x60659454c7e79e3f, 0x6115da86ed05a9f8, 0x4d1e1043d31fb1cc, 0x4dab1538bd9e2193,
0x7b634d3951cc4fad, 0x62ab552795c9cf52, 0x62b5d7610e3d0c8b, 0x0222aa86116e3f75,
0x4ef7df80d830d6d5, 0x4e822204dabe992a, 0x7e59659af38157bc, 0x17369cd49130f510,
0x65145148c2cddfc9, 0x5f5ee3dd40f3f740, 0x50dd0dd3cf0b196e, 0x1918b64a9a5cc5cd,
0x40b0d7dca5a27abe, 0x4746f83baeb09e3e, 0x678159610903f797, 0x253e59f91780fd2f,
0x52cde11a6d9cc612, 0x50feae60df9a6426, 0x423e4daebe1704db, 0x5a65584d7faeb685,
0x69fd4917968b3af9, 0x10a226e265e4573b, 0x54caa0dfaba29594, 0x0d4e8581eb1d1295,
0x43d54d7fbc821143, 0x243ed134bc174211, 0x6c887bff94034ed2, 0x06cae85460253682,
0x56d396661002a574, 0x6bd586a9e6842b9b, 0x457611eb40021df7, 0x09779eee52035616,
0x6f234fdeccd02ff1, 0x5bf297e3b66bbcef, 0x58e90cb23d73598e, 0x165bacb62b8963f3,
0x4720d6f4fdf5e13e, 0x451623c4efa11cc2, 0x71ce24bb2fefceca, 0x3b569fa17f682e03,
0x5b0b5095bff30bd5, 0x15dee61acc535803, 0x48d5da11665c0977, 0x2b18b8157042accf,
0x74895ce8a3c6758b, 0x5e8df355806aae18, 0x5d3ab0ba1c9ec46f, 0x653e5c4466bbbe7a,
0x4a955a2e7d4bd059, 0x3765169d1efc9861, 0x77555d172edfb3c2, 0x256e8a94fe60f3cf,
0x5f777dac257fc301, 0x6abed543feb3f63f, 0x4c5f97bceacc9c01, 0x3bcbddcffef65e99,
0x7a328c6177adc668, 0x5fac961997f0975b, 0x61c209e792f16b86, 0x7fbd44e1465a12af,
0x4e34d4b9425abc6b, 0x7fca9d810514dbbf, 0x7d21545b9d5dfa46, 0x32ddc8ce6e87c5ff,
0x641aa9e2e44b2e9e, 0x5be4a0a525396b32, 0x501554b5836f587e, 0x7cb6e6ea842def5c,
0x4011109135f2ad32, 0x30925255368b25e3, 0x6681b41b89844850, 0x4db6ea21f0dea304,
0x52015ce2d469d373, 0x57c5881b2718826a, 0x419ab0b576bb0f8f, 0x5fd139af527a01ef,
0x68f781225791b27f, 0x4c81f5e550c3364a, 0x53f9341b79415b99, 0x239b2b1dda35c508,
0x432dc3492dcde2e1, 0x02e288e4ae916a6d, 0x6b7c6ba849496b01, 0x516a74a1174f10ae,
0x55fd22ed076def34, 0x4121f6e745d8da25, 0x44ca82573924bf5d, 0x1a8192529e4714eb,
0x6e10d08b8ea1322e, 0x5d9c1d50fd3e87dd, 0x580d73a2d880f4f2, 0x17b01773fdcb9fe4,
0x4671294f139a5d8e, 0x4626792997d61984, 0x70b50ee4ec2a2f4a, 0x3d0a5b75bfbcf59f,
0x5a2a7250bcee8c3b, 0x4a6eaf916630c47f, 0x4821f50d63f209c9, 0x21f2260deb5a36cc,
0x736988156cb6760e, 0x69837016455d247a, 0x5c546cddf091f80b, 0x6e02c011d1175062,
0x49dd23e4c074c66f, 0x719bccdb0dac404e, 0x762e9fd467213d7f, 0x68f947c4e2ad33b0,
0x5e8bb3105280fdff, 0x6d94396a4ef0f627, 0x4ba2f5a6a8673199, 0x3e102deea58d91b9,
0x7904bc3dda3eb5c2, 0x3019e3176f48e927, 0x60d09697e1cbc49b, 0x4014b5ac590720ec,
0x4d73abacb4a303af, 0x4cdd5e237a6c1a57, 0x7bec45e12104d2b2, 0x47c8969f2a46908a,
0x63236b1a80d0a88e, 0x6ca0787f5505406f, 0x4f4f88e200a6ed3f, 0x0a19f9ff773766bf,
0x7ee5a7d0010b1531, 0x5cf65ccbf1f23dfe, 0x6584864000d5aa8e, 0x172b7d6ff4c1cb32,
0x5136d1cccd77bba4, 0x78ef978cc3ce3c28, 0x40f8a7d70ac62fb7, 0x13f2dfa3cfd83020,
0x67f43fbe77a37f8b, 0x398499061959e699, 0x5329cc985fb5ffa2, 0x6136e0d1ade18548,
0x4287d6e04c91994f, 0x00f8b3daf181376d, 0x6a72f166e0e8f54b, 0x1b27862b1c01f247,
0x5528c11f1a53f76f, 0x2f52d1bc1667f506, 0x44209a7f48432c59, 0x0c424163451ff738,
0x6d00f7320d3846f4, 0x7a039bd208332526, 0x5733f8f4d76038c3, 0x7b361641a028ea85,
0x45c32d90ac4cfa36, 0x2f5e78348020bb9e, 0x6f9eaf4de07b29f0, 0x4bca59ed99cdf8fc,
0x594bbf71806287f3, 0x563b7b247b0b2d96, 0x476fcc5acd1b9ff6, 0x11c92f50626f57ac,
0x724c7a2ae1c5ccbd, 0x02db7ee703e55912, 0x5b7061bbe7d17097, 0x1be2cbec031de0dc,
0x4926b496530df3ac, 0x164f09899c17e716, 0x750aba8a1e7cb913, 0x3d4b4275c68ca4f0,
0x5da22ed4e530940f, 0x4aa29b916ba3b726, 0x4ae825771dc07672, 0x6ee87c74561c9285,
0x77d9d58b62cd8a51, 0x3173fa53bcfa8408, 0x5fe177a2b5713b74, 0x278ffb7630c869a0,
0x4cb45fb55df42f90, 0x1fa662c4f3d387b3, 0x7aba32bbc986b280, 0x32a3d13b1fb8d91f,
0x622e8efca1388ecd, 0x0ee9742f4c93e0e6, 0x4e8ba596e760723d, 0x58bac3590a0fe71e,
0x7dac3c24a5671d2f, 0x412ad228101971c9, 0x6489c9b6eab8e426, 0x00ef0e8673478e3b,
0x506e3af8bbc71ceb, 0x1a58d86b8f6c71c9, 0x40582f2d6305b0bc, 0x1513e0560c56c16e,
0x66f37eaf04d5e793, 0x3b530089ad579be2, 0x525c6558d0ab1fa9, 0x15dc006e2446164f,
0x41e384470d55b2ed, 0x5e4999f1b69e783f, 0x696c06d81555eb15, 0x7d428fe92430c065,
0x54566be0111188de, 0x31020cba835a3384, 0x4378564cda746d7e, 0x5a680a2ecf7b5c69,
0x6bf3bd47c3ed7bfd, 0x770cdd17b25efa42, 0x565c976c9cbdfccb, 0x1270b0dfc1e59502,
0x4516df8a16fe63d5, 0x5b8d5a4c9b1e10ce, 0x6e8aff4357fd6c89, 0x127bc3adc4fce7b0,
0x586f329c466456d4, 0x0ec96957d0ca52f3, 0x46bf5bb038504576, 0x3f07877973d50f29,
0x71322c4d26e6d58a, 0x31a5a58f1fbb4b75, 0x5a8e89d75252446e, 0x5aeaead8e62f6f91,
0x487207df750e9d25, 0x2f22557a51bf8c74, 0x73e9a63254e42ea2, 0x1836ef2a1c65ad86,
0x5cbaeb5b771cf21b, 0x2cf8bf54e3848ad2, 0x4a2f22af927d8e7c, 0x23fa32aa4f9d3bdb,
0x76b1d118ea627d93, 0x5329eaaa18fb92f8, 0x5ef4a74721e86476, 0x0f54bbbb472fa8c6,
0x4bf6ec38e7ed1d2b, 0x25dd62fc38f2ed6c, 0x798b138e3fe1c845, 0x22fbd1938e517bdf,
0x613c0fa4ffe7d36a, 0x4f2fdadc71dac97f, 0x4dc9a61d998642bb, 0x58f3157d27e23acc,
0x7c75d695c2706ac5, 0x74b82261d969f7ad, 0x63917877cec0556b, 0x10934eb4adee5fbe,
0x4fa793930bcd1122, 0x4075d8908b251965, 0x7f7285b812e1b504, 0x00bc8db411d4f56e,
0x65f537c675815d9c, 0x66fd3e29a7dd9125, 0x5190f96b91344ae3, 0x6bfdcb54864ada84,
0x4140c78940f6a24f, 0x6ffe3c439ea2486a, 0x6867a5a867f103b2, 0x7ffd2d38fdd073dc,
0x53861e2053273628, 0x6664242d97d9f64a, 0x42d1b1b375b8f820, 0x51e9b68adfe191d5,
0x6ae91c5255f4c034, 0x1ca924116635b621, 0x558749db77f70029, 0x63ba83411e915e81,
0x446c3b15f9926687, 0x6962029a7edab201, 0x6d79f82328ea3da6, 0x0f03375d97c45001,
0x5794c6828721caeb, 0x259c2c4adfd04001, 0x46109eced2816f22, 0x5149bd08b30d0001,
0x701a97b150cf1837, 0x3542c80deb480001, 0x59aedfc10d7279c5, 0x7768a00b22a00001,
0x47bf19673df52e37, 0x79208008e8800001, 0x72cb5bd86321e38c, 0x5b67334174000001,
0x5bd5e313828182d6, 0x7c528f6790000001, 0x4977e8dc68679bdf, 0x16a872b940000001,
0x758ca7c70d7292fe, 0x5773eac200000001, 0x5e0a1fd271287598, 0x45f6556800000001,
0x4b3b4ca85a86c47a, 0x04c5112000000001, 0x785ee10d5da46d90, 0x07a1b50000000001,
0x604be73de4838ad9, 0x52e7c40000000001, 0x4d0985cb1d3608ae, 0x0f1fd00000000001,
0x7b426fab61f00de3, 0x31cc800000000001, 0x629b8c891b267182, 0x5b0a000000000001,
0x4ee2d6d415b85ace, 0x7c08000000000001, 0x7e37be2022c0914b, 0x1340000000000001,
0x64f964e68233a76f, 0x2900000000000001, 0x50c783eb9b5c85f2, 0x5400000000000001,
0x409f9cbc7c4a04c2, 0x1000000000000001, 0x6765c793fa10079d, 0x0000000000000001,
0x52b7d2dcc80cd2e4, 0x0000000000000001, 0x422ca8b0a00a4250, 0x0000000000000001,
0x69e10de76676d080, 0x0000000000000001, 0x54b40b1f852bda00, 0x0000000000000001,
0x43c33c1937564800, 0x0000000000000001, 0x6c6b935b8bbd4000, 0x0000000000000001,
0x56bc75e2d6310000, 0x0000000000000001, 0x4563918244f40000, 0x0000000000000001,
0x6f05b59d3b200000, 0x0000000000000001, 0x58d15e1762800000, 0x0000000000000001,
0x470de4df82000000, 0x0000000000000001, 0x71afd498d0000000, 0x0000000000000001,
0x5af3107a40000000, 0x0000000000000001, 0x48c2739500000000, 0x0000000000000001,
0x746a528800000000, 0x0000000000000001, 0x5d21dba000000000, 0x0000000000000001,
0x4a817c8000000000, 0x0000000000000001, 0x7735940000000000, 0x0000000000000001,
0x5f5e100000000000, 0x0000000000000001, 0x4c4b400000000000, 0x0000000000000001,
0x7a12000000000000, 0x0000000000000001, 0x61a8000000000000, 0x0000000000000001,
0x4e20000000000000, 0x0000000000000001, 0x7d00000000000000, 0x0000000000000001,
0x6400000000000000, 0x0000000000000001, 0x5000000000000000, 0x0000000000000001,
0x4000000000000000, 0x0000000000000001, 0x6666666666666666, 0x3333333333333334,
0x51eb851eb851eb85, 0x0f5c28f5c28f5c29, 0x4189374bc6a7ef9d, 0x5916872b020c49bb,
0x68db8bac710cb295, 0x74f0d844d013a92b, 0x53e2d6238da3c211, 0x43f3e0370cdc8755,
0x431bde82d7b634da, 0x698fe69270b06c44, 0x6b5fca6af2bd215e, 0x0f4ca41d811a46d4,
0x55e63b88c230e77e, 0x3f70834acdae9f10, 0x44b82fa09b5a52cb, 0x4c5a02a23e254c0d,
0x6df37f675ef6eadf, 0x2d5cd10396a21347, 0x57f5ff85e592557f, 0x3de3da69454e75d3,
0x465e6604b7a84465, 0x7e4fe1edd10b9175, 0x709709a125da0709, 0x4a19697c81ac1bef,
0x5a126e1a84ae6c07, 0x54e1213067bce326, 0x480ebe7b9d58566c, 0x43e74dc052fd8285,
0x734aca5f6226f0ad, 0x530baf9a1e626a6d, 0x5c3bd5191b525a24, 0x426fbfae7eb521f1,
0x49c97747490eae83, 0x4ebfcc8b9890e7f4, 0x760f253edb4ab0d2, 0x4acc7a78f41b0cba,
0x5e72843249088d75, 0x223d2ec729af3d62, 0x4b8ed0283a6d3df7, 0x34fdbf05baf29781,
0x78e480405d7b9658, 0x54c931a2c4b758cf, 0x60b6cd004ac94513, 0x5d6dc14f03c5e0a5,
0x4d5f0a66a23a9da9, 0x31249aa59c9e4d51, 0x7bcb43d769f762a8, 0x4ea0f76f60fd4882,
0x63090312bb2c4eed, 0x254d92bf80caa068, 0x4f3a68dbc8f03f24, 0x1dd7a89933d54d20,
0x7ec3daf941806506, 0x62f2a75b86221500, 0x65697bfa9acd1d9f, 0x025bb91604e810cd,
0x51212ffbaf0a7e18, 0x684960de6a5340a4, 0x40e7599625a1fe7a, 0x203ab3e521dc33b6,
0x67d88f56a29cca5d, 0x19f7863b696052bd, 0x5313a5dee87d6eb0, 0x7b2c6b62bab37564,
0x42761e4bed31255a, 0x2f56bc4efbc2c450, 0x6a5696dfe1e83bc3, 0x655793b192d13a1a,
0x5512124cb4b9c969, 0x377942f475742e7b, 0x440e750a2a2e3aba, 0x5f9435905df68b96,
0x6ce3ee76a9e3912a, 0x65b9ef4d63241289, 0x571cbec554b60dbb, 0x6afb25d782834207,
0x45b0989ddd5e7163, 0x08c8eb12cecf6806, 0x6f80f42fc8971bd1, 0x5adb11b7b14bd9a3,
0x5933f68ca078e30e, 0x157c0e2c8dd647b5, 0x475cc53d4d2d8271, 0x5dfcd823a4ab6c91,
0x722e086215159d82, 0x632e269f6ddf141b, 0x5b5806b4ddaae468, 0x4f581ee5f17f4349,
0x49133890b1558386, 0x72ace584c1329c3b, 0x74eb8db44eef38d7, 0x6aae3c079b842d2a,
0x5d893e29d8bf60ac, 0x5558300616035755, 0x4ad431bb13cc4d56, 0x7779c004de6912ab,
0x77b9e92b52e07bbe, 0x258f99a163db5111, 0x5fc7edbc424d2fcb, 0x37a614811caf740d,
0x4c9ff163683dbfd5, 0x7951aa00e3bf900b, 0x7a998238a6c932ef, 0x754f7667d2cc19ab,
0x6214682d523a8f26, 0x2aa5f8530f09ae22, 0x4e76b9bddb620c1e, 0x55519375a5a1581b,
0x7d8ac2c95f034697, 0x3bb5b8bc3c3559c5, 0x646f023ab2690545, 0x7c9160969691149e,
0x5058ce955b87376b, 0x16dab3ababa743b2, 0x40470baaaf9f5f88, 0x78aef622efb902f5,
0x66d812aab29898db, 0x0de4bd04b2c19e54, 0x524675555bad4715, 0x57ea30d08f014b76,
0x41d1f7777c8a9f44, 0x4654f3da0c01092c, 0x694ff258c7443207, 0x23bb1fc346680eac,
0x543ff513d29cf4d2, 0x4fc8e635d1ecd88a, 0x43665da9754a5d75, 0x263a51c4a7f0ad3b,
0x6bd6fc425543c8bb, 0x56c3b607731aaec4, 0x5645969b77696d62, 0x789c919f8f488bd0,
0x4504787c5f878ab5, 0x46e3a7b2d906d640, 0x6e6d8d93cc0c1122, 0x3e390c515b3e239a,
0x5857a4763cd6741b, 0x4b60d6a77c31b615, 0x46ac8391ca4529af, 0x55e7121f968e2b44,
0x711405b6106ea919, 0x0971b698f0e3786d, 0x5a766af80d255414, 0x078e2bad8d82c6bd,
0x485ebbf9a41ddcdc, 0x6c71bc8ad79bd231, 0x73cac65c39c96161, 0x2d82c7448c2c8382,
0x5ca23849c7d44de7, 0x3e023903a356cf9b, 0x4a1b603b06437185, 0x7e682d9c82abd949,
0x76923391a39f1c09, 0x4a4048fa6aac8edb, 0x5edb5c7482e5b007, 0x55003a61eef07249,
0x4be2b05d35848cd2, 0x773361e7f259f507, 0x796ab3c855a0e151, 0x3eb89ca6508fee71,
0x6122296d114d810d, 0x7efa16eb73a6585b, 0x4db4edf0daa4673e, 0x3261abef8fb846af,
0x7c54afe7c43a3eca, 0x1d691318e5f3a44b, 0x6376f31fd02e98a1, 0x64540f471e5c836f,
0x4f925c1973587a1b, 0x0376729f4b7d35f3, 0x7f50935bebc0c35e, 0x38bd84321261efeb,
0x65da0f7cbc9a35e5, 0x13cad0280eb4bfef, 0x517b3f96fd482b1d, 0x5ca240200bc3ccbf,
0x412f66126439bc17, 0x63b50019a3030a33, 0x684bd683d38f9359, 0x1f88002904d1a9ea,
0x536fdecfdc72dc47, 0x32d3335403daee55, 0x42bfe57316c249d2, 0x5bdc291003158b77,
0x6acca251be03a951, 0x12f9db4cd1bc1258, 0x557081dafe695440, 0x7594af70a7c9a847,
0x445a017bfebaa9cd, 0x4476f2c0863aed06, 0x6d5ccf2ccac442e2, 0x3a57eacda3917b3c,
0x577d728a3bd03581, 0x7b7988a482dac8fd, 0x45fdf53b630cf79b, 0x15fad3b6cf156d97,
0x6ffcbb923814bf5e, 0x565e1f8ae4ef15be, 0x5996fc74f9aa32b2, 0x11e4e608b725aaff,
0x47abfd2a6154f55b, 0x27ea51a0928488cc, 0x72acc843ceee555e, 0x7310829a84074146,
0x5bbd6d030bf1dde5, 0x42739baed005cdd2, 0x49645735a327e4b7, 0x4ec2e2f24004a4a8,
0x756d5855d1d96df2, 0x4ad16b1d333aa10c, 0x5df11377db1457f5, 0x2241227dc2954da3,
0x4b2742c648dd132a, 0x4e9a81fe35443e1c, 0x783ed13d4161b844, 0x175d9cc9eed39694,
0x603240fdcde7c69c, 0x7917b0a18bdc7876, 0x4cf500cb0b1fd217, 0x1412f3b46fe39392,
0x7b219ade7832e9be, 0x535185ed7fd285b6, 0x628148b1f9c25498, 0x42a79e57997537c5,
0x4ecdd3c1949b76e0, 0x3552e512e12a9304, 0x7e161f9c20f8be33, 0x6eeb081e3510eb39,
0x64de7fb01a609829, 0x3f226ce4f740bc2e, 0x50b1ffc0151a1354, 0x3281f0b72c33c9be,
0x408e66334414dc43, 0x42018d5f568fd498, 0x674a3d1ed354939f, 0x1ccf48988a7fba8d,
0x52a1ca7f0f76dc7f, 0x30a5d3ad3b99620b, 0x421b0865a5f8b065, 0x73b7dc8a96144e6f,
0x69c4da3c3cc11a3c, 0x52bfc7442353b0b1, 0x549d7b6363cdae96, 0x756639034f7626f4,
0x43b12f82b63e2545, 0x4451c735d92b525d, 0x6c4eb26abd303ba2, 0x3a1c71efc1deea2e,
0x56a55b889759c94e, 0x61b05b2634b254f2, 0x45511606df7b0772, 0x1af37c1e908eaa5b,
0x6ee8233e325e7250, 0x2b1f2cfdb41776f8, 0x58b9b5cb5b7ec1d9, 0x6f4c23fe29ac5f2d,
0x46faf7d5e2cbce47, 0x72a34ffe87bd18f1, 0x71918c896adfb073, 0x04387ffda5fb5b1b,
0x5adad6d4557fc05c, 0x0360666484c915af, 0x48af1243779966b0, 0x02b3851d3707448c,
0x744b506bf28f0ab3, 0x1dec082ebe720746, 0x5d090d2328726ef5, 0x64bcd358985b3905,
0x4a6da41c205b8bf7, 0x6a30a913ad15c738, 0x7715d36033c5acbf, 0x5d1aa81f7b560b8c,
0x5f44a919c3048a32, 0x7daeece5fc44d609, 0x4c36edae359d3b5b, 0x7e258a51969d7808,
0x79f17c49ef61f893, 0x16a276e8f0fbf33f, 0x618dfd07f2b4c6dc, 0x121b9253f3fcc299,
0x4e0b30d328909f16, 0x41afa84329970214, 0x7cdeb4850db431bd, 0x4f7f739ea8f19ced,
0x63e55d373e29c164, 0x3f99294bba5ae3f1, 0x4feab0f8fe87cde9, 0x7fadbaa2fb7be98d,
0x7fdde7f4ca72e30f, 0x7f7c5dd1925fdc15, 0x664b1ff7085be8d9, 0x4c637e4141e649ab,
0x51d5b32c06afed7a, 0x704f983434b83aef, 0x4177c2899ef32462, 0x26a6135cf6f9c8bf,
0x68bf9da8fe51d3d0, 0x3dd685618b294132, 0x53cc7e20cb74a973, 0x4b12044e08edcdc2,
0x4309fe80a2c3bac2, 0x6f419d0b3a57d7ce, 0x6b4330cdd1392ad1, 0x320294dec3bfbfb0,
0x55cf5a3e40fa88a7, 0x419baa4bcfcc995a, 0x44a5e1cb672ed3b9, 0x1ae2eea30ca3ade1,
0x6dd636123eb152c1, 0x77d17dd1add2afcf, 0x57de91a832277567, 0x797464a7be42263f,
0x464ba7b9c1b92ab9, 0x4790508631ce84ff, 0x70790c5c6928445c, 0x0c1a1a704fb0d4cc,
0x59fa7049edb9d049, 0x567b4859d95a43d6, 0x47fb8d07f161736e, 0x11fc39e17aae9cab,
0x732c14d98235857d, 0x032d2968c44a9445, 0x5c2343e134f79dfd, 0x4f575453d03ba9d1,
0x49b5cfe75d92e4ca, 0x72ac4376402fbb0e, 0x75efb30bc8eb07ab, 0x0446d256cd192b49,
0x5e595c096d88d2ef, 0x1d0575123dadbc3a, 0x4b7ab0078ad3dbf2, 0x4a6ac40e97be302f,
0x78c44cd8de1fc650, 0x771139b0f2c9e6b1, 0x609d0a4718196b73, 0x78da948d8f07ebc1,
0x4d4a6e9f467abc5c, 0x60aedd3e0c065634, 0x7baa4a9870c46094, 0x344afb9679a3bd20,
0x62eea2138d69e6dd, 0x103bfc78614fca80, 0x4f254e760abb1f17, 0x26966393810ca200,
0x7ea21723445e9825, 0x2423d2859b476999, 0x654e78e9037ee01d, 0x69b642047c392148,
0x510b93ed9c658017, 0x6e2b680396941aa0, 0x40d60ff149eaccdf, 0x71bc53361210154d,
0x67bce64edcaae166, 0x1c6085235019bbae, 0x52fd850be3bbe784, 0x7d1a041c40149625,
0x42646a6fe9631f9d, 0x4a7b367d0010781d, 0x6a3a43e642383295, 0x5d91f0c8001a59c8,
0x54fb698501c68ede, 0x17a7f3d3334847d4, 0x43fc546a67d20be4, 0x79532975c2a03976,
0x6cc6ed770c83463b, 0x0eeb75893766c256, 0x57058ac5a39c382f, 0x25892ad42c523512,
0x459e089e1c7cf9bf, 0x37a0ef102374f742, 0x6f6340fcfa618f98, 0x59017e8038bb2536,
0x591c33fd951ad946, 0x7a67986693c8ea91, 0x4749c33144157a9f, 0x151fad1edca0bba8,
0x720f9eb539bbf765, 0x0832ae97c76792a5, 0x5b3fb22a94965f84, 0x068ef21305ec7551,
0x48ffc1bbaa11e603, 0x1ed8c1a8d189f774, 0x74cc692c434fd66b, 0x4af4690e1c0ff253,
0x5d705423690cab89, 0x225d20d816732843, 0x4ac0434f873d5607, 0x35174d79ab8f5369,
0x779a054c0b955672, 0x21bee25c45b21f0e, 0x5fae6aa33c77785b, 0x3498b5169e2818d8,
0x4c8b888296c5f9e2, 0x5d46f7454b534713, 0x7a78da6a8ad65c9d, 0x7ba4bed545520b52,
0x61fa48553bdeb07e, 0x2fb6ff110441a2a8, 0x4e61d37763188d31, 0x72f8cc0d9d014eed,
0x7d6952589e8daeb6, 0x1e5ae015c80217e1, 0x645441e07ed7bef8, 0x1848b344a001acb4,
0x504367e6cbdfcbf9, 0x603a2903b3348a2a, 0x4035ecb8a3196ffb, 0x002e873628f6d4ee,
0x66bcadf43828b32b, 0x19e40b89db2487e3, 0x52308b29c686f5bc, 0x14b66fa17c1d3983,
0x41c06f549ed25e30, 0x1091f2e7967dc79c, 0x6933e554315096b3, 0x341cb7d8f0c93f5f,
0x542984435aa6def5, 0x767d5fe0c0a0ff80, 0x435469cf7bb8b25e, 0x2b977fe70080cc66,
0x6bba42e592c11d63, 0x5f58cca4cd9ae0a3, 0x562e9beadbcdb11c, 0x4c470a1d7148b3b6,
0x44f216557ca48db0, 0x3d05a1b1276d5c92, 0x6e5023bbfaa0e2b3, 0x7b3c35e83f1560e9,
0x58401c96621a4ef6, 0x2f635e5365aab3ed, 0x4699b0784e7b725e, 0x591c4b75eaeef658,
0x70f5e726e3f8b6fd, 0x74fa125644b18a26, 0x5a5e5285832d5f31, 0x43fb41de9d5ad4eb,
0x484b75379c244c27, 0x4ffc34b2177bdd89, 0x73abeebf603a1372, 0x4cc6bab68bf96274,
0x5c898bcc4cfb42c2, 0x0a38955ed6611b90, 0x4a07a309d72f689b, 0x21c6dde5784dafa7,
0x76729e762518a75e, 0x693e2fd58d49190b, 0x5ec2185e8413b918, 0x5431bfde0aa0e0d5,
0x4bce79e536762dad, 0x29c1664b3bb3e711, 0x794a5ca1f0bd15e2, 0x0f9bd6dec5eca4e8,
0x61084a1b26fdab1b, 0x2616457f04bd50ba, 0x4da03b48ebfe227c, 0x1e783798d09773c8,
0x7c33920e46636a60, 0x30c058f480f252d9, 0x635c74d8384f884d, 0x0d66ad9067284247,
0x4f7d2a469372d370, 0x711ef14052869b6c, 0x7f2eaa0a85848581, 0x34fe4ecd50d75f14,
0x65beee6ed136d134, 0x2a650bd773df7f43, 0x51658b8bda9240f6, 0x551da312c319329c,
0x411e093caedb672b, 0x5db14f4235adc217, 0x68300ec77e2bd845, 0x7c4ee536bc49368a,
0x5359a56c64efe037, 0x7d0bea92303a9208, 0x42ae1df050bfe693, 0x173cbba8269541a0,
0x6ab02fe6e79970eb, 0x3ec792a6a422029a, 0x5559bfebec7ac0bc, 0x3239421ee9b4cee1,
0x4447ccbcbd2f0096, 0x5b6101b25490a581, 0x6d3fadfac84b3424, 0x2bce691d541aa268,
0x576624c8a03c29b6, 0x563eba7ddce21b87, 0x45eb50a08030215e, 0x78322ecb171b4939,
0x6fdee76733803564, 0x59e9e47824f87527, 0x597f1f85c2ccf783, 0x6187e9f9b72d2a86,
0x4798e6049bd72c69, 0x346cbb2e2c242205, 0x728e3cd42c8b7a42, 0x20adf849e039d007,
0x5ba4fd768a092e9b, 0x33be603b19c7d99f, 0x4950cac53b3a8baf, 0x42feb3627b0647b3,
0x754e113b91f745e5, 0x5197856a5e7072b8, 0x5dd80dc941929e51, 0x27ac6abb7ec05bc6,
0x4b133e3a9adbb1da, 0x52f05562cbcd1638, 0x781ec9f75e2c4fc4, 0x1e4d556adfae89f3,
0x6018a192b1bd0c9c, 0x7ea444557fbed4c3, 0x4ce0814227ca707d, 0x4bb69d1132ff109c,
0x7b00ced03faa4d95, 0x5f8a94e851981a93, 0x62670bd9cc883e11, 0x32d543ed0e134875,
0x4eb8d647d6d364da, 0x5bddcff0d80f6d2b, 0x7df48a0c8aebd491, 0x12fc7fe7c018aeab,
0x64c3a1a3a25643a7, 0x28c9ffec99ad5889, 0x509c814fb511cfb9, 0x0707fff07af113a1,
0x407d343fc40e3fc7, 0x1f39998d2f2742e7, 0x672eb9ffa016cc71, 0x7ec28f484b7204a4,
0x528bc7ffb345705b, 0x189ba5d36f8e6a1d, 0x42096ccc8f6ac048, 0x7a161e42bfa521b1,
0x69a8ae1418aacd41, 0x435696d132a1cf81, 0x5486f1a9ad557101, 0x1c454574288172ce,
0x439f27baf1112734, 0x169dd129ba0128a5, 0x6c31d92b1b4ea520, 0x242fb50f9001daa1,
0x568e4755af721db3, 0x368c90d940017bb4, 0x453e9f77bf8e7e29, 0x120a0d7a999ac95d,
0x6eca98bf98e3fd0e, 0x50101590f5c47561, 0x58a213cc7a4ffda5, 0x26734473f7d05de8,
0x46e80fd6c83ffe1d, 0x6b8f69f65fd9e4b9, 0x71734c8ad9fffcfc, 0x45b24323cc8fd45c,
0x5ac2a3a247fffd96, 0x6af502830a0ca9e3, 0x489bb61b6ccccadf, 0x08c402026e7087e9,
0x742c569247ae1164, 0x746cd003e3e73fdb, 0x5cf04541d2f1a783, 0x76bd73364fec3315,
0x4a59d101758e1f9c, 0x5efdf5c50cbcf5ab, 0x76f61b3588e365c7, 0x4b2fefa1adfb22ab,
0x5f2b48f7a0b5eb06, 0x08f3261af195b555, 0x4c22a0c61a2b226b, 0x20c284e25ade2aab,
0x79d1013cf6ab6a45, 0x1ad0d49d5e304444, 0x617400fd9222bb6a, 0x48a7107de4f369d0,
0x4df6673141b562bb, 0x53b8d9fe50c2bb0d, 0x7cbd71e869223792, 0x52c15cca1ad12b48,
0x63cac186ba81c60e, 0x75677d6e7bda8906, 0x4fd5679efb9b04d8, 0x5dec645863153a6c,
0x7fbbd8fe5f5e6e27, 0x497a3a2704eec3df, };

__device__ __forceinline__ int ftLog10Pow2(int e) { return (int)(((i64)e * 661971961083LL) >> 41); }
__device__ __forceinline__ int ftLog10ThreeQuartersPow2(int e) {
    return (int)(((i64)e * 661971961083LL - 274743187321LL) >> 41);
}
__device__ __forceinline__ int ftLog2Pow10(int e) { return (int)(((i64)e * 913124641741LL) >> 38); }
__device__ __forceinline__ u64 ftMulHi(u64 a, u64 b) { return (u64)(((u128)a * b) >> 64); }

// ftRound is (g cp) / 2^128 rounded to odd: an exact result keeps its
// value, an inexact one gets its lowest bit set.
__device__ __forceinline__ u64 ftRound(u64 g1, u64 g0, u64 cp) {
    const u64 m63 = 0x7fffffffffffffffULL;
    u64 x1 = ftMulHi(g0, cp);
    u64 y0 = g1 * cp;
    u64 y1 = ftMulHi(g1, cp);
    u64 z = (y0 >> 1) + x1;
    u64 vbp = y1 + (z >> 63);
    return vbp | (((z & m63) + m63) >> 63);
}

// ftShortest finds the decimal f 10^e of a finite nonzero float c 2^q
// (cmin: the smallest normal significand, qmin: the subnormals' exponent).
__device__ void ftShortest(int q, u64 c, u64 cmin, int qmin, u64 *f, int *e) {
    u64 out = c & 1;
    u64 cb = c << 2, cbr = cb + 2, cbl;
    int k;
    if (c != cmin || q == qmin) {
        cbl = cb - 2;
        k = ftLog10Pow2(q);
    } else { // the interval below a power of two is half as wide
        cbl = cb - 1;
        k = ftLog10ThreeQuartersPow2(q);
    }
    int h = q + ftLog2Pow10(-k) + 2;
    u64 g1 = ftG[2 * (k - FT_KMIN)], g0 = ftG[2 * (k - FT_KMIN) + 1];
    u64 vb = ftRound(g1, g0, cb << h);
    u64 vbl = ftRound(g1, g0, cbl << h);
    u64 vbr = ftRound(g1, g0, cbr << h);
    u64 s = vb >> 2;
    *e = k;
    if (s >= 10) { // a multiple of ten inside the interval has a digit less
        u64 sp10 = s / 10 * 10, tp10 = sp10 + 10;
        bool upin = vbl + out <= sp10 << 2;
        bool wpin = (tp10 << 2) + out <= vbr;
        if (upin != wpin) {
            *f = upin ? sp10 : tp10;
            return;
        }
    }
    u64 t = s + 1;
    bool uin = vbl + out <= s << 2;
    bool win = (t << 2) + out <= vbr;
    if (uin != win) {
        *f = uin ? s : t;
        return;
    }
    i64 cmp = (i64)(vb - ((s + t) << 1));
    *f = (cmp < 0 || (cmp == 0 && (s & 1) == 0)) ? s : t;
}

// putFloat writes a float (bits of a double, or of a real when f32) as
// engine.AppendFloat: NaN, Infinity, -Infinity; else the shortest
// digits, fixed when the decimal exponent is in [-4, 15) (real: [-4, 6)),
// else d.ddde+XX. At most 25 bytes.
__device__ int putFloat(unsigned char *p, u64 bits, bool f32) {
    int P = f32 ? 24 : 53, ebits = f32 ? 8 : 11;
    int qmin = f32 ? -149 : -1074;
    u64 cmin = (u64)1 << (P - 1);
    u64 t = bits & (cmin - 1);
    int bq = (int)((bits >> (P - 1)) & ((1u << ebits) - 1));
    bool neg = (bits >> (P - 1 + ebits)) & 1;
    int o = 0;
    if (bq == (1 << ebits) - 1) {
        const char *w = t != 0 ? "NaN" : (neg ? "-Infinity" : "Infinity");
        while (*w) p[o++] = (unsigned char)*w++;
        return o;
    }
    if (neg) p[o++] = '-';
    if (bq == 0 && t == 0) {
        p[o++] = '0';
        return o;
    }
    u64 f;
    int e;
    if (bq != 0) {
        int q = bq + qmin - 1;
        u64 c = cmin | t;
        if (q < 0 && q > -P && ((c >> -q) << -q) == c) { // an integer
            f = c >> -q;
            e = 0;
        } else ftShortest(q, c, cmin, qmin, &f, &e);
    } else ftShortest(qmin, t, cmin, qmin, &f, &e);
    while (f % 10 == 0) {
        f /= 10;
        e++;
    }
    unsigned char d[20];
    int n = 0;
    for (u64 v = f; v != 0; v /= 10) d[n++] = '0' + (int)(v % 10); // reversed
    int x = e + n - 1; // the decimal exponent of the first digit
    if (x >= -4 && x < (f32 ? 6 : 15)) {
        if (x < 0) {
            p[o++] = '0';
            p[o++] = '.';
            for (int k = -1; k > x; k--) p[o++] = '0';
            for (int k = n - 1; k >= 0; k--) p[o++] = d[k];
        } else {
            for (int k = 0; k <= x; k++) p[o++] = k < n ? d[n - 1 - k] : '0';
            if (n > x + 1) {
                p[o++] = '.';
                for (int k = x + 1; k < n; k++) p[o++] = d[n - 1 - k];
            }
        }
        return o;
    }
    p[o++] = d[n - 1];
    if (n > 1) {
        p[o++] = '.';
        for (int k = n - 2; k >= 0; k--) p[o++] = d[k];
    }
    p[o++] = 'e';
    p[o++] = x < 0 ? '-' : '+';
    int ax = x < 0 ? -x : x;
    if (ax >= 100) p[o++] = '0' + ax / 100;
    p[o++] = '0' + ax / 10 % 10;
    p[o++] = '0' + ax % 10;
    return o;
}
// ---- ftoa end ----

// ---- fmath begin: exp, ln, log10, cbrt and pow of doubles (engine/fmath.go) ----
// The same algorithms as engine.FExp, FLn, FLog10, FCbrt and FPow, step
// by step: double-double arithmetic for exp, ln and pow (correctly
// rounded, as glibc's), glibc's formulas for log10 and cbrt. Every
// product, sum and quotient rounds on its own (the __d*_rn intrinsics:
// nvcc would otherwise fuse a*b+c into an FMA), and ldexp and frexp are
// Go's, so the bits are the CPU backend's on any GPU. engine/gpu's
// fmath_test.go compiles this section with the host's C compiler and
// compares it with the Go functions.

#ifdef __CUDA_ARCH__
#define FM_ADD(a, b) __dadd_rn((a), (b))
#define FM_SUB(a, b) __dsub_rn((a), (b))
#define FM_MUL(a, b) __dmul_rn((a), (b))
#define FM_DIV(a, b) __ddiv_rn((a), (b))
#define FM_BITS(x) ((u64)__double_as_longlong(x))
#define FM_FROM(b) __longlong_as_double((i64)(b))
#else
#define FM_ADD(a, b) ((a) + (b))
#define FM_SUB(a, b) ((a) - (b))
#define FM_MUL(a, b) ((a) * (b))
#define FM_DIV(a, b) ((a) / (b))
__device__ __forceinline__ u64 fmBitsH(double x) { union { double d; u64 b; } u; u.d = x; return u.b; }
__device__ __forceinline__ double fmFromH(u64 b) { union { double d; u64 b; } u; u.b = b; return u.d; }
#define FM_BITS(x) fmBitsH(x)
#define FM_FROM(b) fmFromH(b)
#endif

typedef struct { double hi, lo; } fmDD;

__device__ __forceinline__ fmDD fmDd(double hi, double lo) { fmDD r; r.hi = hi; r.lo = lo; return r; }

__device__ __forceinline__ bool fmNaN(double x) { return (FM_BITS(x) & 0x7fffffffffffffffULL) > 0x7ff0000000000000ULL; }
__device__ __forceinline__ bool fmInf(double x) { return (FM_BITS(x) & 0x7fffffffffffffffULL) == 0x7ff0000000000000ULL; }
__device__ __forceinline__ double fmAbs(double x) { return FM_FROM(FM_BITS(x) & 0x7fffffffffffffffULL); }

// Go's math.Ldexp: frac 2^exp, correctly rounded when it is subnormal.
__device__ double fmLdexp(double frac, int exp) {
    if (frac == 0 || fmInf(frac) || fmNaN(frac)) return frac;
    if (fmAbs(frac) < 2.2250738585072014e-308) { // normalize
        frac = FM_MUL(frac, 4503599627370496.0);
        exp -= 52;
    }
    u64 x = FM_BITS(frac);
    exp += (int)((x >> 52) & 0x7ff) - 1023;
    if (exp < -1075) return FM_FROM(x & 0x8000000000000000ULL); // ±0
    if (exp > 1023) return FM_FROM((x & 0x8000000000000000ULL) | 0x7ff0000000000000ULL);
    double m = 1;
    if (exp < -1022) {
        exp += 53;
        m = 1.0 / 9007199254740992.0;
    }
    x &= ~(0x7ffULL << 52);
    x |= (u64)(exp + 1023) << 52;
    return FM_MUL(m, FM_FROM(x));
}

// Go's math.Frexp: f = frac 2^exp, frac in [0.5, 1).
__device__ double fmFrexp(double f, int *exp) {
    *exp = 0;
    if (f == 0 || fmInf(f) || fmNaN(f)) return f;
    if (fmAbs(f) < 2.2250738585072014e-308) {
        f = FM_MUL(f, 4503599627370496.0);
        *exp = -52;
    }
    u64 x = FM_BITS(f);
    *exp += (int)((x >> 52) & 0x7ff) - 1023 + 1;
    x &= ~(0x7ffULL << 52);
    x |= (u64)(-1 + 1023) << 52;
    return FM_FROM(x);
}

__device__ __forceinline__ fmDD fmTwoSum(double a, double b) {
    double s = FM_ADD(a, b);
    double bb = FM_SUB(s, a);
    return fmDd(s, FM_ADD(FM_SUB(a, FM_SUB(s, bb)), FM_SUB(b, bb)));
}

__device__ __forceinline__ fmDD fmQuickTwoSum(double a, double b) {
    double s = FM_ADD(a, b);
    return fmDd(s, FM_SUB(b, FM_SUB(s, a)));
}

__device__ __forceinline__ void fmSplit(double a, double *hi, double *lo) {
    double t = FM_MUL(134217729.0, a);
    *hi = FM_SUB(t, FM_SUB(t, a));
    *lo = FM_SUB(a, *hi);
}

__device__ __forceinline__ fmDD fmTwoProd(double a, double b) {
    double p = FM_MUL(a, b), ah, al, bh, bl;
    fmSplit(a, &ah, &al);
    fmSplit(b, &bh, &bl);
    double e = FM_ADD(FM_ADD(FM_ADD(FM_SUB(FM_MUL(ah, bh), p), FM_MUL(ah, bl)), FM_MUL(al, bh)), FM_MUL(al, bl));
    return fmDd(p, e);
}

__device__ fmDD fmAddDD(fmDD a, fmDD b) {
    fmDD s = fmTwoSum(a.hi, b.hi);
    fmDD t = fmTwoSum(a.lo, b.lo);
    s.lo = FM_ADD(s.lo, t.hi);
    s = fmQuickTwoSum(s.hi, s.lo);
    s.lo = FM_ADD(s.lo, t.lo);
    return fmQuickTwoSum(s.hi, s.lo);
}

__device__ fmDD fmMulDD(fmDD a, fmDD b) {
    fmDD p = fmTwoProd(a.hi, b.hi);
    p.lo = FM_ADD(p.lo, FM_ADD(FM_MUL(a.hi, b.lo), FM_MUL(a.lo, b.hi)));
    return fmQuickTwoSum(p.hi, p.lo);
}

__device__ fmDD fmMulF(fmDD a, double b) {
    fmDD p = fmTwoProd(a.hi, b);
    p.lo = FM_ADD(p.lo, FM_MUL(a.lo, b));
    return fmQuickTwoSum(p.hi, p.lo);
}

__device__ fmDD fmDivDD(fmDD a, fmDD b) {
    double q1 = FM_DIV(a.hi, b.hi);
    fmDD r = fmAddDD(a, fmMulF(b, -q1));
    double q2 = FM_DIV(r.hi, b.hi);
    r = fmAddDD(r, fmMulF(b, -q2));
    double q3 = FM_DIV(r.hi, b.hi);
    fmDD q = fmQuickTwoSum(q1, q2);
    return fmAddDD(q, fmDd(q3, 0));
}

#define FM_LN2_HI 6.93147180559945286227e-01
#define FM_LN2_LO 2.31904681384629955842e-17

// e^x for a double-double x below 710 in magnitude, and the power of two
// to scale it by (engine's expDD)
__device__ fmDD fmExpDD(fmDD x, int *k2) {
    double k = floor(FM_ADD(FM_MUL(x.hi, 1.44269504088896338700), 0.5));
    fmDD r = fmAddDD(x, fmMulF(fmDd(FM_LN2_HI, FM_LN2_LO), -k));
    r.hi = fmLdexp(r.hi, -8);
    r.lo = fmLdexp(r.lo, -8);
    fmDD s = fmDd(0, 0), p = fmDd(1, 0);
    double f = 1;
    for (int i = 1; i < 14; i++) {
        f = FM_MUL(f, (double)i); // i! (exact)
        fmDD inv = fmDivDD(fmDd(1, 0), fmDd(f, 0));
        p = fmMulDD(p, r);
        s = fmAddDD(s, fmMulDD(p, inv));
    }
    for (int i = 0; i < 8; i++) s = fmAddDD(fmMulF(s, 2), fmMulDD(s, s));
    *k2 = (int)k;
    return fmAddDD(s, fmDd(1, 0));
}

// ln x for a finite x > 0 (engine's lnDD)
__device__ fmDD fmLnDD(double x) {
    int e;
    double m = fmFrexp(x, &e);
    if (m < 0.70710678118654752440084436210484903928483593768847) {
        m = FM_MUL(m, 2);
        e--;
    }
    fmDD z = fmDivDD(fmDd(FM_SUB(m, 1), 0), fmTwoSum(m, 1));
    fmDD z2 = fmMulDD(z, z);
    fmDD sum = z, pw = z;
    for (int k = 3; k < 80; k += 2) {
        pw = fmMulDD(pw, z2);
        fmDD t = fmDivDD(pw, fmDd((double)k, 0));
        sum = fmAddDD(sum, t);
        if (fmAbs(t.hi) < FM_MUL(fmAbs(sum.hi), 1e-34)) break;
    }
    fmDD r = fmMulF(sum, 2);
    if (e != 0) r = fmAddDD(fmMulF(fmDd(FM_LN2_HI, FM_LN2_LO), (double)e), r);
    return r;
}

__device__ double fmScale(fmDD h, int k) {
    double v = FM_ADD(h.hi, h.lo);
    if (k > 1000 || k < -1000) {
        v = fmLdexp(v, k / 2);
        return fmLdexp(v, k - k / 2);
    }
    return fmLdexp(v, k);
}

__device__ double fmExp(double x) {
    if (fmNaN(x)) return x;
    if (x > 709.8) return FM_FROM(0x7ff0000000000000ULL);
    if (x < -745.2) return 0;
    int k;
    fmDD h = fmExpDD(fmDd(x, 0), &k);
    return fmScale(h, k);
}

__device__ double fmLn(double x) {
    if (fmNaN(x) || (fmInf(x) && x > 0)) return x;
    if (x < 0) return FM_FROM(0x7ff8000000000001ULL);
    if (x == 0) return FM_FROM(0xfff0000000000000ULL);
    fmDD r = fmLnDD(x);
    return FM_ADD(r.hi, r.lo);
}

// glibc's __ieee754_log10 over fmLn
__device__ double fmLog10(double x) {
    const double two54 = 1.80143985094819840000e+16, ivln10 = 4.34294481903251816668e-01,
                 log102hi = 3.01029995663611771306e-01, log102lo = 3.69423907715893078616e-13;
    u64 bits = FM_BITS(x);
    int hx = (int)(unsigned)(bits >> 32);
    unsigned lx = (unsigned)bits;
    int k = 0;
    if (hx < 0x00100000) {
        if (((hx & 0x7fffffff) | (int)lx) == 0) return FM_FROM(0xfff0000000000000ULL);
        if (hx < 0) return FM_FROM(0x7ff8000000000001ULL);
        k -= 54;
        x = FM_MUL(x, two54);
        bits = FM_BITS(x);
        hx = (int)(unsigned)(bits >> 32);
    }
    if (hx >= 0x7ff00000) return FM_ADD(x, x);
    k += (hx >> 20) - 1023;
    int i = (int)(((unsigned)k & 0x80000000u) >> 31);
    hx = (hx & 0x000fffff) | ((0x3ff - i) << 20);
    double y = (double)(k + i);
    x = FM_FROM(((u64)(unsigned)hx << 32) | (bits & 0xffffffffULL));
    double z = FM_ADD(FM_MUL(y, log102lo), FM_MUL(ivln10, fmLn(x)));
    return FM_ADD(z, FM_MUL(y, log102hi));
}

// glibc's __cbrt
__device__ double fmCbrt(double x) {
    if (x == 0 || fmNaN(x) || fmInf(x)) return FM_ADD(x, x);
    int xe;
    double xm = fmFrexp(fmAbs(x), &xe);
    double u = FM_ADD(0.354895765043919860,
        FM_MUL(FM_ADD(1.50819193781584896,
            FM_MUL(FM_ADD(-2.11499494167371287,
                FM_MUL(FM_ADD(2.44693122563534430,
                    FM_MUL(FM_ADD(-1.83469277483613086,
                        FM_MUL(FM_SUB(0.784932344976639262, FM_MUL(0.145263899385486377, xm)), xm)), xm)), xm)), xm)), xm));
    double t2 = FM_MUL(FM_MUL(u, u), u);
    const double cbrt2 = 1.2599210498948731648, sqrCbrt2 = 1.5874010519681994748;
    double fac;
    switch (xe % 3) {
    case -2: fac = FM_DIV(1.0, sqrCbrt2); break;
    case -1: fac = FM_DIV(1.0, cbrt2); break;
    case 1: fac = cbrt2; break;
    case 2: fac = sqrCbrt2; break;
    default: fac = 1.0; break;
    }
    double ym = FM_MUL(FM_DIV(FM_MUL(u, FM_ADD(t2, FM_MUL(2.0, xm))), FM_ADD(FM_MUL(2.0, t2), xm)), fac);
    if (x <= 0) ym = -ym;
    return fmLdexp(ym, xe / 3);
}

__device__ bool fmOddInt(double x) {
    if (fmAbs(x) >= 9007199254740992.0) return false;
    double xi = trunc(x);
    return FM_SUB(x, xi) == 0 && ((i64)xi & 1) == 1;
}

// C99's pow, correctly rounded (engine.FPow); PostgreSQL's errors are
// the caller's
__device__ double fmPowRaw(double x, double y) {
    if (y == 0 || x == 1) return 1;
    if (fmNaN(x) || fmNaN(y)) return FM_FROM(0x7ff8000000000001ULL);
    const double inf = FM_FROM(0x7ff0000000000000ULL);
    if (fmInf(y)) {
        double ax = fmAbs(x);
        if (ax == 1) return 1;
        if ((ax > 1) == (y > 0)) return inf;
        return 0;
    }
    bool yOdd = fmOddInt(y);
    if (fmInf(x) || x == 0) {
        bool big = fmInf(x) == (y > 0);
        bool neg = (FM_BITS(x) >> 63) && yOdd;
        double r = big ? inf : 0;
        return neg ? -r : r;
    }
    bool neg = false;
    if (x < 0) {
        if (floor(y) != y) return FM_FROM(0x7ff8000000000001ULL);
        neg = yOdd;
        x = -x;
    }
    fmDD l = fmMulF(fmLnDD(x), y);
    double r;
    if (l.hi > 709.8) r = inf;
    else if (l.hi < -745.2) r = 0;
    else {
        int k;
        fmDD h = fmExpDD(l, &k);
        r = fmScale(h, k);
    }
    return neg ? -r : r;
}

// fmMath is OP_FMATH: op 0 exp, 1 ln, 2 log10, 3 cbrt, 4 pow(x, y), with
// PostgreSQL's checks (eval.FloatMath); *err is 0, or 1 overflow,
// 2 underflow, 3 log of zero, 4 log of a negative number, 5 zero to a
// negative power, 6 a negative number to a non-integer power.
__device__ double fmMath(int op, double x, double y, int *err) {
    *err = 0;
    switch (op) {
    case 0: {
        if (fmNaN(x)) return x;
        if (fmInf(x)) return x < 0 ? 0 : x;
        double r = fmExp(x);
        if (fmInf(r)) { *err = 1; return 0; }
        if (r == 0) { *err = 2; return 0; }
        return r;
    }
    case 1: case 2:
        if (x == 0) { *err = 3; return 0; }
        if (x < 0) { *err = 4; return 0; }
        return op == 1 ? fmLn(x) : fmLog10(x);
    case 3:
        return fmCbrt(x);
    }
    if (fmNaN(x)) return fmNaN(y) || y != 0 ? FM_FROM(0x7ff8000000000001ULL) : 1;
    if (fmNaN(y)) return x != 1 ? FM_FROM(0x7ff8000000000001ULL) : 1;
    if (x == 0 && y < 0) { *err = 5; return 0; }
    if (x < 0 && floor(y) != y) { *err = 6; return 0; }
    if (fmInf(x) || fmInf(y)) return fmPowRaw(x, y);
    double r = fmPowRaw(x, y);
    if (fmInf(r)) { *err = 1; return 0; }
    if (r == 0 && x != 0) { *err = 2; return 0; }
    return r;
}
// ---- fmath end ----

// ---- f2d begin: float to numeric (engine.DecFromFloat on the device) ----
// PostgreSQL's float8_numeric prints the float with %.15g (real: %.6g)
// and reads the digits back: the exact binary value rounded to 15 (6)
// significant decimal digits, ties to even, trailing zeros dropped. The
// rounding is done exactly with a little big-integer arithmetic on 32-bit
// limbs: m 2^e is multiplied or divided by the power of ten that leaves
// one digit more than wanted, and whether anything nonzero was dropped is
// kept, so the last digit rounds as the exact value says. engine/gpu's
// f2d_test.go compiles this section with the host's C compiler and
// compares it with engine.DecFromFloat.

#define F2D_LIMBS 40 // m 10^339 (the smallest subnormal's digits) needs 37

__device__ const u64 f2dPow10[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
    100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
    10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};

// f2dScaled returns floor(m 2^e / 10^s) (it must fit 64 bits) and sets
// *inexact when that dropped anything.
__device__ u64 f2dScaled(u64 m, int e, int s, bool *inexact) {
    unsigned a[F2D_LIMBS];
    int n = 2;
    a[0] = (unsigned)m;
    a[1] = (unsigned)(m >> 32);
    bool st = false;
    if (e > 0) { // shift left by whole limbs, then bits
        int w = e / 32, bsh = e % 32;
        for (int i = n - 1; i >= 0; i--) a[i + w] = a[i];
        for (int i = 0; i < w; i++) a[i] = 0;
        n += w;
        if (bsh) {
            unsigned carry = 0;
            for (int i = 0; i < n; i++) {
                unsigned v = a[i];
                a[i] = (v << bsh) | carry;
                carry = v >> (32 - bsh);
            }
            if (carry) a[n++] = carry;
        }
    }
    for (int r = -s; r > 0; r -= 9) { // times 10^-s
        unsigned mul = (unsigned)f2dPow10[r >= 9 ? 9 : r];
        u64 carry = 0;
        for (int i = 0; i < n; i++) {
            u64 v = (u64)a[i] * mul + carry;
            a[i] = (unsigned)v;
            carry = v >> 32;
        }
        if (carry) a[n++] = (unsigned)carry;
    }
    for (int r = s; r > 0; r -= 9) { // divided by 10^s
        unsigned div = (unsigned)f2dPow10[r >= 9 ? 9 : r];
        u64 rem = 0;
        for (int i = n - 1; i >= 0; i--) {
            u64 v = (rem << 32) | a[i];
            a[i] = (unsigned)(v / div);
            rem = v % div;
        }
        if (rem) st = true;
        while (n > 1 && a[n - 1] == 0) n--;
    }
    if (e < 0) { // shifted right by -e
        int w = -e / 32, bsh = -e % 32;
        for (int i = 0; i < w && i < n; i++)
            if (a[i]) st = true;
        if (w >= n) {
            a[0] = 0;
            n = 1;
        } else {
            for (int i = 0; i + w < n; i++) a[i] = a[i + w];
            n -= w;
            if (bsh) {
                if (a[0] << (32 - bsh)) st = true;
                for (int i = 0; i < n; i++) a[i] = (a[i] >> bsh) | (i + 1 < n ? a[i + 1] << (32 - bsh) : 0);
            }
        }
    }
    *inexact = st;
    u64 r = a[0];
    if (n > 1) r |= (u64)a[1] << 32;
    return r;
}

// f2dDigits rounds m 2^e (0 < m < 2^53) to nd significant digits, ties
// to even: q 10^t with 10^(nd-1) <= q < 10^nd.
__device__ void f2dDigits(u64 m, int e, int nd, u64 *q, int *t) {
    int b = e - 1; // m 2^e lies in [2^b, 2^(b+1))
    for (u64 v = m; v != 0; v >>= 1) b++;
    // floor(b log10 2): k is it or one more (the first digit's exponent)
    int k = (int)(((i64)b * 661971961083LL) >> 41);
    for (;;) {
        bool inexact;
        u64 q2 = f2dScaled(m, e, k - nd, &inexact); // nd + 1 digits
        if (q2 >= f2dPow10[nd + 1]) {
            k++;
            continue;
        }
        u64 r = q2 / 10;
        int last = (int)(q2 % 10);
        if (last > 5 || (last == 5 && (inexact || (r & 1)))) r++;
        int tt = k - nd + 1;
        if (r == f2dPow10[nd]) {
            r = f2dPow10[nd - 1];
            tt++;
        }
        *q = r;
        *t = tt;
        return;
    }
}

// f2dDecimal converts the float bits (a double; one holding a real when
// f32) into a numeric mantissa and scale (scale >= 0) as
// engine.DecFromFloat does. It returns 0, or 1 for NaN, 2 for Infinity,
// 3 for -Infinity, 4 when the value passes 2^127-1 (value overflows
// numeric format).
__device__ int f2dDecimal(u64 bits, bool f32, i128 *mant, int *scale) {
    int bq = (int)((bits >> 52) & 0x7ff);
    u64 frac = bits & (((u64)1 << 52) - 1);
    bool neg = bits >> 63;
    *mant = 0;
    *scale = 0;
    if (bq == 0x7ff) return frac ? 1 : (neg ? 3 : 2);
    if (bq == 0 && frac == 0) return 0;
    u64 m = bq ? frac | ((u64)1 << 52) : frac;
    int e = bq ? bq - 1075 : -1074;
    u64 q;
    int t;
    f2dDigits(m, e, f32 ? 6 : 15, &q, &t);
    while (q % 10 == 0) {
        q /= 10;
        t++;
    }
    unsigned __int128 v = q;
    const unsigned __int128 maxmag = ((unsigned __int128)1 << 127) - 1;
    for (; t > 0; t--) {
        if (v > maxmag / 10) return 4;
        v *= 10;
    }
    *scale = -t;
    *mant = neg ? -(i128)v : (i128)v;
    return 0;
}
// ---- f2d end ----

// ---- arrays begin: text-form arrays (engine/gpu/arrays.go) ----
// gpusql's arrays are PostgreSQL's text form ('{a,"b c",NULL}'). The
// reference is the CPU backend: query/pgfunc_defs.go's parseTextArray
// (parsing, its error), query/bindexpr.go's appendArrayElem (quoting),
// string_to_array, array_length/array_upper/array_lower, a[i], x = ANY
// (a), array_cat and array_to_string. Numbered apart from the other
// opcode lists.
enum { OP_STR2ARR = 800, OP_ARRLEN, OP_ARRSUB, OP_ARRHAS, OP_ARRCAT, OP_ARR2STR };
// malformed array literal (the array's text goes to the instruction's
// error record, arBad), numbered apart from the other error lists
enum { ERR_ARRAY_MALFORMED = 28 };

// arSpace is Go's unicode.IsSpace.
__device__ __forceinline__ bool arSpace(unsigned r) {
    if (r < 0x80) return r == ' ' || (r >= '\t' && r <= '\r');
    return r == 0x85 || r == 0xA0 || r == 0x1680 || (r >= 0x2000 && r <= 0x200A) || r == 0x2028 ||
           r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000;
}

// arTrim is strings.TrimSpace of s[0, n): the bounds [*st, *en) left.
__device__ void arTrim(const unsigned char *s, int n, int *st, int *en) {
    int a = 0, b = n, w;
    while (a < b && arSpace(reRune(s + a, b - a, &w))) a += w;
    while (b > a && arSpace(reLastRune(s + a, b - a, &w))) b -= w;
    *st = a;
    *en = b;
}

// arIsNull is strings.EqualFold(s, "null") (no other characters fold to
// these letters).
__device__ __forceinline__ bool arIsNull(const unsigned char *s, int n) {
    return n == 4 && (s[0] | 0x20) == 'n' && (s[1] | 0x20) == 'u' && (s[2] | 0x20) == 'l' && (s[3] | 0x20) == 'l';
}

// ArP walks the elements of an array's text form.
typedef struct ArP {
    const unsigned char *b; // the body between the braces
    int n, i;
    bool done;
} ArP;

// arOpen starts a walk over s[0, n) and returns false where
// parseTextArray reports a malformed literal (no braces).
__device__ bool arOpen(const unsigned char *s, int n, ArP *p) {
    int st, en;
    arTrim(s, n, &st, &en);
    if (en - st < 2 || s[st] != '{' || s[en - 1] != '}') return false;
    p->b = s + st + 1;
    p->n = en - st - 2;
    p->i = 0;
    int a, z;
    arTrim(p->b, p->n, &a, &z);
    p->done = a == z; // no elements
    return true;
}

// arNext reads the next element as parseTextArray does: blanks, then a
// quoted part (backslash escapes), then the rest up to a comma
// (backslash escapes where unquoted); unquoted, it is trimmed
// (strings.TrimSpace) and NULL in any case is a NULL. With o, the
// unescaped bytes go to o and the element is o[*st, *st + *len); without,
// only the walk advances. It returns false for an unterminated quote.
__device__ bool arNext(ArP *p, unsigned char *o, int *st, int *len, bool *nul) {
    const unsigned char *b = p->b;
    int n = p->n, i = p->i, k = 0;
    bool q = false;
    while (i < n && b[i] == ' ') i++;
    if (i < n && b[i] == '"') {
        q = true;
        i++;
        while (i < n && b[i] != '"') {
            if (b[i] == '\\' && i + 1 < n) i++;
            if (o) o[k] = b[i];
            k++;
            i++;
        }
        if (i >= n) return false;
        i++;
    }
    while (i < n && b[i] != ',') {
        if (!q && b[i] == '\\' && i + 1 < n) i++;
        if (o) o[k] = b[i];
        k++;
        i++;
    }
    int a = 0, z = k;
    if (!q && o) arTrim(o, k, &a, &z);
    *st = a;
    *len = z - a;
    *nul = !q && o && arIsNull(o + a, z - a);
    i++; // the comma
    if (i == n + 1) p->done = true;
    p->i = i;
    return true;
}

// arBad raises ERR_ARRAY_MALFORMED and keeps the failing text s[0, n) in
// rec, the instruction's error record in the constant pool (u64 key,
// int lock, int length, the bytes), when its key is the smallest so far:
// the host then words the message as the CPU does. The key is raiseAt's.
__device__ void arBad(QErr *e, unsigned char *rec, const unsigned char *s, int n, i64 row, int pc) {
    raiseAt(e, ERR_ARRAY_MALFORMED, 0, row, pc);
    u64 batch = (u64)row >> ERR_BATCH_BITS;
    if (batch >= ((u64)1 << 24)) batch = ((u64)1 << 24) - 1;
    u64 key = batch << 40 | (u64)(pc & MAXPC) << 28 | ((u64)row & ((1 << ERR_BATCH_BITS) - 1)) << 16 |
              (u64)(ERR_ARRAY_MALFORMED & 31) << 11;
    volatile u64 *rk = (volatile u64 *)rec;
    int *lock = (int *)(rec + 8);
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    if (*rk == 0 || key < *rk) {
        for (int j = 0; j < n; j++) rec[16 + j] = s[j];
        *(volatile int *)(rec + 12) = n;
        *rk = key;
    }
    __threadfence();
    atomicExch(lock, 0);
}

// arMove is memmove.
__device__ __forceinline__ void arMove(unsigned char *dst, const unsigned char *src, int n) {
    if (dst < src)
        for (int j = 0; j < n; j++) dst[j] = src[j];
    else
        for (int j = n - 1; j >= 0; j--) dst[j] = src[j];
}

// arQuote is appendArrayElem: e[0, n) to o, quoted (with a backslash
// before each " and backslash) when empty, NULL in any case, or holding
// { } , " \ or a blank, tab or newline; returns the bytes written.
__device__ int arQuote(unsigned char *o, const unsigned char *e, int n) {
    bool q = n == 0 || arIsNull(e, n);
    for (int j = 0; j < n && !q; j++) {
        unsigned char c = e[j];
        q = c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || c == ' ' || c == '\t' || c == '\n';
    }
    if (!q) {
        for (int j = 0; j < n; j++) o[j] = e[j];
        return n;
    }
    int k = 0;
    o[k++] = '"';
    for (int j = 0; j < n; j++) {
        if (e[j] == '"' || e[j] == '\\') o[k++] = '\\';
        o[k++] = e[j];
    }
    o[k++] = '"';
    return k;
}

// arSplit is string_to_array(s, d) for non-NULL s: {} for an empty s;
// with no delimiter (dn < 0, a NULL) each character as Go's range reads
// it (an invalid byte is U+FFFD); with an empty one s whole; else the
// parts strings.Split gives. Returns the bytes written to o.
__device__ int arSplit(unsigned char *o, const unsigned char *s, int n, const unsigned char *d, int dn) {
    int k = 0;
    o[k++] = '{';
    if (n > 0 && dn < 0) {
        for (int j = 0, w; j < n; j += w) {
            unsigned r = reRune(s + j, n - j, &w);
            if (j > 0) o[k++] = ',';
            if (w == 1 && r == 0xFFFD) {
                o[k++] = 0xEF; o[k++] = 0xBF; o[k++] = 0xBD;
            } else k += arQuote(o + k, s + j, w);
        }
    } else if (n > 0 && dn == 0) {
        k += arQuote(o + k, s, n);
    } else if (n > 0) {
        int st = 0;
        for (int j = 0; j + dn <= n;) {
            bool hit = true;
            for (int t = 0; hit && t < dn; t++) hit = s[j + t] == d[t];
            if (!hit) {
                j++;
                continue;
            }
            k += arQuote(o + k, s + st, j - st);
            o[k++] = ',';
            j += dn;
            st = j;
        }
        k += arQuote(o + k, s + st, n - st);
    }
    o[k++] = '}';
    return k;
}
// arWalk runs OP_ARRLEN (mode 1: array_lower), OP_ARRSUB, OP_ARRHAS and
// OP_ARR2STR over the elements of the non-NULL array s[0, n), with b
// (NULL bn; the integer bi, or the text at address bi of bl bytes) and
// c (likewise; OP_ARR2STR's NULL text). Element bytes go to o (as wide
// as s; OP_ARR2STR writes its result there). The result is *lo (and
// *len bytes at address *lo for OP_ARRSUB and OP_ARR2STR), NULL where
// *nul is set; false where the array is malformed.
__device__ bool arWalk(int op, int mode, const unsigned char *s, int n, bool bn, i64 bi, i64 bl, bool cn, i64 ci, i64 cl,
                       unsigned char *o, i64 *lo, int *len, bool *nul) {
    const unsigned char *bs = (const unsigned char *)bi;
    ArP p;
    if (!arOpen(s, n, &p)) return false;
    i64 cnt = 0;
    int k = 0;                     // OP_ARR2STR: bytes written
    bool found = false, seen = false; // a match (ANY: a NULL element seen; ARR2STR: a piece written)
    *lo = 0;
    *len = 0;
    while (!p.done) {
        unsigned char *w = 0;
        if (op == OP_ARRHAS) w = o;
        else if (op == OP_ARR2STR) w = o + k;
        else if (op == OP_ARRSUB && !bn && bi == cnt + 1) w = o;
        int st, el;
        bool en;
        if (!arNext(&p, w, &st, &el, &en)) return false;
        cnt++;
        if (op == OP_ARRHAS) {
            if (en) seen = true;
            else if (!bn && el == (int)bl) {
                bool eq = true;
                for (int j = 0; eq && j < el; j++) eq = o[st + j] == bs[j];
                found = found || eq;
            }
        } else if (op == OP_ARRSUB && w) {
            found = !en;
            *lo = (i64)(o + st);
            *len = el;
        } else if (op == OP_ARR2STR) {
            // the element is at w + st; a NULL is skipped, or the text c
            // where c is not NULL; pieces are joined by b
            const unsigned char *src = w + st;
            if (en) {
                if (cn) continue;
                src = (const unsigned char *)ci;
                el = (int)cl;
            }
            if (seen) {
                int sl = (int)bl;
                if (!en) arMove(o + k + sl, src, el);
                for (int j = 0; j < sl; j++) o[k + j] = bs[j];
                k += sl;
                if (en) arMove(o + k, src, el);
            } else arMove(o + k, src, el);
            k += el;
            seen = true;
        }
    }
    switch (op) {
    case OP_ARRLEN:
        *lo = mode ? 1 : cnt;
        *nul = cnt == 0;
        break;
    case OP_ARRHAS:
        *lo = found;
        *nul = !found && (seen || bn);
        break;
    case OP_ARRSUB:
        *nul = !found;
        break;
    default:
        *lo = (i64)o;
        *len = k;
    }
    return true;
}
// ---- arrays end ----

// putText writes a value in its text output form (engine.AppendText;
// booleans as a cast says them): kind 0 integer, 1 boolean, 2 numeric
// (scale sc), 3 date, 4 timestamp, 5 double precision, 6 real (lo holds
// the bits of a double in both).
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
    case 5:
        return putFloat(p, (u64)lo, false);
    case 6:
        return putFloat(p, (u64)__float_as_uint((float)__longlong_as_double(lo)), true);
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

// colNum is a fixed-width column's value at row as a register holds it
// (OP_COL; numerics' high word is the sign, floats are doubles' bits).
__device__ __forceinline__ i64 colNum(const QCol &c, i64 row) {
    switch (c.cls) {
    case CLS_BOOL: return ((const unsigned char *)c.data)[row];
    case CLS_I16: return ((const short *)c.data)[row];
    case CLS_I32: return ((const int *)c.data)[row];
    case CLS_F32: return __double_as_longlong((double)((const float *)c.data)[row]);
    }
    return ((const i64 *)c.data)[row]; // CLS_I64, CLS_DEC, CLS_F64
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

// ---- tail begin: quote_ident, quote_literal, quote_nullable ----
// (engine/gpu/tail.go; query/pgfunc_defs.go's quoteLiteral and
// query/pgfunc_format.go's pgQuoteIdent are the reference)
enum { QUOTE_LITERAL = 0, QUOTE_NULLABLE, QUOTE_IDENT, QUOTE_FORMAT_IDENT };
// format()'s %I of a NULL (null values cannot be formatted as an SQL
// identifier), numbered apart from the error lists above
enum { ERR_FORMAT_NULL = 21 };

// tlKeywords: PostgreSQL's keywords that are not unreserved, as
// query.reservedKeywords lists them (query/quote_keywords_test.go checks
// that both lists agree), each followed by a blank.
__device__ __constant__ char tlKeywords[] =
    "all analyse analyze and any array as asc asymmetric authorization "
    "between bigint binary bit boolean both case cast char character check coalesce collate collation column "
    "concurrently constraint create cross current_catalog current_date current_role current_schema "
    "current_time current_timestamp current_user dec decimal default deferrable desc distinct do else end "
    "except exists extract false fetch float for foreign freeze from full grant greatest group grouping "
    "having ilike in initially inner inout int integer intersect interval into is isnull join lateral "
    "leading least left like limit localtime localtimestamp national natural nchar none normalize not "
    "notnull null nullif numeric offset on only or order out outer overlaps overlay placing position "
    "precision primary real references returning right row select session_user setof similar smallint "
    "some substring symmetric table tablesample then time timestamp to trailing treat trim true union "
    "unique user using values varchar variadic verbose when where window with xmlattributes xmlconcat "
    "xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable ";

// tlKeyword reports whether s (n bytes) is one of tlKeywords' words.
__device__ bool tlKeyword(const unsigned char *s, int n) {
    int i = 0;
    while (tlKeywords[i]) {
        int j = 0;
        while (j < n && tlKeywords[i + j] == (char)s[j]) j++;
        if (j == n && tlKeywords[i + j] == ' ') return true;
        while (tlKeywords[i] != ' ') i++;
        i++;
    }
    return false;
}

// tlQuote writes s (n bytes) quoted by mode to o and returns its length.
__device__ int tlQuote(const unsigned char *s, int n, int mode, unsigned char *o) {
    int k = 0;
    if (mode == QUOTE_IDENT || mode == QUOTE_FORMAT_IDENT) {
        bool safe = n > 0 && ((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_');
        for (int i = 0; safe && i < n; i++) {
            unsigned char c = s[i];
            safe = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        }
        if (safe && !tlKeyword(s, n)) {
            for (int i = 0; i < n; i++) o[i] = s[i];
            return n;
        }
        o[k++] = '"';
        for (int i = 0; i < n; i++) {
            if (s[i] == '"') o[k++] = '"';
            o[k++] = s[i];
        }
        o[k++] = '"';
        return k;
    }
    bool bs = false;
    for (int i = 0; i < n; i++) bs = bs || s[i] == '\\';
    if (bs) o[k++] = 'E';
    o[k++] = '\'';
    for (int i = 0; i < n; i++) {
        if (s[i] == '\'' || (bs && s[i] == '\\')) o[k++] = s[i];
        o[k++] = s[i];
    }
    o[k++] = '\'';
    return k;
}
// ---- tail end ----

// ---- tail3 begin: format() in general, intervals as text ----
// (engine/gpu/fmtexpr.go). OP_FORMAT is the CPU's formatText over one
// row: a is the format (a string register), b the first of imm
// consecutive registers holding the arguments' text forms, c the scratch
// slot. OP_INTVTEXT writes an interval's text form (engine.AppendInterval)
// into the slot c.
enum { OP_FORMAT = 900, OP_INTVTEXT };
// ERR_FORMAT_NULL's arguments for format()'s other errors (fmtexpr.go's
// formatError): unterminated specifier, too few arguments, and
// FMT_BADSPEC + the byte of an unrecognized conversion
enum { FMT_UNTERMINATED = 1, FMT_TOOFEW = 2, FMT_BADSPEC = 256 };

// t3Format writes format f (n bytes) over the arguments in registers
// b.. b+nargs-1 to o and returns the length; *err gets ERR_FORMAT_NULL's
// argument + 1 of the first error (the CPU stops there), else stays 0.
__device__ int t3Format(const unsigned char *f, int n, int nargs, int b, const i64 *rl, const i64 *rh,
                        const unsigned char *rn, unsigned char *o, int *err) {
    int k = 0;
    i64 next = 0;
    for (int i = 0; i < n; i++) {
        unsigned char c = f[i];
        if (c != '%') { o[k++] = c; continue; }
        i++;
        if (i >= n) { *err = FMT_UNTERMINATED + 1; return k; }
        if (f[i] == '%') { o[k++] = '%'; continue; }
        // %n$ picks argument n (Go's Atoi: a huge n is out of range
        // either way, so the value saturates)
        int j = i;
        i64 v = 0;
        while (j < n && f[j] >= '0' && f[j] <= '9') {
            if (v < ((i64)1 << 40)) v = v * 10 + (f[j] - '0');
            j++;
        }
        if (j > i && j < n && f[j] == '$') { next = v - 1; i = j + 1; }
        if (i >= n) { *err = FMT_UNTERMINATED + 1; return k; }
        if (next < 0 || next >= nargs) { *err = FMT_TOOFEW + 1; return k; }
        int r = b + (int)next;
        next++;
        const unsigned char *s = (const unsigned char *)rl[r];
        int sn = rn[r] ? 0 : (int)rh[r];
        switch (f[i]) {
        case 's':
            for (int q = 0; q < sn; q++) o[k++] = s[q];
            break;
        case 'I':
            if (rn[r]) { *err = 0 + 1; return k; }
            k += tlQuote(s, sn, QUOTE_IDENT, o + k);
            break;
        case 'L':
            if (rn[r]) { o[k++] = 'N'; o[k++] = 'U'; o[k++] = 'L'; o[k++] = 'L'; }
            else k += tlQuote(s, sn, QUOTE_LITERAL, o + k);
            break;
        default:
            *err = FMT_BADSPEC + f[i] + 1;
            return k;
        }
    }
    return k;
}

// t3Pad is engine's appendPad: v's decimal digits (with its sign) after
// zeros up to width characters.
__device__ int t3Pad(unsigned char *p, i64 v, int width) {
    unsigned char t[21];
    int n = 0;
    u64 m = v < 0 ? (u64)0 - (u64)v : (u64)v;
    do { t[n++] = '0' + (int)(m % 10); m /= 10; } while (m != 0);
    if (v < 0) t[n++] = '-';
    int o = 0;
    for (int k = n; k < width; k++) p[o++] = '0';
    for (int k = n - 1; k >= 0; k--) p[o++] = t[k];
    return o;
}

// t3Unit is AppendInterval's unit: " " between fields, "+" after a
// negative field, the count and the unit's name, plural unless 1.
__device__ int t3Unit(unsigned char *p, int o, int start, i64 v, const char *name, bool *before) {
    if (v == 0) return o;
    if (o > start) p[o++] = ' ';
    if (*before && v > 0) p[o++] = '+';
    o += t3Pad(p + o, v, 0);
    p[o++] = ' ';
    for (int k = 0; name[k]; k++) p[o++] = name[k];
    if (v != 1) p[o++] = 's';
    *before = v < 0;
    return o;
}

// t3Interval writes an interval in the "postgres" style exactly as
// engine.AppendInterval does (its arithmetic wraps as Go's does) and
// returns the length: at most 96 bytes (fmtexpr.go's intvTextWidth).
__device__ int t3Interval(unsigned char *p, int months, int days, i64 us) {
    int o = 0;
    bool before = false;
    o = t3Unit(p, o, 0, (i64)(months / 12), "year", &before);
    o = t3Unit(p, o, 0, (i64)(months % 12), "mon", &before);
    o = t3Unit(p, o, 0, (i64)days, "day", &before);
    if (us != 0 || o == 0) {
        if (o > 0) p[o++] = ' ';
        i64 t = us;
        if (t < 0) { p[o++] = '-'; t = (i64)((u64)0 - (u64)t); }
        else if (before) p[o++] = '+';
        i64 sec = t / 1000000, frac = t % 1000000;
        o += t3Pad(p + o, sec / 3600, 2);
        p[o++] = ':';
        o += t3Pad(p + o, sec / 60 % 60, 2);
        p[o++] = ':';
        o += t3Pad(p + o, sec % 60, 2);
        if (frac != 0) {
            p[o++] = '.';
            unsigned char f[6];
            for (int k = 5; k >= 0; k--) { f[k] = (unsigned char)('0' + frac % 10); frac /= 10; }
            int n = 6;
            while (n > 0 && f[n - 1] == '0') n--;
            for (int k = 0; k < n; k++) p[o++] = f[k];
        }
    }
    return o;
}
// ---- tail3 end ----

// ---- intv2 begin ----
// justify_*, date_trunc of an interval, age, and the correctly rounded
// numeric to float conversion: plain C (engine/gpu's intv2 tests compile
// this section on the host and compare it with engine/eval).

// ivJustify is engine/eval's JustifyDays (kind 0), JustifyHours (1) and
// JustifyInterval (2) over *m, *dd, *us; false: interval out of range.
__device__ bool ivJustify(int kind, int *m, int *dd, i64 *us) {
    const i64 day = US_PER_DAY;
    if (kind == 1) {
        i64 whole = *us / day;
        *us -= whole * day;
        i64 d = (i64)*dd + whole;
        if (d < INT_MIN32 || d > 2147483647LL) return false;
        *dd = (int)d;
        if (*dd > 0 && *us < 0) { *us += day; (*dd)--; }
        else if (*dd < 0 && *us > 0) { *us -= day; (*dd)++; }
        return true;
    }
    if (kind == 0) {
        int whole = *dd / 30;
        *dd -= whole * 30;
        i64 mm = (i64)*m + whole;
        if (mm < INT_MIN32 || mm > 2147483647LL) return false;
        *m = (int)mm;
        if (*m > 0 && *dd < 0) { *dd += 30; (*m)--; }
        else if (*m < 0 && *dd > 0) { *dd -= 30; (*m)++; }
        return true;
    }
    if ((*dd > 0 && *us > 0) || (*dd < 0 && *us < 0)) {
        int w = *dd / 30;
        *dd -= w * 30;
        i64 mm = (i64)*m + w;
        if (mm < INT_MIN32 || mm > 2147483647LL) return false;
        *m = (int)mm;
    }
    i64 wd = *us / day;
    *us -= wd * day;
    *dd = (int)(unsigned)((unsigned)*dd + (unsigned)(i64)wd); // int32 wraps, as Go's
    int w = *dd / 30;
    *dd -= w * 30;
    i64 mm = (i64)*m + w;
    if (mm < INT_MIN32 || mm > 2147483647LL) return false;
    *m = (int)mm;
    if (*m > 0 && (*dd < 0 || (*dd == 0 && *us < 0))) { *dd += 30; (*m)--; }
    else if (*m < 0 && (*dd > 0 || (*dd == 0 && *us > 0))) { *dd -= 30; (*m)++; }
    if (*dd > 0 && *us < 0) { *us += day; (*dd)--; }
    else if (*dd < 0 && *us > 0) { *us -= day; (*dd)++; }
    return true;
}

// ivTrunc is engine/eval's truncInterval for date_trunc's unit u
// (engine/gpu's dateTruncUnits; never week).
__device__ void ivTrunc(int u, int *m, int *dd, i64 *us) {
    int year = *m / 12, mon = *m % 12, mday = *dd;
    i64 hour = *us / 3600000000LL, rest = *us - hour * 3600000000LL;
    i64 min = rest / 60000000LL;
    rest -= min * 60000000LL;
    i64 sec = rest / 1000000LL, fsec = rest - sec * 1000000LL;
    if (u == 1) fsec = fsec / 1000 * 1000;
    if (u >= 2) fsec = 0;
    if (u >= 3) sec = 0;
    if (u >= 4) min = 0;
    if (u >= 5) hour = 0;
    if (u >= 7) mday = 0;
    if (u >= 8) mon = 3 * (mon / 3);
    if (u >= 9) mon = 0;
    if (u >= 10) year = year / 10 * 10;
    if (u >= 11) year = year / 100 * 100;
    if (u >= 12) year = year / 1000 * 1000;
    *m = year * 12 + mon;
    *dd = mday;
    *us = ((hour * 60 + min) * 60 + sec) * 1000000LL + fsec;
}

// tsAge is engine/eval's Age over the wall-clock times la and lb; flip:
// the first instant is the earlier. false: interval out of range.
__device__ bool tsAge(i64 la, i64 lb, bool flip, int *m, int *dd, i64 *us) {
    int y1, m1, d1, y2, m2, d2;
    i64 days1 = floorDiv(la, US_PER_DAY), days2 = floorDiv(lb, US_PER_DAY);
    i64 tod1 = la - days1 * US_PER_DAY, tod2 = lb - days2 * US_PER_DAY;
    civil(days1, &y1, &m1, &d1);
    civil(days2, &y2, &m2, &d2);
    i64 fsec = tod1 % 1000000 - tod2 % 1000000;
    i64 sec = tod1 / 1000000 % 60 - tod2 / 1000000 % 60;
    i64 min = tod1 / 60000000 % 60 - tod2 / 60000000 % 60;
    i64 hour = tod1 / 3600000000LL - tod2 / 3600000000LL;
    i64 mday = d1 - d2, mon = m1 - m2, year = (i64)y1 - y2;
    if (flip) { fsec = -fsec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
    while (fsec < 0) { fsec += 1000000; sec--; }
    while (sec < 0) { sec += 60; min--; }
    while (min < 0) { min += 60; hour--; }
    while (hour < 0) { hour += 24; mday--; }
    while (mday < 0) {
        mday += flip ? monthLen(y1, m1) : monthLen(y2, m2);
        mon--;
    }
    while (mon < 0) { mon += 12; year--; }
    if (flip) { fsec = -fsec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
    i64 months = year * 12 + mon;
    if (months < INT_MIN32 || months > 2147483647LL) return false;
    *m = (int)months;
    *dd = (int)mday;
    *us = ((hour * 60 + min) * 60 + sec) * 1000000LL + fsec;
    return true;
}

__device__ int bitLen128(u128 x) {
    int n = 0;
    while (x != 0) { x >>= 1; n++; }
    return n;
}

// decToFloat is the magnitude x / 10^s (s <= 22) rounded to the nearest
// binary number of prec bits (53: double, 24: real), ties to even, as
// strconv.ParseFloat rounds the numeric's text (engine/eval's cast).
__device__ double decToFloat(u128 x, int s, int prec) {
    if (x == 0) return 0;
    u128 p = 1;
    for (int k = 0; k < s; k++) p *= 10;
    int sh = prec - (bitLen128(x) - bitLen128(p));
    u128 top = (u128)1 << prec, half = (u128)1 << (prec - 1);
    for (;;) {
        u128 num = x, den = p;
        if (sh >= 0) num <<= sh;
        else den <<= -sh;
        u128 q = num / den, r = num - q * den;
        if (q >= top) { sh--; continue; }
        if (q < half) { sh++; continue; }
        if (r > den - r || (r == den - r && (q & 1))) q++;
        double f = (double)(u64)q;
        for (int k = sh; k > 0; k--) f *= 0.5;
        for (int k = sh; k < 0; k++) f *= 2.0;
        return f;
    }
}

// rndUnit is random()'s value for a row: a double in [0, 1) from the
// splitmix64 hash of the statement's seed, the instruction and the row.
__device__ double rndUnit(u64 seed, u64 pc, u64 row) {
    u64 z = seed + pc * 0x9e3779b97f4a7c15ULL + row * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}
// ---- intv2 end ----

// run executes the program for one row. It returns nothing: results are in
// the registers, errors go to e.
// Inside run, raise records the instruction too (raiseAt).
#define raise(e, code, arg, row) raiseAt(e, code, arg, row, pc)
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
        // ---- rowkeys ops begin ----
        case OP_DNORM: {
            // a at the scale in register b without its trailing zero digits
            // (eval's normDec: 1.50 and 1.5 give 15 at scale 1, 0.00 gives
            // 0 at scale 0); the scale left goes to register c. Equal values
            // of any scales give equal (mantissa, scale): a GROUP BY key.
            i128 x = rn[a] ? 0 : mk128(rl[a], rh[a]);
            i64 s = (rn[a] || x == 0) ? 0 : rl[b];
            while (s > 0 && x % 10 == 0) {
                x /= 10;
                s--;
            }
            rn[d] = rn[a];
            rl[d] = (i64)(u64)x;
            rh[d] = (i64)(u64)((u128)x >> 64);
            rl[in.c] = s; rh[in.c] = 0; rn[in.c] = 0;
            break;
        }
        case OP_COLR: {
            // column a: numerics stored at scale imm whose rows show scales
            // of their own (an intermediate table's, gpu.Column.rowScales):
            // its width rows of int64 values are followed by a byte a row,
            // the row's scale. The value at its scale (it has no more
            // decimals than that) goes to d, the scale to register c.
            const QCol cc = cols[a];
            bool ok = validAt(cc, row);
            i64 x = ok ? ((const i64 *)cc.data)[row] : 0;
            int s = ok ? ((const unsigned char *)cc.data)[8 * (i64)cc.width + row] : 0;
            int k = (int)in.imm - s;
            if (k > 0) x = k < 19 ? x / (i64)pow10tab[k] : 0;
            rn[d] = !ok;
            rl[d] = x;
            rh[d] = x >> 63;
            rl[in.c] = s; rh[in.c] = 0; rn[in.c] = 0;
            break;
        }
        // ---- rowkeys ops end ----
        // ---- f2d ops begin ----
        case OP_F2D: {
            // float a to numeric (engine.DecFromFloat); imm bit 16: a
            // real (6 digits); imm & 0xffff: 0 for numeric without a
            // typmod (the scale goes to register c), else the target
            // scale + 1 (c: the opDCheck message of the target type)
            int target = (int)(in.imm & 0xffff) - 1;
            i128 r = 0;
            int sc = 0;
            if (!rn[a]) {
                int st = f2dDecimal((u64)rl[a], (in.imm >> 16) & 1, &r, &sc);
                if (st) {
                    if (on) raise(e, st == 4 ? ERR_NUM_OVERFLOW : ERR_NAN_NUMERIC, st, row);
                    r = 0;
                    sc = 0;
                } else if (target >= 0) {
                    if (sc > target) r = roundDown(r, sc - target);
                    else if (sc < target && !rescale(r, target - sc, &r)) {
                        if (on) raise(e, ERR_NUM_FIELD, in.c, row);
                        r = 0;
                    }
                }
            }
            rn[d] = rn[a];
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            if (target < 0) { rl[in.c] = sc; rh[in.c] = 0; rn[in.c] = 0; }
            break;
        }
        case OP_SPANV: {
            // interval a's span as a scale-0 numeric: microseconds with
            // 30-day months and 24-hour days (engine.IntervalVal.Span),
            // what comparisons, ORDER BY and GROUP BY go by
            rn[d] = rn[a];
            i128 r = 0;
            if (!rn[a]) r = ((i128)ivMonths(rh[a]) * 30 + ivDays(rh[a])) * (i128)US_PER_DAY + rl[a];
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            break;
        }
        // ---- f2d ops end ----
        case OP_COL: {
            const QCol c = cols[a];
            bool ok = validAt(c, row);
            rn[d] = !ok;
            rh[d] = 0;
            switch (c.cls) {
            case CLS_BOOL:
            case CLS_I16:
            case CLS_I32:
            case CLS_I64:
            case CLS_F32:
            case CLS_F64: rl[d] = colNum(c, row); break;
            case CLS_DEC: rl[d] = colNum(c, row); rh[d] = rl[d] >> 63; break;
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
                    if (x > -(1 << 24) && x < (1 << 24) && s >= 0 && s <= 10) r = (double)((float)(i64)x / (float)pow10d[s]);
                    else if (s >= 0 && s <= 22) r = x < 0 ? -decToFloat(mag(x), s, 24) : decToFloat(mag(x), s, 24);
                    else if (on) raise(e, ERR_UNSUPPORTED, 1, row);
                } else {
                    if (x > -((i128)1 << 53) && x < ((i128)1 << 53) && s >= 0 && s <= 22) r = (double)(i64)x / pow10d[s];
                    else if (s >= 0 && s <= 22) r = x < 0 ? -decToFloat(mag(x), s, 53) : decToFloat(mag(x), s, 53);
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
            // b > 0: a numeric whose scale is in register b (rowkeys), at
            // most imm >> 8 (the scratch slot's width; numtext.go's
            // scaleBound proves no row passes it)
            int sc = in.b > 0 ? (int)rl[in.b] : (int)(in.imm >> 8);
            bool big = in.b > 0 && !rn[a] && (sc < 0 || sc > (int)(in.imm >> 8));
            if (big && on) raise(e, ERR_UNSUPPORTED, 3, row);
            rn[d] = rn[a];
            unsigned char *o = scr + in.c;
            rl[d] = (i64)(u64)o;
            rh[d] = (rn[a] || big) ? 0 : putText(o, (int)(in.imm & 0xff), sc, rl[a], rh[a]);
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
        // ---- arrays ops begin ----
        case OP_STR2ARR: {
            // string_to_array(a, b) into the scratch slot imm (arSplit)
            unsigned char *o = scr + (in.imm & 0xffffffff);
            int n = 0;
            if (!rn[a]) n = arSplit(o, (const unsigned char *)rl[a], (int)rh[a], (const unsigned char *)rl[b], rn[b] ? -1 : (int)rh[b]);
            rn[d] = rn[a];
            rl[d] = (i64)(u64)o;
            rh[d] = n;
            break;
        }
        case OP_ARRLEN: case OP_ARRSUB: case OP_ARRHAS: case OP_ARR2STR: {
            // array a's elements (arWalk) with b (and c); imm >> 32: the
            // register of the error record; imm's low word: the scratch
            // slot (OP_ARRLEN: bit 0, array_lower)
            const unsigned char *s = (const unsigned char *)rl[a];
            unsigned char *o = scr + (in.imm & 0xffffffff);
            int n = (int)rh[a], len = 0;
            bool nul = rn[a] || (in.op == OP_ARRLEN && (rn[b] || rl[b] != 1)) || (in.op == OP_ARR2STR && rn[b]);
            i64 lo = 0;
            if (!nul && !arWalk(in.op, (int)(in.imm & 1), s, n, rn[b], rl[b], rh[b], rn[in.c], rl[in.c], rh[in.c], o, &lo, &len, &nul)) {
                if (on) arBad(e, (unsigned char *)rl[(int)(in.imm >> 32)], s, n, row, pc);
                nul = true;
            }
            rn[d] = nul;
            rl[d] = nul ? 0 : lo;
            rh[d] = nul ? 0 : len;
            break;
        }
        case OP_ARRCAT: {
            // array_cat: a NULL or {} side gives the other; two arrays
            // join inside one pair of braces; other texts are concatenated
            const unsigned char *x = (const unsigned char *)rl[a], *y = (const unsigned char *)rl[b];
            int xn = (int)rh[a], yn = (int)rh[b];
            bool xe = !rn[a] && xn == 2 && x[0] == '{' && x[1] == '}', ye = !rn[b] && yn == 2 && y[0] == '{' && y[1] == '}';
            unsigned char *o = scr + (in.imm & 0xffffffff);
            if (rn[a] || xe) {
                rn[d] = rn[b];
                rl[d] = (i64)(u64)y;
                rh[d] = yn;
            } else if (rn[b] || ye) {
                rn[d] = 0;
                rl[d] = (i64)(u64)x;
                rh[d] = xn;
            } else {
                bool arr = xn >= 2 && yn >= 2 && x[xn - 1] == '}' && y[0] == '{';
                int k = 0;
                for (int j = 0; j < (arr ? xn - 1 : xn); j++) o[k++] = x[j];
                if (arr) o[k++] = ',';
                for (int j = arr ? 1 : 0; j < yn; j++) o[k++] = y[j];
                rn[d] = 0;
                rl[d] = (i64)(u64)o;
                rh[d] = k;
            }
            break;
        }
        // ---- arrays ops end ----
        // ---- regex ops begin ----
        case OP_REGEX: {
            // a ~ the automaton in constant b
            rn[d] = nab;
            rh[d] = 0;
            rl[d] = nab ? 0 : reMatch((const unsigned char *)rl[b], (const unsigned char *)rl[a], (int)rh[a]);
            break;
        }
        case OP_REGEXREP: {
            // regexp_replace of a by the program in constant b (vmReplace)
            // into the scratch slot imm, the VM's words after the result
            rn[d] = rn[a];
            unsigned char *o = scr + in.imm;
            int n = 0;
            if (!rn[a]) {
                const unsigned char *blob = (const unsigned char *)rl[b];
                const unsigned outw = ((const unsigned *)blob)[VH_OUTW];
                unsigned *st = (unsigned *)(((u64)(o + outw) + 3) & ~(u64)3);
                n = vmReplace(blob, (const unsigned char *)rl[a], (int)rh[a], o, st);
            }
            rl[d] = (i64)(u64)o;
            rh[d] = n;
            break;
        }
        case OP_TRIMU: {
            // strings.TrimLeft/TrimRight of a by the characters of b (imm
            // bit 0 left, bit 1 right)
            rn[d] = nab;
            const unsigned char *s = (const unsigned char *)rl[a], *set = (const unsigned char *)rl[b];
            int n = nab ? 0 : (int)rh[a], m = nab ? 0 : (int)rh[b], st = 0, w;
            if (in.imm & 1) {
                while (st < n && reInSet(reRune(s + st, n - st, &w), set, m)) st += w;
            }
            if (in.imm & 2) {
                while (n > st && reInSet(reLastRune(s + st, n - st, &w), set, m)) n -= w;
            }
            rl[d] = (i64)(u64)(s + st);
            rh[d] = n - st;
            break;
        }
        // ---- regex ops end ----
        case OP_TSADDINTV: case OP_TSDIFF: case OP_INTVADD: case OP_INTVNEG: {
            // ---- interval section: engine/eval's evalDatetime ----
            bool nul = in.op == OP_INTVNEG ? rn[a] : nab;
            rn[d] = nul;
            i64 lo = 0, hi = 0;
            int err = 0; // 1: timestamp out of range, 2: interval out of range
            if (!nul) {
                if (in.op == OP_TSDIFF) {
                    i64 diff = (i64)((u64)rl[a] - (u64)rl[b]);
                    i64 days = diff / US_PER_DAY;
                    lo = diff - days * US_PER_DAY;
                    hi = ivHi(0, (int)days);
                } else if (in.op == OP_TSADDINTV) {
                    int mo = ivMonths(rh[b]), dy = ivDays(rh[b]);
                    i64 us = rl[b];
                    if (in.imm) { // minus: the interval negated first
                        if (mo == INT_MIN32 || dy == INT_MIN32 || us == (i64)0x8000000000000000ULL) err = 2;
                        mo = -mo; dy = -dy; us = (i64)(0 - (u64)us);
                    }
                    if (!err && !tsAddInterval(rl[a], mo, dy, us, &lo)) err = 1;
                } else {
                    int am = ivMonths(rh[a]), ad = ivDays(rh[a]);
                    i64 au = rl[a];
                    int bm = 0, bd = 0;
                    i64 bu = 0;
                    if (in.op == OP_INTVADD) { bm = ivMonths(rh[b]); bd = ivDays(rh[b]); bu = rl[b]; }
                    bool neg = in.op == OP_INTVNEG || in.imm;
                    if (in.op == OP_INTVNEG) { bm = am; bd = ad; bu = au; am = 0; ad = 0; au = 0; }
                    if (neg) {
                        if (bm == INT_MIN32 || bd == INT_MIN32 || bu == (i64)0x8000000000000000ULL) err = 2;
                        bm = -bm; bd = -bd; bu = (i64)(0 - (u64)bu);
                    }
                    i64 m = (i64)am + bm, dd = (i64)ad + bd;
                    i64 u = (i64)((u64)au + (u64)bu);
                    bool uok = (au >= 0) != (bu >= 0) || (u >= 0) == (au >= 0);
                    if (m < INT_MIN32 || m > 2147483647LL || dd < INT_MIN32 || dd > 2147483647LL || !uok) err = 2;
                    lo = u;
                    hi = ivHi((int)m, (int)dd);
                }
                if (in.op == OP_TSADDINTV) hi = 0;
                if (err) { if (on) raise(e, ERR_DATE_RANGE, err, row); lo = hi = 0; }
            }
            rl[d] = lo;
            rh[d] = hi;
            break;
        }
        // ---- tail ops begin ----
        case OP_QUOTE: {
            // a quoted by mode imm into the scratch slot c (tlQuote)
            unsigned char *o = scr + in.c;
            int n = 0;
            if (!rn[a]) n = tlQuote((const unsigned char *)rl[a], (int)rh[a], (int)in.imm, o);
            else if (in.imm == QUOTE_FORMAT_IDENT) {
                if (on) raise(e, ERR_FORMAT_NULL, 0, row);
            } else if (in.imm == QUOTE_NULLABLE) {
                o[0] = 'N'; o[1] = 'U'; o[2] = 'L'; o[3] = 'L';
                n = 4;
            }
            rn[d] = rn[a] && in.imm != QUOTE_NULLABLE;
            rl[d] = (i64)(u64)o;
            rh[d] = n;
            break;
        }
        // ---- tail ops end ----
        // ---- tail3 ops begin ----
        case OP_FORMAT: {
            // format(a, b.. b+imm-1) into the slot c (t3Format); NULL
            // when the format is NULL
            unsigned char *o = scr + in.c;
            int n = 0, err = 0;
            if (!rn[a]) n = t3Format((const unsigned char *)rl[a], (int)rh[a], (int)in.imm, b, rl, rh, rn, o, &err);
            if (err && on) raise(e, ERR_FORMAT_NULL, err - 1, row);
            rn[d] = rn[a];
            rl[d] = (i64)(u64)o;
            rh[d] = n;
            break;
        }
        case OP_INTVTEXT: {
            // interval a as text into the slot c (t3Interval)
            unsigned char *o = scr + in.c;
            rn[d] = rn[a];
            rl[d] = (i64)(u64)o;
            rh[d] = rn[a] ? 0 : t3Interval(o, ivMonths(rh[a]), ivDays(rh[a]), rl[a]);
            break;
        }
        // ---- tail3 ops end ----
        // ---- tail4 ops begin ----
        case OP_INTVFIELD: {
            // interval a's microseconds (imm 0), days (1) or months (2),
            // sign-extended to 128 bits: what ACC_INT adds (engine/gpu's
            // intervalSums: sum/avg over intervals add field by field)
            rn[d] = rn[a];
            i64 v = 0;
            if (!rn[a]) v = in.imm == 0 ? rl[a] : in.imm == 1 ? (i64)ivDays(rh[a]) : (i64)ivMonths(rh[a]);
            rl[d] = v;
            rh[d] = v >> 63;
            break;
        }
        // ---- tail4 ops end ----
        // ---- intv2 ops begin ----
        case OP_JUSTIFY: case OP_INTVTRUNC: {
            // justify_days (imm 0), justify_hours (1), justify_interval (2)
            // of interval a; OP_INTVTRUNC: a truncated to unit imm
            rn[d] = rn[a];
            int mo = ivMonths(rh[a]), dy = ivDays(rh[a]);
            i64 us = rl[a];
            if (!rn[a]) {
                if (in.op == OP_INTVTRUNC) ivTrunc((int)in.imm, &mo, &dy, &us);
                else if (!ivJustify((int)in.imm, &mo, &dy, &us)) { if (on) raise(e, ERR_DATE_RANGE, 2, row); mo = dy = 0; us = 0; }
            } else { mo = dy = 0; us = 0; }
            rl[d] = us;
            rh[d] = ivHi(mo, dy);
            break;
        }
        case OP_AGE: {
            // age of the wall-clock times a and b; c, if not 0: the bool
            // register saying the first instant is the earlier (else a < b)
            rn[d] = nab;
            int mo = 0, dy = 0;
            i64 us = 0;
            if (!nab) {
                bool flip = in.c ? rl[in.c] != 0 : rl[a] < rl[b];
                if (!tsAge(rl[a], rl[b], flip, &mo, &dy, &us)) { if (on) raise(e, ERR_DATE_RANGE, 2, row); mo = dy = 0; us = 0; }
            }
            rl[d] = us;
            rh[d] = ivHi(mo, dy);
            break;
        }
        case OP_TIMEDIFF:
            // time a - time b, an interval of microseconds
            rn[d] = nab;
            rl[d] = nab ? 0 : rl[a] - rl[b];
            rh[d] = 0;
            break;
        case OP_RANDOM:
            // random(): the seed is the constant register a
            rn[d] = false;
            rl[d] = __double_as_longlong(rndUnit((u64)rl[a], (u64)pc, (u64)row));
            rh[d] = 0;
            break;
        // ---- intv2 ops end ----
        // ---- math ops begin ----
        case OP_MATHF: {
            // double a: imm 0 floor, 1 ceil, 2 trunc, 3 sqrt, 4 sign (as
            // C compares: NaN's sign is 0)
            rn[d] = rn[a];
            rh[d] = 0;
            double x = __longlong_as_double(rl[a]), r = 0;
            if (!rn[a]) {
                switch ((int)in.imm) {
                case 0: r = floor(x); break;
                case 1: r = ceil(x); break;
                case 2: r = trunc(x); break;
                case 3:
                    if (x < 0) { if (on) raise(e, ERR_MATH, 1, row); r = 0; }
                    else r = __dsqrt_rn(x);
                    break;
                default: r = x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); break;
                }
            }
            rl[d] = __double_as_longlong(r);
            break;
        }
        case OP_FMATH: {
            // double a (and b, for pow): imm 0 exp, 1 ln, 2 log10, 3 cbrt,
            // 4 pow (the fmath section), with PostgreSQL's errors
            rn[d] = rn[a] || (in.imm == 4 && rn[b]);
            rh[d] = 0;
            double r = 0;
            if (!rn[d]) {
                int err;
                r = fmMath((int)in.imm, __longlong_as_double(rl[a]), in.imm == 4 ? __longlong_as_double(rl[b]) : 0.0, &err);
                if (err && on) {
                    if (err == 1) raise(e, ERR_FLOAT_OVERFLOW, 0, row);
                    else if (err == 2) raise(e, ERR_FLOAT_UNDERFLOW, 0, row);
                    else raise(e, ERR_MATH, err, row);
                }
            }
            rl[d] = __double_as_longlong(r);
            break;
        }
        case OP_DINTEGRAL: {
            // numeric a without its last imm digits (plus the row's scale
            // in register b, if b is not 0), rounded toward zero (c 0),
            // -infinity (c 1) or +infinity (c 2); a negative count of
            // digits appends zeros
            rn[d] = rn[a];
            i128 x = rn[a] ? 0 : mk128(rl[a], rh[a]);
            bool neg = x < 0, rem = false;
            u128 m = mag(x);
            int cut = rn[a] ? 0 : (int)in.imm + (b != 0 ? (int)rl[b] : 0);
            if (cut < 0 && !rn[a]) {
                i128 r;
                if (!rescale(x, -cut, &r)) { if (on) raise(e, ERR_NUM_OVERFLOW, 0, row); r = 0; }
                rl[d] = (i64)(u64)r;
                rh[d] = (i64)(u64)((u128)r >> 64);
                break;
            }
            for (int k = cut; k > 0;) {
                int step = k > 19 ? 19 : k;
                u128 dv = (u128)pow10tab[step];
                u128 q = m / dv;
                if (m - q * dv != 0) rem = true;
                m = q;
                k -= step;
            }
            i128 r = neg ? -(i128)m : (i128)m;
            if (rem && in.c == 1 && neg) r -= 1;
            if (rem && in.c == 2 && !neg) r += 1;
            rl[d] = (i64)(u64)r;
            rh[d] = (i64)(u64)((u128)r >> 64);
            break;
        }
        case OP_DATETRUNC: {
            // timestamp a truncated to unit imm: 0 microseconds,
            // 1 milliseconds, 2 second, 3 minute, 4 hour, 5 day, 6 week,
            // 7 month, 8 quarter, 9 year, 10 decade, 11 century,
            // 12 millennium (engine/eval's truncLocal)
            rn[d] = rn[a];
            rh[d] = 0;
            if (rn[a]) { rl[d] = 0; break; }
            i64 x = rl[a];
            i64 days = floorDiv(x, US_PER_DAY);
            i64 tod = x - days * US_PER_DAY;
            int u = (int)in.imm;
            i64 r;
            if (u <= 4) {
                i64 q = u == 0 ? 1 : u == 1 ? 1000 : u == 2 ? 1000000LL : u == 3 ? 60000000LL : 3600000000LL;
                r = days * US_PER_DAY + tod / q * q;
            } else if (u == 5) {
                r = days * US_PER_DAY;
            } else if (u == 6) {
                i64 wd = ((days + 3) % 7 + 7) % 7;
                r = (days - wd) * US_PER_DAY;
            } else {
                int y, mo, dd;
                civil(days, &y, &mo, &dd);
                if (u == 12) y = y > 0 ? (y + 999) / 1000 * 1000 - 999 : -((999 - (y - 1)) / 1000) * 1000 + 1;
                else if (u == 11) y = y > 0 ? (y + 99) / 100 * 100 - 99 : -((99 - (y - 1)) / 100) * 100 + 1;
                else if (u == 10) y = y > 0 ? y / 10 * 10 : -((8 - (y - 1)) / 10) * 10;
                if (u >= 9) mo = 1;
                else if (u == 8) mo = 3 * ((mo - 1) / 3) + 1;
                r = daysFromCivil(y, mo, 1) * US_PER_DAY;
            }
            if (r < MIN_TS) { if (on) raise(e, ERR_DATE_RANGE, 1, row); r = 0; }
            rl[d] = r;
            break;
        }
        case OP_TZLOCAL: case OP_TZUTC: {
            // a zone's wall-clock time of the UTC instant a (OP_TZLOCAL),
            // or the UTC instant of the wall-clock time a (OP_TZUTC, as
            // engine.Zone.LocalOffset resolves gaps and overlaps), by the
            // transition table in string register b (tzTable)
            rn[d] = rn[a];
            rh[d] = 0;
            if (rn[a]) { rl[d] = 0; break; }
            const unsigned char *tab = (const unsigned char *)rl[b];
            i64 x = rl[a], t = floorDiv(x, 1000000), lim = tzLoad(tab, 8);
            // past the table's end the offsets repeat every TZ_PERIOD
            // (engine.Zone.Transitions): move t into the table's last period
            if (t + 86400 > lim) t -= ((t + 86400 - lim) / TZ_PERIOD + 1) * TZ_PERIOD;
            i64 off;
            if (in.op == OP_TZLOCAL) {
                off = tzLoad(tab, 16 + 16 * tzFind(tab, t) + 8);
                rl[d] = x + off * 1000000;
                break;
            }
            int n = (int)tzLoad(tab, 0);
            int j = tzFind(tab, t - 86400);
            i64 before = tzLoad(tab, 16 + 16 * j + 8);
            off = before;
            if (j + 1 < n) {
                i64 boundary = tzLoad(tab, 16 + 16 * (j + 1)), after = tzLoad(tab, 16 + 16 * (j + 1) + 8);
                i64 bt = t - before, at = t - after;
                if (bt < boundary && at < boundary) off = before;
                else if (bt >= boundary && at >= boundary) off = after;
                else off = bt > at ? before : after;
            }
            rl[d] = x - off * 1000000;
            break;
        }
        // ---- math ops end ----
        default:
            if (on) raise(e, ERR_UNSUPPORTED, 1000 + in.op, row);
            break;
        }
    }
}
#undef raise

#define TPB 128

// scratchOf is the calling thread's scratch area (grids are at most the
// size the host allocated for).
__device__ __forceinline__ unsigned char *scratchOf(const QArgs &q) {
    if (!q.scratch) return 0;
    return (unsigned char *)q.scratch + ((i64)blockIdx.x * blockDim.x + threadIdx.x) * q.scrstride;
}

// loadProg copies a program of at most MAXINS instructions to shared
// memory and returns where the threads read it: there, or q.prog for a
// longer one (read through the caches).
__device__ __forceinline__ const QIns *loadProg(const QArgs &q, QIns *sp) {
    const QIns *p = (const QIns *)q.prog;
    if (q.nins > MAXINS) return p;
    for (int i = threadIdx.x; i < q.nins; i += blockDim.x) sp[i] = p[i];
    __syncthreads();
    return sp;
}

// regsOf points a program of more than MAXR registers at the calling
// thread's part of the register slab (lo words, hi words, NULL flags);
// the others keep the thread's own file.
__device__ __forceinline__ void regsOf(const QArgs &q, i64 *&rl, i64 *&rh, unsigned char *&rn) {
    if (!q.regs) return;
    i64 stride = ((i64)q.nregs * 17 + 7) & ~(i64)7;
    unsigned char *b = (unsigned char *)q.regs + ((i64)blockIdx.x * blockDim.x + threadIdx.x) * stride;
    rl = (i64 *)b;
    rh = (i64 *)(b + (i64)q.nregs * 8);
    rn = b + (i64)q.nregs * 16;
}

// INTERP_STATE declares the interpreter's per-thread state at the top of
// each kernel that runs a program: the register file (the thread's own
// arrays, or its part of the global slab for programs of more than MAXR
// registers: regsOf), the columns, the constants, the error slot and the
// string scratch.
#define INTERP_STATE(q)                                 \
    i64 rlT[MAXR], rhT[MAXR];                           \
    unsigned char rnT[MAXR];                            \
    i64 *rl = rlT, *rh = rhT;                           \
    unsigned char *rn = rnT;                            \
    regsOf(q, rl, rh, rn);                              \
    const QCol *cols = (const QCol *)(q).cols;          \
    const QConst *consts = (const QConst *)(q).consts;  \
    QErr *e = (QErr *)(q).err;                          \
    unsigned char *scr = scratchOf(q)

// q_filter evaluates the filter register over rows [0, n): bit i%32 of
// word i/32 of bitmap is set when row i passes; counts[c] is the number of
// passing rows in 1024-row chunk c (zeroed by the caller).
extern "C" __global__ void __launch_bounds__(TPB) q_filter(QArgs q) {
    __shared__ QIns sp[MAXINS];
    const QIns *prog = loadProg(q, sp);
    INTERP_STATE(q);
    unsigned *bm = (unsigned *)q.bitmap;
    unsigned *counts = (unsigned *)q.counts;
    for (i64 base = (i64)blockIdx.x * TPB; base < q.n; base += (i64)gridDim.x * TPB) {
        i64 row = base + threadIdx.x;
        bool pass = false;
        if (row < q.n) {
            rl[0] = 1; rh[0] = 0; rn[0] = 0;
            run(prog, q.nins, cols, consts, e, row, rl, rh, rn, scr);
            pass = truthy(rl, rn, q.filter);
        }
        unsigned bal = __ballot_sync(0xffffffffu, pass);
        if ((threadIdx.x & 31) == 0 && base + threadIdx.x < q.n) {
            bm[(base + threadIdx.x) >> 5] = bal;
            if (bal) atomicAdd(&counts[(base + threadIdx.x) >> 10], __popc(bal));
        }
    }
}

// q_cmpfilter is q_filter for a conjunction of comparisons of integer
// columns with constants (engine/gpu/cmpfilter.go): no interpreter, the
// terms in shared memory, the same bitmap and chunk counts. A NULL fails
// its term. op: 0 =, 1 <>, 2 <, 3 <=, 4 >, 5 >=.
typedef struct {
    u64 data, valid;
    int width, op;
    i64 k;
} CmpTerm;

extern "C" __global__ void __launch_bounds__(TPB) q_cmpfilter(u64 termsPtr, int nterms, i64 n, u64 bitmapPtr, u64 countsPtr) {
    __shared__ CmpTerm t[8];
    if (threadIdx.x < nterms) t[threadIdx.x] = ((const CmpTerm *)termsPtr)[threadIdx.x];
    __syncthreads();
    unsigned *bm = (unsigned *)bitmapPtr;
    unsigned *counts = (unsigned *)countsPtr;
    for (i64 base = (i64)blockIdx.x * TPB; base < n; base += (i64)gridDim.x * TPB) {
        i64 row = base + threadIdx.x;
        bool pass = row < n;
        for (int j = 0; j < nterms && pass; j++) {
            const CmpTerm c = t[j];
            if (c.valid && !((((const u64 *)c.valid)[row >> 6] >> (row & 63)) & 1)) {
                pass = false;
                break;
            }
            i64 v = c.width == 2 ? (i64)((const short *)c.data)[row]
                  : c.width == 4 ? (i64)((const int *)c.data)[row] : ((const i64 *)c.data)[row];
            switch (c.op) {
            case 0: pass = v == c.k; break;
            case 1: pass = v != c.k; break;
            case 2: pass = v < c.k; break;
            case 3: pass = v <= c.k; break;
            case 4: pass = v > c.k; break;
            default: pass = v >= c.k; break;
            }
        }
        unsigned bal = __ballot_sync(0xffffffffu, pass);
        if ((threadIdx.x & 31) == 0 && base + threadIdx.x < n) {
            bm[(base + threadIdx.x) >> 5] = bal;
            if (bal) atomicAdd(&counts[(base + threadIdx.x) >> 10], __popc(bal));
        }
    }
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

// q_scan turns counts[0..nchunks) into exclusive offsets, in place, and
// stores the total at counts[nchunks]. One block.
extern "C" __global__ void q_scan(u64 countsPtr, i64 nchunks) {
    unsigned *c = (unsigned *)countsPtr;
    i64 per = (nchunks + blockDim.x - 1) / blockDim.x;
    i64 lo = threadIdx.x * per, hi = lo + per;
    if (hi > nchunks) hi = nchunks;
    unsigned long long s = 0;
    for (i64 i = lo; i < hi; i++) s += c[i];
    unsigned long long total;
    unsigned long long pre = blockExScan(s, &total);
    if (threadIdx.x == 0) c[nchunks] = (unsigned)total;
    unsigned long long acc = pre;
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
    const QIns *prog = loadProg(q, sp);
    INTERP_STATE(q);
    const QOut *outs = (const QOut *)q.outs;
    for (i64 i = (i64)blockIdx.x * TPB + threadIdx.x; i < q.n; i += (i64)gridDim.x * TPB) {
        i64 row = rowOf(q, i);
        rl[0] = 1; rh[0] = 0; rn[0] = 0;
        run(prog, q.nins, cols, consts, e, row, rl, rh, rn, scr);
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

// q_colkeys writes the sort keys of plain fixed-width columns over the
// selected rows as q_project would (engine/gpu/sort.go, columnKeys):
// the value as OP_COL loads it, the numerics' high word, a NULL flag, with
// no interpreter.
struct ColKey {
    QCol col;
    u64 lo, hi, nul;
};

extern "C" __global__ void __launch_bounds__(TPB) q_colkeys(u64 keysPtr, int nkeys, i64 n, u64 selPtr) {
    const ColKey *keys = (const ColKey *)keysPtr;
    const int *sel = (const int *)selPtr;
    for (i64 i = (i64)blockIdx.x * TPB + threadIdx.x; i < n; i += (i64)gridDim.x * TPB) {
        i64 row = sel ? sel[i] : i;
        for (int k = 0; k < nkeys; k++) {
            const ColKey K = keys[k];
            ((unsigned char *)K.nul)[i] = !validAt(K.col, row);
            i64 v = colNum(K.col, row);
            ((i64 *)K.lo)[i] = v;
            if (K.hi) ((i64 *)K.hi)[i] = v >> 63;
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
    const QIns *prog = loadProg(q, sp);
    INTERP_STATE(q);
    const QKey *keys = (const QKey *)q.keys;
    int *ht = (int *)q.ht;
    int *ng = (int *)q.ngroups;
    int *gids = (int *)q.gids;
    for (i64 row = (i64)blockIdx.x * TPB + threadIdx.x; row < q.n; row += (i64)gridDim.x * TPB) {
        rl[0] = 1; rh[0] = 0; rn[0] = 0;
        run(prog, q.nins, cols, consts, e, row, rl, rh, rn, scr);
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
    const QIns *prog = loadProg(q, sp);
    INTERP_STATE(q);
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
        run(prog, q.nins, cols, consts, e, row, rl, rh, rn, scr);
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

// ---- Dictionaries of string columns (engine/gpu/dict.go) ----
//
// A string column's distinct values are found by inserting every row into
// an open-addressing table of row numbers (q_dict_insert: the first row of
// each value claims a slot by compare-and-swap); q_dict_used lists the
// claimed slots, the host sorts their values and numbers them,
// q_dict_slotcodes stores the numbers by slot, and q_dict_codes writes
// each row's number. A value is its bytes up to the first zero, as the interpreter
// reads it (OP_COL); char(n)'s trailing blanks are merged by the host.

// dictLen is the length of the value at s: its bytes up to the first zero.
__device__ __forceinline__ int dictLen(const unsigned char *s, int width) {
    int n = 0;
    while (n < width && s[n] != 0) n++;
    return n;
}

__device__ __forceinline__ unsigned dictHash(const unsigned char *s, int n) {
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ s[i]) * 16777619u;
    return h ^ (h >> 15);
}

__device__ __forceinline__ bool dictSame(const unsigned char *a, const unsigned char *b, int width) {
    for (int i = 0; i < width; i++) {
        if (a[i] != b[i]) return false;
        if (a[i] == 0) return true;
    }
    return true;
}

// q_dict_insert puts every non-NULL row's value into slots (mask+1 entries
// of row numbers, -1 when empty). state[0] counts the values; state[1] is
// set when there are more than limit of them (or the table is full), and
// then the kernel stops early: the column gets no dictionary.
extern "C" __global__ void __launch_bounds__(256) q_dict_insert(u64 dataP, int width, u64 validP, i64 n, u64 slotsP,
                                                                unsigned mask, unsigned limit, u64 stateP) {
    const unsigned char *data = (const unsigned char *)dataP;
    volatile i64 *slots = (volatile i64 *)slotsP;
    volatile unsigned *state = (volatile unsigned *)stateP;
    QCol c;
    c.data = dataP;
    c.valid = validP;
    for (i64 row = (i64)blockIdx.x * blockDim.x + threadIdx.x; row < n; row += (i64)gridDim.x * blockDim.x) {
        if (state[1]) return;
        if (!validAt(c, row)) continue;
        const unsigned char *s = data + row * (i64)width;
        unsigned h = dictHash(s, dictLen(s, width)) & mask;
        for (unsigned probes = 0;; probes++) {
            if (probes > mask) {
                state[1] = 1;
                return;
            }
            i64 cur = slots[h];
            if (cur < 0) {
                cur = (i64)atomicCAS((unsigned long long *)&slots[h], ~0ULL, (unsigned long long)row);
                if (cur < 0) {
                    if (atomicAdd((unsigned *)&state[0], 1u) + 1u > limit) state[1] = 1;
                    break;
                }
            }
            if (dictSame(data + cur * (i64)width, s, width)) break;
            h = (h + 1) & mask;
        }
    }
}

// q_dict_gather copies the m rows listed in rows to out (width bytes each).
extern "C" __global__ void __launch_bounds__(256) q_dict_gather(u64 dataP, int width, u64 rowsP, i64 m, u64 outP) {
    const unsigned char *data = (const unsigned char *)dataP;
    const i64 *rows = (const i64 *)rowsP;
    unsigned char *out = (unsigned char *)outP;
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < m * width; i += (i64)gridDim.x * blockDim.x) {
        i64 e = i / width;
        out[i] = data[rows[e] * width + (i - e * width)];
    }
}

// q_dict_used lists the claimed slots of a q_dict_insert table of nslots
// entries: (slot, row) pairs in out, in no particular order, their count
// in *count (at most cap are written), so that the host reads the
// values' few slots instead of the whole table.
extern "C" __global__ void __launch_bounds__(256) q_dict_used(u64 slotsP, unsigned nslots, u64 outP, unsigned cap,
                                                              u64 countP) {
    const i64 *slots = (const i64 *)slotsP;
    i64 *out = (i64 *)outP;
    for (i64 s = (i64)blockIdx.x * blockDim.x + threadIdx.x; s < nslots; s += (i64)gridDim.x * blockDim.x) {
        i64 row = slots[s];
        if (row < 0) continue;
        unsigned i = atomicAdd((unsigned *)countP, 1u);
        if (i < cap) {
            out[2 * i] = s;
            out[2 * i + 1] = row;
        }
    }
}

// q_dict_slotcodes writes code[i] to slotCode[slot[i]] for the n used
// slots; q_dict_codes reads no other entry.
extern "C" __global__ void __launch_bounds__(256) q_dict_slotcodes(u64 slotCodeP, u64 slotP, u64 codeP, int n) {
    unsigned short *slotCode = (unsigned short *)slotCodeP;
    const unsigned *slot = (const unsigned *)slotP;
    const unsigned short *code = (const unsigned short *)codeP;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) slotCode[slot[i]] = code[i];
}

// q_dict_codes writes each row's code (codeBytes 1 or 2): slotCode of its
// value's slot, or nullCode for NULL. A value missing from the table (it
// cannot be, after a q_dict_insert without overflow) sets state[1].
extern "C" __global__ void __launch_bounds__(256) q_dict_codes(u64 dataP, int width, u64 validP, i64 n, u64 slotsP,
                                                               unsigned mask, u64 slotCodeP, unsigned nullCode, u64 outP,
                                                               int codeBytes, u64 stateP) {
    const unsigned char *data = (const unsigned char *)dataP;
    const i64 *slots = (const i64 *)slotsP;
    const unsigned short *slotCode = (const unsigned short *)slotCodeP;
    QCol c;
    c.data = dataP;
    c.valid = validP;
    for (i64 row = (i64)blockIdx.x * blockDim.x + threadIdx.x; row < n; row += (i64)gridDim.x * blockDim.x) {
        unsigned code = nullCode;
        if (validAt(c, row)) {
            const unsigned char *s = data + row * (i64)width;
            unsigned h = dictHash(s, dictLen(s, width)) & mask;
            for (unsigned probes = 0;; probes++) {
                i64 cur = slots[h];
                if (cur < 0 || probes > mask) {
                    ((unsigned *)stateP)[1] = 1;
                    break;
                }
                if (dictSame(data + cur * (i64)width, s, width)) {
                    code = slotCode[h];
                    break;
                }
                h = (h + 1) & mask;
            }
        }
        if (codeBytes == 1) {
            ((unsigned char *)outP)[row] = (unsigned char)code;
        } else {
            ((unsigned short *)outP)[row] = (unsigned short)code;
        }
    }
}

// q_like_bits sets bit r of out (a bitmap laid out as validity bitmaps
// are) when row r's string is not NULL and matches the pattern, as OP_LIKE
// matches it; the fused kernels read LIKE over wide columns from it
// (engine/gpu/precomp.go). Each warp writes the 32-bit word of its 32
// rows. With stage set (width a multiple of 4, at most likeStageMax), a
// block first copies its rows into shared memory with coalesced 4-byte
// loads, and the matching, byte by byte, reads them there: matching
// straight from global memory waits on a dependent load per byte. The
// pattern is copied to shared memory first; the dynamic shared size is
// 16-aligned pattern bytes plus (stage) blockDim.x * width. With bytesOut,
// out is a boolean column instead (a byte a row: the interpreter reads
// LIKE from it, engine/gpu/likecol.go).
extern "C" __global__ void __launch_bounds__(256) q_like_bits(u64 dataP, int width, int isChar, u64 validP, i64 n,
                                                              u64 patP, int lp, int esc, int ci, u64 outP, int stage,
                                                              int bytesOut) {
    extern __shared__ unsigned char likeSmem[];
    const unsigned char *data = (const unsigned char *)dataP;
    unsigned char *pat = likeSmem;
    unsigned char *rows = likeSmem + ((lp + 15) & ~15);
    for (int i = threadIdx.x; i < lp; i += blockDim.x) pat[i] = ((const unsigned char *)patP)[i];
    __syncthreads();
    QCol c;
    c.data = dataP;
    c.valid = validP;
    for (i64 base = (i64)blockIdx.x * blockDim.x; base < n; base += (i64)gridDim.x * blockDim.x) {
        i64 row = base + threadIdx.x;
        const unsigned char *s = data + row * (i64)width;
        if (stage) {
            i64 cnt = n - base < (i64)blockDim.x ? n - base : (i64)blockDim.x;
            const unsigned *src = (const unsigned *)(data + base * (i64)width);
            unsigned *dst = (unsigned *)rows;
            int words = (int)(cnt * width / 4);
            for (int w = threadIdx.x; w < words; w += blockDim.x) dst[w] = src[w];
            __syncthreads();
            s = rows + threadIdx.x * width;
        }
        bool m = false;
        if (row < n && validAt(c, row)) {
            int l = dictLen(s, width);
            if (isChar) {
                while (l > 0 && s[l - 1] == ' ') l--;
            }
            m = like(s, l, pat, lp, esc, ci != 0);
        }
        if (bytesOut) {
            if (row < n) ((unsigned char *)outP)[row] = m;
        } else {
            unsigned bits = __ballot_sync(0xffffffffu, m);
            if ((threadIdx.x & 31) == 0 && row < n) ((unsigned *)outP)[row >> 5] = bits;
        }
        if (stage) __syncthreads(); // the next rows overwrite these
    }
}

// q_like_sub is q_like_bits for the patterns '%lit%' (lit without % or _,
// given folded under ci): a substring search. A block copies its rows into
// shared memory with coalesced 4-byte loads (width a multiple of 4, the
// block's rows fitting beside lit: the caller checks), and each thread
// scans its row a 4-byte word at a time: a word holding neither a zero
// byte nor lit[0] (either case under ci) is passed with a few integer
// operations (the zero-byte test on word ^ lit[0] repeated in every byte);
// otherwise its bytes are looked at, a match starting before the value's
// first zero byte being verified byte by byte (lit holds no zero byte, so
// a match never runs past the value). The caller keeps char(n) columns
// whose lit holds a blank on q_like_bits (trailing blanks are not part of
// the value). NULL rows get no bit; bits (or bytes) are written as
// q_like_bits writes them. Without stage (rows too wide for shared memory)
// each thread reads its row in place.
extern "C" __global__ void __launch_bounds__(256) q_like_sub(u64 dataP, int width, u64 validP, i64 n, u64 litP,
                                                             int ll, int ci, u64 outP, int stage, int bytesOut) {
    extern __shared__ unsigned char subSmem[];
    const unsigned char *data = (const unsigned char *)dataP;
    unsigned char *lit = subSmem;
    unsigned char *rows = subSmem + ((ll + 15) & ~15);
    for (int i = threadIdx.x; i < ll; i += blockDim.x) lit[i] = ((const unsigned char *)litP)[i];
    __syncthreads();
    QCol c;
    c.data = dataP;
    c.valid = validP;
    const unsigned char first = lit[0];
    const bool ci1 = ci != 0;
    const unsigned rep0 = first * 0x01010101u;
    const unsigned rep1 = (ci1 && first >= 'a' && first <= 'z') ? (unsigned)(first - 32) * 0x01010101u : rep0;
    const int nw = width / 4;
    for (i64 base = (i64)blockIdx.x * blockDim.x; base < n; base += (i64)gridDim.x * blockDim.x) {
        if (stage) {
            i64 cnt = n - base < (i64)blockDim.x ? n - base : (i64)blockDim.x;
            const unsigned *src = (const unsigned *)(data + base * (i64)width);
            unsigned *dst = (unsigned *)rows;
            int words = (int)cnt * nw;
            for (int w = threadIdx.x; w < words; w += blockDim.x) dst[w] = src[w];
            __syncthreads();
        }
        i64 row = base + threadIdx.x;
        bool m = false;
        if (row < n && validAt(c, row)) {
            // staged, or (rows too wide to stage) read in place: the scan
            // stops at the value's end, so a short value in a wide column
            // costs its own words only
            const unsigned char *s = stage ? rows + threadIdx.x * width : data + row * (i64)width;
            const unsigned *sw = (const unsigned *)s;
            bool end = false;
            for (int wi = 0; wi < nw && !end && !m; wi++) {
                unsigned word = sw[wi];
                unsigned x0 = word ^ rep0, x1 = word ^ rep1;
                unsigned hit = (((word - 0x01010101u) & ~word) | ((x0 - 0x01010101u) & ~x0) | ((x1 - 0x01010101u) & ~x1)) &
                               0x80808080u;
                if (!hit) continue;
                for (int j = 0; j < 4; j++) {
                    unsigned char b = (unsigned char)(word >> (8 * j));
                    if (b == 0) {
                        end = true;
                        break;
                    }
                    int pos = wi * 4 + j;
                    if (fold(b, ci1) != first || pos + ll > width) continue;
                    int k = 1;
                    while (k < ll && fold(s[pos + k], ci1) == lit[k]) k++;
                    if (k == ll) {
                        m = true;
                        break;
                    }
                }
            }
        }
        if (bytesOut) {
            if (row < n) ((unsigned char *)outP)[row] = m;
        } else {
            unsigned bits = __ballot_sync(0xffffffffu, m);
            if ((threadIdx.x & 31) == 0 && row < n) ((unsigned *)outP)[row >> 5] = bits;
        }
        if (stage) __syncthreads(); // the next rows overwrite these
    }
}
