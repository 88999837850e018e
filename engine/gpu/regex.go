package gpu

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// Regular expressions on the device. The CPU backend matches x ~ p with
// Go's regexp (RE2) over "(?s)" + p ("(?is)" for ~*). The GPU compiles the
// same pattern on the host, through the same regexp/syntax program Go's
// matchers run, into a deterministic automaton, and a kernel
// (OP_REGEX, cuda/query.cu) walks it once over each row's string.
//
// The automaton reads characters, not bytes: the kernel decodes each
// character as utf8.DecodeRune does (an invalid or cut-off sequence is
// one U+FFFD one byte wide, as Go's matchers read it) and maps it to a
// character class. Classes are the intervals between every boundary of
// the program's rune ranges (each case-fold orbit of a folded literal
// counted as single runes), with intervals that every instruction treats
// alike merged; the newline and the ASCII word characters are always
// classes of their own so that ^ $ (?m) \b \B see them. A state is the
// set of program counters waiting for the next character (before the
// empty-width closure, which depends on that character) plus what the
// assertions need to know of the previous one: the beginning of the text,
// a newline, a word character. Each transition takes the closure under
// the context the previous and next characters give, accepts when it
// reaches InstMatch, steps the rune instructions and adds the start again
// (an unanchored search, as Go's NFA adds a thread at each position
// unless the program begins with \A). An extra column is the end of the
// text. Two states are fixed: 0 (no match can follow) and 1 (matched).
//
// The automaton is exact: every transition is what Go's NFA does for
// any character of the class. Only its size limits it: a pattern whose
// automaton has more than maxDFAStates states or more than maxDFABytes of
// tables is refused (0A000), as is a pattern whose program never matches
// at its start condition.

const (
	maxDFAStates = 8192
	maxDFABytes  = 4 << 20
	dfaDead      = 0
	dfaMatch     = 1
	runeLimit    = utf8.MaxRune + 1
)

// opcodes of this section (OP_REGEX... in query.cu, numbered apart)
const (
	opRegex = 400 + iota // a ~ the automaton in constant b (regexDFA.blob)
	opTrimU              // trim a by the characters of b (imm bit 0 left, bit 1 right), as strings.TrimLeft/TrimRight
)

// regexDFA is a compiled pattern. Its blob is what the kernel reads; see
// blob for its layout.
type regexDFA struct {
	ncls     int         // character classes; column ncls is the end of the text
	ascii    [128]uint16 // class of each ASCII byte
	rangeLo  []uint32    // non-ASCII: intervals of runes from 0x80 on, by first rune
	rangeCls []uint16
	nstates  int
	start    uint16
	table    []uint16 // nstates x (ncls+1) next states
}

// regexProg compiles a pattern as eval.CompileRegex does (flags "i":
// case-insensitive) and returns its program.
func regexProg(pat, flags string) (*syntax.Prog, error) {
	if _, err := eval.CompileRegex(pat, flags); err != nil {
		return nil, err // 2201B as the CPU reports it
	}
	prefix := "(?s)"
	if flags == "i" {
		prefix = "(?is)"
	}
	re, err := syntax.Parse(prefix+pat, syntax.Perl)
	if err != nil {
		return nil, engine.Errorf(engine.CodeInvalidRegularExpr, "invalid regular expression: %s", err)
	}
	return syntax.Compile(re.Simplify())
}

// compileRegexDFA builds the automaton of a pattern.
func compileRegexDFA(pat, flags string) (*regexDFA, error) {
	prog, err := regexProg(pat, flags)
	if err != nil {
		return nil, err
	}
	return buildDFA(prog)
}

// the context bits of a state (what the previous character was)
const (
	ctxBegin = 1 << iota // at the beginning of the text
	ctxNL                // after a newline
	ctxWord              // after an ASCII word character
)

