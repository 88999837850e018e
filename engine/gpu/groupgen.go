package gpu

import (
	"math/big"

	"github.com/gpusql/gpusql/engine"
)

// groupGen writes the grouped aggregation of a fused kernel. Three levels:
//
//  1. Each thread keeps a few groups in registers ("lines": the packed key
//     and the group's accumulators). A row whose key is in a line adds to
//     it with no memory traffic; a new key evicts a line round-robin.
//  2. An evicted line, and every line at the end, is added into a
//     per-block hash table in shared memory (atomics).
//  3. At the end each block merges its table into a global hash table of
//     exact 192-bit sums (atomics), which the host reads.
//
// Aggregates that accumulate the same thing share accumulators: one count
// per distinct NULL predicate of the argument (count(*), and every
// aggregate over a NOT NULL argument, count the same rows), one sum per
// distinct argument, one min/max per argument and direction.
type groupGen struct {
	g      *ptxGen
	qa     []qAgg
	cnts   []string // NULL predicate of each count ("" none)
	sums   []int32  // argument register of each sum
	mms    []int32  // argument register of each min/max
	mmMin  []bool
	aggCnt []int // per aggregate: its count, sum, min/max (-1 none)
	aggSum []int
	aggMM  []int
	wide   bool // per-thread sums need 128 bits
	lines  int
	slots  int // shared hash slots
	// shared layout per slot: counts (8 B), sums (16 B: 128-bit), min/max (8 B)
	offSum, offMM, slotBytes int
	sbase, sacc              string
	line                     []lineRegs
	vic                      string
}

type lineRegs struct {
	key          string
	cnt, sum, mm []string
	sumHi        []string
}

func newGroupGen(g *ptxGen, qa []qAgg, argKeys []string, rowsPerThread int64) *groupGen {
	gg := &groupGen{g: g, qa: qa}
	cntIdx, sumIdx, mmIdx := map[string]int{}, map[string]int{}, map[string]int{}
	maxAbs := new(big.Int)
	for a, q := range qa {
		n := ""
		if q.Reg >= 0 {
			n = g.nul[q.Reg]
		}
		c, ok := cntIdx[n]
		if !ok {
			c = len(gg.cnts)
			cntIdx[n] = c
			gg.cnts = append(gg.cnts, n)
		}
		gg.aggCnt = append(gg.aggCnt, c)
		s, m := -1, -1
		if q.Reg >= 0 && q.Fn != int32(engine.AggCount) {
			switch q.Cls {
			case accInt:
				k := argKeys[a]
				var ok bool
				if s, ok = sumIdx[k]; !ok {
					s = len(gg.sums)
					sumIdx[k] = s
					gg.sums = append(gg.sums, q.Reg)
					r := g.rng[q.Reg].abs()
					if r.hi.Cmp(maxAbs) > 0 {
						maxAbs = r.hi
					}
				}
			default:
				k := argKeys[a] + "|" + minMax(q)
				var ok bool
				if m, ok = mmIdx[k]; !ok {
					m = len(gg.mms)
					mmIdx[k] = m
					gg.mms = append(gg.mms, q.Reg)
					gg.mmMin = append(gg.mmMin, q.Fn == int32(engine.AggMin))
				}
			}
		}
		gg.aggSum = append(gg.aggSum, s)
		gg.aggMM = append(gg.aggMM, m)
	}
	bound := new(big.Int).Mul(maxAbs, big.NewInt(rowsPerThread))
	gg.wide = bound.Cmp(maxI64) >= 0
	per := 1 + len(gg.cnts) + len(gg.sums) + len(gg.mms)
	if gg.wide {
		per += len(gg.sums)
	}
	switch {
	case per <= 10:
		gg.lines = 8
	case per <= 20:
		gg.lines = 4
	default:
		gg.lines = 2
	}
	gg.offSum = 8 * len(gg.cnts)
	gg.offMM = gg.offSum + 16*len(gg.sums)
	gg.slotBytes = gg.offMM + 8*len(gg.mms)
	s := fusedMaxSlots
	for s > 16 && s*(8+gg.slotBytes) > fusedShared {
		s /= 2
	}
	if s*(8+gg.slotBytes) <= fusedShared {
		gg.slots = s
	}
	for j := 0; j < gg.lines; j++ {
		l := lineRegs{key: g.r64()}
		for range gg.cnts {
			l.cnt = append(l.cnt, g.r64())
		}
		for range gg.sums {
			l.sum = append(l.sum, g.r64())
			if gg.wide {
				l.sumHi = append(l.sumHi, g.r64())
			}
		}
		for range gg.mms {
			l.mm = append(l.mm, g.r64())
		}
		gg.line = append(gg.line, l)
	}
	gg.vic = g.r64()
	gg.sbase, gg.sacc = g.r64(), g.r64()
	return gg
}

