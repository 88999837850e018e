package gpu

import (
	"encoding/binary"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/engine/eval"
)

// regexp_replace on the device. The automaton of regex.go answers
// whether a string matches; regexp_replace needs where the match and its
// groups are, so it runs Go's own submatch algorithm instead: the NFA
// simulation of Go's regexp (a Pike VM, regexp's exec.go), one thread of
// the GPU per row, over the same regexp/syntax program, with the same
// thread priorities, the same leftmost-first or leftmost-longest choice
// (eval.PGRegex picks which) and the same capture updates. Rune
// instructions are looked up by character class (runeClasses), so the
// device never folds case or walks Unicode tables.
//
// The search loop around it is eval.PGRegex.Find's and the replacement is
// eval.AppendReplacement's: OP_REGEXREP (cuda/query.cu) and vmReplace
// below are twins line for line, and regexvm_test.go compares vmReplace
// with the CPU backend's regexp_replace on random patterns and nasty
// strings.
//
// The VM's queues live in the row's scratch slot after the result, so
// the register file and the other kernels do not grow.

const (
	opRegexRep = opTrimU + 1 // regexp_replace of a by the program in constant b into scratch at imm

	maxVMInst = 1024
	maxVMCap  = 20 // \1 to \9 and the whole match
	maxVMBlob = 1 << 20
)

// VM instruction kinds (VM_... in query.cu)
const (
	vmFail = iota
	vmAlt
	vmCap
	vmEmpty
	vmMatch
	vmNop
	vmRune
)

// header words of a VM blob
const (
	vhInst    = iota // instructions
	vhCap            // capture slots the VM keeps (even, >= 2)
	vhStart          // first instruction
	vhAnchor         // the program starts with \A
	vhLongest        // leftmost-longest
	vhCtx            // search the whole text (PGRegex.Context), else restart at each match's end
	vhNth            // replace the nth match only; 0: every one
	vhFrom           // the search starts at this character
	vhNr             // non-ASCII class intervals
	vhWpr            // words of each rune instruction's class bitmap
	vhRep            // bytes of the replacement
	vhOutW           // bytes of the result at most
	vhGroups         // capturing groups of the pattern
	vhNever          // the program can never match
	vhWords          // header words
)

// regexVM is a compiled regexp_replace.
type regexVM struct {
	blob []byte
	outW int // the result's bound
}

// vmStateWords is the VM's scratch in 4-byte words for n instructions and
// c capture slots: two queues (length, sparse index, dense entries, the
// threads' captures), the match's captures and the closure's stack.
func vmStateWords(n, c int) int {
	return 2*(1+2*n+n*c) + c + 2*(n+2)
}

// replaceCounts scans a replacement as eval.AppendReplacement expands it:
// the bytes it writes itself, the group references (\1 to \9, \&), and
// the highest group it names.
func replaceCounts(rep string) (lits, refs, top int) {
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		if c != '\\' || i+1 == len(rep) {
			lits++
			continue
		}
		switch n := rep[i+1]; {
		case n >= '1' && n <= '9':
			refs++
			top = max(top, int(n-'0'))
			i++
		case n == '&':
			refs++
			i++
		case n == '\\':
			lits++
			i++
		default:
			lits++
		}
	}
	return
}