func buildDFA(prog *syntax.Prog) (*regexDFA, error) {
	d := &regexDFA{}
	// which context bits matter
	var empties syntax.EmptyOp
	var runeIns []int
	for pc, in := range prog.Inst {
		switch in.Op {
		case syntax.InstEmptyWidth:
			empties |= syntax.EmptyOp(in.Arg)
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			runeIns = append(runeIns, pc)
		}
	}
	keep := 0
	if empties&(syntax.EmptyBeginText|syntax.EmptyBeginLine) != 0 {
		keep |= ctxBegin
	}
	if empties&syntax.EmptyBeginLine != 0 {
		keep |= ctxNL
	}
	if empties&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
		keep |= ctxWord
	}

	cl, err := classify(prog, runeIns)
	if err != nil {
		return nil, err
	}
	d.ncls, d.ascii, d.rangeLo, d.rangeCls = cl.ncls, cl.ascii, cl.rangeLo, cl.rangeCls
	clsRep := cl.rep

	// subset construction
	startCond := prog.StartCond()
	if startCond == ^syntax.EmptyOp(0) {
		return nil, unsupported("regular expressions that can never match")
	}
	reStart := startCond&syntax.EmptyBeginText == 0
	ncol := d.ncls + 1
	type state struct {
		ctx int
		pcs []uint32
	}
	var states []state
	ids := map[string]int{}
	key := func(ctx int, pcs []uint32) string {
		b := make([]byte, 0, 1+4*len(pcs))
		b = append(b, byte(ctx))
		for _, pc := range pcs {
			b = binary.LittleEndian.AppendUint32(b, pc)
		}
		return string(b)
	}
	intern := func(ctx int, pcs []uint32) (int, error) {
		if len(pcs) == 0 {
			return dfaDead, nil
		}
		ctx &= keep
		k := key(ctx, pcs)
		if id, ok := ids[k]; ok {
			return id, nil
		}
		id := len(states) + 2
		if len(states) >= maxDFAStates || id*ncol*2 > maxDFABytes {
			return 0, unsupported("regular expressions whose automaton needs more than %d states or %d bytes", maxDFAStates, maxDFABytes)
		}
		ids[k] = id
		states = append(states, state{ctx, slices.Clone(pcs)})
		return id, nil
	}
	start, err := intern(ctxBegin|ctxNL, []uint32{uint32(prog.Start)})
	if err != nil {
		return nil, err
	}
	d.start = uint16(start)
	d.table = make([]uint16, 2*ncol) // states 0 and 1 stay where they are
	for c := 0; c < ncol; c++ {
		d.table[ncol+c] = dfaMatch
	}
	seen := make([]bool, len(prog.Inst))
	var stack, runes []uint32
	var next []uint32
	for si := 0; si < len(states); si++ {
		st := states[si]
		for c := 0; c < ncol; c++ {
			eot := c == d.ncls
			var r rune
			if !eot {
				r = clsRep[c]
			}
			// the context between the previous character and this one
			var ctx syntax.EmptyOp
			if st.ctx&ctxBegin != 0 {
				ctx |= syntax.EmptyBeginText | syntax.EmptyBeginLine
			}
			if st.ctx&ctxNL != 0 {
				ctx |= syntax.EmptyBeginLine
			}
			if eot {
				ctx |= syntax.EmptyEndText | syntax.EmptyEndLine
			} else if r == '\n' {
				ctx |= syntax.EmptyEndLine
			}
			if (st.ctx&ctxWord != 0) != (!eot && syntax.IsWordChar(r)) {
				ctx |= syntax.EmptyWordBoundary
			} else {
				ctx |= syntax.EmptyNoWordBoundary
			}
			// the closure
			clear(seen)
			matched := false
			stack = append(stack[:0], st.pcs...)
			runes = runes[:0]
			for len(stack) > 0 && !matched {
				pc := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if seen[pc] {
					continue
				}
				seen[pc] = true
				in := &prog.Inst[pc]
				switch in.Op {
				case syntax.InstAlt, syntax.InstAltMatch:
					stack = append(stack, in.Arg, in.Out)
				case syntax.InstCapture, syntax.InstNop:
					stack = append(stack, in.Out)
				case syntax.InstEmptyWidth:
					if syntax.EmptyOp(in.Arg)&^ctx == 0 {
						stack = append(stack, in.Out)
					}
				case syntax.InstMatch:
					matched = true
				case syntax.InstFail:
				default:
					runes = append(runes, pc)
				}
			}
			to := dfaDead
			switch {
			case matched:
				to = dfaMatch
			case eot:
			default:
				next = next[:0]
				for _, pc := range runes {
					if matchRune(&prog.Inst[pc], r) {
						next = append(next, prog.Inst[pc].Out)
					}
				}
				if reStart {
					next = append(next, uint32(prog.Start))
				}
				slices.Sort(next)
				next = slices.Compact(next)
				nctx := 0
				if r == '\n' {
					nctx |= ctxNL
				}
				if syntax.IsWordChar(r) {
					nctx |= ctxWord
				}
				if to, err = intern(nctx, next); err != nil {
					return nil, err
				}
			}
			d.table = append(d.table, uint16(to))
		}
	}
	d.nstates = len(states) + 2
	return d, nil
}