func (gg *groupGen) mmIdentity(m int) int64 {
	if gg.mmMin[m] {
		return 1<<63 - 1
	}
	return -1 << 63
}

// setup clears the shared table and the lines (before the row loop).
func (gg *groupGen) setup(zero, tid, ntid string) {
	g := gg.g
	g.f("mov.u64 %s, smem;", gg.sbase)
	g.f("add.u64 %s, %s, %d;", gg.sacc, gg.sbase, gg.slots*8)
	em := g.imm(-1)
	s, lp, done := g.r64(), g.label(), g.label()
	g.f("cvt.u64.u32 %s, %s;", s, tid)
	g.body.WriteString(lp + ":\n")
	pd := g.pred()
	g.f("setp.ge.u64 %s, %s, %d;", pd, s, gg.slots)
	g.f("@%s bra %s;", pd, done)
	a := g.r64()
	g.f("mad.lo.u64 %s, %s, 8, %s;", a, s, gg.sbase)
	g.f("st.shared.u64 [%s], %s;", a, em)
	g.f("mad.lo.u64 %s, %s, %d, %s;", a, s, gg.slotBytes, gg.sacc)
	for off := 0; off < gg.offMM; off += 8 {
		g.f("st.shared.u64 [%s+%d], %s;", a, off, zero)
	}
	for m := range gg.mms {
		id := g.imm(gg.mmIdentity(m))
		g.f("st.shared.u64 [%s+%d], %s;", a, gg.offMM+8*m, id)
	}
	nt := g.r64()
	g.f("cvt.u64.u32 %s, %s;", nt, ntid)
	g.f("add.u64 %s, %s, %s;", s, s, nt)
	g.f("bra.uni %s;", lp)
	g.body.WriteString(done + ":\n")
	g.f("bar.sync 0;")
	for _, l := range gg.line {
		g.f("mov.b64 %s, -1;", l.key)
		for _, r := range l.cnt {
			g.f("mov.b64 %s, 0;", r)
		}
		for k, r := range l.sum {
			g.f("mov.b64 %s, 0;", r)
			if gg.wide {
				g.f("mov.b64 %s, 0;", l.sumHi[k])
			}
		}
		for m, r := range l.mm {
			g.f("mov.b64 %s, %d;", r, gg.mmIdentity(m))
		}
	}
	g.f("mov.b64 %s, 0;", gg.vic)
}