// compileRegexVM compiles regexp_replace(x, pat, rep, ...) for strings
// of at most ws bytes: flags (i, c, g, s), from the character from and
// the nth match (0: every match; 1: the first, the default without g).
func compileRegexVM(pat, rep string, fold bool, from, nth, ws int) (*regexVM, error) {
	re, err := eval.CompilePGRegex(pat, fold)
	if err != nil {
		return nil, unsupported("a regular expression that does not compile") // the host step raises its error row by row
	}
	flags := ""
	if fold {
		flags = "i"
	}
	prog, err := regexProg(pat, flags)
	if err != nil {
		return nil, unsupported("a regular expression that does not compile")
	}
	n := len(prog.Inst)
	if n > maxVMInst {
		return nil, unsupported("regular expressions of more than %d instructions in regexp_replace", maxVMInst)
	}
	lits, refs, top := replaceCounts(rep)
	groups := re.NumGroups()
	ncap := 2 * (min(top, groups) + 1)
	if ncap > maxVMCap {
		return nil, unsupported("regexp_replace keeping more than %d groups", maxVMCap/2-1)
	}
	// the result's bound: a match of m bytes becomes at most lits +
	// refs*m bytes, and matches do not overlap; with every match
	// replaced there are at most ws+1 of them
	outW := ws + lits + max(0, refs-1)*ws
	if nth == 0 {
		outW = ws + (ws+1)*lits + max(0, refs-1)*ws
	}
	var runeIns []int
	for pc, in := range prog.Inst {
		switch in.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			runeIns = append(runeIns, pc)
		}
	}
	cl, err := classify(prog, runeIns)
	if err != nil {
		return nil, err
	}
	wpr := (cl.ncls + 31) / 32
	nr := len(cl.rangeLo)
	size := 4*vhWords + 256 + 6*nr + 2 + 8*n + 4*wpr*len(runeIns) + len(rep)
	if size > maxVMBlob {
		return nil, unsupported("regular expressions whose tables need more than %d bytes", maxVMBlob)
	}
	never := prog.StartCond() == ^syntax.EmptyOp(0)
	h := make([]uint32, vhWords)
	h[vhInst], h[vhCap], h[vhStart] = uint32(n), uint32(ncap), uint32(prog.Start)
	h[vhAnchor] = b2u(prog.StartCond()&syntax.EmptyBeginText != 0)
	h[vhLongest], h[vhCtx] = b2u(re.Longest()), b2u(re.Context())
	h[vhNth], h[vhFrom], h[vhNr], h[vhWpr] = uint32(nth), uint32(from), uint32(nr), uint32(wpr)
	h[vhRep], h[vhOutW], h[vhGroups], h[vhNever] = uint32(len(rep)), uint32(outW), uint32(groups), b2u(never)
	b := make([]byte, 0, size)
	for _, v := range h {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for _, c := range cl.ascii {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	for _, lo := range cl.rangeLo {
		b = binary.LittleEndian.AppendUint32(b, lo)
	}
	for _, c := range cl.rangeCls {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	if nr%2 == 1 {
		b = append(b, 0, 0)
	}
	row := map[int]int{}
	for k, pc := range runeIns {
		row[pc] = k
	}
	for pc, in := range prog.Inst {
		op, arg := vmFail, uint32(0)
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			op, arg = vmAlt, in.Arg
		case syntax.InstCapture:
			op, arg = vmCap, in.Arg
		case syntax.InstEmptyWidth:
			op, arg = vmEmpty, in.Arg
		case syntax.InstMatch:
			op = vmMatch
		case syntax.InstNop:
			op = vmNop
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			op, arg = vmRune, uint32(row[pc])
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(op)|in.Out<<16)
		b = binary.LittleEndian.AppendUint32(b, arg)
	}
	bits := make([]uint32, wpr)
	for _, pc := range runeIns {
		clear(bits)
		for c, r := range cl.rep {
			if matchRune(&prog.Inst[pc], r) {
				bits[c/32] |= 1 << (c % 32)
			}
		}
		for _, w := range bits {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
	}
	b = append(b, rep...)
	return &regexVM{blob: b, outW: outW}, nil
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// regexpReplace compiles regexp_replace(x, pat, rep [, flags]) and
// regexp_replace(x, pat, rep, start [, n [, flags]]) with constant
// arguments after x. Anything the kernel cannot do exactly as the CPU
// backend does (a pattern or flags that raise an error, a start or n the
// CPU rejects row by row) is refused, and runs as a host step.
func (c *compiler) regexpReplace(e *engine.HostFunc, mask int32) (val, error) {
	args := e.Args
	if len(args) < 3 || len(args) > 6 {
		return val{}, unsupported("regexp_replace with %d arguments", len(args))
	}
	ks := make([]*engine.Const, len(args))
	for i, a := range args[1:] {
		k, ok := a.(*engine.Const)
		if !ok {
			return val{}, unsupported("regexp_replace whose pattern, replacement or flags are not constants")
		}
		ks[i+1] = k
	}
	x, err := c.compile(args[0], mask)
	if err != nil {
		return val{}, err
	}
	if !isStr(x.cls) {
		return val{}, unsupported("regexp_replace of %s", x.t)
	}
	for _, k := range ks[1:] {
		if k.Null {
			return c.constant(&engine.Const{T: engine.Text, Null: true})
		}
	}
	flags := ""
	start, nth := 1, -1
	extended := len(args) >= 5 || len(args) == 4 && !ks[3].T.IsString() && ks[3].T.Kind != engine.KindUnknown
	switch {
	case len(args) == 4 && !extended:
		flags = ks[3].S
	case extended:
		start = int(ks[3].I)
		if start <= 0 || start > 1<<30 {
			return val{}, unsupported("regexp_replace with this start")
		}
		if len(args) > 4 {
			if ks[4].I < 0 || ks[4].I > 1<<30 {
				return val{}, unsupported("regexp_replace with this n") // the CPU raises 22023 row by row
			}
			nth = int(ks[4].I)
		}
		if len(args) > 5 {
			flags = ks[5].S
		}
	}
	opts, err := eval.ParseRegexOpts(flags)
	if err != nil {
		return val{}, unsupported("regexp_replace with these flags")
	}
	if nth < 0 {
		nth = 1
		if opts.Global {
			nth = 0
		}
	}
	vm, err := compileRegexVM(ks[1].S, ks[2].S, opts.Fold, start-1, nth, x.width)
	if err != nil {
		return val{}, err
	}
	n, cp := int(binary.LittleEndian.Uint32(vm.blob[4*vhInst:])), int(binary.LittleEndian.Uint32(vm.blob[4*vhCap:]))
	// the result, then the VM's words on a 4-byte boundary
	slot, err := c.p.strSlot(vm.outW + 3 + 4*vmStateWords(n, cp))
	if err != nil {
		return val{}, err
	}
	p := c.p
	for len(p.strPool)%4 != 0 {
		p.strPool = append(p.strPool, 0)
	}
	p.consts = append(p.consts, qConst{Lo: int64(len(p.strPool)), Hi: int64(len(vm.blob))})
	p.strConst = append(p.strConst, len(p.consts)-1)
	p.strPool = append(p.strPool, vm.blob...)
	k, err := p.emit(opConst, int32(len(p.consts)-1), 0, 0, 0, 0)
	if err != nil {
		return val{}, err
	}
	out := val{cls: clsStr, t: engine.Text, width: vm.outW}
	out.reg, err = p.emit(opRegexRep, x.reg, k, 0, mask, int64(slot))
	return out, err
}

// The Go twin of the kernel: the same loops over the same blob and the
// same word layout of the state.

type vmTwin struct {
	blob          []byte
	n, c, nr, wpr int
	longest       bool
	asciiOff      int
	loOff, clsOff int
	insOff        int
	rowsOff       int
	repOff        int
	st            []uint32 // the state words
	q             [2]int   // offsets of the queues in st
	mcap, stk     int
}

func (m *vmTwin) h(i int) uint32 { return binary.LittleEndian.Uint32(m.blob[4*i:]) }

func newVMTwin(blob []byte) *vmTwin {
	m := &vmTwin{blob: blob}
	m.n, m.c, m.nr, m.wpr = int(m.h(vhInst)), int(m.h(vhCap)), int(m.h(vhNr)), int(m.h(vhWpr))
	m.longest = m.h(vhLongest) != 0
	m.asciiOff = 4 * vhWords
	m.loOff = m.asciiOff + 256
	m.clsOff = m.loOff + 4*m.nr
	m.insOff = m.clsOff + 2*(m.nr+m.nr%2)
	m.rowsOff = m.insOff + 8*m.n
	nrows := 0
	for pc := 0; pc < m.n; pc++ {
		if m.u32(m.insOff+8*pc)&0xff == vmRune {
			nrows++
		}
	}
	m.repOff = m.rowsOff + 4*m.wpr*nrows
	m.st = make([]uint32, vmStateWords(m.n, m.c))
	qw := 1 + 2*m.n + m.n*m.c
	m.q = [2]int{0, qw}
	m.mcap = 2 * qw
	m.stk = m.mcap + m.c
	for i := range m.st {
		m.st[i] = 0xdeadbeef // poisoned, as scratch is
	}
	return m
}

func (m *vmTwin) u32(off int) uint32 { return binary.LittleEndian.Uint32(m.blob[off:]) }

// class is the character class of rune r (>= 0).
func (m *vmTwin) class(r rune) uint32 {
	if r < 0x80 {
		return uint32(binary.LittleEndian.Uint16(m.blob[m.asciiOff+2*int(r):]))
	}
	a, b := 0, m.nr-1
	for a < b {
		mid := (a + b + 1) >> 1
		if rune(m.u32(m.loOff+4*mid)) <= r {
			a = mid
		} else {
			b = mid - 1
		}
	}
	return uint32(binary.LittleEndian.Uint16(m.blob[m.clsOff+2*a:]))
}

// vmContext is syntax.EmptyOpContext(r1, r2) (-1: the edge of the text).
func vmContext(r1, r2 rune) uint32 {
	op := uint32(syntax.EmptyNoWordBoundary)
	var boundary uint32
	switch {
	case syntax.IsWordChar(r1):
		boundary = 1
	case r1 == '\n':
		op |= uint32(syntax.EmptyBeginLine)
	case r1 < 0:
		op |= uint32(syntax.EmptyBeginText | syntax.EmptyBeginLine)
	}
	switch {
	case syntax.IsWordChar(r2):
		boundary ^= 1
	case r2 == '\n':
		op |= uint32(syntax.EmptyEndLine)
	case r2 < 0:
		op |= uint32(syntax.EmptyEndText | syntax.EmptyEndLine)
	}
	if boundary != 0 {
		op ^= uint32(syntax.EmptyWordBoundary | syntax.EmptyNoWordBoundary)
	}
	return op
}

// add is exec.go's machine.add with an explicit stack: pc and what it
// leads to join queue q, threads at rune and match instructions taking
// a copy of the captures at st[cp:].
func (m *vmTwin) add(q int, pc0 uint32, pos int, cp int, cond uint32) {
	n := m.n
	st := m.st
	sp := m.stk
	st[sp], st[sp+1] = pc0, 0
	sp += 2
	for sp > m.stk {
		sp -= 2
		e, v := st[sp], st[sp+1]
		if e&0x80000000 != 0 { // a capture to restore
			st[cp+int(e&0xffff)] = v
			continue
		}
		pc := e
		for pc != 0 {
			j := st[q+1+int(pc)]
			if j < st[q] && st[q+1+n+int(j)]&0xffff == pc {
				break
			}
			j = st[q]
			st[q]++
			st[q+1+n+int(j)] = pc
			st[q+1+int(pc)] = j
			w0, arg := m.u32(m.insOff+8*int(pc)), m.u32(m.insOff+8*int(pc)+4)
			op, out := w0&0xff, w0>>16
			switch op {
			case vmAlt:
				st[sp], st[sp+1] = arg, 0
				sp += 2
				pc = out
				continue
			case vmCap:
				if int(arg) < m.c {
					st[sp], st[sp+1] = 0x80000000|arg, st[cp+int(arg)]
					sp += 2
					st[cp+int(arg)] = uint32(int32(pos))
				}
				pc = out
				continue
			case vmEmpty:
				if arg&^cond == 0 {
					pc = out
					continue
				}
			case vmNop:
				pc = out
				continue
			case vmMatch, vmRune:
				st[q+1+n+int(j)] |= 0x80000000
				copy(st[q+1+2*n+int(j)*m.c:][:m.c], st[cp:cp+m.c])
			}
			break
		}
	}
}

// step is exec.go's machine.step: the threads of rq in priority order
// read character c at pos and move to nq at npos.
func (m *vmTwin) step(rq, nq int, pos, npos int, c rune, ncond uint32, matched *bool) {
	n, st := m.n, m.st
	ln := st[rq]
	for j := uint32(0); j < ln; j++ {
		d := st[rq+1+n+int(j)]
		if d&0x80000000 == 0 {
			continue
		}
		tc := rq + 1 + 2*n + int(j)*m.c
		if m.longest && *matched && int32(st[m.mcap]) < int32(st[tc]) {
			continue
		}
		pc := int(d & 0xffff)
		w0 := m.u32(m.insOff + 8*pc)
		if w0&0xff == vmMatch {
			if !m.longest || !*matched || int32(st[m.mcap+1]) < int32(pos) {
				st[tc+1] = uint32(int32(pos))
				copy(st[m.mcap:m.mcap+m.c], st[tc:tc+m.c])
			}
			*matched = true
			if !m.longest {
				break
			}
			continue
		}
		if c >= 0 {
			cls := m.class(c)
			row := int(m.u32(m.insOff + 8*pc + 4))
			if m.u32(m.rowsOff+4*(row*m.wpr+int(cls/32)))>>(cls%32)&1 != 0 {
				m.add(nq, w0>>16, npos, tc, ncond)
			}
		}
	}
	st[rq] = 0
}

// runeAt is exec.go's inputBytes.step: the character at pos and its
// width, -1 and 0 at the end.
func runeAt(s []byte, pos int) (rune, int) {
	if pos < len(s) {
		return dfaRune(s[pos:])
	}
	return -1, 0
}

// search is exec.go's machine.match from pos: whether s has a match
// starting at pos or later, its captures in st[mcap:].
func (m *vmTwin) search(s []byte, pos int) bool {
	st := m.st
	matched := false
	for k := 0; k < m.c; k++ {
		st[m.mcap+k] = 0xffffffff
	}
	rq, nq := m.q[0], m.q[1]
	st[rq], st[nq] = 0, 0
	anchored := m.h(vhAnchor) != 0
	r, w := runeAt(s, pos)
	r1, w1 := rune(-1), 0
	if r >= 0 {
		r1, w1 = runeAt(s, pos+w)
	}
	prev := rune(-1)
	if pos > 0 {
		prev, _ = utf8.DecodeLastRune(s[:pos])
	}
	flag := vmContext(prev, r)
	for {
		if st[rq] == 0 {
			if anchored && pos != 0 || matched {
				break
			}
		}
		if !matched && (pos == 0 || !anchored) {
			st[m.mcap] = uint32(int32(pos))
			m.add(rq, m.h(vhStart), pos, m.mcap, flag)
		}
		flag = vmContext(r, r1)
		m.step(rq, nq, pos, pos+w, r, flag, &matched)
		if w == 0 {
			break
		}
		pos += w
		r, w = r1, w1
		if r >= 0 {
			r1, w1 = runeAt(s, pos+w)
		}
		rq, nq = nq, rq
	}
	return matched
}

// expand is eval.AppendReplacement over the match in st[mcap:], its
// positions shifted by base.
func (m *vmTwin) expand(dst, src []byte, base int) []byte {
	rep := m.blob[m.repOff : m.repOff+int(m.h(vhRep))]
	groups := int(m.h(vhGroups))
	capAt := func(k int) int { return int(int32(m.st[m.mcap+k])) }
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		if c != '\\' || i+1 == len(rep) {
			dst = append(dst, c)
			continue
		}
		switch n := rep[i+1]; {
		case n >= '1' && n <= '9':
			k := int(n - '0')
			if k <= groups && 2*k < m.c && capAt(2*k) >= 0 {
				dst = append(dst, src[base+capAt(2*k):base+capAt(2*k+1)]...)
			}
			i++
		case n == '&':
			dst = append(dst, src[base+capAt(0):base+capAt(1)]...)
			i++
		case n == '\\':
			dst = append(dst, '\\')
			i++
		default:
			dst = append(dst, '\\')
		}
	}
	return dst
}

// vmReplace is OP_REGEXREP's Go twin: regexp_replace of s by the blob's
// program and replacement, as query's regexpReplace computes it.
func vmReplace(blob, s []byte) []byte {
	m := newVMTwin(blob)
	var out []byte
	if m.h(vhNever) != 0 {
		return append(out, s...)
	}
	nth, count, prev := int(m.h(vhNth)), 0, 0
	from := 0
	for k := int(m.h(vhFrom)); k > 0 && from < len(s); k-- {
		from += dfaRuneW(s[from:])
	}
	if m.h(vhCtx) == 0 {
		// PostgreSQL's rule: each search starts afresh at the end of the
		// last match, one character further after an empty one
		for pos := from; pos <= len(s); {
			if !m.search(s[pos:], 0) {
				break
			}
			m0, m1 := pos+int(int32(m.st[m.mcap])), pos+int(int32(m.st[m.mcap+1]))
			count++
			if nth == 0 || count == nth {
				out = append(out, s[prev:m0]...)
				out = m.expand(out, s, pos)
				prev = m1
				if nth > 0 {
					break
				}
			}
			if m1 > m0 {
				pos = m1
				continue
			}
			if m1 >= len(s) {
				break
			}
			pos = m1 + dfaRuneW(s[m1:])
		}
	} else {
		// Go's FindAll over the whole text, for assertions that look back
		prevEnd := -1
		for pos := 0; pos <= len(s); {
			if !m.search(s, pos) {
				break
			}
			m0, m1 := int(int32(m.st[m.mcap])), int(int32(m.st[m.mcap+1]))
			accept := true
			if m1 == pos {
				if m0 == prevEnd {
					accept = false
				}
				if pos < len(s) {
					pos += dfaRuneW(s[pos:])
				} else {
					pos++
				}
			} else {
				pos = m1
			}
			prevEnd = m1
			if accept && m0 >= from {
				count++
				if nth == 0 || count == nth {
					out = append(out, s[prev:m0]...)
					out = m.expand(out, s, 0)
					prev = m1
					if nth > 0 {
						break
					}
				}
			}
		}
	}
	return append(out, s[prev:]...)
}