// runeClasses partitions the runes into character classes: the
// intervals between every boundary of a program's rune ranges (each
// case-fold orbit of a folded literal counted as single runes), with
// intervals that every rune instruction treats alike merged; the newline
// and the ASCII word characters are always classes of their own, so that
// the assertions see them. Every rune of a class is matched alike by
// every rune instruction of the program.
type runeClasses struct {
	ncls     int
	ascii    [128]uint16 // class of each ASCII byte
	rangeLo  []uint32    // non-ASCII: intervals of runes from 0x80 on, by first rune
	rangeCls []uint16
	rep      []rune // a rune of each class
}

// classify builds the classes of the rune instructions runeIns of prog.
func classify(prog *syntax.Prog, runeIns []int) (*runeClasses, error) {
	cl := &runeClasses{}
	bounds := []int{0, 0x80, '\n', '\n' + 1, '0', '9' + 1, 'A', 'Z' + 1, '_', '_' + 1, 'a', 'z' + 1, runeLimit}
	for _, pc := range runeIns {
		in := &prog.Inst[pc]
		switch {
		case in.Op == syntax.InstRune1 || in.Op == syntax.InstRune && len(in.Rune) == 1:
			r0 := in.Rune[0]
			bounds = append(bounds, int(r0), int(r0)+1)
			if in.Op == syntax.InstRune && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
					bounds = append(bounds, int(r), int(r)+1)
				}
			}
		case in.Op == syntax.InstRune:
			for i := 0; i+1 < len(in.Rune); i += 2 {
				bounds = append(bounds, int(in.Rune[i]), int(in.Rune[i+1])+1)
			}
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	// each interval's signature: which rune instructions match it, and
	// whether it is a newline or a word character
	type interval struct {
		lo  int
		cls uint16
	}
	var ivs []interval
	sigCls := map[string]uint16{}
	var clsRep []rune // a representative rune of each class
	sig := make([]byte, len(runeIns)+1)
	for i := 0; i+1 < len(bounds); i++ {
		lo := bounds[i]
		if lo >= runeLimit {
			break
		}
		r := rune(lo)
		for k, pc := range runeIns {
			sig[k] = 0
			if matchRune(&prog.Inst[pc], r) {
				sig[k] = 1
			}
		}
		sig[len(runeIns)] = 0
		if r == '\n' {
			sig[len(runeIns)] = 1
		} else if syntax.IsWordChar(r) {
			sig[len(runeIns)] = 2
		}
		c, ok := sigCls[string(sig)]
		if !ok {
			if len(clsRep) >= 1<<15 {
				return nil, unsupported("regular expressions with more than %d character classes", 1<<15)
			}
			c = uint16(len(clsRep))
			sigCls[string(sig)] = c
			clsRep = append(clsRep, r)
		}
		ivs = append(ivs, interval{lo, c})
	}
	cl.ncls = len(clsRep)
	cl.rep = clsRep
	for _, iv := range ivs {
		if iv.lo < 0x80 {
			// every boundary below 0x80 is in bounds, so an interval
			// starting there ends by 0x80
			continue
		}
		if n := len(cl.rangeCls); n > 0 && cl.rangeCls[n-1] == iv.cls {
			continue
		}
		cl.rangeLo = append(cl.rangeLo, uint32(iv.lo))
		cl.rangeCls = append(cl.rangeCls, iv.cls)
	}
	for b := 0; b < 0x80; b++ {
		k := sort.Search(len(ivs), func(i int) bool { return ivs[i].lo > b }) - 1
		cl.ascii[b] = ivs[k].cls
	}

	return cl, nil
}