// row adds the current row (key packed, filter passed) to the lines.
func (gg *groupGen) row(key, pass, zero, flag, next string) {
	g := gg.g
	// this row's contributions
	ones := make([]string, len(gg.cnts))
	for c, n := range gg.cnts {
		ones[c] = g.r64()
		if n == "" {
			g.f("mov.b64 %s, 1;", ones[c])
		} else {
			g.f("selp.b64 %s, 0, 1, %s;", ones[c], n)
		}
	}
	xs := make([]string, len(gg.sums))
	xhi := make([]string, len(gg.sums))
	for s, r := range gg.sums {
		xs[s] = g.val[r]
		if n := g.nul[r]; n != "" {
			xs[s] = g.r64()
			g.f("selp.b64 %s, 0, %s, %s;", xs[s], g.val[r], n)
		}
		if gg.wide {
			xhi[s] = g.r64()
			g.f("shr.s64 %s, %s, 63;", xhi[s], xs[s])
		}
	}
	mmOK := make([]string, len(gg.mms))
	mmNew := make([]string, len(gg.mms))
	for m, r := range gg.mms {
		mmOK[m] = pass
		mmNew[m] = g.val[r]
		if n := g.nul[r]; n != "" {
			mmOK[m] = g.not(n)
			mmNew[m] = g.r64()
			g.f("selp.b64 %s, %d, %s, %s;", mmNew[m], gg.mmIdentity(m), g.val[r], n)
		}
	}
	// hits
	hit := ""
	for _, l := range gg.line {
		p := g.pred()
		g.f("setp.eq.u64 %s, %s, %s;", p, l.key, key)
		for c := range gg.cnts {
			g.f("@%s add.u64 %s, %s, %s;", p, l.cnt[c], l.cnt[c], ones[c])
		}
		for s := range gg.sums {
			if gg.wide {
				g.f("@%s add.cc.u64 %s, %s, %s;", p, l.sum[s], l.sum[s], xs[s])
				g.f("@%s addc.u64 %s, %s, %s;", p, l.sumHi[s], l.sumHi[s], xhi[s])
			} else {
				g.f("@%s add.s64 %s, %s, %s;", p, l.sum[s], l.sum[s], xs[s])
			}
		}
		for m := range gg.mms {
			q := g.and(p, mmOK[m])
			op := "max"
			if gg.mmMin[m] {
				op = "min"
			}
			g.f("@%s %s.s64 %s, %s, %s;", q, op, l.mm[m], l.mm[m], g.val[gg.mms[m]])
		}
		hit = g.or(hit, p)
	}
	g.f("@%s bra %s;", hit, next)
	// miss: evict line vic, then put the row in it
	is := make([]string, len(gg.line))
	for j := range gg.line {
		is[j] = g.pred()
		g.f("setp.eq.u64 %s, %s, %d;", is[j], gg.vic, j)
	}
	pick := func(field func(l lineRegs) string) string {
		t := g.r64()
		g.f("mov.b64 %s, %s;", t, field(gg.line[0]))
		for j := 1; j < len(gg.line); j++ {
			g.f("selp.b64 %s, %s, %s, %s;", t, field(gg.line[j]), t, is[j])
		}
		return t
	}
	v := lineRegs{key: pick(func(l lineRegs) string { return l.key })}
	for c := range gg.cnts {
		v.cnt = append(v.cnt, pick(func(l lineRegs) string { return l.cnt[c] }))
	}
	for s := range gg.sums {
		v.sum = append(v.sum, pick(func(l lineRegs) string { return l.sum[s] }))
		if gg.wide {
			v.sumHi = append(v.sumHi, pick(func(l lineRegs) string { return l.sumHi[s] }))
		}
	}
	for m := range gg.mms {
		v.mm = append(v.mm, pick(func(l lineRegs) string { return l.mm[m] }))
	}
	replace := g.label()
	pe := g.pred()
	g.f("setp.eq.u64 %s, %s, -1;", pe, v.key)
	g.f("@%s bra %s;", pe, replace)
	gg.flushLine(v, zero, flag, replace)
	g.body.WriteString(replace + ":\n")
	for j, l := range gg.line {
		p := is[j]
		g.f("@%s mov.b64 %s, %s;", p, l.key, key)
		for c := range gg.cnts {
			g.f("@%s mov.b64 %s, %s;", p, l.cnt[c], ones[c])
		}
		for s := range gg.sums {
			g.f("@%s mov.b64 %s, %s;", p, l.sum[s], xs[s])
			if gg.wide {
				g.f("@%s mov.b64 %s, %s;", p, l.sumHi[s], xhi[s])
			}
		}
		for m := range gg.mms {
			g.f("@%s mov.b64 %s, %s;", p, l.mm[m], mmNew[m])
		}
	}
	g.f("add.u64 %s, %s, 1;", gg.vic, gg.vic)
	g.f("and.b64 %s, %s, %d;", gg.vic, gg.vic, len(gg.line)-1)
}

