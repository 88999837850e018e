package gpu

import "unsafe"

// Go mirrors of the structs of cuda/query.cu. Field order, sizes and
// offsets must match the C side; abi_test.go checks them.

type qIns struct {
	Op, Dst, A, B, C, M int32
	Imm                 int64
}

type qCol struct {
	Data, Valid uint64
	Cls, Width  int32
}

type qConst struct {
	Lo, Hi   int64
	Nul, Pad int32
}

type qErr struct {
	Word uint64 // ^(the first error's key: batch, instruction, row, code, argument; raiseAt in query.cu); 0: none
	Pad  int64
}

type qAgg struct {
	Fn, Reg, Cls, Pad int32
}

type qAcc struct {
	Cnt, S0, S1, S2 uint64
}

type qKey struct {
	Reg, Cls, Width, Pad int32
	Lo, Hi, Nul, Str     uint64
}

type qOut = qKey

type qArgs struct {
	Prog, Cols, Consts, Err uint64
	Sel, Bitmap, Counts     uint64
	Gids, Aggs, Acc, Keys   uint64
	Outs, HT, NGroups       uint64
	N                       int64
	NIns, Filter, NAgg      int32
	NKeys, NOuts, HTMask    int32
	MaxGroups, AccGroups    int32
	Scratch                 uint64 // computed strings: ScrStride bytes per thread
	ScrStride               int64
	Regs                    uint64 // programs of more than inRegs registers: the register slab (regSlab)
	NRegs, RegBlocks        int32  // the program's registers; the most blocks to launch (slab, wide scratch), 0: any
}

// opcodes (enum in query.cu)
const (
	opNop = iota
	opCol
	opConst
	opAddI
	opSubI
	opMulI
	opDivI
	opModI
	opAddF
	opSubF
	opMulF
	opDivF
	opAddD
	opSubD
	opMulD
	opNegI
	opNegF
	opNegD
	opAbsI
	opAbsF
	opAbsD
	opRescale
	opCmpI
	opCmpF
	opCmpD
	opCmpS
	opAnd
	opOr
	opNot
	opIsNull
	opIsNotNull
	opIsTrue
	opIsFalse
	opMask
	opMaskNot
	opSel
	opCoalesce
	opNullIf
	opDistinct
	opI2I
	opI2F
	opF2I
	opI2D
	opD2I
	opD2F
	opDRound
	opDCheck
	opF2F32
	opDate2Ts
	opTs2Date
	opLike
	opRoundF
	opModD // numeric %: a, b; imm: their scale registers (low, high 32 bits)
	opDateAdd
	opDateSub
	opDateDiff
	opExtract
	opLength
	opUpper
	opLower
	opConcat
	opSubstr
	opPadChar
	opToText
	opLimitChars
	opTrim
	opReplace
)

// numeric division with per-row scales (OP_DIVD... in query.cu, numbered
// apart so that opcodes added to the list above never collide)
const (
	opDivD     = 100 + iota // a / b; imm: scale registers of a, b (low, high 32 bits); c: receives the quotient's scale
	opRescaleR              // a * 10^(scale register b - scale register c)
	opDFitR                 // a at the scale in register b, rounded or extended to scale imm
)

// interval values (OP_TSADDINTV... in query.cu, numbered apart as well)
const (
	opTsAddIntv = 200 + iota // timestamp a + interval b (imm 1: minus)
	opTsDiff                 // timestamp a - timestamp b, an interval
	opIntvAdd                // interval a + interval b (imm 1: minus)
	opIntvNeg                // -interval a
)

// justify_*, date_trunc of an interval, age, time - time and random()
// (OP_JUSTIFY... in query.cu's intv2 section, numbered apart as well)
const (
	opJustify   = 1700 + iota // interval a: imm 0 justify_days, 1 justify_hours, 2 justify_interval
	opIntvTrunc               // interval a truncated to unit imm (dateTruncUnits, never week)
	opAge                     // age of wall-clock times a and b; c: bool register "the first instant is the earlier", 0: a < b
	opTimeDiff                // time a - time b, an interval
	opRandom                  // random() from the seed in register a (a constant)
)

// float to numeric and interval spans (OP_F2D... in query.cu, numbered
// apart as well)
const (
	opF2D   = 300 + iota // float a to numeric: imm bit 16 real; imm&0xffff 0: scale to register c, else target scale+1 (c: check index)
	opSpanV              // interval a's span in microseconds (30-day months, 24-hour days), a scale-0 numeric
)

// math functions and date_trunc (OP_MATHF... in query.cu, numbered apart
// as well)
const (
	opMathF     = 1200 + iota // double a: imm 0 floor, 1 ceil, 2 trunc, 3 sqrt, 4 sign
	opDIntegral               // numeric a without its last imm (+ scale register b) digits, toward zero (c 0), -inf (1), +inf (2)
	opDateTrunc               // timestamp a truncated to unit imm (dateTruncUnits)
	opTzLocal                 // the wall-clock time of timestamptz a in the zone whose table (tzTable) is string register b
	opTzUTC                   // the timestamptz of wall-clock time a in that zone
	opFMath                   // double a (b for pow): imm 0 exp, 1 ln, 2 log10, 3 cbrt, 4 pow (engine.FExp...)
)

// errMath is ERR_MATH: the square root of a negative number (arg 1), an
// instant past the end of a zone's table (arg 2), the log of zero (3) or
// of a negative number (4), zero to a negative power (5), a negative
// number to a non-integer power (6).
const errMath = 29

// errNaNNumeric is ERR_NAN_NUMERIC: a float NaN (arg 1), Infinity (2) or
// -Infinity (3) cast to numeric.
const errNaNNumeric = 20

// register classes (CLS_* in query.cu)
const (
	clsBool = 1 + iota
	clsI16
	clsI32
	clsI64
	clsF32
	clsF64
	clsDec
	clsStr
	clsChar
	clsIntv // lo: microseconds, hi: months << 32 | uint32(days)
)

// kernel error codes (ERR_*)
const (
	errIntRange = 1 + iota
	errDivZero
	errNumOverflow
	errFloatOverflow
	errFloatUnderflow
	errNumField
	errUnsupported
	errDateRange
	errSubstring
)

// accumulator classes (ACC_*)
const (
	accCount = iota
	accInt
	accFloat
	accMinMaxI
	accMinMaxF
	accMinMaxD
	accMinMaxS // strings: the address of the best value (Pad: width, bit 16 char)
)

const (
	inRegs    = 64   // MAXR: registers in the thread's own file
	sharedIns = 512  // MAXINS: instructions kept in shared memory
	maxRegs   = 4096 // registers of one program (past inRegs: a slab in global memory)
	maxIns    = 4095 // MAXPC: instructions of one program (pc 4095: errors after the program)
	maxAggs   = 32   // MAXAGG
	tpb       = 128  // TPB: threads per block of the interpreter kernels
)

func sliceBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}