// matchRune is what Go's NFA step does with a rune instruction.
func matchRune(in *syntax.Inst, r rune) bool {
	switch in.Op {
	case syntax.InstRune1:
		return r == in.Rune[0]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return in.MatchRune(r)
}

// blob lays the automaton out for the kernel, little-endian, 4-byte
// aligned:
//
//	uint32 header[4]: states, columns (classes + 1), start state, non-ASCII intervals (nr)
//	uint16 ascii[128]: the class of each ASCII byte
//	uint32 lo[nr]: first rune of each non-ASCII interval, ascending, lo[0] = 0x80
//	uint16 cls[nr], padded to an even count
//	uint16 next[states][columns]
func (d *regexDFA) blob() []byte {
	nr := len(d.rangeLo)
	b := make([]byte, 0, 16+256+6*nr+2+2*len(d.table))
	for _, v := range []int{d.nstates, d.ncls + 1, int(d.start), nr} {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	for _, c := range d.ascii {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	for _, lo := range d.rangeLo {
		b = binary.LittleEndian.AppendUint32(b, lo)
	}
	for _, c := range d.rangeCls {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	if nr%2 == 1 {
		b = append(b, 0, 0)
	}
	for _, t := range d.table {
		b = binary.LittleEndian.AppendUint16(b, t)
	}
	return b
}

// dfaRuneW is the kernel's runeW (cuda/query.cu): the byte width of the
// character at s (len(s) > 0) as utf8.DecodeRune reads it.
func dfaRuneW(s []byte) int {
	c := s[0]
	if c < 0x80 {
		return 1
	}
	var w int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		w = 2
	case c >= 0xE0 && c <= 0xEF:
		w = 3
		if c == 0xE0 {
			lo = 0xA0
		}
		if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		w = 4
		if c == 0xF0 {
			lo = 0x90
		}
		if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	if len(s) < w || s[1] < lo || s[1] > hi {
		return 1
	}
	for k := 2; k < w; k++ {
		if s[k] < 0x80 || s[k] > 0xBF {
			return 1
		}
	}
	return w
}

// dfaRune is the kernel's reRune: the character at s and its width
// (U+FFFD one byte wide for an invalid sequence).
func dfaRune(s []byte) (rune, int) {
	c := rune(s[0])
	w := dfaRuneW(s)
	switch w {
	case 1:
		if c >= 0x80 {
			c = utf8.RuneError
		}
	case 2:
		c = (c&0x1F)<<6 | rune(s[1]&0x3F)
	case 3:
		c = (c&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F)
	default:
		c = (c&0x07)<<18 | rune(s[1]&0x3F)<<12 | rune(s[2]&0x3F)<<6 | rune(s[3]&0x3F)
	}
	return c, w
}

// dfaMatchBlob is the Go twin of the kernel's reMatch: the same loop
// over the same blob.
func dfaMatchBlob(blob, s []byte) bool {
	u32 := func(i int) uint32 { return binary.LittleEndian.Uint32(blob[4*i:]) }
	ncol, st, nr := int(u32(1)), uint32(u32(2)), int(u32(3))
	ascii := 16
	los := ascii + 256
	clss := los + 4*nr
	tab := clss + 2*(nr+nr%2)
	u16 := func(off, i int) uint32 { return uint32(binary.LittleEndian.Uint16(blob[off+2*i:])) }
	for k := 0; k < len(s) && st > dfaMatch; {
		var cls uint32
		if c := s[k]; c < 0x80 {
			cls = u16(ascii, int(c))
			k++
		} else {
			r, w := dfaRune(s[k:])
			k += w
			lo, hi := 0, nr-1 // the last interval starting at or before r
			for lo < hi {
				mid := (lo + hi + 1) / 2
				if rune(u32(los/4+mid)) <= r {
					lo = mid
				} else {
					hi = mid - 1
				}
			}
			cls = u16(clss, lo)
		}
		st = u16(tab, int(st)*ncol+int(cls))
	}
	if st > dfaMatch {
		st = u16(tab, int(st)*ncol+ncol-1)
	}
	return st == dfaMatch
}

// regex compiles x ~ pattern (engine.OpRegexMatch: args x, the pattern,
// the flags) with a constant pattern: OP_REGEX walks the automaton,
// stored in the string pool at a 4-byte aligned offset.
func (c *compiler) regex(e *engine.Call, mask int32) (val, error) {
	pat, ok1 := e.Args[1].(*engine.Const)
	flags, ok2 := e.Args[2].(*engine.Const)
	if !ok1 || !ok2 {
		return val{}, unsupported("regular expressions whose pattern is not a constant")
	}
	x, err := c.compile(e.Args[0], mask)
	if err != nil {
		return val{}, err
	}
	if !isStr(x.cls) {
		return val{}, unsupported("regular expressions over %s", x.t)
	}
	out := val{cls: clsBool, t: engine.Bool}
	p := c.p
	if pat.Null || flags.Null {
		k, err := c.constant(&engine.Const{T: engine.Bool, Null: true})
		return k, err
	}
	d, err := compileRegexDFA(pat.S, flags.S)
	if err != nil {
		return val{}, err
	}
	for len(p.strPool)%4 != 0 {
		p.strPool = append(p.strPool, 0)
	}
	blob := d.blob()
	p.consts = append(p.consts, qConst{Lo: int64(len(p.strPool)), Hi: int64(len(blob))})
	p.strConst = append(p.strConst, len(p.consts)-1)
	p.strPool = append(p.strPool, blob...)
	k, err := p.emit(opConst, int32(len(p.consts)-1), 0, 0, 0, 0)
	if err != nil {
		return val{}, err
	}
	out.reg, err = p.emit(opRegex, x.reg, k, 0, mask, 0)
	return out, err
}