// flushLine adds a line into the shared table; a full table sets the flag.
func (gg *groupGen) flushLine(l lineRegs, zero, flag, fail string) {
	g := gg.g
	slot := g.probe(l.key, gg.sbase, gg.slots, "shared", flag, fail)
	b := g.r64()
	g.f("mad.lo.u64 %s, %s, %d, %s;", b, slot, gg.slotBytes, gg.sacc)
	for c := range gg.cnts {
		g.f("red.shared.add.u64 [%s+%d], %s;", b, 8*c, l.cnt[c])
	}
	for s := range gg.sums {
		hi := g.r64()
		if gg.wide {
			g.f("mov.b64 %s, %s;", hi, l.sumHi[s])
		} else {
			g.f("shr.s64 %s, %s, 63;", hi, l.sum[s])
		}
		old, t, c := g.r64(), g.r64(), g.r64()
		g.f("atom.shared.add.u64 %s, [%s+%d], %s;", old, b, gg.offSum+16*s, l.sum[s])
		g.f("add.cc.u64 %s, %s, %s;", t, old, l.sum[s])
		g.f("addc.u64 %s, %s, %s;", c, zero, zero)
		g.f("add.u64 %s, %s, %s;", hi, hi, c)
		g.f("red.shared.add.u64 [%s+%d], %s;", b, gg.offSum+16*s+8, hi)
	}
	for m := range gg.mms {
		op := "max"
		if gg.mmMin[m] {
			op = "min"
		}
		g.f("red.shared.%s.s64 [%s+%d], %s;", op, b, gg.offMM+8*m, l.mm[m])
	}
}

// finish flushes the lines, then merges the block's table into the global
// one (after the row loop).
func (gg *groupGen) finish(zero, flag, gkeys, gacc, tid, ntid string, gslots int) {
	g := gg.g
	for _, l := range gg.line {
		skip := g.label()
		pe := g.pred()
		g.f("setp.eq.u64 %s, %s, -1;", pe, l.key)
		g.f("@%s bra %s;", pe, skip)
		gg.flushLine(l, zero, flag, skip)
		g.body.WriteString(skip + ":\n")
	}
	g.f("bar.sync 0;")
	s, lp, done, skip := g.r64(), g.label(), g.label(), g.label()
	g.f("cvt.u64.u32 %s, %s;", s, tid)
	g.body.WriteString(lp + ":\n")
	pd := g.pred()
	g.f("setp.ge.u64 %s, %s, %d;", pd, s, gg.slots)
	g.f("@%s bra %s;", pd, done)
	ka, key := g.r64(), g.r64()
	g.f("mad.lo.u64 %s, %s, 8, %s;", ka, s, gg.sbase)
	g.f("ld.shared.u64 %s, [%s];", key, ka)
	pem := g.pred()
	g.f("setp.eq.u64 %s, %s, -1;", pem, key)
	g.f("@%s bra %s;", pem, skip)
	gs := g.probe(key, gkeys, gslots, "global", flag, skip)
	sa, ga := g.r64(), g.r64()
	g.f("mad.lo.u64 %s, %s, %d, %s;", sa, s, gg.slotBytes, gg.sacc)
	g.f("mad.lo.u64 %s, %s, %d, %s;", ga, gs, 32*len(gg.qa), gacc)
	for a, q := range gg.qa {
		cnt := g.r64()
		g.f("ld.shared.u64 %s, [%s+%d];", cnt, sa, 8*gg.aggCnt[a])
		g.f("red.global.add.u64 [%s+%d], %s;", ga, 32*a, cnt)
		if s := gg.aggSum[a]; s >= 0 {
			lo, hi, ad := g.r64(), g.r64(), g.r64()
			g.f("ld.shared.u64 %s, [%s+%d];", lo, sa, gg.offSum+16*s)
			g.f("ld.shared.u64 %s, [%s+%d];", hi, sa, gg.offSum+16*s+8)
			g.f("add.u64 %s, %s, %d;", ad, ga, 32*a)
			g.add192(ad, lo, hi, zero)
		}
		if m := gg.aggMM[a]; m >= 0 {
			v := g.r64()
			g.f("ld.shared.u64 %s, [%s+%d];", v, sa, gg.offMM+8*m)
			g.f("red.global.%s.s64 [%s+%d], %s;", minMax(q), ga, 32*a+8, v)
		}
	}
	g.body.WriteString(skip + ":\n")
	nt := g.r64()
	g.f("cvt.u64.u32 %s, %s;", nt, ntid)
	g.f("add.u64 %s, %s, %s;", s, s, nt)
	g.f("bra.uni %s;", lp)
	g.body.WriteString(done + ":\n")
}
