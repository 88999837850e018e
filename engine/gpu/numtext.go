package gpu

// Numerics whose scale varies by row, as text. A cast to text writes
// into a scratch slot as wide as the longest text the value can have,
// 3 + max(40, its scale); the scale is in a register, so scaleBound
// proves the largest scale that register can hold from the instructions
// that computed it. Quotients stop at 1000 (engine.DivScale), but a
// product adds its operands' scales, so (a/b)*(c/d) reaches 2000.

// f2dMaxScale bounds the scale of a float cast to numeric without a
// typmod (OP_F2D, engine.DecFromFloat): 15 significant digits of the
// smallest double subnormal, 4.94065645841247e-324, give scale 338; a
// real's 6 digits of 1.4e-45 give 50.
const f2dMaxScale = 340

// maxTextScale is the largest scale scaleBound answers; an unknown
// writer or a larger bound gives it, and OP_TOTEXT raises 0A000 for a
// row past it (no expression the compiler builds gets there).
const maxTextScale = maxStrWidth - 3

// scaleBound is the largest value the scale register r can hold after
// the instructions compiled so far, found by walking back through them:
// constants, quotients (1000), floats to numeric (f2dMaxScale), sums of
// scales (products), the larger of two (+, -, %, CASE, coalesce) and
// copies.
func (p *program) scaleBound(r int32) int {
	memo := map[int]int{}
	return min(p.regBound(r, len(p.ins), memo, 0), maxTextScale)
}

// regBound bounds register r as instruction end reads it.
func (p *program) regBound(r int32, end int, memo map[int]int, depth int) int {
	if depth > 10000 {
		return maxTextScale
	}
	k := end - 1
	for ; k >= 0; k-- {
		in := p.ins[k]
		if in.Dst == r && in.Op != opDivD && in.Op != opF2D && in.Op != opDNorm && in.Op != opColR {
			break
		}
		if in.C == r && (in.Op == opDivD || in.Op == opF2D || in.Op == opDNorm || in.Op == opColR) {
			break
		}
	}
	if k < 0 {
		return maxTextScale
	}
	if b, ok := memo[k]; ok {
		return b
	}
	in := p.ins[k]
	b := maxTextScale
	switch in.Op {
	case opConst:
		if int(in.A) < len(p.consts) {
			b = int(max(0, min(p.consts[in.A].Lo, maxTextScale)))
		}
	case opDivD:
		b = 1000
	case opF2D:
		b = f2dMaxScale
	case opDNorm:
		b = p.regBound(in.B, k, memo, depth+1)
	case opColR:
		b = int(min(max(in.Imm, 0), maxTextScale)) // no row's scale exceeds the stored one
	case opAddI:
		b = min(p.regBound(in.A, k, memo, depth+1)+p.regBound(in.B, k, memo, depth+1), maxTextScale)
	case opSel, opCoalesce:
		b = max(p.regBound(in.A, k, memo, depth+1), p.regBound(in.B, k, memo, depth+1))
	}
	memo[k] = b
	return b
}
